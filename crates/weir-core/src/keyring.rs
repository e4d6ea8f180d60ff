//! Where API keys live: the operating system's keyring, never a file.
//!
//! [`SecretStore`] is the seam: [`KeyringStore`] is the real one (Secret Service on
//! Linux, Keychain on macOS, Credential Manager on Windows), [`MemoryStore`] serves
//! tests. There is deliberately no file-backed store: when no keyring is reachable the
//! caller gets [`SecretError::Unavailable`] with a hint, and nothing is written.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use crate::secret::Secret;

/// The keyring service name of release builds.
pub const RELEASE_SERVICE: &str = "weir";

/// The keyring service name of debug builds, so that a development build never reads,
/// overwrites or deletes the keys of an installed release (nor the reverse).
pub const DEBUG_SERVICE: &str = "weir-dev";

/// The keyring service name under which this build stores API keys.
pub const KEYRING_SERVICE: &str = if cfg!(debug_assertions) {
    DEBUG_SERVICE
} else {
    RELEASE_SERVICE
};

/// Names one key in the keyring (an account's, or a bot's): the keyring user name is
/// `<email>@<site>`, with the site as normalized (scheme included, no trailing slash),
/// e.g. `iago@zulip.com@https://chat.example.com`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeyringEntry {
    site: String,
    email: String,
}

impl KeyringEntry {
    pub fn new(site: impl Into<String>, email: impl Into<String>) -> Self {
        Self {
            site: site.into(),
            email: email.into(),
        }
    }

    pub fn site(&self) -> &str {
        &self.site
    }

    pub fn email(&self) -> &str {
        &self.email
    }

    /// The keyring's user name for this account.
    pub fn keyring_user(&self) -> String {
        format!("{}@{}", self.email, self.site)
    }
}

impl fmt::Display for KeyringEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.keyring_user())
    }
}

/// Failures of a [`SecretStore`]. None of them carries the secret itself.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// No keyring could be reached (no Secret Service on the session bus, keyring locked,
    /// no D-Bus session, ...). `hint` tells the user how to fix it.
    #[error("the system keyring is not available ({detail}). {hint}")]
    Unavailable { detail: String, hint: String },
    /// The stored value is not valid text.
    #[error("the keyring entry for {account} is not valid UTF-8")]
    Corrupt { account: String },
    /// Anything else the keyring reported.
    #[error("keyring error for {account}: {detail}")]
    Backend { account: String, detail: String },
}

/// Storage for API keys. Implementations block (D-Bus calls on Linux): async callers
/// should run them on `tokio::task::spawn_blocking`.
pub trait SecretStore: Send + Sync {
    /// Stores (or replaces) the key of `account`.
    fn set(&self, account: &KeyringEntry, key: &Secret) -> Result<(), SecretError>;
    /// The key of `account`, or `None` if none is stored.
    fn get(&self, account: &KeyringEntry) -> Result<Option<Secret>, SecretError>;
    /// Removes the key of `account`; removing a key that is not there is not an error.
    fn delete(&self, account: &KeyringEntry) -> Result<(), SecretError>;
}

/// The hint shown with [`SecretError::Unavailable`] on this platform.
pub fn unavailable_hint() -> &'static str {
    if cfg!(target_os = "linux") {
        "Weir keeps API keys only in the system keyring (the Secret Service) and never \
         writes them to disk. Install and unlock a Secret Service provider in your desktop \
         session, e.g. GNOME Keyring (`gnome-keyring`, started with \
         `gnome-keyring-daemon --unlock --components=secrets`) or KeePassXC with its \
         Secret Service integration enabled, then try again."
    } else if cfg!(target_os = "macos") {
        "Weir keeps API keys only in the macOS Keychain and never writes them to disk. \
         Unlock your login keychain (Keychain Access) and allow Weir to use it, then try \
         again."
    } else if cfg!(windows) {
        "Weir keeps API keys only in the Windows Credential Manager and never writes them \
         to disk. Make sure Credential Manager is available for your user, then try again."
    } else {
        "Weir keeps API keys only in the system keyring and never writes them to disk; no \
         supported keyring was found on this system."
    }
}

/// The operating system's keyring, through the `keyring` crate (3.x).
#[derive(Debug, Clone)]
pub struct KeyringStore {
    service: String,
}

impl Default for KeyringStore {
    fn default() -> Self {
        Self::new()
    }
}

impl KeyringStore {
    /// The store Weir uses: service name [`KEYRING_SERVICE`] (per build kind).
    pub fn new() -> Self {
        Self::with_service(KEYRING_SERVICE)
    }

    /// A store under another service name (tests use one of their own so that they never
    /// touch real entries).
    pub fn with_service(service: impl Into<String>) -> Self {
        Self {
            service: service.into(),
        }
    }

