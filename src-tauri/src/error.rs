//! The app's one error type. Over IPC every error is `{code, message}`; the UI branches
//! on `code` and shows `message`.

use serde::{Serialize, Serializer};
use ts_rs::TS;
use weir_core::{Code, CoreError};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Core(#[from] CoreError),
    #[error("the local server failed: {0}")]
    Server(#[from] weir_server::Error),
    #[error("{0}")]
    InvalidInput(String),
    #[error("no account is selected: add one or start the demo")]
    NoActiveAccount,
    #[error("the local server is not running")]
    ServerUnavailable,
    #[error("{0}")]
    Internal(String),
}

impl AppError {
    pub fn code(&self) -> Code {
        match self {
            Self::Core(error) => error.code(),
            Self::Server(_) | Self::ServerUnavailable => Code::ServerUnavailable,
            Self::InvalidInput(_) => Code::InvalidInput,
            Self::NoActiveAccount => Code::NotFound,
            Self::Internal(_) => Code::Internal,
        }
    }
}

/// What every command rejects with: `code` for the UI to branch on, `message` to show.
#[derive(Debug, Clone, Serialize, TS)]
pub struct IpcError {
    pub code: Code,
    pub message: String,
}

impl From<&AppError> for IpcError {
    fn from(error: &AppError) -> Self {
        Self {
            code: error.code(),
            message: error.to_string(),
        }
    }
}

impl Serialize for AppError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        IpcError::from(self).serialize(serializer)
    }
}

pub type AppResult<T> = Result<T, AppError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_serialize_as_code_and_message() {
        let json = serde_json::to_value(AppError::InvalidInput("bad url".into()));
        assert_eq!(
            json.ok(),
            Some(serde_json::json!({"code": "invalid_input", "message": "bad url"}))
        );
        let json = serde_json::to_value(AppError::ServerUnavailable);
        assert_eq!(
            json.ok().map(|value| value["code"].clone()),
            Some(serde_json::json!("server_unavailable"))
        );
    }
}
