use std::path::PathBuf;

use tauri::State;
use weir_core::{NewAccount, Secret};

use crate::dto::{
    AccountIdRequest, AccountSummary, AddAccountRequest, AppStatus, ImportZuliprcRequest,
    ImportZuliprcResponse, PathRequest,
};
use crate::error::AppResult;
use crate::state::WeirState;

#[tauri::command]
pub async fn app_status(state: State<'_, WeirState>) -> AppResult<AppStatus> {
    // The UI asks for this first: the moment it does, the window is usable (the app
    // benchmark times start-up up to this line).
    static FIRST: std::sync::Once = std::sync::Once::new();
    FIRST.call_once(|| tracing::info!("ui ready: first status request"));
    Ok(AppStatus {
        active_account_id: state.accounts.active()?.map(|account| account.id),
        accounts: state.summaries().await?,
        local_server: state.local.status().await,
        keyring: state.keyring.clone(),
    })
}

#[tauri::command]
pub async fn list_accounts(state: State<'_, WeirState>) -> AppResult<Vec<AccountSummary>> {
    state.summaries().await
}

/// Checks the credentials against the server, stores the key in the keyring and makes
/// the new account active.
#[tauri::command]
pub async fn add_account(
    state: State<'_, WeirState>,
    request: AddAccountRequest,
) -> AppResult<AccountSummary> {
    let new = NewAccount::new(
        request.site.trim(),
        request.email.trim(),
        Secret::new(request.api_key),
    );
    let account = state.accounts.add_account(new).await?;
    state.accounts.set_active(Some(account.id))?;
    state.summary_of(&account).await
}

#[tauri::command]
pub async fn import_zuliprc(
    state: State<'_, WeirState>,
    request: ImportZuliprcRequest,
) -> AppResult<ImportZuliprcResponse> {
    let path = PathBuf::from(request.path.trim());
    let imported = state.accounts.import_zuliprc(&path).await?;
    state.accounts.set_active(Some(imported.account.id))?;
    Ok(ImportZuliprcResponse {
        account: state.summary_of(&imported.account).await?,
        path: path.display().to_string(),
        can_delete_file: imported.can_delete_file,
    })
}

/// Deletes a plaintext zuliprc once its key is in the keyring (only files that parse as
/// a zuliprc are deleted).
#[tauri::command]
pub async fn delete_zuliprc(request: PathRequest) -> AppResult<()> {
    Ok(weir_core::delete_zuliprc(&PathBuf::from(
        request.path.trim(),
    ))?)
}

#[tauri::command]
pub async fn switch_account(
    state: State<'_, WeirState>,
    request: AccountIdRequest,
) -> AppResult<AccountSummary> {
    let account = state.accounts.get(request.id)?;
    if account.is_demo {
        state.local.ensure_started().await?;
    }
    state.accounts.set_active(Some(account.id))?;
    state.summary_of(&account).await
}

/// Removes an account (and its keyring entry); the next one becomes active if it was.
#[tauri::command]
pub async fn remove_account(
    state: State<'_, WeirState>,
    request: AccountIdRequest,
) -> AppResult<()> {
    Ok(state.accounts.remove(request.id).await?)
}
