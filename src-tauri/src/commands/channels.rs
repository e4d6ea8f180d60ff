//! The Channels page: channels × the settings that name groups. Load the table, plan
//! staged changes, apply them with progress (one apply at a time, shared with the other
//! pages: `cancel_membership_apply` stops it), list and undo applies from the journal.

use tauri::State;
use tauri::ipc::Channel;
use weir_core::channels::{ChannelSettingChange, ChannelTable, plan_channel_settings};
use weir_core::pipeline::ChannelSettings;

use super::command;
use super::memberships::{applies_of, blocking, bounded, journal_account, undo_of};
use crate::channels::{ChannelApplyOutcome, ChannelChangesRequest, ChannelPlanPreview};
use crate::error::AppResult;
use crate::memberships::MembershipsState;
use crate::memberships::dto::{ApplyProgress, ApplySummary, UndoRequest};
use crate::state::Session;

/// Loads the active account's channel table from the server (`register`, `users/me`,
/// `user_groups`) and keeps it for planning.
#[command]
pub async fn load_channel_settings(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<ChannelTable> {
    let loaded = memberships.reload_channels(&session).await?;
    Ok(loaded.table.clone())
}

/// The requests an apply of these staged channel-setting changes would make (one per
/// channel) and the changes it would leave out, with the reason.
#[command]
pub async fn plan_channel_setting_changes(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: ChannelChangesRequest,
) -> AppResult<ChannelPlanPreview> {
    let changes = bounded(request.changes)?;
    let loaded = memberships.channels(&session).await?;
    blocking(move || ChannelPlanPreview::from(&plan_channel_settings(&loaded, &changes))).await
}

/// Applies staged channel-setting changes, one `PATCH /streams/{id}` per channel,
/// reporting progress on `on_progress`, and journals the outcome for undo.
#[command]
pub async fn apply_channel_setting_changes(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: ChannelChangesRequest,
    on_progress: Channel<ApplyProgress>,
) -> AppResult<ChannelApplyOutcome> {
    let changes = bounded(request.changes)?;
    let account = session.account()?;
    let client = session.client().await?;
    let loaded = memberships.channels(&session).await?;
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
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<Vec<ApplySummary>> {
    applies_of::<ChannelSettings>(&session, &memberships)
}

/// The changes that undo a channel-setting apply (the latest when no id is given): each
/// setting it changed, set back to the value it replaced, for the UI to stage.
#[command]
pub fn undo_channel_setting_apply(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: UndoRequest,
) -> AppResult<Vec<ChannelSettingChange>> {
    undo_of::<ChannelSettings>(&session, &memberships, request.id)
}
