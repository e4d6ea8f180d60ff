use tauri::State;

use crate::dto::{LocalServerStatus, RequestLogSinceRequest};
use crate::error::AppResult;
use crate::state::WeirState;

#[tauri::command]
pub async fn local_server_status(state: State<'_, WeirState>) -> AppResult<LocalServerStatus> {
    Ok(state.local.status().await)
}

/// The status with only the requests logged after `sinceId`: the Local server page
/// follows the log with this instead of fetching all of it every second.
#[tauri::command]
pub async fn local_server_updates(
    state: State<'_, WeirState>,
    request: RequestLogSinceRequest,
) -> AppResult<LocalServerStatus> {
    Ok(state.local.status_since(Some(request.since_id)).await)
}

/// Replaces the demo organization with a fresh one (the UI asks for confirmation).
#[tauri::command]
pub async fn reset_demo_data(state: State<'_, WeirState>) -> AppResult<LocalServerStatus> {
    state.local.reset().await?;
    Ok(state.local.status().await)
}

/// Starts the local server on demand (and brings the demo account back if it was
/// removed), without changing the active account.
#[tauri::command]
pub async fn start_local_server(state: State<'_, WeirState>) -> AppResult<LocalServerStatus> {
    state.ensure_demo_account()?;
    state.local.ensure_started().await?;
    Ok(state.local.status().await)
}
