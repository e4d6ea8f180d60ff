//! The app's one error type. Over IPC every error is `{code, message}`; the UI branches
//! on `code` and shows `message`.

use serde::ser::{Serialize, SerializeStruct, Serializer};
use ts_rs::TS;
use weir_core::CoreError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Core(#[from] CoreError),
    #[error("the embedded server failed: {0}")]
    Server(#[from] weir_server::Error),
    #[error("{0}")]
    InvalidInput(String),
    #[error("no account is selected: add one or start the demo")]
    NoActiveAccount,
    #[error("the embedded server is not running")]
    ServerUnavailable,
    #[error("{0}")]
    Internal(String),
}

impl AppError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::Core(error) => error.code().as_str(),
            Self::Server(_) | Self::ServerUnavailable => "server_unavailable",
            Self::InvalidInput(_) => "invalid_input",
            Self::NoActiveAccount => "not_found",
            Self::Internal(_) => "internal",
        }
    }
}

/// The shape every command rejects with (for TypeScript).
#[derive(Debug, Clone, serde::Serialize, TS)]
#[ts(rename = "IpcError")]
pub struct IpcErrorShape {
    pub code: String,
    pub message: String,
}

impl Serialize for AppError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("IpcError", 2)?;
        state.serialize_field("code", self.code())?;
        state.serialize_field("message", &self.to_string())?;
        state.end()
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
    }
}
