//! [`Accounts`]: saved accounts (SQLite), their keys (keyring) and their clients.

mod store;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

pub use store::{Account, AccountRecord, AccountStore, MAX_URLS_PER_BOT, RememberedUrl};

use crate::client::{ClientConfig, Credentials, TlsOptions, ZulipClient, tls_options};
use crate::error::CoreError;
use crate::keyring::{KeyringEntry, SecretError, SecretStore};
use crate::secret::Secret;
use crate::site::normalize_site;
use crate::zuliprc::{self, validate_api_key};

/// What [`Accounts::add_account`] needs.
#[derive(Debug, Clone)]
pub struct NewAccount {
    pub site: String,
    pub email: String,
    pub key: Secret,
    /// Defaults to `<full name> (<host>)` from the server's answer.
    pub label: Option<String>,
    pub is_demo: bool,
    pub tls: TlsOptions,
}

impl NewAccount {
    pub fn new(site: impl Into<String>, email: impl Into<String>, key: Secret) -> Self {
        Self {
            site: site.into(),
            email: email.into(),
            key,
            label: None,
            is_demo: false,
            tls: TlsOptions::default(),
        }
    }
}

/// The result of [`Accounts::import_zuliprc`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedZuliprc {
    pub account: Account,
    /// The key is now in the keyring, so the plaintext file may be offered for deletion
    /// (with [`delete_zuliprc`]); `false` when the path is not a regular file.
    pub can_delete_file: bool,
}

/// The accounts service: the store, the keyring and one cached client per account.
pub struct Accounts {
    store: AccountStore,
    secrets: Arc<dyn SecretStore>,
    config: ClientConfig,
    clients: Mutex<HashMap<i64, ZulipClient>>,
}

impl std::fmt::Debug for Accounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accounts")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

impl Accounts {
    /// `config` is used for every client this service builds.
    pub fn new(store: AccountStore, secrets: Arc<dyn SecretStore>, config: ClientConfig) -> Self {
        Self {
            store,
            secrets,
            config,
            clients: Mutex::default(),
        }
    }

    /// The account database, for weir-core's other services (the app goes through
    /// `Accounts`, so that the demo and keyring rules hold).
    pub(crate) fn store(&self) -> &AccountStore {
        &self.store
    }

    /// Adds an account after checking its credentials with `GET /users/me`.
    ///
    /// Order: validate input → refuse duplicates → check the credentials against the
    /// server → write the key to the keyring → write the row. Any failure leaves nothing
    /// behind (a key written before a failed row insert is deleted again). The first
    /// account added becomes the active one.
    pub async fn add_account(&self, new: NewAccount) -> Result<Account, CoreError> {
        let site = normalize_site(&new.site)?;
        let email = new.email.trim().to_string();
        if email.is_empty() {
            return Err(CoreError::InvalidInput(
                "the e-mail address is empty".into(),
            ));
        }
        validate_api_key(new.key.expose()).map_err(|reason| {
            CoreError::InvalidInput(format!("the API key is invalid: {reason}"))
        })?;
        if self.store.find(&site, &email)?.is_some() {
            return Err(CoreError::AccountExists { site, email });
        }

        let credentials = Credentials {
            site: site.clone(),
            email: email.clone(),
            key: new.key.clone(),
        };
        let client = ZulipClient::new(credentials, &new.tls, &self.config)?;
        let me = client.get_own_user().await?;

        let key_entry = KeyringEntry::new(site.clone(), email.clone());
        let key = new.key.clone();
        let target = key_entry.clone();
        self.with_secrets(move |secrets| secrets.set(&target, &key))
            .await?;

        // Named after the organization, as people think of their accounts; the e-mail
        // and site are shown next to it.
        let realm_name = client
            .server_settings()
            .await
            .ok()
            .and_then(|settings| settings.realm_name.clone())
            .filter(|name| !name.trim().is_empty());
        let label = new
            .label
            .filter(|label| !label.trim().is_empty())
            .or(realm_name)
            .unwrap_or_else(|| format!("{} ({})", me.full_name, host_of(&site)));
        let record = AccountRecord {
            site,
            email,
            label,
            is_demo: new.is_demo,
            tls: new.tls,
        };
        let account = match self.store.insert(&record) {
            Ok(account) => account,
            Err(error) => {
                let target = key_entry.clone();
                if let Err(cleanup) = self.with_secrets(move |s| s.delete(&target)).await {
                    tracing::warn!(%cleanup, account = %key_entry, "could not remove the key again");
                }
                return Err(error);
            }
        };
        if self.store.active_id()?.is_none() {
            self.store.set_active(Some(account.id))?;
        }
        self.lock_clients().insert(account.id, client);
        Ok(account)
    }

