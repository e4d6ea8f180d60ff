//! The app's one error type. Over IPC every error is `{code, message}`; the UI branches
//! on `code` and shows `message`. Each failed command is logged once, by [`logged`].

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
            Self::Server(error) => server_code(error),
            Self::ServerUnavailable => IpcErrorCode::ServerUnavailable,
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

/// The code of a local-server failure, by its cause: its disk or files (`io`), its
/// database (`database`), its seed file (`invalid_seed`: the data it was given is
/// wrong, and trying again will not help); only the rest is "not available right now".
fn server_code(error: &weir_server::Error) -> IpcErrorCode {
    use weir_server::Error;
    match error {
        Error::Io(_) | Error::Storage(_) => IpcErrorCode::Io,
        Error::Database(_) | Error::WriterStopped => IpcErrorCode::Database,
        Error::Seed(_) => IpcErrorCode::InvalidSeed,
        Error::Internal(_) => IpcErrorCode::Internal,
        Error::Api(_) => IpcErrorCode::ServerUnavailable,
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

/// A command's answer on its way to the web view: a failure is logged here, once, with
/// the command's name, its code and its message. Messages never carry a key (see
/// `weir_core::Secret`), and nothing else of the request is logged. Every fallible
/// command passes through this (`#[command]` wraps its body).
pub fn logged<T>(command: &str, result: AppResult<T>) -> AppResult<T> {
    if let Err(error) = &result {
        let code = error.code();
        tracing::warn!(command, ?code, message = %error, "command failed");
    }
    result
}

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

    #[test]
    fn local_server_failures_say_what_failed() {
        use weir_server::Error;
        use weir_server::error::Storage;
        let code = |error: Error| AppError::Server(error).code();
        assert_eq!(
            code(Error::Io(std::io::Error::other("no space"))),
            IpcErrorCode::Io
        );
        assert_eq!(code(Error::Storage(Storage::DiskFull)), IpcErrorCode::Io);
        assert_eq!(code(Error::WriterStopped), IpcErrorCode::Database);
        let seed = AppError::Server(Error::Seed("people[3]: no email".into()));
        assert_eq!(seed.code(), IpcErrorCode::InvalidSeed);
        assert_eq!(
            serde_json::to_value(IpcError::from(&seed))
                .ok()
                .map(|v| v["code"].clone()),
            Some(serde_json::json!("invalid_seed"))
        );
        assert!(
            seed.to_string()
                .contains("invalid seed: people[3]: no email")
        );
        assert_eq!(code(Error::Internal("x".into())), IpcErrorCode::Internal);
    }

    /// A `Write` into a shared buffer, for reading back what was logged.
    #[derive(Clone, Default)]
    struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failure_is_logged_once_with_its_command_code_and_message() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let _ = logged("app_status", Ok(()));
            let _ = logged::<()>(
                "undo_membership_apply",
                Err(AppError::NotFound("no such apply to undo".into())),
            );
        });
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        for part in ["undo_membership_apply", "NotFound", "no such apply to undo"] {
            assert!(text.contains(part), "{part} missing: {text}");
        }
    }

    #[test]
    fn logging_passes_the_answer_through() {
        assert_eq!(logged("app_status", Ok(3)).ok(), Some(3));
        let failed: AppResult<()> = logged("app_status", Err(AppError::ServerUnavailable));
        assert!(matches!(failed, Err(AppError::ServerUnavailable)));
    }
}
