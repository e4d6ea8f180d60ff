//! The app's state, opened once at start-up (or by tests, with their own parts) and
//! handed to Tauri as one managed state per concern: [`Accounts`] (the account list and
//! keyring), [`LocalServer`], [`KeyringStatus`] and [`MembershipsState`]. Each command
//! takes only the ones it needs.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use tauri::{Manager, Runtime};
use ts_rs::TS;
use weir_core::bots::BotManager;
use weir_core::{
    Account, AccountStore, Accounts, ClientConfig, KeyringEntry, KeyringStore, SecretError,
    SecretStore, ZulipClient,
};

use crate::error::{AppError, AppResult};
use crate::local_server::LocalServer;
use crate::memberships::MembershipsState;

/// Stands in for the demo account's site, whose port changes at every start (stored in
/// existing account lists: kept as it was when the local server had another name).
pub const DEMO_SITE: &str = "weir-embedded-demo";

/// Whether the system keyring works, probed once at start-up.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeyringStatus {
    pub available: bool,
    /// How to fix it, when unavailable.
    pub message: Option<String>,
}

/// Every managed state, before it is handed to Tauri.
pub struct WeirState {
    accounts: Accounts,
    local: LocalServer,
    keyring: KeyringStatus,
    memberships: MembershipsState,
}

impl WeirState {
    /// The state for a data dir (made private: 0700): `accounts.sqlite3` for the account
    /// list (no secrets), `memberships-journal.sqlite3` for the grid's applies and
    /// `server/` for the local server's database.
    pub fn open(data_dir: &Path, secrets: Arc<dyn SecretStore>) -> AppResult<Self> {
        weir_server::embed::data_dir::create_private_dir(data_dir).map_err(
            |error| match error {
                weir_server::Error::Io(source) => AppError::Io {
                    context: "cannot prepare the app's data directory".to_owned(),
                    source,
                },
                other => AppError::Internal(other.to_string()),
            },
        )?;
        let keyring = probe_keyring(secrets.as_ref());
        let store = AccountStore::open(&data_dir.join("accounts.sqlite3"))?;
        let accounts = Accounts::new(store, secrets, ClientConfig::default());
        Ok(Self {
            accounts,
            local: LocalServer::new(data_dir.join("server")),
            keyring,
            memberships: MembershipsState::open(data_dir)?,
        })
    }

    /// The production state: the OS keyring and the platform data dir.
    pub fn open_default(data_dir: &Path) -> AppResult<Self> {
        Self::open(data_dir, Arc::new(KeyringStore::new()))
    }

    /// On first start (no accounts) adds the demo account and makes it active; whenever the
    /// active account is the demo, starts the local server.
    pub async fn start(&self) -> AppResult<()> {
        if self.accounts.list()?.is_empty() {
            let demo = ensure_demo_account(&self.accounts)?;
            self.accounts.set_active(Some(demo.id))?;
        }
        if self
            .accounts
            .active()?
            .is_some_and(|account| account.is_demo)
        {
            self.local.ensure_started().await?;
        }
        Ok(())
    }

    pub fn accounts(&self) -> &Accounts {
        &self.accounts
    }

    pub fn local(&self) -> &LocalServer {
        &self.local
    }

    /// Hands each part to Tauri as its own managed state.
    pub fn manage<R: Runtime>(self, app: &impl Manager<R>) {
        app.manage(self.accounts);
        app.manage(self.local);
        app.manage(self.keyring);
        app.manage(self.memberships);
    }
}

/// The demo account, added again if it was removed.
pub fn ensure_demo_account(accounts: &Accounts) -> AppResult<Account> {
    Ok(accounts.ensure_demo(
        DEMO_SITE,
        weir_server::DEMO_OWNER_EMAIL,
        "Lumen Labs (demo)",
    )?)
}

pub fn active_account(accounts: &Accounts) -> AppResult<Account> {
    accounts.active()?.ok_or(AppError::NoActiveAccount)
}

/// The client for the active account: the local server's for the demo.
pub async fn active_client(accounts: &Accounts, local: &LocalServer) -> AppResult<ZulipClient> {
    let account = active_account(accounts)?;
    if account.is_demo {
        return local.demo_client().await;
    }
    Ok(accounts.client_for(account.id).await?)
}

/// The active account's bots, through its client.
pub async fn bots<'a>(accounts: &'a Accounts, local: &LocalServer) -> AppResult<BotManager<'a>> {
    let account = active_account(accounts)?;
    let client = active_client(accounts, local).await?;
    Ok(accounts.bots(account, client))
}

/// Asks the keyring for a key that does not exist: any answer but "unavailable" means
/// it works. Weir never falls back to files, so the UI must say how to fix it.
fn probe_keyring(secrets: &dyn SecretStore) -> KeyringStatus {
    match secrets.get(&KeyringEntry::new("weir-probe", "probe@weir.invalid")) {
        Err(SecretError::Unavailable { detail, hint }) => KeyringStatus {
            available: false,
            message: Some(format!(
                "The system keyring is not available ({detail}). {hint}"
            )),
        },
        _ => KeyringStatus {
            available: true,
            message: None,
        },
    }
}
