//! The memberships grid without Tauri: people × streams, who may change what, and how
//! staged changes reach the server in the fewest calls.
//!
//! - [`Matrix`]: the grid, built from one `register` snapshot ([`load_matrix`]).
//! - [`permissions`]: the rules per cell, by role and feature level.
//! - [`plan()`]: staged [`Change`]s → [`Plan`] (pure).
//! - [`apply()`]: runs a plan with progress, cancellation and rate-limit waits.
//! - [`Journal`]: every apply on disk, with reverse plans for undo.
//! - [`export_csv`] / [`import_csv`]: the grid as a spreadsheet; [`export_group_csv`] /
//!   [`import_group_csv`]: the groups page likewise.

mod apply;
mod group_members;
mod group_table;
mod groups;
mod journal;
mod matrix;
pub mod permissions;
mod plan;
mod table;

#[cfg(test)]
mod tests;

pub use apply::{
    ApplyOptions, ApplyReport, Cancel, CellResult, CellStatus, Progress, SubscriptionApi, apply,
    reverse_of,
};
pub use group_members::{
    GroupApplyReport, GroupCellResult, GroupDenied, GroupMemberChange, GroupMembersApi, GroupPlan,
    GroupRequest, NOT_SENT, apply_group_members, plan_group_members, reverse_group_cells,
};
pub use group_table::{GroupExportScope, export_group_csv, import_group_csv};
pub use groups::{Group, GroupError, GroupSetting, Groups, MAX_GROUPS, SyncKeep, TriState};
pub(crate) use journal::to_json as journal_json;
pub use journal::{
    ChangeKind, Journal, JournalAccount, JournalEntry, JournalEntryOf, JournalRecord,
    JournalSummary,
};
pub use matrix::{Channel, ChannelSettings, Matrix, MatrixError, Person, Snapshot, SnapshotStream};
pub use permissions::{Action, ChannelClass, Denied, Grants, PersonClass, Viewer};
pub use plan::{
    Change, Limits, PersonRef, Plan, PlannedRequest, SkipReason, Skipped, StreamRef, plan,
};
pub use table::{CsvError, CsvImport, ExportScope, MAX_CSV_BYTES, export_csv, import_csv};

use crate::client::{ClientError, UserGroup, ZulipClient};
use crate::error::CoreError;

/// Loads the grid in three concurrent requests (`register`, `users/me` and
/// `user_groups`) and builds it off the async workers.
pub async fn load_matrix(client: &ZulipClient) -> Result<Matrix, CoreError> {
    let (register, me, groups) = tokio::join!(
        client.register_snapshot(),
        client.get_own_user(),
        client.get_user_groups()
    );
    let mut snapshot = Snapshot::from_register(register?, me?.user_id);
    snapshot.groups = groups_or_none(groups)?;
    tokio::task::spawn_blocking(move || Matrix::build(snapshot))
        .await
        .map_err(|error| CoreError::Internal(format!("building the grid: {error}")))?
        .map_err(CoreError::from)
}

/// Guests and bots may not list groups, and old servers have no such endpoint: a Zulip
/// error answer means the grid has no groups; failing to reach the server still fails.
pub(crate) fn groups_or_none(
    groups: Result<Vec<UserGroup>, ClientError>,
) -> Result<Vec<UserGroup>, ClientError> {
    match groups {
        Ok(groups) => Ok(groups),
        Err(ClientError::Zulip { .. } | ClientError::Http { .. }) => Ok(Vec::new()),
        Err(error) => Err(error),
    }
}

impl From<GroupError> for CoreError {
    fn from(error: GroupError) -> Self {
        Self::InvalidInput(error.to_string())
    }
}

impl From<MatrixError> for CoreError {
    fn from(error: MatrixError) -> Self {
        match error {
            MatrixError::ViewerMissing(_) => Self::Client(ClientError::Decode(error.to_string())),
            MatrixError::TooLarge { .. } => Self::InvalidInput(error.to_string()),
        }
    }
}

impl From<CsvError> for CoreError {
    fn from(error: CsvError) -> Self {
        match error {
            CsvError::Io(source) => Self::Io {
                context: "reading the CSV file".into(),
                source,
            },
            other => Self::InvalidInput(other.to_string()),
        }
    }
}
