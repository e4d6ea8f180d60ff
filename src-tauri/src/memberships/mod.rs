//! The memberships grid's state in the shell: the journal, the grid last loaded (so that
//! plan, apply and CSV work on what the user sees without loading it again) and the
//! cancel switch of a running apply.

pub mod dto;

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use weir_core::memberships::{Cancel, Journal, Matrix, load_matrix};

use crate::error::AppResult;
use crate::state::WeirState;

pub struct MembershipsState {
    pub journal: Journal,
    loaded: Mutex<Option<(i64, Arc<Matrix>)>>,
    running: Mutex<Option<Cancel>>,
}

impl MembershipsState {
    /// The journal lives in `memberships-journal.sqlite3` in the data dir.
    pub fn open(data_dir: &Path) -> AppResult<Self> {
        Ok(Self {
            journal: Journal::open(&data_dir.join("memberships-journal.sqlite3"))?,
            loaded: Mutex::new(None),
            running: Mutex::new(None),
        })
    }

    /// Loads the active account's grid from the server and keeps it.
    pub async fn reload(&self, state: &WeirState) -> AppResult<Arc<Matrix>> {
        let account = state.active_account()?;
        let client = state.active_client().await?;
        let matrix = Arc::new(load_matrix(&client).await?);
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((account.id, Arc::clone(&matrix)));
        Ok(matrix)
    }

    /// The grid last loaded for the active account, or a fresh one.
    pub async fn matrix(&self, state: &WeirState) -> AppResult<Arc<Matrix>> {
        let account = state.active_account()?;
        let cached = self
            .loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|(id, _)| *id == account.id)
            .map(|(_, matrix)| Arc::clone(matrix));
        match cached {
            Some(matrix) => Ok(matrix),
            None => self.reload(state).await,
        }
    }

    /// Forgets the grid (after an apply changed the server).
    pub fn forget(&self) {
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// A new cancel switch for an apply; `None` while another apply runs.
    pub fn begin_apply(&self) -> Option<Cancel> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if running.is_some() {
            return None;
        }
        let cancel = Cancel::new();
        *running = Some(cancel.clone());
        Some(cancel)
    }

    pub fn end_apply(&self) {
        *self.running.lock().unwrap_or_else(PoisonError::into_inner) = None;
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
