//! The integration registry: every incoming webhook Weir understands, as pure code.
//!
//! A webhook request is a method, headers and a body plus the options in its URL;
//! [`process`] turns it into a message or a notice without any I/O. The server adds
//! authentication, stream resolution and storage around it; the app uses the same
//! registry (names, event types, fixtures, config and URL options) to build webhook URLs
//! and to preview fixtures offline.
//!
//! Adding an integration is one module that returns an [`Integration`] plus one line in
//! [`registry`]. Integrations only turn a payload into a topic and a Markdown body;
//! event-type extraction and `only_events`/`exclude_events` filtering are shared.

mod alertmanager;
mod bitbucket2;
mod body;
mod filter;
mod git;
mod gitea;
mod github;
mod gitlab;
mod grafana;
mod helloworld;
mod jira;
mod json;
pub mod limits;
mod pagerduty;
mod process;
mod python;
mod pyvalue;
mod sentry;
mod slack_incoming;
mod time;
mod url_options;
mod wild;

use std::collections::BTreeMap;
use std::sync::LazyLock;

pub use http::{HeaderMap, HeaderName, HeaderValue, Method};
use serde::Serialize;
use serde_json::Value;

pub use filter::{EventFilter, FilterError, MAX_EVENT_PATTERNS, MAX_PATTERN_CHARS, fnmatch};
pub use process::{
    MAX_EVENT_TYPE_CHARS, Outcome, Processed, Rejection, Request, process, process_batch,
};
pub use url_options::{UrlOption, url_option};

/// How a webhook request proves who sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthScheme {
    /// `api_key` in the query string (or a form body): Zulip's default.
    ApiKey,
    /// HTTP basic auth with the bot's e-mail and key, for services that only speak that.
    BasicAuth,
}

/// Where an integration finds the event type of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum EventSource {
    None,
    Header(&'static str),
    /// A top-level string field of the JSON body.
    BodyField(&'static str),
}

/// A setting the user fills in when generating the webhook URL (Zulip's
/// `config_options`): shown as `description`, sent as query parameter `key`.
#[derive(Debug, Clone, Serialize)]
pub struct ConfigOption {
    pub description: &'static str,
    pub key: &'static str,
    pub validator: Validator,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Validator {
    Text,
    Boolean,
}

/// A sample request, for preview tools and tests.
#[derive(Debug, Clone, Serialize)]
pub struct Fixture {
    pub name: &'static str,
    pub body: &'static str,
    pub headers: &'static [(&'static str, &'static str)],
}

/// One message a handler makes of a payload.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookMessage {
    pub topic: String,
    pub content: String,
}

/// Everything a handler makes of a payload: the event's name as Zulip names it for this
/// integration (what `only_events`/`exclude_events` match, e.g. Bitbucket's
/// `pull_request_created`), and the messages, one or more (Zulip sends one message per
/// change of a Bitbucket push).
#[derive(Debug, Clone, PartialEq)]
pub struct HandlerOutput {
    /// `None`: the integration has no event types, or names them as the request does.
    pub event: Option<String>,
    pub messages: Vec<WebhookMessage>,
    /// Each message's own event, for batches whose items Zulip filters one by one (a
    /// Grafana notification's alerts, a PagerDuty V1/V2 `messages` list: Zulip's view
    /// calls `check_send_webhook_message` per item with that item's event). As long as
    /// `messages` when used; empty: `event` names them all.
    pub item_events: Vec<String>,
}

impl HandlerOutput {
    /// One message, with the event named as the request named it.
    pub fn one(message: WebhookMessage) -> Self {
        Self::new(None, vec![message])
    }

    /// Messages that share one event (`None`: as the request names it).
    pub fn new(event: Option<String>, messages: Vec<WebhookMessage>) -> Self {
        Self {
            event,
            messages,
            item_events: Vec::new(),
        }
    }

    /// A batch whose items are filtered one by one, each by its own event; `event`, the
    /// first item's, names the batch where one name is needed (an all-filtered answer).
    pub fn per_item(items: Vec<(String, WebhookMessage)>) -> Self {
        let (item_events, messages): (Vec<String>, Vec<WebhookMessage>) = items.into_iter().unzip();
        Self {
            event: item_events.first().cloned(),
            messages,
            item_events,
        }
    }
}

/// Why a handler did not produce a message.
#[derive(Debug, Clone, PartialEq)]
pub enum HandlerError {
    /// A key the payload must have is absent (or has the wrong type).
    MissingKey(String),
    /// The event type is one this integration does not handle.
    UnsupportedEvent(String),
    /// The event-type header is needed for this payload but absent: the owner is told
    /// and the request fails with `MISSING_HTTP_EVENT_HEADER`.
    MissingEventHeader,
    /// The payload is not one the service sends (Zulip's `AnomalousWebhookPayloadError`:
    /// a 400 asking whether the service generated it, e.g. a Jira body without an event
    /// or a Grafana test notification).
    AnomalousPayload,
    /// A request the integration accepts but that produces no message (an empty push,
    /// a branch the URL filters out): answered with plain success, nothing sent.
    Ignored,
    /// The body is not JSON, for an integration that reads it itself (the JSON
    /// formatter): Zulip's `Malformed JSON`.
    MalformedJson,
    /// The payload is refused with this text (Zulip's validation of the body's type,
    /// e.g. `request is not a dict`).
    Invalid(String),
    /// A batch refused at an item after the items of `sent`, which Zulip's view had
    /// already sent: it calls `check_send_webhook_message`, each its own send, for one
    /// item after another (a Grafana notification's alerts). See [`process_batch`].
    AfterItems {
        sent: Box<HandlerOutput>,
        error: Box<HandlerError>,
    },
}

impl HandlerError {
    /// `error`, met at a batch's item after `sent` (each with its own event).
    pub fn after_items(sent: Vec<(String, WebhookMessage)>, error: HandlerError) -> Self {
        if sent.is_empty() {
            return error;
        }
        Self::AfterItems {
            sent: Box::new(HandlerOutput::per_item(sent)),
            error: Box::new(error),
        }
    }
}

/// What a handler sees of a request.
pub struct Payload<'a> {
    pub method: &'a Method,
    pub json: &'a Value,
    pub headers: &'a HeaderMap,
    /// The event type, when the request carries one (a header may be absent: the handler
    /// decides whether it needed it, as Zulip's integrations do).
    pub event_type: Option<&'a str>,
    /// Query parameters named by the integration's config options and URL options.
    pub options: &'a BTreeMap<String, String>,
    /// The URL's `topic`, which replaces the integrations' topics: some integrations then
    /// put the item's title in the message instead (Zulip's `user_specified_topic`).
    pub topic: Option<&'a str>,
}

