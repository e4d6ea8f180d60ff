//! The webhook URL builder and workbench.

use tauri::{AppHandle, Runtime, State};
use weir_core::webhook_url;

use crate::clipboard::copy_secret;
use crate::dto::{
    BotIdRequest, DryRunResult, IntegrationSummary, PreviewUrlRequest, RememberedIdRequest,
    RememberedWebhookUrl, WebhookSendRequest, WebhookSendResult, WebhookUrlRequest,
};
use crate::error::AppResult;
use crate::state::WeirState;
use crate::workbench;

/// The shared registry's integrations, with event names, options and fixtures.
#[tauri::command]
pub fn list_integrations() -> Vec<IntegrationSummary> {
    workbench::integrations()
}

/// The URL for the active account's server with the key masked; remembers nothing.
#[tauri::command]
pub async fn preview_webhook_url(
    state: State<'_, WeirState>,
    request: PreviewUrlRequest,
) -> AppResult<String> {
    let client = state.active_client().await?;
    let masked = webhook_url::masked(client.site(), &request.spec.into())
        .map_err(weir_core::CoreError::from)?;
    Ok(masked)
}

/// Copies the full URL (key included) and remembers it, without the key, for the
/// rotation assistant.
#[tauri::command]
pub async fn copy_webhook_url<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, WeirState>,
    request: WebhookUrlRequest,
) -> AppResult<RememberedWebhookUrl> {
    let bots = state.bots().await?;
    let built = bots
        .build_url(request.bot_user_id, &request.spec.into())
        .await?;
    copy_secret(&app, built.full)?;
    Ok(RememberedWebhookUrl {
        id: built.remembered.id,
        bot_user_id: built.remembered.bot_user_id,
        spec: built.remembered.spec.into(),
        masked: built.masked,
        last_built_at: built.remembered.last_built_at,
    })
}

/// Copies a remembered URL rebuilt with the bot's current key.
#[tauri::command]
pub async fn copy_remembered_url<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, WeirState>,
    request: RememberedIdRequest,
) -> AppResult<Option<u64>> {
    let url = state
        .bots()
        .await?
        .remembered_url_with_key(request.id)
        .await?;
    copy_secret(&app, url)
}

/// The URLs Weir built for a bot, masked, most recent first.
#[tauri::command]
pub async fn webhook_urls(
    state: State<'_, WeirState>,
    request: BotIdRequest,
) -> AppResult<Vec<RememberedWebhookUrl>> {
    let urls = state.bots().await?.remembered_urls(request.user_id)?;
    Ok(urls.into_iter().map(Into::into).collect())
}

/// Posts to the bot's webhook URL on the active account's server and reads back what
/// it produced. (The UI asks once per session before a real server.)
#[tauri::command]
pub async fn send_webhook(
    state: State<'_, WeirState>,
    request: WebhookSendRequest,
) -> AppResult<WebhookSendResult> {
    let bots = state.bots().await?;
    let result = bots.send_webhook(&workbench::core_request(request)).await?;
    Ok(workbench::send_result(result))
}

/// What a request would produce, without posting anything.
#[tauri::command]
pub async fn dry_run_webhook(
    state: State<'_, WeirState>,
    request: WebhookSendRequest,
) -> AppResult<DryRunResult> {
    let real_server = !state.active_account()?.is_demo;
    let bots = state.bots().await?;
    workbench::dry_run_webhook(&bots, workbench::core_request(request), real_server).await
}
