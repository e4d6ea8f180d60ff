use tauri::State;

use crate::dto::LocalServerStatus;
use crate::error::AppResult;
use crate::state::WeirState;

#[tauri::command]
pub async fn local_server_status(state: State<'_, WeirState>) -> AppResult<LocalServerStatus> {
    Ok(state.local.status().await)
}

/// Replaces the demo organization with a fresh one (the UI asks for confirmation).
#[tauri::command]
pub async fn reset_demo_data(state: State<'_, WeirState>) -> AppResult<LocalServerStatus> {
    state.local.reset().await?;
    Ok(state.local.status().await)
}
