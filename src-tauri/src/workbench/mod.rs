//! The webhook workbench's glue between the core and the local server's pure webhook
//! step: registry summaries, real sends mapped for the UI, and dry runs rendered by the
//! same code as the server's endpoint (`weir_server::webhook::dry_run`), each with the
//! reason when nothing was posted ([`quiet`]).

pub mod directory;
pub mod quiet;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use ts_rs::TS;
use weir_core::bots::{BotManager, ResultDestination, WebhookRequest, WebhookResult};
use weir_core::client::ZulipClient;
use weir_core::memberships::Matrix;
use weir_core::webhook_url::{self, WebhookUrlSpec};

use weir_integrations::{
    EventFilter, EventSource, HeaderMap, Integration, Method, Rejection, Request, process, registry,
};
use weir_integrations::{HeaderName, HeaderValue};
use weir_server::webhook::dry_run::{DryRunMessage, DryRunRequest, dry_run, missing_channel};

use crate::error::{AppError, AppResult};
use directory::BotDirectory;
use quiet::{Answered, ChannelSummary, NoMessage, channel_in, explain};

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
    /// Zulip's name for the sample's event (what `only_events` matches), if it has one.
    pub event: Option<String>,
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
    /// Why the bot posted nothing, when the server accepted the request.
    pub no_message: Option<NoMessage>,
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
    /// Why the bot would post nothing, when the server would accept the request.
    pub no_message: Option<NoMessage>,
}

/// Every integration of the shared registry with its fixtures.
pub fn integrations() -> Vec<IntegrationSummary> {
    registry()
        .iter()
        .map(|integration| IntegrationSummary {
            name: integration.name.to_owned(),
            display_name: integration.display_name.to_owned(),
            event_types: integration
                .event_types
                .iter()
                .map(|event| (*event).to_owned())
                .collect(),
            event_header: match integration.event_source {
                EventSource::Header(name) => Some(name.to_owned()),
                EventSource::None | EventSource::BodyField(_) => None,
            },
            needs_header_fixture: needs_header_fixture(integration),
            url_options: integration
                .config_options
                .iter()
                .map(|option| UrlOptionSummary {
                    key: option.key.to_owned(),
                    label: option.description.to_owned(),
                })
                .chain(integration.url_options.iter().map(|key| UrlOptionSummary {
                    key: (*key).to_owned(),
                    label: (*key).to_owned(),
                }))
                .collect(),
            fixtures: integration
                .fixtures
                .iter()
                .map(|fixture| FixtureSummary {
                    name: fixture.name.to_owned(),
                    body: fixture.body.to_owned(),
                    headers: fixture
                        .headers
                        .iter()
                        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                        .collect(),
                    event: sample_event(integration, fixture.headers, fixture.body),
                })
                .collect(),
        })
        .collect()
}

/// The first fixture the integration refuses without its event header (a Bitbucket push
/// is known by its payload; a pull request needs the header).
fn needs_header_fixture(integration: &Integration) -> Option<String> {
    let EventSource::Header(header) = integration.event_source else {
        return None;
    };
    integration
        .fixtures
        .iter()
        .find(|fixture| {
            let request = Request {
                method: &Method::POST,
                headers: &HeaderMap::new(),
                body: fixture.body.as_bytes(),
                options: &BTreeMap::new(),
                filter: &EventFilter::default(),
                topic: None,
            };
            matches!(
                process(integration, &request),
                Err(Rejection::MissingEventHeader { header: missing }) if missing == header
            )
        })
        .map(|fixture| fixture.name.to_owned())
}

/// The Zulip event name of a sample (its headers are the registry's own, always valid).
fn sample_event(
    integration: &Integration,
    headers: &[(&'static str, &'static str)],
    body: &str,
) -> Option<String> {
    let pairs: Vec<(String, String)> = headers
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    let map = header_map(&pairs).ok()?;
    quiet::event_of(integration, &map, body.as_bytes())
}

/// The channels the account can see, by name: every channel for an administrator
/// (`include_all`), else those a member sees (a server that refuses `include_all` to
/// this account is asked again without it).
pub async fn channels(client: &ZulipClient) -> AppResult<Vec<ChannelSummary>> {
    let streams = match client.get_streams(true).await {
        Ok(streams) => streams,
        Err(_) => client
            .get_streams(false)
            .await
            .map_err(weir_core::CoreError::from)?,
    };
    let mut channels: Vec<ChannelSummary> = streams
        .into_iter()
        .map(|stream| ChannelSummary {
            stream_id: stream.stream_id,
            name: stream.name,
            invite_only: stream.invite_only,
        })
        .collect();
    channels.sort_by_key(|channel| channel.name.to_lowercase());
    Ok(channels)
}

/// Whether `request`'s stream is a channel: `None` when there is no stream or the list
/// cannot be read (the reason is then given without it).
async fn stream_exists(client: &ZulipClient, spec: &WebhookUrlSpec) -> Option<bool> {
    let stream = spec.stream.as_deref()?;
    match channels(client).await {
        Ok(list) => Some(channel_in(&list, stream)),
        Err(error) => {
            tracing::debug!(%error, "cannot list the channels to explain a webhook");
            None
        }
    }
}

/// Why a real send posted nothing (asks for the channels only then).
pub async fn explain_send(
    client: &ZulipClient,
    request: &WebhookRequest,
    result: &WebhookResult,
) -> Option<NoMessage> {
    let posted = result.messages.iter().any(|m| !m.is_notification);
    if posted || !(200..300).contains(&result.status) {
        return None;
    }
    let spec = request.spec.normalized();
    let headers = header_map(&request.headers).ok()?;
    let exists = stream_exists(client, &spec).await;
    explain(
        &Answered {
            spec: &spec,
            headers: &headers,
            body: request.body.as_bytes(),
            status: result.status,
            response: &result.response,
            posted,
            notified: result.messages.iter().any(|m| m.is_notification),
        },
        |_| exists,
    )
}

