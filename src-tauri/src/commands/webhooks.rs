//! The webhook URL builder and workbench.

use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Runtime, State};
use ts_rs::TS;
use weir_core::bots::{RememberedUrlView, WebhookRequest};
use weir_core::webhook_catalog::WebhookCatalog;
use weir_core::webhook_url::{self, WebhookUrlSpec};

use super::bots::BotIdRequest;
use super::command;
use crate::clipboard::copy_secret;
use crate::error::{AppError, AppResult};
use crate::memberships::MembershipsState;
use crate::state::Session;
use crate::workbench::quiet::ChannelSummary;
use crate::workbench::{self, DryRunResult, IntegrationSummary, WebhookSendResult};

/// Longest Markdown the preview renders: Zulip's longest message.
const MAX_PREVIEW_CHARS: usize = 10_000;

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RenderMarkdownRequest {
    pub content: String,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RememberedIdRequest {
    #[ts(type = "number")]
    pub id: i64,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewUrlRequest {
    pub spec: WebhookUrlSpec,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookUrlRequest {
    #[ts(type = "number")]
    pub bot_user_id: i64,
    pub spec: WebhookUrlSpec,
}

/// A URL Weir built for a bot, remembered without its key, shown masked.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RememberedWebhookUrl {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number")]
    pub bot_user_id: i64,
    pub spec: WebhookUrlSpec,
    pub masked: String,
    /// Unix seconds.
    #[ts(type = "number")]
    pub last_built_at: i64,
}

impl From<RememberedUrlView> for RememberedWebhookUrl {
    fn from(view: RememberedUrlView) -> Self {
        Self {
            id: view.url.id,
            bot_user_id: view.url.bot_user_id,
            spec: view.url.spec,
            masked: view.masked,
            last_built_at: view.url.last_built_at,
        }
    }
}

/// The shared registry's integrations, with event names, options and fixtures.
#[command]
pub fn list_integrations() -> Vec<IntegrationSummary> {
    workbench::integrations()
}

/// The active account's server's integrations, from its `register`
/// (`realm_incoming_webhook_bots`): what the URL builder offers.
#[command]
pub async fn webhook_catalog(session: State<'_, Session>) -> AppResult<WebhookCatalog> {
    let client = session.client().await?;
    let catalog = client
        .webhook_catalog()
        .await
        .map_err(weir_core::CoreError::from)?;
    Ok(catalog)
}

/// The URL for the active account's server with the key masked; remembers nothing.
#[command]
pub async fn preview_webhook_url(
    session: State<'_, Session>,
    request: PreviewUrlRequest,
) -> AppResult<String> {
    let client = session.client().await?;
    let masked =
        webhook_url::masked(client.site(), &request.spec).map_err(weir_core::CoreError::from)?;
    Ok(masked)
}

/// Copies the full URL (key included) and remembers it, without the key, for the
/// rotation assistant.
#[command]
pub async fn copy_webhook_url<R: Runtime>(
    app: AppHandle<R>,
    session: State<'_, Session>,
    request: WebhookUrlRequest,
) -> AppResult<RememberedWebhookUrl> {
    let bots = session.bots().await?;
    let built = bots.build_url(request.bot_user_id, &request.spec).await?;
    copy_secret(&app, built.full)?;
    Ok(RememberedWebhookUrl::from(RememberedUrlView {
        url: built.remembered,
        masked: built.masked,
    }))
}

/// Copies a remembered URL rebuilt with the bot's current key.
#[command]
pub async fn copy_remembered_url<R: Runtime>(
    app: AppHandle<R>,
    session: State<'_, Session>,
    request: RememberedIdRequest,
) -> AppResult<Option<u64>> {
    let url = session
        .bots()
        .await?
        .remembered_url_with_key(request.id)
        .await?;
    copy_secret(&app, url)
}

/// The URLs Weir built for a bot, masked, most recent first.
#[command]
pub async fn webhook_urls(
    session: State<'_, Session>,
    request: BotIdRequest,
) -> AppResult<Vec<RememberedWebhookUrl>> {
    let urls = session.bots().await?.remembered_urls(request.user_id)?;
    Ok(urls.into_iter().map(Into::into).collect())
}

/// Posts to the bot's webhook URL on the active account's server and reads back what
/// it produced. (The UI asks once per session before a real server.)
#[command]
pub async fn send_webhook(
    session: State<'_, Session>,
    request: WebhookRequest,
) -> AppResult<WebhookSendResult> {
    let bots = session.bots().await?;
    let result = bots.send_webhook(&request).await?;
    let no_message = workbench::explain_send(bots.client(), &request, &result).await;
    Ok(workbench::send_result(result, no_message))
}

/// The active account's channels, by name: the workbench's stream suggestions, and how
/// it flags a name that is not one.
#[command]
pub async fn list_webhook_channels(session: State<'_, Session>) -> AppResult<Vec<ChannelSummary>> {
    let client = session.client().await?;
    workbench::channels(&client).await
}

/// Markdown rendered by the active account's server (`POST /messages/render`, as that
/// account's messages are): the workbench's raw-Markdown preview. The HTML is untrusted.
#[command]
pub async fn render_markdown(
    session: State<'_, Session>,
    request: RenderMarkdownRequest,
) -> AppResult<String> {
    if request.content.chars().count() > MAX_PREVIEW_CHARS {
        return Err(AppError::InvalidInput(format!(
            "the message is longer than {MAX_PREVIEW_CHARS} characters"
        )));
    }
    if request.content.trim().is_empty() {
        return Ok(String::new());
    }
    let client = session.client().await?;
    let html = client
        .render_message(&request.content)
        .await
        .map_err(weir_core::CoreError::from)?;
    Ok(html)
}

/// What a request would produce, without posting anything; mentions and channel links
/// resolved from the account's copy of the organization (loaded once, as the
/// memberships grid's).
#[command]
pub async fn dry_run_webhook(
    session: State<'_, Session>,
    memberships: State<'_, MembershipsState>,
    request: WebhookRequest,
) -> AppResult<DryRunResult> {
    let real_server = !session.account()?.is_demo;
    let bots = session.bots().await?;
    let organization = match memberships.matrix(&session).await {
        Ok(matrix) => Some(matrix),
        Err(error) => {
            // The preview still shows the message; its names stay plain text.
            tracing::debug!(%error, "no organization to resolve the dry run's names");
            None
        }
    };
    workbench::dry_run_webhook(&bots, request, real_server, organization).await
}
