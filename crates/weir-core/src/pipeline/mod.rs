//! One pipeline for every kind of staged change (memberships, group members, channel
//! settings): **plan** against what the user saw, **guard** (one apply at a time, with
//! its cancel switch), **apply** with progress, **journal** the outcome (so that undo
//! works after a restart too) and **forget** what was loaded (the server changed).
//!
//! A kind of change is a [`StagedKind`]: how it plans, applies, counts and reverses.
//! [`Pipeline`] runs any of them the same way; the app holds one.

mod kinds;

#[cfg(test)]
mod tests;

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use kinds::{ChannelSettings, GroupMembers, Memberships};

use crate::client::ZulipClient;
use crate::error::CoreError;
use crate::memberships::{
    Cancel, ChangeKind, Journal, JournalAccount, JournalRecord, JournalSummary, Progress,
};

/// How many cells an apply changed and how many failed, for the journal's summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub requests_total: usize,
    pub requests_sent: usize,
    pub cancelled: bool,
    pub changed: usize,
    pub failed: usize,
}

/// One kind of staged change, as the pipeline runs it.
pub trait StagedKind {
    /// The journal's name for this kind.
    const KIND: ChangeKind;
    /// What plans are made against (the grid, the channel table), shared with the cache.
    type Loaded: Send + Sync + 'static;
    /// One staged cell, as the UI sends it and undo gives it back.
    type Change: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Plan: Send + Sync + 'static;
    /// The server's answer for one cell, as the journal keeps it.
    type Cell: Serialize + DeserializeOwned;
    type Report: Send;

    fn plan(loaded: &Self::Loaded, changes: &[Self::Change]) -> Self::Plan;

    /// Runs the plan; never fails as a whole (every cell gets an outcome).
    fn apply<'a>(
        client: &'a ZulipClient,
        plan: &'a Self::Plan,
        cancel: &'a Cancel,
        on_progress: &'a mut (dyn FnMut(Progress) + Send),
    ) -> impl Future<Output = Self::Report> + Send + 'a;

    fn counts(report: &Self::Report) -> Counts;
    fn cells(report: &Self::Report) -> &[Self::Cell];

    /// The changes that set back what the cells changed.
    fn reverse(cells: &[Self::Cell]) -> Vec<Self::Change>;
}

/// An apply's report with its journal entry (`None` when no cell was sent).
#[derive(Debug)]
pub struct Applied<R> {
    pub report: R,
    pub journal_id: Option<i64>,
}

/// Why an apply could not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("another apply is running")]
pub struct Busy;

/// The journal and the one apply slot, shared by every kind of change.
#[derive(Debug)]
pub struct Pipeline {
    journal: Journal,
    running: Mutex<Option<Cancel>>,
}

impl Pipeline {
    pub fn new(journal: Journal) -> Self {
        Self {
            journal,
            running: Mutex::new(None),
        }
    }

    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Claims the one apply slot: the guard holds its cancel switch and frees the slot
    /// when dropped, however the apply ends (answer, error, early return or panic).
    pub fn begin(&self) -> Result<ApplyGuard<'_>, Busy> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if running.is_some() {
            return Err(Busy);
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

    /// Plans the changes off the async workers (a grid's plan walks millions of cells).
    pub async fn plan<K: StagedKind>(
        loaded: Arc<K::Loaded>,
        changes: Arc<Vec<K::Change>>,
    ) -> Result<K::Plan, CoreError> {
        tokio::task::spawn_blocking(move || K::plan(&loaded, &changes))
            .await
            .map_err(|error| CoreError::Internal(format!("planning failed: {error}")))
    }

    /// Plan, guard, apply, forget (`forget` runs once the server may have changed),
    /// journal. A failure to write the journal is returned after the apply: the
    /// changes are made, only their undo is lost.
    pub async fn run<K: StagedKind>(
        &self,
        client: &ZulipClient,
        account: &JournalAccount<'_>,
        loaded: Arc<K::Loaded>,
        changes: Vec<K::Change>,
        forget: impl FnOnce(),
        mut on_progress: impl FnMut(Progress) + Send,
    ) -> Result<Applied<K::Report>, CoreError> {
        let changes = Arc::new(changes);
        let plan = Self::plan::<K>(loaded, Arc::clone(&changes)).await?;
        let guard = self
            .begin()
            .map_err(|busy| CoreError::Busy(busy.to_string()))?;
        let report = K::apply(client, &plan, guard.cancel(), &mut on_progress).await;
        drop(guard);
        forget();
        let journal_id = self.record::<K>(account, &changes, &report)?;
        Ok(Applied { report, journal_id })
    }

    /// Journals an apply (nothing when no cell was sent); its id.
    pub fn record<K: StagedKind>(
        &self,
        account: &JournalAccount<'_>,
        changes: &[K::Change],
        report: &K::Report,
    ) -> Result<Option<i64>, CoreError> {
        let cells = K::cells(report);
        if cells.is_empty() {
            return Ok(None);
        }
        let counts = K::counts(report);
        let record = JournalRecord {
            kind: K::KIND,
            applied_at: crate::clock::unix_seconds(),
            requests_total: counts.requests_total,
            requests_sent: counts.requests_sent,
            cancelled: counts.cancelled,
            changed: counts.changed,
            failed: counts.failed,
            changes: crate::memberships::journal_json(changes)?,
            cells: crate::memberships::journal_json(cells)?,
        };
        self.journal.record_raw(account, &record).map(Some)
    }

    /// The account's applies of this kind, newest first.
    pub fn history<K: StagedKind>(
        &self,
        account_id: i64,
        limit: usize,
    ) -> Result<Vec<JournalSummary>, CoreError> {
        self.journal.list_kind(K::KIND, account_id, limit)
    }

    /// The changes that undo an apply of this kind (the latest when `id` is `None`), for
    /// the UI to stage; `None` when there is no such apply.
    pub fn undo<K: StagedKind>(
        &self,
        account_id: i64,
        id: Option<i64>,
    ) -> Result<Option<Vec<K::Change>>, CoreError> {
        let entry = match id {
            Some(id) => self
                .journal
                .get_kind::<K::Change, K::Cell>(K::KIND, account_id, id)?,
            None => self
                .journal
                .last_kind::<K::Change, K::Cell>(K::KIND, account_id)?,
        };
        Ok(entry.map(|entry| K::reverse(&entry.cells)))
    }
}

/// The running apply's claim on the [`Pipeline`]; dropping it ends the apply.
#[derive(Debug)]
pub struct ApplyGuard<'a> {
    running: &'a Mutex<Option<Cancel>>,
    cancel: Cancel,
}

impl ApplyGuard<'_> {
    /// The switch [`Pipeline::cancel`] flips.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }
}

impl Drop for ApplyGuard<'_> {
    fn drop(&mut self) {
        *self.running.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}