    /// Reads a zuliprc and adds its account (with its TLS options) like
    /// [`Accounts::add_account`].
    pub async fn import_zuliprc(&self, path: &Path) -> Result<ImportedZuliprc, CoreError> {
        let rc = zuliprc::load(path)?;
        let mut new = NewAccount::new(rc.site.clone(), rc.email.clone(), rc.key.clone());
        new.tls = tls_options(&rc);
        let account = self.add_account(new).await?;
        let can_delete_file = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file());
        Ok(ImportedZuliprc {
            account,
            can_delete_file,
        })
    }

    /// Every saved account, oldest first.
    pub fn list(&self) -> Result<Vec<Account>, CoreError> {
        self.store.list()
    }

    pub fn get(&self, id: i64) -> Result<Account, CoreError> {
        self.store.get(id)?.ok_or(CoreError::AccountNotFound(id))
    }

    pub fn rename(&self, id: i64, label: &str) -> Result<(), CoreError> {
        self.store.set_label(id, label.trim())
    }

    /// Removes an account: its keyring entry first (if the keyring cannot be reached,
    /// nothing is removed), then its row and cached client. A demo account has no keyring
    /// entry (its key lives in the local server). When the active account goes, the
    /// oldest remaining one becomes active.
    pub async fn remove(&self, id: i64) -> Result<(), CoreError> {
        let account = self.get(id)?;
        if !account.is_demo {
            let target = KeyringEntry::new(account.site.clone(), account.email.clone());
            self.with_secrets(move |secrets| secrets.delete(&target))
                .await?;
        }
        if !self.store.delete(id)? {
            return Err(CoreError::AccountNotFound(id));
        }
        self.lock_clients().remove(&id);
        if self.store.active_id()?.is_none() {
            let next = self.store.list()?.first().map(|account| account.id);
            self.store.set_active(next)?;
        }
        Ok(())
    }

    /// The account on Weir's local demo server, added (without a key: the server holds
    /// it) when there is none.
    pub fn ensure_demo(&self, site: &str, email: &str, label: &str) -> Result<Account, CoreError> {
        if let Some(demo) = self.list()?.into_iter().find(|account| account.is_demo) {
            return Ok(demo);
        }
        self.store.insert(&AccountRecord {
            site: site.to_owned(),
            email: email.to_owned(),
            label: label.to_owned(),
            is_demo: true,
            tls: TlsOptions::default(),
        })
    }

    /// The client of an account, built on first use (key read from the keyring) and then
    /// shared, so that its cached server settings and rate-limit state are kept.
    pub async fn client_for(&self, id: i64) -> Result<ZulipClient, CoreError> {
        if let Some(client) = self.lock_clients().get(&id) {
            return Ok(client.clone());
        }
        let account = self.get(id)?;
        let target = KeyringEntry::new(account.site.clone(), account.email.clone());
        let key = self
            .with_secrets(move |secrets| secrets.get(&target))
            .await?
            .ok_or_else(|| CoreError::KeyMissing {
                site: account.site.clone(),
                email: account.email.clone(),
            })?;
        let credentials = Credentials {
            site: account.site.clone(),
            email: account.email.clone(),
            key,
        };
        let client = ZulipClient::new(credentials, &account.tls(), &self.config)?;
        Ok(self.lock_clients().entry(id).or_insert(client).clone())
    }

    /// The active account, if one is chosen.
    pub fn active(&self) -> Result<Option<Account>, CoreError> {
        match self.store.active_id()? {
            Some(id) => self.store.get(id),
            None => Ok(None),
        }
    }

    /// Chooses the active account (persisted); `None` clears the choice.
    pub fn set_active(&self, id: Option<i64>) -> Result<(), CoreError> {
        self.store.set_active(id)
    }

    fn lock_clients(&self) -> MutexGuard<'_, HashMap<i64, ZulipClient>> {
        self.clients.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs a (blocking) keyring operation off the async threads.
    pub(crate) async fn with_secrets<T, F>(&self, operation: F) -> Result<T, CoreError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn SecretStore) -> Result<T, SecretError> + Send + 'static,
    {
        let secrets = Arc::clone(&self.secrets);
        tokio::task::spawn_blocking(move || operation(secrets.as_ref()))
            .await
            .map_err(|error| CoreError::Internal(format!("keyring task failed: {error}")))?
            .map_err(CoreError::from)
    }
}

