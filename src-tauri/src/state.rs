//! The app's managed state, built once at start-up (or by tests, with their own parts).

use std::path::Path;
use std::sync::Arc;

use weir_core::bots::BotManager;
use weir_core::{
    Account, AccountStore, Accounts, ClientConfig, KeyringEntry, KeyringStore, SecretError,
    SecretStore, ZulipClient,
};

use crate::dto::{AccountSummary, KeyringStatus};
use crate::error::{AppError, AppResult};
use crate::local_server::LocalServer;
use crate::memberships::MembershipsState;

/// Stands in for the demo account's site, whose port changes at every start (stored in
/// existing account lists: kept as it was when the local server had another name).
pub const DEMO_SITE: &str = "weir-embedded-demo";

pub struct WeirState {
    pub accounts: Accounts,
    pub local: LocalServer,
    pub keyring: KeyringStatus,
    pub memberships: MembershipsState,
}

impl WeirState {
    /// The state for a data dir (made private: 0700): `accounts.sqlite3` for the account
    /// list (no secrets), `memberships-journal.sqlite3` for the grid's applies and
    /// `server/` for the local server's database.
    pub fn open(data_dir: &Path, secrets: Arc<dyn SecretStore>) -> AppResult<Self> {
        weir_server::data_dir::create_private_dir(data_dir).map_err(|error| match error {
            weir_server::Error::Io(source) => AppError::Io {
                context: "cannot prepare the app's data directory".to_owned(),
                source,
            },
            other => AppError::Internal(other.to_string()),
        })?;
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
            let demo = self.ensure_demo_account()?;
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

    /// The demo account, added again if it was removed.
    pub fn ensure_demo_account(&self) -> AppResult<Account> {
        Ok(self.accounts.ensure_demo(
            DEMO_SITE,
            weir_server::DEMO_OWNER_EMAIL,
            "Lumen Labs (demo)",
        )?)
    }

    pub fn active_account(&self) -> AppResult<Account> {
        self.accounts.active()?.ok_or(AppError::NoActiveAccount)
    }

    /// The client for the active account: the local server's for the demo.
    pub async fn active_client(&self) -> AppResult<ZulipClient> {
        let account = self.active_account()?;
        if account.is_demo {
            return self.local.demo_client().await;
        }
        Ok(self.accounts.client_for(account.id).await?)
    }

    /// The active account's bots, through its client.
    pub async fn bots(&self) -> AppResult<BotManager<'_>> {
        let account = self.active_account()?;
        let client = self.active_client().await?;
        Ok(self.accounts.bots(account, client))
    }

    pub async fn summaries(&self) -> AppResult<Vec<AccountSummary>> {
        let active = self.accounts.active()?.map(|account| account.id);
        let local_url = self.local.url().await;
        Ok(self
            .accounts
            .list()?
            .into_iter()
            .map(|account| summary(&account, active, local_url.as_deref()))
            .collect())
    }

    pub async fn summary_of(&self, account: &Account) -> AppResult<AccountSummary> {
        let active = self.accounts.active()?.map(|active| active.id);
        Ok(summary(account, active, self.local.url().await.as_deref()))
    }
}

fn summary(account: &Account, active: Option<i64>, local_url: Option<&str>) -> AccountSummary {
    let site = if account.is_demo {
        local_url.unwrap_or("local server (stopped)").to_owned()
    } else {
        account.site.clone()
    };
    AccountSummary {
        id: account.id,
        label: account.label.clone(),
        site,
        email: account.email.clone(),
        is_demo: account.is_demo,
        is_active: active == Some(account.id),
    }
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
