//! The Groups page: people × groups. Plan staged member and subgroup changes, apply them
//! through weir-core's pipeline (one `POST /user_groups/{id}/members` and one `POST
//! /user_groups/{id}/subgroups` per group, journalled so that undo survives a restart),
//! list and undo applies, create a group. The groups
//! page's CSV is `group_csv`.

use tauri::State;
use tauri::ipc::Channel;
use weir_core::memberships::{self as core, GroupMemberChange};
use weir_core::pipeline::GroupMembers;

use super::command;
use super::memberships::{applies_of, blocking, bounded, journal_account, undo_of};
use crate::error::{AppError, AppResult};
use crate::memberships::MembershipsState;
use crate::memberships::dto::{
    ApplyProgress, ApplySummary, CreateGroupRequest, GroupChangesRequest, GroupPlanPreview,
    MAX_COPY_TARGETS, MAX_GROUP_DESCRIPTION, MAX_GROUP_NAME, UndoRequest,
};
use crate::state::Session;

fn group_changes(request: GroupChangesRequest) -> AppResult<Vec<GroupMemberChange>> {
    bounded(request.changes)
}

/// The calls an apply of these groups-page changes would make (per group, one for its
/// people and one for its subgroups); a subgroup that would make a cycle is skipped.
#[command]
pub async fn plan_group_member_changes(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: GroupChangesRequest,
) -> AppResult<GroupPlanPreview> {
    let changes = group_changes(request)?;
    let matrix = memberships.matrix(&session).await?;
    blocking(move || GroupPlanPreview::from(&core::plan_group_members(&matrix, &changes))).await
}

/// Applies groups-page changes, one `POST /user_groups/{id}/members` per group, with
/// progress, and journals the outcome (`undo_group_member_apply` reads it back).
#[command]
pub async fn apply_group_member_changes(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: GroupChangesRequest,
    on_progress: Channel<ApplyProgress>,
) -> AppResult<core::GroupApplyReport> {
    let changes = group_changes(request)?;
    let account = session.account()?;
    let client = session.client().await?;
    let matrix = memberships.matrix(&session).await?;
    let applied = memberships
        .pipeline()
        .run::<GroupMembers>(
            &client,
            &journal_account(&account),
            matrix,
            changes,
            || memberships.forget(),
            |progress| {
                // A closed channel (the page went away) must not stop the apply.
                let _ = on_progress.send(ApplyProgress::from(progress));
            },
        )
        .await?;
    Ok(applied.report)
}

/// The active account's groups-page applies, newest first.
#[command]
pub fn list_group_member_applies(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
) -> AppResult<Vec<ApplySummary>> {
    applies_of::<GroupMembers>(&session, &memberships)
}

/// The reverse of a groups-page apply (the latest when no id is given), from the
/// journal, for the UI to stage.
#[command]
pub fn undo_group_member_apply(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: UndoRequest,
) -> AppResult<Vec<GroupMemberChange>> {
    undo_of::<GroupMembers>(&session, &memberships, request.id)
}

/// Creates a user group with its first members; the new id when the server says it.
#[command]
pub async fn create_user_group(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: CreateGroupRequest,
) -> AppResult<Option<i64>> {
    let name = request.name.trim();
    if name.is_empty() || name.chars().count() > MAX_GROUP_NAME {
        return Err(AppError::InvalidInput(format!(
            "a group name has 1 to {MAX_GROUP_NAME} characters"
        )));
    }
    if request.description.chars().count() > MAX_GROUP_DESCRIPTION
        || request.members.len() > MAX_COPY_TARGETS
    {
        return Err(AppError::InvalidInput(
            "the description or the member list is too long".into(),
        ));
    }
    let client = session.client().await?;
    let id = client
        .create_user_group(name, &request.description, &request.members)
        .await
        .map_err(weir_core::CoreError::from)?;
    memberships.forget();
    Ok(id)
}
