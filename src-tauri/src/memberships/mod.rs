//! The staged-changes pages' state in the shell: what each page last loaded (the grid,
//! which the Memberships and Groups pages share, and the channel table), so that plan,
//! apply and CSV work on what the user sees without loading it again, and weir-core's
//! [`Pipeline`] (the journal and the one apply slot) that applies every kind of change.

pub mod dto;
pub mod group_csv;
pub mod rules;
pub mod wire;

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use weir_core::channels::{LoadedChannels, load_channels};
use weir_core::memberships::{Journal, Matrix, load_matrix};
use weir_core::pipeline::Pipeline;

use crate::error::AppResult;
use crate::state::Session;

pub struct MembershipsState {
    pipeline: Pipeline,
    loaded: Mutex<Option<(i64, Arc<Matrix>)>>,
    /// The Channels page's table last loaded, by account.
    channels: Mutex<Option<(i64, Arc<LoadedChannels>)>>,
}

impl MembershipsState {
    /// The journal lives in `memberships-journal.sqlite3` in the data dir (every kind of
    /// change: the name is older than the other pages).
    pub fn open(data_dir: &Path) -> AppResult<Self> {
        Ok(Self {
            pipeline: Pipeline::new(Journal::open(
                &data_dir.join("memberships-journal.sqlite3"),
            )?),
            loaded: Mutex::new(None),
            channels: Mutex::new(None),
        })
    }

    pub fn pipeline(&self) -> &Pipeline {
        &self.pipeline
    }

    /// Loads the active account's grid from the server and keeps it.
    pub async fn reload(&self, session: &Session) -> AppResult<Arc<Matrix>> {
        let account = session.account()?;
        let client = session.client().await?;
        let matrix = Arc::new(load_matrix(&client).await?);
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((account.id, Arc::clone(&matrix)));
        Ok(matrix)
    }

    /// The grid last loaded for the active account, or a fresh one.
    pub async fn matrix(&self, session: &Session) -> AppResult<Arc<Matrix>> {
        let account = session.account()?;
        let cached = self
            .loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|(id, _)| *id == account.id)
            .map(|(_, matrix)| Arc::clone(matrix));
        match cached {
            Some(matrix) => Ok(matrix),
            None => self.reload(session).await,
        }
    }

    /// Forgets the grid and the channel table (after an apply changed the server).
    pub fn forget(&self) {
        *self.loaded.lock().unwrap_or_else(PoisonError::into_inner) = None;
        *self.channels.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Loads the active account's channel table from the server and keeps it.
    pub async fn reload_channels(&self, session: &Session) -> AppResult<Arc<LoadedChannels>> {
        let account = session.account()?;
        let client = session.client().await?;
        let loaded = Arc::new(load_channels(&client).await?);
        *self.channels.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((account.id, Arc::clone(&loaded)));
        Ok(loaded)
    }

    /// The channel table last loaded for the active account, or a fresh one.
    pub async fn channels(&self, session: &Session) -> AppResult<Arc<LoadedChannels>> {
        let account = session.account()?;
        let cached = self
            .channels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|(id, _)| *id == account.id)
            .map(|(_, loaded)| Arc::clone(loaded));
        match cached {
            Some(loaded) => Ok(loaded),
            None => self.reload_channels(session).await,
        }
    }

    /// Cancels the running apply between two requests; `false` when none runs.
    pub fn cancel(&self) -> bool {
        self.pipeline.cancel()
    }
}
