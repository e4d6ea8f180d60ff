use serde::Deserialize;
use tauri::State;
use ts_rs::TS;

use super::command;
use crate::error::AppResult;
use crate::local_server::LocalServerStatus;
use crate::state::Session;

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RequestLogSinceRequest {
    /// The newest request id the page has.
    #[ts(type = "number")]
    pub since_id: u64,
}

#[command]
pub async fn local_server_status(session: State<'_, Session>) -> AppResult<LocalServerStatus> {
    Ok(session.local().status().await)
}

/// The status with only the requests logged after `sinceId`: the Local server page
/// follows the log with this instead of fetching all of it every second.
#[command]
pub async fn local_server_updates(
    session: State<'_, Session>,
    request: RequestLogSinceRequest,
) -> AppResult<LocalServerStatus> {
    let local = session.local();
    Ok(local.status_since(Some(request.since_id)).await)
}

/// Replaces the demo organization with a fresh one (the UI asks for confirmation).
#[command]
pub async fn reset_demo_data(session: State<'_, Session>) -> AppResult<LocalServerStatus> {
    session.local().reset().await?;
    Ok(session.local().status().await)
}

/// Starts the local server on demand (and brings the demo account back if it was
/// removed), without changing the active account.
#[command]
pub async fn start_local_server(session: State<'_, Session>) -> AppResult<LocalServerStatus> {
    let local = session.local();
    session.ensure_demo_account()?;
    local.ensure_started().await?;
    Ok(local.status().await)
}
