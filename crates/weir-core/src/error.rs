//! [`CoreError`]: the crate's one error type, with a stable machine [`IpcErrorCode`].

use serde::Serialize;
use ts_rs::TS;

use crate::client::ClientError;
use crate::keyring::SecretError;
use crate::site::InvalidSite;
use crate::webhook_url::WebhookUrlError;
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
    /// Something the user named (a bot, a remembered URL) is not there.
    #[error("{0}")]
    NotFound(String),
    /// Neither the keyring nor the server has the key of this bot (the server offers
    /// keys of active bots only).
    #[error("no API key is known for bot {user_id}; reactivate it or regenerate its key")]
    BotKeyMissing { user_id: i64 },
    #[error(transparent)]
    WebhookUrl(#[from] WebhookUrlError),
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
    /// Another operation of the same kind runs (one apply at a time).
    #[error("{0}")]
    Busy(String),
    #[error("internal error: {0}")]
    Internal(String),
}

/// Every code the UI can receive over IPC (Weir's own, not Zulip's wire codes), from
/// weir-core and from the app shell alike: the one list, generated into TypeScript under
/// the same name so that the UI's `switch` over it is checked for exhaustiveness.
/// Serialized in `snake_case`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum IpcErrorCode {
    Unauthorized,
    KeyringUnavailable,
    KeyringError,
    Network,
    RateLimited,
    InvalidZuliprc,
    /// The zuliprc could not be opened (no such file, a folder, no permission): the UI
    /// asks for another path instead of explaining the file's contents.
    ZuliprcUnreadable,
    /// The server address is malformed (not "unreachable": that is [`IpcErrorCode::Network`]).
    InvalidSite,
    InvalidInput,
    /// A local server's seed file is wrong (sent by the shell): the user fixes the file,
    /// since starting again with the same one fails the same way.
    InvalidSeed,
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
    /// The app's embedded (local) server is not running or failed; sent by the shell.
    ServerUnavailable,
    /// Something of the same kind is already running (an apply); try again after it.
    Busy,
    Internal,
}

impl CoreError {
    /// The machine code of this error.
    pub fn code(&self) -> IpcErrorCode {
        match self {
            Self::Client(error) => match error {
                ClientError::Unauthorized { .. } => IpcErrorCode::Unauthorized,
                ClientError::StreamsDoNotExist(_) => IpcErrorCode::StreamNotFound,
                ClientError::RateLimited { .. } => IpcErrorCode::RateLimited,
                ClientError::Zulip { .. } | ClientError::Http { .. } => IpcErrorCode::ZulipError,
                ClientError::Redirected { .. } | ClientError::InvalidSite(_) => {
                    IpcErrorCode::InvalidSite
                }
                ClientError::Timeout(_) | ClientError::Network(_) => IpcErrorCode::Network,
                ClientError::Decode(_) => IpcErrorCode::BadResponse,
                ClientError::PrincipalIdsUnsupported { .. } => IpcErrorCode::UnsupportedByServer,
                ClientError::Tls(_) => IpcErrorCode::TlsConfig,
            },
            Self::Secret(error) => match error {
                SecretError::Unavailable { .. } => IpcErrorCode::KeyringUnavailable,
                SecretError::Corrupt { .. } | SecretError::Backend { .. } => {
                    IpcErrorCode::KeyringError
                }
            },
            Self::Zuliprc(error) if error.is_unreadable() => IpcErrorCode::ZuliprcUnreadable,
            Self::Zuliprc(_) => IpcErrorCode::InvalidZuliprc,
            Self::InvalidSite(_) => IpcErrorCode::InvalidSite,
            Self::InvalidInput(_) | Self::WebhookUrl(_) => IpcErrorCode::InvalidInput,
            Self::AccountNotFound(_) | Self::NotFound(_) => IpcErrorCode::NotFound,
            Self::BotKeyMissing { .. } => IpcErrorCode::KeyMissing,
            Self::AccountExists { .. } => IpcErrorCode::AccountExists,
            Self::KeyMissing { .. } => IpcErrorCode::KeyMissing,
            Self::Database(_) | Self::DatabaseTooNew { .. } => IpcErrorCode::Database,
            Self::Io { .. } => IpcErrorCode::Io,
            Self::Busy(_) => IpcErrorCode::Busy,
            Self::Internal(_) => IpcErrorCode::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(error: &CoreError) -> serde_json::Value {
        serde_json::to_value(error.code()).unwrap_or_default()
    }

    #[test]
    fn codes_serialize_in_snake_case() {
        let unauthorized = CoreError::Client(ClientError::Unauthorized {
            msg: "Invalid API key".into(),
        });
        assert_eq!(code_of(&unauthorized), "unauthorized");
        let missing = CoreError::Secret(SecretError::Unavailable {
            detail: "d".into(),
            hint: "h".into(),
        });
        assert_eq!(code_of(&missing), "keyring_unavailable");
        assert_eq!(
            serde_json::to_value(IpcErrorCode::ServerUnavailable).unwrap_or_default(),
            "server_unavailable"
        );
        assert_eq!(CoreError::AccountNotFound(3).code(), IpcErrorCode::NotFound);
    }

    #[test]
    fn an_unreadable_zuliprc_is_told_apart_from_an_invalid_one() {
        let missing = CoreError::from(ZuliprcError::NoSuchFile {
            path: "/home/ada/zuliprc".into(),
        });
        assert_eq!(code_of(&missing), "zuliprc_unreadable");
        let folder = CoreError::from(ZuliprcError::IsAFolder {
            path: "/home/ada".into(),
        });
        assert_eq!(folder.code(), IpcErrorCode::ZuliprcUnreadable);
        let not_one = CoreError::from(ZuliprcError::MissingSection);
        assert_eq!(code_of(&not_one), "invalid_zuliprc");
        let bad_key = CoreError::from(ZuliprcError::InvalidKey("too short".into()));
        assert_eq!(bad_key.code(), IpcErrorCode::InvalidZuliprc);
    }

    #[test]
    fn a_malformed_site_has_its_own_code() {
        let error = CoreError::from(ClientError::from(InvalidSite {
            site: "https://".into(),
            reason: "it has no host name".into(),
        }));
        assert_eq!(error.code(), IpcErrorCode::InvalidSite);
        assert_eq!(code_of(&error), "invalid_site");
    }
}
