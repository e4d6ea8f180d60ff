use tauri::State;
use weir_core::organization;

use crate::dto::OrganizationOverview;
use crate::error::AppResult;
use crate::state::WeirState;

/// Everything the Memberships page shows, subscriber sets included.
#[tauri::command]
pub async fn organization_overview(state: State<'_, WeirState>) -> AppResult<OrganizationOverview> {
    Ok(organization::overview(&state.active_client().await?).await?)
}
