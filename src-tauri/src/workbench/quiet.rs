//! Why a webhook request the server accepted produced no message. Zulip answers 200 for a
//! channel that does not exist (the bot's owner is told instead, at most once per five
//! minutes), for an event the URL's filters leave out and for an event the integration
//! ignores: without a reason, each looks like a success that lost its message.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;
use weir_core::webhook_url::WebhookUrlSpec;
use weir_integrations::{EventFilter, HeaderMap, Method, Outcome, Request, process};
use zulip_api::ZulipErrorCode;

/// A channel of the organization as the account sees it: the stream field's suggestions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelSummary {
    #[ts(type = "number")]
    pub stream_id: i64,
    pub name: String,
    pub invite_only: bool,
}

/// Why nothing was posted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum NoMessage {
    /// `stream` is not a channel of the organization (or one the bot may not see): the
    /// server answers 200, posts nothing and has Notification Bot tell the bot's owner, at
    /// most once per five minutes. `notified`: that notice came (a send) or would come
    /// (a dry run); `false`: one had already gone out in the last five minutes.
    NoSuchChannel { stream: String, notified: bool },
    /// `only_events` / `exclude_events` leave out this event (Zulip's name for it).
    Filtered { event: String },
    /// The integration sends nothing for this payload (an empty push, a branch left out).
    Ignored,
    /// An event the integration does not handle (`UNSUPPORTED_WEBHOOK_EVENT_TYPE`).
    Unsupported { event: String },
    /// None of those that Weir can see (an integration its registry lacks).
    Unknown,
}

/// What a request was and what came of it.
#[derive(Debug, Clone, Copy)]
pub struct Answered<'a> {
    pub spec: &'a WebhookUrlSpec,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
    pub status: u16,
    pub response: &'a str,
    /// Whether the bot posted anything (`false`: nothing, or only notices).
    pub posted: bool,
    /// Whether a Notification Bot notice came back.
    pub notified: bool,
}

/// Why `answered` posted nothing; `None` when it posted, or failed (its status says why).
/// `channel_exists` tells whether a stream (name or id) is a channel of the organization;
/// `None` when the list could not be read.
pub fn explain(
    answered: &Answered<'_>,
    channel_exists: impl Fn(&str) -> Option<bool>,
) -> Option<NoMessage> {
    if answered.posted || !(200..300).contains(&answered.status) {
        return None;
    }
    if let Some(event) = unsupported_event(answered.response) {
        return Some(NoMessage::Unsupported { event });
    }
    let outcome = weir_integrations::find(&answered.spec.integration)
        .and_then(|integration| run_locally(integration, answered));
    match outcome {
        Some(Outcome::Filtered { event }) => return Some(NoMessage::Filtered { event }),
        Some(Outcome::Ignored) => return Some(NoMessage::Ignored),
        Some(Outcome::Unsupported { event }) => return Some(NoMessage::Unsupported { event }),
        Some(Outcome::Messages(_)) | None => {}
    }
    let stream = answered.spec.stream.as_deref().map(str::trim);
    let produced = matches!(outcome, Some(Outcome::Messages(_)));
    match stream {
        None | Some("") => Some(NoMessage::Unknown),
        Some(stream) => match channel_exists(stream) {
            Some(false) => Some(NoMessage::NoSuchChannel {
                stream: stream.to_owned(),
                notified: answered.notified,
            }),
            // No list, but the integration made a message that never arrived: the
            // server found no channel it could post to.
            None if produced => Some(NoMessage::NoSuchChannel {
                stream: stream.to_owned(),
                notified: answered.notified,
            }),
            Some(true) | None => Some(NoMessage::Unknown),
        },
    }
}

/// Whether `stream` (a name, case-insensitive; digits: an id, as the server reads them) is
/// one of `channels`.
pub fn channel_in(channels: &[ChannelSummary], stream: &str) -> bool {
    let stream = stream.trim();
    if !stream.is_empty() && stream.bytes().all(|b| b.is_ascii_digit()) {
        return stream
            .parse::<i64>()
            .is_ok_and(|id| channels.iter().any(|channel| channel.stream_id == id));
    }
    let wanted = stream.to_lowercase();
    channels
        .iter()
        .any(|channel| channel.name.to_lowercase() == wanted)
}