impl Payload<'_> {
    /// A string at a JSON pointer (`/repository/name`), or `MissingKey` naming its last part.
    pub fn str_at(&self, pointer: &str) -> Result<&str, HandlerError> {
        self.value_at(pointer)?
            .as_str()
            .ok_or_else(|| missing(pointer))
    }

    pub fn value_at(&self, pointer: &str) -> Result<&Value, HandlerError> {
        lookup(self.json, pointer).ok_or_else(|| missing(pointer))
    }
}

/// `Value::pointer` without its allocation per step when no step is escaped (`~0`,
/// `~1`): handlers look a few pointers up in every webhook request.
fn lookup<'a>(json: &'a Value, pointer: &str) -> Option<&'a Value> {
    if pointer.is_empty() || pointer.contains('~') {
        return json.pointer(pointer);
    }
    let steps = pointer.strip_prefix('/')?;
    steps.split('/').try_fold(json, |value, step| match value {
        Value::Object(fields) => fields.get(step),
        // As in RFC 6901: decimal digits, no sign, no leading zero.
        Value::Array(items) if step == "0" || !step.starts_with(['0', '+']) => {
            items.get(step.parse::<usize>().ok()?)
        }
        _ => None,
    })
}

fn missing(pointer: &str) -> HandlerError {
    HandlerError::MissingKey(pointer.rsplit('/').next().unwrap_or(pointer).to_owned())
}

pub type Handler = fn(&Payload<'_>) -> Result<HandlerOutput, HandlerError>;

/// One integration, as Zulip's `WebhookIntegration` describes it.
#[derive(Debug, Clone, Serialize)]
pub struct Integration {
    /// Lower case; the last segment of `/api/v1/external/<name>`.
    pub name: &'static str,
    pub display_name: &'static str,
    pub categories: &'static [&'static str],
    /// Product name in camel case; messages record `Zulip<view_name>Webhook` as client.
    pub view_name: &'static str,
    pub auth: AuthScheme,
    pub event_source: EventSource,
    /// The event names `handler` reports (Zulip's `all_event_types`), for filters and the
    /// URL builder.
    pub event_types: &'static [&'static str],
    pub config_options: &'static [ConfigOption],
    /// Extra query parameters the integration reads (Zulip's URL options).
    pub url_options: &'static [&'static str],
    pub fixtures: &'static [Fixture],
    #[serde(skip)]
    pub handler: Handler,
}

