use tauri::State;
use weir_core::organization;

use crate::dto::{BotSummary, OrganizationOverview};
use crate::error::AppResult;
use crate::state::WeirState;

/// Everything the Memberships page shows, subscriber sets included.
#[tauri::command]
pub async fn organization_overview(state: State<'_, WeirState>) -> AppResult<OrganizationOverview> {
    Ok(organization::overview(&state.active_client().await?).await?)
}

/// The active account's own bots; keys are never sent to the UI.
#[tauri::command]
pub async fn list_bots(state: State<'_, WeirState>) -> AppResult<Vec<BotSummary>> {
    Ok(organization::own_bots(&state.active_client().await?).await?)
}
