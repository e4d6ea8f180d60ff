//! The app's one error type. Over IPC every error is `{code, message}`; the UI branches
//! on `code` and shows `message`.

use serde::{Serialize, Serializer};
use ts_rs::TS;
use weir_core::{CoreError, IpcErrorCode};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Core(#[from] CoreError),
    #[error("the local server failed: {0}")]
    Server(#[from] weir_server::Error),
    #[error("{0}")]
    InvalidInput(String),
    /// Something the user named (an apply in the history) is not there.
    #[error("{0}")]
    NotFound(String),
    /// Another operation of the same kind runs (only one apply at a time).
    #[error("{0}")]
    Busy(String),
    #[error("no account is selected: add one or start the demo")]
    NoActiveAccount,
    #[error("the local server is not running")]
    ServerUnavailable,
    /// A file the app reads or writes (its data dir, a CSV, a zuliprc the user saves).
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Internal(String),
}

impl AppError {
    pub fn code(&self) -> IpcErrorCode {
        match self {
            Self::Core(error) => error.code(),
            Self::Server(_) | Self::ServerUnavailable => IpcErrorCode::ServerUnavailable,
            Self::InvalidInput(_) => IpcErrorCode::InvalidInput,
            Self::NotFound(_) | Self::NoActiveAccount => IpcErrorCode::NotFound,
            Self::Busy(_) => IpcErrorCode::Busy,
            Self::Io { .. } => IpcErrorCode::Io,
            Self::Internal(_) => IpcErrorCode::Internal,
        }
    }

    /// An I/O failure, with what the app was doing.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let context = context.into();
        move |source| Self::Io { context, source }
    }
}

/// What every command rejects with: `code` for the UI to branch on, `message` to show.
#[derive(Debug, Clone, Serialize, TS)]
pub struct IpcError {
    pub code: IpcErrorCode,
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

    #[test]
    fn busy_missing_and_io_have_their_own_codes() {
        let code = |error: AppError| serde_json::to_value(IpcError::from(&error).code).ok();
        assert_eq!(
            code(AppError::Busy("another apply is running".into())),
            Some(serde_json::json!("busy"))
        );
        assert_eq!(
            code(AppError::NotFound("no such apply".into())),
            Some(serde_json::json!("not_found"))
        );
        let io = AppError::io("cannot write /x.csv")(std::io::Error::other("disk full"));
        assert_eq!(io.to_string(), "cannot write /x.csv: disk full");
        assert_eq!(code(io), Some(serde_json::json!("io")));
    }
}
