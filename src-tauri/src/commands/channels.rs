//! The Channels page: channels × the settings that name groups. Load the table, plan
//! staged changes, apply them with progress (one apply at a time, shared with the other
//! pages: `cancel_membership_apply` stops it), list and undo applies from the journal.

use tauri::State;
use tauri::ipc::Channel;
use weir_core::Accounts;
use weir_core::channels::{ChannelSettingChange, ChannelTable, plan_channel_settings};
use weir_core::pipeline::ChannelSettings;

use super::command;
use super::memberships::{HISTORY_LENGTH, blocking, bounded, journal_account, no_such_apply};
use crate::channels::{ChannelApplyOutcome, ChannelChangesRequest, ChannelPlanPreview};
use crate::error::AppResult;
use crate::local_server::LocalServer;
use crate::memberships::MembershipsState;
use crate::memberships::dto::{ApplyProgress, ApplySummary, UndoRequest};
use crate::state::{active_account, active_client};

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
    let applied = memberships
        .pipeline()
        .run::<ChannelSettings>(
            &client,
            &journal_account(&account),
            loaded,
            changes,
            || memberships.forget(),
            |progress| {
                // A closed channel (the page went away) must not stop the apply.
                let _ = on_progress.send(ApplyProgress::from(progress));
            },
        )
        .await?;
    Ok(ChannelApplyOutcome::new(
        &applied.report,
        applied.journal_id,
    ))
}

/// The active account's channel-setting applies, newest first.
#[command]
pub fn list_channel_setting_applies(
    accounts: State<'_, Accounts>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<Vec<ApplySummary>> {
    let account = active_account(&accounts)?;
    Ok(memberships
        .pipeline()
        .history::<ChannelSettings>(account.id, HISTORY_LENGTH)?
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
    memberships
        .pipeline()
        .undo::<ChannelSettings>(account.id, request.id)?
        .ok_or_else(no_such_apply)
}
