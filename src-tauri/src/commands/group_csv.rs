//! The groups page's CSV: people × groups, written and read with weir-core's table code
//! (the memberships grid's CSV, with groups as columns). Import only reports what the
//! file would change; the page stages it for review.

use std::path::PathBuf;

use tauri::State;
use weir_core::memberships::{GroupExportScope, export_group_csv, import_group_csv};

use super::memberships::{blocking, bounded, create_file, open_file};
use super::{PathRequest, command};
use crate::error::AppResult;
use crate::memberships::MembershipsState;
use crate::memberships::group_csv::{GroupCsvExportRequest, GroupCsvImportResult};
use crate::state::Session;

/// Writes people × groups (the page's people and groups) as CSV.
#[command]
pub async fn export_groups_csv(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: GroupCsvExportRequest,
) -> AppResult<()> {
    let user_ids = request.user_ids.map(bounded).transpose()?;
    let group_ids = request.group_ids.map(bounded).transpose()?;
    let staged = bounded(request.staged)?;
    let matrix = memberships.matrix(&session).await?;
    let path = PathBuf::from(request.path.trim());
    blocking(move || -> AppResult<()> {
        let scope = GroupExportScope {
            user_ids: user_ids.as_deref(),
            group_ids: group_ids.as_deref(),
            staged: &staged,
        };
        export_group_csv(&matrix, &scope, create_file(&path)?)
            .map_err(weir_core::CoreError::from)?;
        Ok(())
    })
    .await?
}

/// Reads a CSV of people × groups and returns what it would change; nothing is applied.
#[command]
pub async fn import_groups_csv(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: PathRequest,
) -> AppResult<GroupCsvImportResult> {
    let matrix = memberships.matrix(&session).await?;
    let path = PathBuf::from(request.path.trim());
    blocking(move || -> AppResult<GroupCsvImportResult> {
        let import =
            import_group_csv(&matrix, open_file(&path)?).map_err(weir_core::CoreError::from)?;
        Ok(import.into())
    })
    .await?
}
