//! The app's state, opened once at start-up (or by tests, with their own parts) and
//! handed to Tauri as one managed state per concern: the [`Session`] (the account list
//! with the keyring, and the local server: together, the active account and the way to
//! its server), the [`KeyringProbe`] and the [`MembershipsState`]. Each command takes
//! only the ones it needs.
//!
//! Opening is quick (two small SQLite files); the slow parts of a start, the local
//! server (on a fresh data dir: creating and seeding its database) and the keyring probe
//! (a D-Bus round trip that may first start a keyring daemon), run in the background
//! ([`WeirState::start_in_background`]) while the window loads its page.

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

/// The keyring's status, probed once (on a blocking thread); every caller until the
/// answer is in waits for the one probe.
#[derive(Clone)]
pub struct KeyringProbe {
    secrets: Arc<dyn SecretStore>,
    status: Arc<tokio::sync::OnceCell<KeyringStatus>>,
}

impl KeyringProbe {
    pub fn new(secrets: Arc<dyn SecretStore>) -> Self {
        Self {
            secrets,
            status: Arc::new(tokio::sync::OnceCell::new()),
        }
    }

    pub async fn status(&self) -> KeyringStatus {
        let secrets = Arc::clone(&self.secrets);
        let probe = || async move {
            let began = std::time::Instant::now();
            let status = tokio::task::spawn_blocking(move || probe_keyring(secrets.as_ref()))
                .await
                .unwrap_or_else(|error| KeyringStatus {
                    available: false,
                    message: Some(format!("The keyring check did not finish ({error}).")),
                });
            tracing::info!(
                available = status.available,
                ms = began.elapsed().as_millis() as u64,
                "keyring probed"
            );
            status
        };
        self.status.get_or_init(probe).await.clone()
    }
}

/// The active account and the way to its server: the account list (with the keyring)
/// and the local server, the demo account's server. Every command that reaches a server
/// takes this one state and asks it for the client.
pub struct Session {
    accounts: Accounts,
    local: LocalServer,
}

impl Session {
    pub fn new(accounts: Accounts, local: LocalServer) -> Self {
        Self { accounts, local }
    }

    pub fn accounts(&self) -> &Accounts {
        &self.accounts
    }

    pub fn local(&self) -> &LocalServer {
        &self.local
    }

    /// The active account.
    pub fn account(&self) -> AppResult<Account> {
        self.accounts.active()?.ok_or(AppError::NoActiveAccount)
    }

    /// The client for the active account: the local server's for the demo (starting it
    /// if needed).
    pub async fn client(&self) -> AppResult<ZulipClient> {
        let account = self.account()?;
        if account.is_demo {
            return self.local.demo_client().await;
        }
        Ok(self.accounts.client_for(account.id).await?)
    }

    /// The active account's bots, through its client.
    pub async fn bots(&self) -> AppResult<BotManager<'_>> {
        let account = self.account()?;
        let client = self.client().await?;
        Ok(self.accounts.bots(account, client))
    }

    /// The demo account, added again if it was removed.
    pub fn ensure_demo_account(&self) -> AppResult<Account> {
        Ok(self.accounts.ensure_demo(
            DEMO_SITE,
            weir_server::DEMO_OWNER_EMAIL,
            "Lumen Labs (demo)",
        )?)
    }
}

/// Every managed state, before it is handed to Tauri.
pub struct WeirState {
    session: Session,
    keyring: KeyringProbe,
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
        let keyring = KeyringProbe::new(Arc::clone(&secrets));
        let store = AccountStore::open(&data_dir.join("accounts.sqlite3"))?;
        let accounts = Accounts::new(store, secrets, ClientConfig::default());
        Ok(Self {
            session: Session::new(accounts, LocalServer::new(data_dir.join("server"))),
            keyring,
            memberships: MembershipsState::open(data_dir)?,
        })
    }

    /// The production state: the OS keyring and the platform data dir.
    pub fn open_default(data_dir: &Path) -> AppResult<Self> {
        Self::open(data_dir, Arc::new(KeyringStore::new()))
    }

    /// On first start (no accounts) adds the demo account and makes it active; whenever the
    /// active account is the demo, starts the local server. Waits for it and the keyring
    /// probe.
    pub async fn start(&self) -> AppResult<()> {
        if self.demo_is_active()? {
            self.session.local.ensure_started().await?;
        }
        self.keyring.status().await;
        Ok(())
    }

    /// [`Self::start`] without waiting: the local server and the keyring probe start on
    /// the async runtime. Commands that need either wait for it.
    pub fn start_in_background(&self) -> AppResult<()> {
        if self.demo_is_active()? {
            self.session.local.start_in_background();
        }
        let keyring = self.keyring.clone();
        tauri::async_runtime::spawn(async move { keyring.status().await });
        Ok(())
    }

    /// Adds the demo account on first start (no accounts) and makes it active; whether
    /// the active account is the demo.
    fn demo_is_active(&self) -> AppResult<bool> {
        let accounts = &self.session.accounts;
        if accounts.list()?.is_empty() {
            let demo = self.session.ensure_demo_account()?;
            accounts.set_active(Some(demo.id))?;
        }
        Ok(accounts.active()?.is_some_and(|account| account.is_demo))
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Hands each part to Tauri as its own managed state.
    pub fn manage<R: Runtime>(self, app: &impl Manager<R>) {
        app.manage(self.session);
        app.manage(self.keyring);
        app.manage(self.memberships);
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