pub fn send_result(result: WebhookResult, no_message: Option<NoMessage>) -> WebhookSendResult {
    WebhookSendResult {
        no_message,
        status: result.status,
        response: result.response,
        messages: result
            .messages
            .into_iter()
            .map(|message| {
                let (stream, topic, recipients) = match message.destination {
                    ResultDestination::Stream { stream, topic } => {
                        (Some(stream), Some(topic), Vec::new())
                    }
                    ResultDestination::Direct { recipients } => (None, None, recipients),
                };
                ResultMessage {
                    id: message.id,
                    sender_full_name: message.sender_full_name,
                    sender_email: message.sender_email,
                    is_notification: message.is_notification,
                    stream,
                    topic,
                    recipients,
                    content_html: message.content_html,
                }
            })
            .collect(),
    }
}

/// What the request would produce, without posting: the server's own parsing,
/// integration and renderer, in-process, with names resolved as the bot sees the
/// organization in `organization` (the account's copy, see [`directory`]; `None`: names
/// stay plain text). For a real server, each message's Markdown is also rendered by that
/// server (`POST /messages/render`) to compare.
pub async fn dry_run_webhook(
    bots: &BotManager<'_>,
    request: WebhookRequest,
    real_server: bool,
    organization: Option<Arc<Matrix>>,
) -> AppResult<DryRunResult> {
    request.validate()?;
    let spec: WebhookUrlSpec = request.spec.normalized();
    let (bot, owner) = bots.bot_and_owner(request.bot_user_id).await?;
    let masked =
        webhook_url::masked(bots.client().site(), &spec).map_err(weir_core::CoreError::from)?;
    let query = masked
        .split_once('?')
        .map_or("", |(_, query)| query)
        .to_owned();
    let headers = header_map(&request.headers)?;
    let integration = spec.integration.clone();
    let bot_name = bot.full_name.clone();
    let (preview_headers, request_body) = (headers.clone(), request.body.clone());
    let (bot_id, site) = (bot.user_id, bots.client().site().to_owned());
    // Rendering is CPU work: off the async threads.
    let mut preview = tauri::async_runtime::spawn_blocking(move || {
        let directory = organization.map(|matrix| BotDirectory::new(&matrix, bot_id, &site));
        dry_run(&DryRunRequest {
            integration: &integration,
            query: &query,
            headers: &headers,
            body: request.body.as_bytes(),
            bot_full_name: &bot_name,
            directory: directory
                .as_ref()
                .map(|directory| directory as &dyn weir_server::render::Directory),
        })
    })
    .await
    .map_err(|error| AppError::Internal(format!("dry run failed: {error}")))?;

    // The dry run has no database: the channel is checked against the account's list,
    // and a missing one previews the owner's notice instead of the bot's message.
    let accepted = (200..300).contains(&preview.status);
    let exists = if accepted && !preview.messages.is_empty() {
        stream_exists(bots.client(), &spec).await
    } else {
        None
    };
    let no_message = match (exists, spec.stream.as_deref()) {
        (Some(false), Some(stream)) => {
            preview.messages.clear();
            preview
                .notices
                .extend(missing_channel(&bot.email, stream.trim()));
            Some(NoMessage::NoSuchChannel {
                stream: stream.trim().to_owned(),
                notified: true,
            })
        }
        _ => explain(
            &Answered {
                spec: &spec,
                headers: &preview_headers,
                body: request_body.as_bytes(),
                status: preview.status,
                response: &preview.response.to_string(),
                posted: !preview.messages.is_empty(),
                notified: !preview.notices.is_empty(),
            },
            |_| exists,
        ),
    };

    let mut comparisons = Vec::new();
    if real_server {
        for message in &preview.messages {
            let server_html = bots
                .client()
                .render_message(&message.content)
                .await
                .map_err(weir_core::CoreError::from)?;
            comparisons.push(RenderComparison {
                same: server_html == message.rendered,
                local_html: message.rendered.clone(),
                server_html,
            });
        }
    }
    let as_result = |index: usize, message: DryRunMessage, notice: bool| {
        let direct = message.stream.is_none();
        ResultMessage {
            id: -1 - i64::try_from(index).unwrap_or(0),
            sender_full_name: if notice {
                "Notification Bot".to_owned()
            } else {
                bot.full_name.clone()
            },
            sender_email: if notice {
                weir_core::bots::NOTIFICATION_BOT_EMAIL.to_owned()
            } else {
                bot.email.clone()
            },
            is_notification: notice,
            topic: (!direct).then(|| message.topic.clone()),
            stream: message.stream,
            recipients: if direct {
                vec![owner.full_name.clone()]
            } else {
                Vec::new()
            },
            content_html: message.rendered,
        }
    };
    let count = preview.messages.len();
    let mut messages: Vec<ResultMessage> = preview
        .messages
        .into_iter()
        .enumerate()
        .map(|(index, message)| as_result(index, message, false))
        .collect();
    messages.extend(
        preview
            .notices
            .into_iter()
            .enumerate()
            .map(|(index, message)| as_result(count + index, message, true)),
    );
    Ok(DryRunResult {
        status: preview.status,
        response: preview.response.to_string(),
        messages,
        comparisons,
        no_message,
    })
}

fn header_map(headers: &[(String, String)]) -> AppResult<HeaderMap> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| AppError::InvalidInput(format!("invalid header name '{name}'")))?;
        let value = HeaderValue::from_str(value.trim())
            .map_err(|_| AppError::InvalidInput(format!("invalid value for header {name}")))?;
        map.append(name, value);
    }
    Ok(map)
}
