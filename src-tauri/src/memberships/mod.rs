//! The memberships grid's state in the shell: the journal, the grid last loaded (so that
//! plan, apply and CSV work on what the user sees without loading it again) and the
//! cancel switch of the running apply, held by an [`ApplyGuard`].

pub mod dto;
pub mod group_csv;
pub mod wire;

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use weir_core::Accounts;
use weir_core::channels::{LoadedChannels, load_channels};
use weir_core::memberships::{Cancel, Journal, Matrix, load_matrix};

use crate::error::{AppError, AppResult};
use crate::local_server::LocalServer;
use crate::state::{active_account, active_client};

pub struct MembershipsState {
    journal: Journal,
    loaded: Mutex<Option<(i64, Arc<Matrix>)>>,
    /// The Channels page's table last loaded, by account.
    channels: Mutex<Option<(i64, Arc<LoadedChannels>)>>,
    running: Mutex<Option<Cancel>>,
}

impl MembershipsState {
    /// The journal lives in `memberships-journal.sqlite3` in the data dir.
    pub fn open(data_dir: &Path) -> AppResult<Self> {
        Ok(Self {
            journal: Journal::open(&data_dir.join("memberships-journal.sqlite3"))?,
            loaded: Mutex::new(None),
            channels: Mutex::new(None),
            running: Mutex::new(None),
        })
    }

    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Loads the active account's grid from the server and keeps it.
    pub async fn reload(&self, accounts: &Accounts, local: &LocalServer) -> AppResult<Arc<Matrix>> {
        let account = active_account(accounts)?;
        let client = active_client(accounts, local).await?;
        let matrix = Arc::new(load_matrix(&client).await?);
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((account.id, Arc::clone(&matrix)));
        Ok(matrix)
    }

    /// The grid last loaded for the active account, or a fresh one.
    pub async fn matrix(&self, accounts: &Accounts, local: &LocalServer) -> AppResult<Arc<Matrix>> {
        let account = active_account(accounts)?;
        let cached = self
            .loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|(id, _)| *id == account.id)
            .map(|(_, matrix)| Arc::clone(matrix));
        match cached {
            Some(matrix) => Ok(matrix),
            None => self.reload(accounts, local).await,
        }
    }

    /// Forgets the grid and the channel table (after an apply changed the server).
    pub fn forget(&self) {
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) = None;
        *self.channels.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Loads the active account's channel table from the server and keeps it.
    pub async fn reload_channels(
        &self,
        accounts: &Accounts,
        local: &LocalServer,
    ) -> AppResult<Arc<LoadedChannels>> {
        let account = active_account(accounts)?;
        let client = active_client(accounts, local).await?;
        let loaded = Arc::new(load_channels(&client).await?);
        *self.channels.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((account.id, Arc::clone(&loaded)));
        Ok(loaded)
    }

    /// The channel table last loaded for the active account, or a fresh one.
    pub async fn channels(
        &self,
        accounts: &Accounts,
        local: &LocalServer,
    ) -> AppResult<Arc<LoadedChannels>> {
        let account = active_account(accounts)?;
        let cached = self
            .channels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|(id, _)| *id == account.id)
            .map(|(_, loaded)| Arc::clone(loaded));
        match cached {
            Some(loaded) => Ok(loaded),
            None => self.reload_channels(accounts, local).await,
        }
    }

    /// Claims the one apply slot: the guard holds its cancel switch and frees the slot when
    /// dropped, however the apply ends (answer, error, early return or panic).
    pub fn begin_apply(&self) -> AppResult<ApplyGuard<'_>> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if running.is_some() {
            return Err(AppError::Busy("another apply is running".into()));
        }
        let cancel = Cancel::new();
        *running = Some(cancel.clone());
        Ok(ApplyGuard {
            running: &self.running,
            cancel,
        })
    }

    /// Cancels the running apply between two requests; `false` when none runs.
    pub fn cancel(&self) -> bool {
        match &*self.running.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(cancel) => {
                cancel.cancel();
                true
            }
            None => false,
        }
    }
}

/// The running apply's claim on [`MembershipsState`]; dropping it ends the apply.
pub struct ApplyGuard<'a> {
    running: &'a Mutex<Option<Cancel>>,
    cancel: Cancel,
}

impl ApplyGuard<'_> {
    /// The switch [`MembershipsState::cancel`] flips.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }
}

impl Drop for ApplyGuard<'_> {
    fn drop(&mut self) {
        *self.running.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> (tempfile::TempDir, MembershipsState) {
        let dir = tempfile::tempdir().unwrap();
        let state = MembershipsState::open(dir.path()).unwrap();
        (dir, state)
    }

    #[test]
    fn one_apply_at_a_time_and_the_slot_frees_on_drop() {
        let (_dir, state) = state();
        assert!(!state.cancel(), "nothing runs yet");
        let guard = state.begin_apply().unwrap();
        assert!(matches!(state.begin_apply(), Err(AppError::Busy(_))));
        assert!(state.cancel());
        assert!(guard.cancel().is_cancelled());
        drop(guard);
        assert!(!state.cancel());
        assert!(state.begin_apply().is_ok());
    }

    #[test]
    fn an_early_return_frees_the_slot() {
        let (_dir, state) = state();
        let fails = || -> AppResult<()> {
            let _guard = state.begin_apply()?;
            Err(AppError::Internal("the plan failed".into()))
        };
        assert!(fails().is_err());
        assert!(state.begin_apply().is_ok());
    }

    #[test]
    fn a_panic_during_an_apply_frees_the_slot() {
        let (_dir, state) = state();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _guard = state.begin_apply().unwrap();
            panic!("the apply panicked");
        }));
        assert!(panicked.is_err());
        assert!(state.begin_apply().is_ok(), "Apply must not stay locked");
    }
}
