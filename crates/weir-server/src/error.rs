//! The server's one error type, rendered as Zulip-shaped JSON.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use zulip_api::ZulipErrorCode;

/// A failure the API reports to its caller in Zulip's words.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ZulipErrorCode,
    pub msg: String,
    pub extra: Map<String, Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ZulipErrorCode, msg: impl Into<String>) -> Self {
        Self {
            status,
            code,
            msg: msg.into(),
            extra: Map::new(),
        }
    }

    /// Zulip's default error: 400 `BAD_REQUEST`.
    pub fn bad_request(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ZulipErrorCode::BadRequest, msg)
    }

    pub fn missing_argument(name: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            ZulipErrorCode::RequestVariableMissing,
            format!("Missing '{name}' argument"),
        )
        .with("var_name", name)
    }

    /// 401 for the REST API; the response also carries `WWW-Authenticate`.
    pub fn unauthorized(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ZulipErrorCode::Unauthorized, msg)
    }

    pub fn stream_does_not_exist(name: &str) -> Self {
        Self::bad_request(format!("Channel '{name}' does not exist"))
            .code(ZulipErrorCode::StreamDoesNotExist)
            .with("stream", name)
    }

    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            ZulipErrorCode::BadRequest,
            "Endpoint not found",
        )
    }

    pub fn code(mut self, code: ZulipErrorCode) -> Self {
        self.code = code;
        self
    }

    pub fn status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }
}

/// Everything that can go wrong while serving a request or starting the server.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}", .0.msg)]
    Api(ApiError),
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("the database writer has stopped")]
    WriterStopped,
    /// The disk under the database refused a write (the change was rolled back).
    #[error("{0}")]
    Storage(Storage),
    #[error("invalid seed: {0}")]
    Seed(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// A 401: a missing, malformed, unknown or deactivated key.
    pub fn is_authentication_failure(&self) -> bool {
        matches!(self, Self::Api(error) if error.status == StatusCode::UNAUTHORIZED)
    }
}

/// Why the disk refused a write: said plainly to the client, who can do nothing about
/// it but should not retry blindly, while reads keep working.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Storage {
    #[error("The server's disk is full: nothing was saved")]
    DiskFull,
    #[error("The server's data directory is read-only: nothing was saved")]
    ReadOnly,
}

impl Storage {
    /// The storage failure behind a SQLite error, if that is what it is.
    pub fn of(error: &rusqlite::Error) -> Option<Self> {
        match error.sqlite_error_code()? {
            rusqlite::ErrorCode::DiskFull => Some(Self::DiskFull),
            rusqlite::ErrorCode::ReadOnly => Some(Self::ReadOnly),
            _ => None,
        }
    }

    fn into_api_error(self) -> ApiError {
        let status = match self {
            Self::DiskFull => StatusCode::INSUFFICIENT_STORAGE,
            Self::ReadOnly => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError::bad_request(self.to_string()).status(status)
    }
}

impl From<ApiError> for Error {
    fn from(error: ApiError) -> Self {
        Self::Api(error)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl ApiError {
    /// The JSON body Zulip answers with: `result`, `msg`, `code` and the extra fields.
    pub fn body(&self) -> Value {
        let mut body = Map::new();
        body.insert("result".into(), json!("error"));
        body.insert("msg".into(), json!(self.msg));
        body.insert("code".into(), json!(self.code.as_str()));
        body.extend(self.extra.clone());
        Value::Object(body)
    }

    /// [`ApiError::body`] as text, for answers written below axum.
    pub fn json_text(&self) -> String {
        self.body().to_string()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.body();
        let mut response = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"zulip\""),
            );
        }
        response
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        match self {
            Self::Api(error) => error.into_response(),
            Self::Storage(storage) => {
                tracing::error!(error = %storage, "request failed");
                storage.into_api_error().into_response()
            }
            Self::Database(error) if let Some(storage) = Storage::of(&error) => {
                tracing::error!(%error, "request failed");
                storage.into_api_error().into_response()
            }
            other => {
                tracing::error!(error = %other, "request failed");
                ApiError::bad_request("Internal server error")
                    .status(StatusCode::INTERNAL_SERVER_ERROR)
                    .into_response()
            }
        }
    }
}
