//! The account list: status at start-up, add (checked against the server), zuliprc
//! import, switch and remove.

use serde::{Deserialize, Serialize};
use tauri::State;
use ts_rs::TS;
use weir_core::zuliprc::expand_home;
use weir_core::{Account, NewAccount, Secret};

use super::{PathRequest, command};
use crate::error::AppResult;
use crate::local_server::LocalServerStatus;
use crate::state::{KeyringProbe, KeyringStatus, Session};

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountSummary {
    #[ts(type = "number")]
    pub id: i64,
    pub label: String,
    pub site: String,
    pub email: String,
    pub is_demo: bool,
    pub is_active: bool,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppStatus {
    #[ts(type = "number | null")]
    pub active_account_id: Option<i64>,
    pub accounts: Vec<AccountSummary>,
    pub local_server: LocalServerStatus,
    pub keyring: KeyringStatus,
    /// Where the zuliprc file dialog starts (the page has no path permission to ask).
    pub home_dir: Option<String>,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AddAccountRequest {
    pub site: String,
    pub email: String,
    /// Moves straight into the keyring; never stored or logged elsewhere (a [`Secret`]
    /// prints as `[redacted]`).
    #[ts(type = "string")]
    pub api_key: Secret,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportZuliprcRequest {
    pub path: String,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportZuliprcResponse {
    pub account: AccountSummary,
    pub path: String,
    pub can_delete_file: bool,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountIdRequest {
    #[ts(type = "number")]
    pub id: i64,
}

/// Every account, the demo's site shown as the local server's current URL.
pub async fn summaries(session: &Session) -> AppResult<Vec<AccountSummary>> {
    let accounts = session.accounts();
    let active = accounts.active()?.map(|account| account.id);
    let local_url = session.local().url().await;
    Ok(accounts
        .list()?
        .into_iter()
        .map(|account| summary(&account, active, local_url.as_deref()))
        .collect())
}

async fn summary_of(account: &Account, session: &Session) -> AppResult<AccountSummary> {
    let active = session.accounts().active()?.map(|active| active.id);
    Ok(summary(
        account,
        active,
        session.local().url().await.as_deref(),
    ))
}

fn summary(account: &Account, active: Option<i64>, local_url: Option<&str>) -> AccountSummary {
    let site = if account.is_demo {
        local_url.unwrap_or("local server (stopped)").to_owned()
    } else {
        account.site.clone()
    };
    AccountSummary {
        id: account.id,
        label: account.label.clone(),
        site,
        email: account.email.clone(),
        is_demo: account.is_demo,
        is_active: active == Some(account.id),
    }
}

#[command]
pub async fn app_status(
    session: State<'_, Session>,
    keyring: State<'_, KeyringProbe>,
) -> AppResult<AppStatus> {
    let accounts = session.accounts();
    let local = session.local();
    let status = AppStatus {
        active_account_id: accounts.active()?.map(|account| account.id),
        accounts: summaries(&session).await?,
        local_server: local.status().await,
        keyring: keyring.status().await,
        home_dir: std::env::home_dir().map(|home| home.display().to_string()),
    };
    // The UI asks for this first: once it has its answer (the local server and the
    // keyring probe, started in the background, are done), the window is usable. The app
    // benchmark times start-up up to this line.
    static FIRST: std::sync::Once = std::sync::Once::new();
    FIRST.call_once(|| tracing::info!("ui ready: first status request"));
    Ok(status)
}

#[command]
pub async fn list_accounts(session: State<'_, Session>) -> AppResult<Vec<AccountSummary>> {
    summaries(&session).await
}

/// Checks the credentials against the server, stores the key in the keyring and makes
/// the new account active.
#[command]
pub async fn add_account(
    session: State<'_, Session>,
    request: AddAccountRequest,
) -> AppResult<AccountSummary> {
    let accounts = session.accounts();
    let new = NewAccount::new(request.site.trim(), request.email.trim(), request.api_key);
    let account = accounts.add_account(new).await?;
    accounts.set_active(Some(account.id))?;
    summary_of(&account, &session).await
}

#[command]
pub async fn import_zuliprc(
    session: State<'_, Session>,
    request: ImportZuliprcRequest,
) -> AppResult<ImportZuliprcResponse> {
    let accounts = session.accounts();
    let path = expand_home(request.path.trim());
    let imported = accounts.import_zuliprc(&path).await?;
    accounts.set_active(Some(imported.account.id))?;
    Ok(ImportZuliprcResponse {
        account: summary_of(&imported.account, &session).await?,
        path: path.display().to_string(),
        can_delete_file: imported.can_delete_file,
    })
}

/// Deletes a plaintext zuliprc once its key is in the keyring (only files that parse as
/// a zuliprc are deleted).
#[command]
pub async fn delete_zuliprc(request: PathRequest) -> AppResult<()> {
    Ok(weir_core::delete_zuliprc(&expand_home(
        request.path.trim(),
    ))?)
}

#[command]
pub async fn switch_account(
    session: State<'_, Session>,
    request: AccountIdRequest,
) -> AppResult<AccountSummary> {
    let accounts = session.accounts();
    let local = session.local();
    let account = accounts.get(request.id)?;
    if account.is_demo {
        local.ensure_started().await?;
    }
    accounts.set_active(Some(account.id))?;
    summary_of(&account, &session).await
}

/// Removes an account (and its keyring entry); the next one becomes active if it was.
#[command]
pub async fn remove_account(
    session: State<'_, Session>,
    request: AccountIdRequest,
) -> AppResult<()> {
    let accounts = session.accounts();
    Ok(accounts.remove(request.id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_key_of_a_request_never_prints() {
        let key = "aB3dEfGhIjKlMnOpQrStUvWxYz012345";
        let request: AddAccountRequest = serde_json::from_value(serde_json::json!({
            "site": "https://chat.example.com", "email": "a@example.com", "apiKey": key
        }))
        .unwrap();
        assert_eq!(request.api_key.expose(), key);
        assert!(!format!("{request:?}").contains(key));
    }
}