impl Integration {
    pub fn client_name(&self) -> String {
        format!("Zulip{}Webhook", self.view_name)
    }

    /// The query parameters handed to the handler: config options, then URL options.
    pub fn option_keys(&self) -> impl Iterator<Item = &'static str> + use<> {
        let config = self.config_options.iter().map(|option| option.key);
        config.chain(self.url_options.iter().copied())
    }

    /// What the bot's owner is told when a request lacks the event header (Zulip's
    /// wording): `path` is the URL path the request was sent to.
    pub fn missing_header_notice(&self, bot_name: &str, path: &str, header: &str) -> String {
        format!(
            "Hi there! Your bot {bot_name} just sent an HTTP request to {path} that is missing \
             the HTTP {header} header. Because this header is how {name} indicates the event \
             type, this usually indicates a configuration issue, where you either entered the \
             URL for a different integration, or are running an older version of the \
             third-party service that doesn't provide that header.",
            name = self.display_name,
        )
    }
}

/// Runs `handler` on `json` as [`process`] would, with no headers: the integrations' unit
/// tests call their handler through this one door.
#[cfg(test)]
pub(crate) fn run_handler(
    handler: Handler,
    json: &Value,
    event_type: Option<&str>,
    options: &[(&str, &str)],
    topic: Option<&str>,
) -> Result<HandlerOutput, HandlerError> {
    let headers = HeaderMap::new();
    let options: BTreeMap<String, String> = options
        .iter()
        .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
        .collect();
    handler(&Payload {
        method: &Method::POST,
        json,
        headers: &headers,
        event_type,
        options: &options,
        topic,
    })
}

static REGISTRY: LazyLock<Vec<Integration>> = LazyLock::new(|| {
    vec![
        helloworld::integration(),
        bitbucket2::integration(),
        gitea::integration(),
        json::integration(),
        alertmanager::integration(),
        grafana::integration(),
        slack_incoming::integration(),
        github::integration(),
        gitlab::integration(),
        jira::integration(),
        pagerduty::integration(),
        sentry::integration(),
    ]
});

/// Every registered integration, by name.
pub fn registry() -> &'static [Integration] {
    &REGISTRY
}

pub fn find(name: &str) -> Option<&'static Integration> {
    registry()
        .iter()
        .find(|integration| integration.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_agrees_with_json_pointer() {
        let json = serde_json::json!({
            "a": {"b": [10, {"c": "x"}], "": 1, "s/t": 2, "m~n": 3},
            "0": "zero",
        });
        for pointer in [
            "",
            "/",
            "/a",
            "/a/b",
            "/a/b/0",
            "/a/b/1/c",
            "/a/b/01",
            "/a/b/+1",
            "/a/b/2",
            "/a/b/-",
            "/a/",
            "/a/s~1t",
            "/a/m~0n",
            "/0",
            "a",
            "/a/b/1/c/d",
            "/a/b/x",
        ] {
            assert_eq!(lookup(&json, pointer), json.pointer(pointer), "{pointer}");
        }
    }

    #[test]
    fn every_integration_is_consistent() {
        for integration in registry() {
            assert_eq!(integration.name, integration.name.to_lowercase());
            assert!(
                !integration.fixtures.is_empty(),
                "{} has no fixtures",
                integration.name
            );
            if integration.event_source == EventSource::None {
                // Without an event source only the handler can name events (Grafana's
                // status): each fixture's must be one of the names declared.
                for fixture in integration.fixtures {
                    let json: Value = serde_json::from_str(fixture.body).unwrap();
                    let (headers, options) = (HeaderMap::new(), BTreeMap::new());
                    let payload = Payload {
                        method: &Method::POST,
                        json: &json,
                        headers: &headers,
                        event_type: None,
                        options: &options,
                        topic: None,
                    };
                    if let Ok(HandlerOutput {
                        event: Some(event), ..
                    }) = (integration.handler)(&payload)
                    {
                        assert!(
                            integration.event_types.contains(&event.as_str()),
                            "{}: {event}",
                            integration.name
                        );
                    }
                }
            }
            assert!(find(integration.name).is_some());
        }
    }
}
