use tauri::State;
use weir_core::Accounts;
use weir_core::organization::{self, OrganizationOverview};

use super::command;
use crate::error::AppResult;
use crate::local_server::LocalServer;
use crate::state::active_client;

/// Everything the Memberships page shows, subscriber sets included.
#[command]
pub async fn organization_overview(
    accounts: State<'_, Accounts>,
    local: State<'_, LocalServer>,
) -> AppResult<OrganizationOverview> {
    Ok(organization::overview(&active_client(&accounts, &local).await?).await?)
}
