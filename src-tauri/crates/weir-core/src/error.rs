//! [`CoreError`]: the crate's one error type, with a stable machine [`Code`].

use serde::Serialize;

use crate::client::ClientError;
use crate::secrets::SecretError;
use crate::site::InvalidSite;
use crate::zuliprc::ZuliprcError;

/// Every failure weir-core reports. Messages never contain an API key.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error("invalid zuliprc: {0}")]
    Zuliprc(#[from] ZuliprcError),
    #[error(transparent)]
    InvalidSite(#[from] InvalidSite),
    /// A value given by the user is unusable (bad key shape, empty e-mail, ...).
    #[error("{0}")]
    InvalidInput(String),
    #[error("account {0} not found")]
    AccountNotFound(i64),
    #[error("an account for {email} on {site} already exists")]
    AccountExists { site: String, email: String },
    /// The account exists but the keyring has no key for it (deleted outside Weir).
    #[error("no API key is stored in the keyring for {email} on {site}; add the account again")]
    KeyMissing { site: String, email: String },
    #[error("account database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error(
        "the account database was written by a newer version of Weir (schema {found}; this \
         version knows up to {known})"
    )]
    DatabaseTooNew { found: i64, known: i64 },
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error("internal error: {0}")]
    Internal(String),
}

/// The stable codes the UI branches on; serialized in `snake_case`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    Unauthorized,
    KeyringUnavailable,
    KeyringError,
    Network,
    RateLimited,
    InvalidZuliprc,
    InvalidSite,
    InvalidInput,
    TlsConfig,
    NotFound,
    StreamNotFound,
    AccountExists,
    KeyMissing,
    UnsupportedByServer,
    ZulipError,
    BadResponse,
    Database,
    Io,
    Internal,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unauthorized => "unauthorized",
            Self::KeyringUnavailable => "keyring_unavailable",
            Self::KeyringError => "keyring_error",
            Self::Network => "network",
            Self::RateLimited => "rate_limited",
            Self::InvalidZuliprc => "invalid_zuliprc",
            Self::InvalidSite => "invalid_site",
            Self::InvalidInput => "invalid_input",
            Self::TlsConfig => "tls_config",
            Self::NotFound => "not_found",
            Self::StreamNotFound => "stream_not_found",
            Self::AccountExists => "account_exists",
            Self::KeyMissing => "key_missing",
            Self::UnsupportedByServer => "unsupported_by_server",
            Self::ZulipError => "zulip_error",
            Self::BadResponse => "bad_response",
            Self::Database => "database",
            Self::Io => "io",
            Self::Internal => "internal",
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl CoreError {
    /// The machine code of this error.
    pub fn code(&self) -> Code {
        match self {
            Self::Client(error) => match error {
                ClientError::Unauthorized { .. } => Code::Unauthorized,
                ClientError::StreamsDoNotExist(_) => Code::StreamNotFound,
                ClientError::RateLimited { .. } => Code::RateLimited,
                ClientError::Zulip { .. } | ClientError::Http { .. } => Code::ZulipError,
                ClientError::Redirected { .. } | ClientError::InvalidSite(_) => Code::InvalidSite,
                ClientError::Timeout(_) | ClientError::Network(_) => Code::Network,
                ClientError::Decode(_) => Code::BadResponse,
                ClientError::PrincipalIdsUnsupported { .. } => Code::UnsupportedByServer,
                ClientError::Tls(_) => Code::TlsConfig,
            },
            Self::Secret(error) => match error {
                SecretError::Unavailable { .. } => Code::KeyringUnavailable,
                SecretError::Corrupt { .. } | SecretError::Backend { .. } => Code::KeyringError,
            },
            Self::Zuliprc(_) => Code::InvalidZuliprc,
            Self::InvalidSite(_) => Code::InvalidSite,
            Self::InvalidInput(_) => Code::InvalidInput,
            Self::AccountNotFound(_) => Code::NotFound,
            Self::AccountExists { .. } => Code::AccountExists,
            Self::KeyMissing { .. } => Code::KeyMissing,
            Self::Database(_) | Self::DatabaseTooNew { .. } => Code::Database,
            Self::Io { .. } => Code::Io,
            Self::Internal(_) => Code::Internal,
        }
    }

    /// The `{code, message}` form the app sends over IPC.
    pub fn to_payload(&self) -> ErrorPayload {
        ErrorPayload {
            code: self.code(),
            message: self.to_string(),
        }
    }
}

/// `{"code": "...", "message": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorPayload {
    pub code: Code,
    pub message: String,
}

impl From<&CoreError> for ErrorPayload {
    fn from(error: &CoreError) -> Self {
        error.to_payload()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialize_as_their_strings() {
        for code in [
            Code::Unauthorized,
            Code::KeyringUnavailable,
            Code::StreamNotFound,
            Code::ZulipError,
        ] {
            let json = serde_json::to_string(&code).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn payload_carries_code_and_message() {
        let error = CoreError::Client(ClientError::Unauthorized {
            msg: "Invalid API key".into(),
        });
        let payload = serde_json::to_value(error.to_payload()).unwrap_or_default();
        assert_eq!(payload["code"], "unauthorized");
        assert_eq!(
            payload["message"],
            "the server rejected the credentials: Invalid API key"
        );
        let missing = CoreError::Secret(SecretError::Unavailable {
            detail: "d".into(),
            hint: "h".into(),
        });
        assert_eq!(missing.code().as_str(), "keyring_unavailable");
        assert_eq!(CoreError::AccountNotFound(3).code(), Code::NotFound);
    }
}
