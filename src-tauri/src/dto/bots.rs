//! What the Bots & webhooks page sends and receives. Keys never appear here except in
//! the explicit reveal command's answer (a plain `String`, not a DTO field).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreateBotRequest {
    pub full_name: String,
    pub short_name: String,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BotIdRequest {
    #[ts(type = "number")]
    pub user_id: i64,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RememberedIdRequest {
    #[ts(type = "number")]
    pub id: i64,
}

/// A webhook URL without its key (`stream` null: a direct message to the bot's owner).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookUrlSpec {
    pub integration: String,
    pub stream: Option<String>,
    pub topic: Option<String>,
    pub only_events: Vec<String>,
    pub exclude_events: Vec<String>,
    pub options: Vec<(String, String)>,
}

impl From<WebhookUrlSpec> for weir_core::webhook_url::WebhookUrlSpec {
    fn from(spec: WebhookUrlSpec) -> Self {
        Self {
            integration: spec.integration,
            stream: spec.stream,
            topic: spec.topic,
            only_events: spec.only_events,
            exclude_events: spec.exclude_events,
            options: spec.options,
        }
    }
}

impl From<weir_core::webhook_url::WebhookUrlSpec> for WebhookUrlSpec {
    fn from(spec: weir_core::webhook_url::WebhookUrlSpec) -> Self {
        Self {
            integration: spec.integration,
            stream: spec.stream,
            topic: spec.topic,
            only_events: spec.only_events,
            exclude_events: spec.exclude_events,
            options: spec.options,
        }
    }
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

impl From<weir_core::bots::RememberedUrlView> for RememberedWebhookUrl {
    fn from(view: weir_core::bots::RememberedUrlView) -> Self {
        Self {
            id: view.url.id,
            bot_user_id: view.url.bot_user_id,
            spec: view.url.spec.into(),
            masked: view.masked,
            last_built_at: view.url.last_built_at,
        }
    }
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UrlOptionSummary {
    pub key: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FixtureSummary {
    pub name: String,
    pub body: String,
    pub headers: Vec<(String, String)>,
}

/// One integration of the shared registry, as the URL builder and workbench use it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationSummary {
    pub name: String,
    pub display_name: String,
    /// Zulip's names for its events: the values `only_events`/`exclude_events` match.
    pub event_types: Vec<String>,
    /// The header that carries the event type, if any.
    pub event_header: Option<String>,
    /// A fixture that cannot do without that header (the "missing header" case).
    pub needs_header_fixture: Option<String>,
    pub url_options: Vec<UrlOptionSummary>,
    pub fixtures: Vec<FixtureSummary>,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookSendRequest {
    #[ts(type = "number")]
    pub bot_user_id: i64,
    pub spec: WebhookUrlSpec,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// A message a request produced (read back from the server) or would produce (dry run).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ResultMessage {
    /// The server's message id; negative for a dry run's messages.
    #[ts(type = "number")]
    pub id: i64,
    pub sender_full_name: String,
    pub sender_email: String,
    /// From Notification Bot (a failed delivery, a missing header, ...).
    pub is_notification: bool,
    /// `null` for a direct message.
    pub stream: Option<String>,
    pub topic: Option<String>,
    /// Direct messages: who received it.
    pub recipients: Vec<String>,
    /// Untrusted HTML: the UI sanitizes it before showing it.
    pub content_html: String,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookSendResult {
    pub status: u16,
    /// The answer's body, as text.
    pub response: String,
    pub messages: Vec<ResultMessage>,
}

/// Weir's rendering of a dry-run message next to the real server's own.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RenderComparison {
    pub same: bool,
    pub local_html: String,
    pub server_html: String,
}

#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DryRunResult {
    pub status: u16,
    pub response: String,
    pub messages: Vec<ResultMessage>,
    /// Only for real servers: one per message with Markdown.
    pub comparisons: Vec<RenderComparison>,
}