/// The event of Zulip's "unsupported event" answer.
fn unsupported_event(response: &str) -> Option<String> {
    let answer: Value = serde_json::from_str(response).ok()?;
    let code = answer.get("code").and_then(Value::as_str)?;
    (code == ZulipErrorCode::UnsupportedWebhookEventType.as_str()).then(|| {
        answer
            .get("event_type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    })
}

/// The request through Weir's own copy of the integration (pure code, nothing sent).
fn run_locally(
    integration: &weir_integrations::Integration,
    answered: &Answered<'_>,
) -> Option<Outcome> {
    let spec = answered.spec;
    let listed = |events: &[String]| (!events.is_empty()).then(|| events.to_vec());
    let (only, exclude) = (listed(&spec.only_events), listed(&spec.exclude_events));
    let filter = EventFilter::new(only.as_deref(), exclude.as_deref()).ok()?;
    let options: BTreeMap<String, String> = spec.options.iter().cloned().collect();
    let topic = spec
        .topic
        .as_deref()
        .filter(|topic| !topic.trim().is_empty());
    let request = Request {
        method: &Method::POST,
        headers: answered.headers,
        body: answered.body,
        options: &options,
        filter: &filter,
        topic,
    };
    process(integration, &request).ok()
}

/// Zulip's name for the event a sample produces (what `only_events` matches), found by
/// running it through a filter that leaves every event out.
pub fn event_of(
    integration: &weir_integrations::Integration,
    headers: &HeaderMap,
    body: &[u8],
) -> Option<String> {
    let everything = vec!["*".to_owned()];
    let filter = EventFilter::new(None, Some(&everything)).ok()?;
    let request = Request {
        method: &Method::POST,
        headers,
        body,
        options: &BTreeMap::new(),
        filter: &filter,
        topic: None,
    };
    match process(integration, &request) {
        Ok(Outcome::Filtered { event }) => Some(event),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(integration: &str, stream: Option<&str>) -> WebhookUrlSpec {
        WebhookUrlSpec {
            integration: integration.to_owned(),
            stream: stream.map(str::to_owned),
            topic: None,
            only_events: Vec::new(),
            exclude_events: Vec::new(),
            options: Vec::new(),
        }
    }

    const HELLO: &[u8] = br#"{"featured_title": "Tea", "featured_url": "https://x.test"}"#;
    const OK: &str = r#"{"result":"success","msg":""}"#;

    fn answered<'a>(spec: &'a WebhookUrlSpec, headers: &'a HeaderMap) -> Answered<'a> {
        Answered {
            spec,
            headers,
            body: HELLO,
            status: 200,
            response: OK,
            posted: false,
            notified: false,
        }
    }

    fn channels() -> Vec<ChannelSummary> {
        vec![ChannelSummary {
            stream_id: 4,
            name: "General".to_owned(),
            invite_only: false,
        }]
    }

    #[test]
    fn a_missing_channel_is_named_with_whether_the_owner_was_told() {
        let headers = HeaderMap::new();
        let spec = spec("helloworld", Some(" genral "));
        let list = channels();
        let exists = |stream: &str| Some(channel_in(&list, stream));
        assert_eq!(
            explain(&answered(&spec, &headers), exists),
            Some(NoMessage::NoSuchChannel {
                stream: "genral".into(),
                notified: false
            })
        );
        let told = Answered {
            notified: true,
            ..answered(&spec, &headers)
        };
        assert_eq!(
            explain(&told, exists),
            Some(NoMessage::NoSuchChannel {
                stream: "genral".into(),
                notified: true
            })
        );
        // Without a list, a message the integration made and that never came says the same.
        assert!(matches!(
            explain(&answered(&spec, &headers), |_| None),
            Some(NoMessage::NoSuchChannel { .. })
        ));
    }

    #[test]
    fn a_message_or_a_failure_needs_no_reason() {
        let headers = HeaderMap::new();
        let spec = spec("helloworld", Some("genral"));
        let posted = Answered {
            posted: true,
            ..answered(&spec, &headers)
        };
        assert_eq!(explain(&posted, |_| Some(false)), None);
        let refused = Answered {
            status: 400,
            ..answered(&spec, &headers)
        };
        assert_eq!(explain(&refused, |_| Some(false)), None);
        let existing = spec_with_stream("general");
        assert_eq!(
            explain(&answered(&existing, &headers), |s| Some(channel_in(
                &channels(),
                s
            ))),
            Some(NoMessage::Unknown)
        );
    }

    fn spec_with_stream(stream: &str) -> WebhookUrlSpec {
        spec("helloworld", Some(stream))
    }

    #[test]
    fn filtered_ignored_and_unsupported_events_are_told_apart() {
        let integration = weir_integrations::find("bitbucket2").unwrap();
        let fork = integration
            .fixtures
            .iter()
            .find(|fixture| fixture.name == "fork")
            .unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("X-Event-Key", fork.headers[0].1.parse().unwrap());
        let mut filtered = spec("bitbucket2", Some("General"));
        filtered.exclude_events = vec!["fo*".to_owned()];
        let request = Answered {
            body: fork.body.as_bytes(),
            ..answered(&filtered, &headers)
        };
        assert_eq!(
            explain(&request, |_| Some(true)),
            Some(NoMessage::Filtered {
                event: "fork".into()
            })
        );
        let unsupported = Answered {
            response: r#"{"result":"success","msg":"x","code":"UNSUPPORTED_WEBHOOK_EVENT_TYPE","event_type":"repo:nope"}"#,
            ..answered(&filtered, &headers)
        };
        assert_eq!(
            explain(&unsupported, |_| Some(true)),
            Some(NoMessage::Unsupported {
                event: "repo:nope".into()
            })
        );
        assert_eq!(
            event_of(integration, &headers, fork.body.as_bytes()).as_deref(),
            Some("fork")
        );
    }

    #[test]
    fn channels_match_by_name_in_any_case_or_by_id() {
        let list = channels();
        assert!(channel_in(&list, "general"));
        assert!(channel_in(&list, " GENERAL "));
        assert!(channel_in(&list, "4"));
        assert!(!channel_in(&list, "5"));
        assert!(!channel_in(&list, "genral"));
    }
}
