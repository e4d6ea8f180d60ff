use tauri::State;
use weir_core::organization::{self, OrganizationOverview};

use super::command;
use crate::error::AppResult;
use crate::state::Session;

/// Everything the Memberships page shows, subscriber sets included.
#[command]
pub async fn organization_overview(session: State<'_, Session>) -> AppResult<OrganizationOverview> {
    Ok(organization::overview(&session.client().await?).await?)
}