    pub fn service(&self) -> &str {
        &self.service
    }

    fn entry(&self, account: &KeyringEntry) -> Result<::keyring::Entry, SecretError> {
        ::keyring::Entry::new(&self.service, &account.keyring_user())
            .map_err(|error| map_keyring_error(account, error))
    }
}

impl SecretStore for KeyringStore {
    fn set(&self, account: &KeyringEntry, key: &Secret) -> Result<(), SecretError> {
        self.entry(account)?
            .set_password(key.expose())
            .map_err(|error| map_keyring_error(account, error))
    }

    fn get(&self, account: &KeyringEntry) -> Result<Option<Secret>, SecretError> {
        match self.entry(account)?.get_password() {
            Ok(value) => Ok(Some(Secret::new(value))),
            Err(::keyring::Error::NoEntry) => Ok(None),
            Err(error) => Err(map_keyring_error(account, error)),
        }
    }

    fn delete(&self, account: &KeyringEntry) -> Result<(), SecretError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(::keyring::Error::NoEntry) => Ok(()),
            Err(error) => Err(map_keyring_error(account, error)),
        }
    }
}

fn map_keyring_error(account: &KeyringEntry, error: ::keyring::Error) -> SecretError {
    match error {
        ::keyring::Error::PlatformFailure(inner) | ::keyring::Error::NoStorageAccess(inner) => {
            SecretError::Unavailable {
                detail: inner.to_string(),
                hint: unavailable_hint().to_string(),
            }
        }
        ::keyring::Error::BadEncoding(_) => SecretError::Corrupt {
            account: account.keyring_user(),
        },
        other => SecretError::Backend {
            account: account.keyring_user(),
            detail: other.to_string(),
        },
    }
}

/// An in-memory [`SecretStore`] for tests, shared by every clone of an `Arc` around it.
#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: Mutex<HashMap<String, Secret>>,
    unavailable: bool,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// A store that behaves like a machine without a keyring: every call fails with
    /// [`SecretError::Unavailable`].
    pub fn unavailable() -> Self {
        Self {
            entries: Mutex::default(),
            unavailable: true,
        }
    }

    /// How many keys are stored.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Secret>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn check(&self) -> Result<(), SecretError> {
        if self.unavailable {
            Err(SecretError::Unavailable {
                detail: "in-memory store configured as unavailable".to_string(),
                hint: unavailable_hint().to_string(),
            })
        } else {
            Ok(())
        }
    }
}

impl SecretStore for MemoryStore {
    fn set(&self, account: &KeyringEntry, key: &Secret) -> Result<(), SecretError> {
        self.check()?;
        self.lock().insert(account.keyring_user(), key.clone());
        Ok(())
    }

    fn get(&self, account: &KeyringEntry) -> Result<Option<Secret>, SecretError> {
        self.check()?;
        Ok(self.lock().get(&account.keyring_user()).cloned())
    }

    fn delete(&self, account: &KeyringEntry) -> Result<(), SecretError> {
        self.check()?;
        self.lock().remove(&account.keyring_user());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account() -> KeyringEntry {
        KeyringEntry::new("https://chat.example.com", "iago@example.com")
    }

    #[test]
    fn keyring_user_is_email_at_site() {
        assert_eq!(
            account().keyring_user(),
            "iago@example.com@https://chat.example.com"
        );
    }

    #[test]
    fn memory_store_sets_gets_and_deletes() -> Result<(), SecretError> {
        let store = MemoryStore::new();
        assert!(store.get(&account())?.is_none());
        store.set(&account(), &Secret::new("k1"))?;
        assert_eq!(
            store.get(&account())?.as_ref().map(Secret::expose),
            Some("k1")
        );
        store.set(&account(), &Secret::new("k2"))?;
        assert_eq!(
            store.get(&account())?.as_ref().map(Secret::expose),
            Some("k2")
        );
        store.delete(&account())?;
        store.delete(&account())?;
        assert!(store.get(&account())?.is_none());
        Ok(())
    }

    #[test]
    fn unavailable_memory_store_explains_how_to_fix_it() {
        let store = MemoryStore::unavailable();
        let error = store.set(&account(), &Secret::new("k"));
        match error {
            Err(SecretError::Unavailable { hint, .. }) => assert!(!hint.is_empty()),
            other => panic!("expected Unavailable, got {other:?}"),
        }
        assert!(store.is_empty());
    }

    #[test]
    fn keyring_platform_failures_map_to_unavailable() {
        let error = map_keyring_error(
            &account(),
            ::keyring::Error::PlatformFailure("org.freedesktop.DBus.Error.ServiceUnknown".into()),
        );
        let text = error.to_string();
        assert!(matches!(error, SecretError::Unavailable { .. }));
        assert!(text.contains("ServiceUnknown"), "{text}");
    }
}
