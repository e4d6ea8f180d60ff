use serde::Deserialize;
use tauri::State;
use ts_rs::TS;
use weir_core::Accounts;

use super::command;
use crate::error::AppResult;
use crate::local_server::{LocalServer, LocalServerStatus};
use crate::state::ensure_demo_account;

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequestLogSinceRequest {
    /// The newest request id the page has.
    #[ts(type = "number")]
    pub since_id: u64,
}

#[command]
pub async fn local_server_status(local: State<'_, LocalServer>) -> AppResult<LocalServerStatus> {
    Ok(local.status().await)
}

/// The status with only the requests logged after `sinceId`: the Local server page
/// follows the log with this instead of fetching all of it every second.
#[command]
pub async fn local_server_updates(
    local: State<'_, LocalServer>,
    request: RequestLogSinceRequest,
) -> AppResult<LocalServerStatus> {
    Ok(local.status_since(Some(request.since_id)).await)
}

/// Replaces the demo organization with a fresh one (the UI asks for confirmation).
#[command]
pub async fn reset_demo_data(local: State<'_, LocalServer>) -> AppResult<LocalServerStatus> {
    local.reset().await?;
    Ok(local.status().await)
}

/// Starts the local server on demand (and brings the demo account back if it was
/// removed), without changing the active account.
#[command]
pub async fn start_local_server(
    accounts: State<'_, Accounts>,
    local: State<'_, LocalServer>,
) -> AppResult<LocalServerStatus> {
    ensure_demo_account(&accounts)?;
    local.ensure_started().await?;
    Ok(local.status().await)
}