/// Deletes a plaintext zuliprc after its key was imported. Only a regular file (not a
/// link, a directory or a device) that parses as a zuliprc is deleted, so this cannot be
/// used to remove arbitrary files.
pub fn delete_zuliprc(path: &Path) -> Result<(), CoreError> {
    let regular = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file());
    if !regular {
        return Err(zuliprc::ZuliprcError::NotAFile {
            path: path.to_path_buf(),
        }
        .into());
    }
    zuliprc::load(path)?;
    std::fs::remove_file(path).map_err(|source| CoreError::Io {
        context: format!("cannot delete {}", path.display()),
        source,
    })
}

fn host_of(site: &str) -> &str {
    let rest = site.split_once("://").map_or(site, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_of_strips_scheme_and_path() {
        assert_eq!(
            host_of("https://chat.example.com/zulip"),
            "chat.example.com"
        );
        assert_eq!(host_of("http://localhost:9991"), "localhost:9991");
    }

    fn accounts_with(
        secrets: crate::keyring::MemoryStore,
    ) -> (Accounts, Arc<crate::keyring::MemoryStore>) {
        let store = match AccountStore::open_in_memory() {
            Ok(store) => store,
            Err(error) => panic!("in-memory store: {error}"),
        };
        let secrets = Arc::new(secrets);
        (
            Accounts::new(store, secrets.clone(), ClientConfig::default()),
            secrets,
        )
    }

    #[tokio::test]
    async fn the_demo_is_added_once_and_removed_without_the_keyring() -> Result<(), CoreError> {
        // An unavailable keyring: the demo must not need it, to be added or removed.
        let (accounts, _) = accounts_with(crate::keyring::MemoryStore::unavailable());
        let demo = accounts.ensure_demo("weir-demo", "owner@demo.test", "Demo")?;
        assert!(demo.is_demo);
        assert_eq!(accounts.ensure_demo("other", "x@y.z", "Other")?, demo);
        let other = accounts.store.insert(&AccountRecord {
            site: "https://chat.example.com".into(),
            email: "iago@example.com".into(),
            label: "Example".into(),
            is_demo: false,
            tls: TlsOptions::default(),
        })?;
        accounts.set_active(Some(demo.id))?;
        accounts.remove(demo.id).await?;
        assert_eq!(accounts.list()?, vec![other.clone()]);
        assert_eq!(
            accounts.active()?,
            Some(other),
            "the next account becomes active"
        );
        assert!(matches!(
            accounts.remove(demo.id).await,
            Err(CoreError::AccountNotFound(_))
        ));
        Ok(())
    }

    #[tokio::test]
    async fn a_malformed_site_is_invalid_site_not_a_network_error() {
        let (accounts, _) = accounts_with(crate::keyring::MemoryStore::new());
        for site in ["https:/chat.example.com", "https://chat example.com"] {
            let new = NewAccount::new(site, "iago@example.com", Secret::new("k".repeat(32)));
            let error = accounts.add_account(new).await.err();
            let code = error.as_ref().map(CoreError::code);
            assert_eq!(
                code,
                Some(crate::error::IpcErrorCode::InvalidSite),
                "{site}: {error:?}"
            );
            let message = error.map(|error| error.to_string()).unwrap_or_default();
            assert!(!message.contains("reach"), "{message}");
        }
        assert!(matches!(accounts.list().as_deref(), Ok([])));
    }
}
