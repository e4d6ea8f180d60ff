//! The Channels page: channels × the settings that name groups. Load the table, plan
//! staged changes, apply them with progress (one apply at a time, shared with the other
//! pages: `cancel_membership_apply` stops it), list and undo applies from the journal.

use tauri::State;
use tauri::ipc::Channel;
use weir_core::Accounts;
use weir_core::channels::{
    self as core, ChannelSettingChange, ChannelTable, apply_channel_settings, plan_channel_settings,
};
use weir_core::memberships::{ChangeKind, JournalAccount, JournalEntryOf, JournalRecord};

use super::command;
use super::memberships::{blocking, bounded};
use crate::channels::{ChannelApplyOutcome, ChannelChangesRequest, ChannelPlanPreview};
use crate::error::{AppError, AppResult};
use crate::local_server::LocalServer;
use crate::memberships::MembershipsState;
use crate::memberships::dto::{ApplyProgress, ApplySummary, UndoRequest};
use crate::state::{active_account, active_client};

/// How many applies the history shows.
const HISTORY_LENGTH: usize = 200;

/// Loads the active account's channel table from the server (`register`, `users/me`,
/// `user_groups`) and keeps it for planning.
#[command]
pub async fn load_channel_settings(
    accounts: State<'_, Accounts>,
    local: State<'_, LocalServer>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<ChannelTable> {
    let loaded = memberships.reload_channels(&accounts, &local).await?;
    Ok(loaded.table.clone())
}

/// The requests an apply of these staged channel-setting changes would make (one per
/// channel) and the changes it would leave out, with the reason.
#[command]
pub async fn plan_channel_setting_changes(
    accounts: State<'_, Accounts>,
    local: State<'_, LocalServer>,
    memberships: State<'_, MembershipsState>,
    request: ChannelChangesRequest,
) -> AppResult<ChannelPlanPreview> {
    let changes = bounded(request.changes)?;
    let loaded = memberships.channels(&accounts, &local).await?;
    blocking(move || ChannelPlanPreview::from(&plan_channel_settings(&loaded, &changes))).await
}

/// Applies staged channel-setting changes, one `PATCH /streams/{id}` per channel,
/// reporting progress on `on_progress`, and journals the outcome for undo.
#[command]
pub async fn apply_channel_setting_changes(
    accounts: State<'_, Accounts>,
    local: State<'_, LocalServer>,
    memberships: State<'_, MembershipsState>,
    request: ChannelChangesRequest,
    on_progress: Channel<ApplyProgress>,
) -> AppResult<ChannelApplyOutcome> {
    let changes = bounded(request.changes)?;
    let account = active_account(&accounts)?;
    let client = active_client(&accounts, &local).await?;
    let loaded = memberships.channels(&accounts, &local).await?;
    let planned = {
        let changes = changes.clone();
        blocking(move || plan_channel_settings(&loaded, &changes)).await?
    };
    let running = memberships.begin_apply()?;
    let report = apply_channel_settings(&client, &planned, running.cancel(), |done, total| {
        // A closed channel (the page went away) must not stop the apply.
        let _ = on_progress.send(ApplyProgress {
            done,
            total,
            waiting_seconds: None,
        });
    })
    .await;
    drop(running);
    memberships.forget();
    let journal_id = if report.cells.is_empty() {
        None
    } else {
        let who = JournalAccount {
            account_id: account.id,
            site: &account.site,
            email: &account.email,
        };
        let record = JournalRecord {
            kind: ChangeKind::ChannelSettings,
            applied_at: weir_core::clock::unix_seconds(),
            requests_total: report.requests_total,
            requests_sent: report.requests_sent,
            cancelled: report.cancelled,
            changed: report.cells.iter().filter(|c| c.succeeded()).count(),
            failed: report.failed_count(),
            changes: json(&changes)?,
            cells: json(&report.cells)?,
        };
        Some(memberships.journal().record_raw(&who, &record)?)
    };
    Ok(ChannelApplyOutcome::new(&report, journal_id))
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> AppResult<String> {
    serde_json::to_string(value)
        .map_err(|error| AppError::Internal(format!("journal encoding: {error}")))
}

/// The active account's channel-setting applies, newest first.
#[command]
pub fn list_channel_setting_applies(
    accounts: State<'_, Accounts>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<Vec<ApplySummary>> {
    let account = active_account(&accounts)?;
    Ok(memberships
        .journal()
        .list_kind(ChangeKind::ChannelSettings, account.id, HISTORY_LENGTH)?
        .into_iter()
        .map(Into::into)
        .collect())
}

/// The changes that undo a channel-setting apply (the latest when no id is given): each
/// setting it changed, set back to the value it replaced, for the UI to stage.
#[command]
pub fn undo_channel_setting_apply(
    accounts: State<'_, Accounts>,
    memberships: State<'_, MembershipsState>,
    request: UndoRequest,
) -> AppResult<Vec<ChannelSettingChange>> {
    let account = active_account(&accounts)?;
    let kind = ChangeKind::ChannelSettings;
    let journal = memberships.journal();
    let entry: Option<JournalEntryOf<ChannelSettingChange, core::ChannelCellResult>> =
        match request.id {
            Some(id) => journal.get_kind(kind, account.id, id)?,
            None => journal.last_kind(kind, account.id)?,
        };
    let entry = entry.ok_or_else(|| AppError::NotFound("no such apply to undo".into()))?;
    Ok(core::reverse_channel_cells(&entry.cells))
}
