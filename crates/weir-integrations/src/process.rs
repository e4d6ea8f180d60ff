//! One webhook request through an integration, as Zulip's webhook views do it: parse the
//! body, find the event type, let the handler build its message, then apply
//! `only_events`/`exclude_events`. No I/O: what to do with the outcome is the caller's.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::{
    EventFilter, EventSource, HandlerError, HandlerOutput, HeaderMap, Integration, Method, Payload,
    WebhookMessage, body,
};

/// Longest event type (header or body field) a request may carry, in characters.
pub const MAX_EVENT_TYPE_CHARS: usize = 256;

/// A webhook request as the integration sees it.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub method: &'a Method,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
    /// The URL's values for [`Integration::option_keys`].
    pub options: &'a BTreeMap<String, String>,
    pub filter: &'a EventFilter,
    /// The URL's `topic`, if it sets one (non-blank).
    pub topic: Option<&'a str>,
}

/// A request the integration accepts (all are a 200 to the sender).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Send these messages, in order (at least one), each under the URL's topic if it
    /// sets one.
    Messages(Vec<WebhookMessage>),
    /// Nothing to send (an empty push, a branch the URL leaves out).
    Ignored,
    /// `only_events`/`exclude_events` leave this event type out.
    Filtered { event: String },
    /// An event type the integration does not handle: answered with Zulip's
    /// `UNSUPPORTED_WEBHOOK_EVENT_TYPE` success, so that services keep the webhook on.
    Unsupported { event: String },
}

/// A request the integration refuses (a 400 to the sender).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("Malformed JSON")]
    MalformedJson,
    /// A key the payload must have is absent or of the wrong type.
    #[error("Missing '{0}' argument")]
    MissingKey(String),
    /// The event header is needed but absent: Zulip also tells the bot's owner, with
    /// [`Integration::missing_header_notice`].
    #[error("Missing the HTTP event header '{header}'")]
    MissingEventHeader { header: &'static str },
    #[error("The event type is too long (at most {MAX_EVENT_TYPE_CHARS} characters)")]
    EventTypeTooLong,
    /// The payload is not what the service sends (Zulip's `AnomalousWebhookPayloadError`,
    /// code `ANOMALOUS_WEBHOOK_PAYLOAD`); `webhook` is the integration's view name.
    #[error("Unable to parse request: Did {webhook} generate this event?")]
    AnomalousPayload { webhook: &'static str },
    /// The payload is not of the shape the view validates (Zulip's own text).
    #[error("{0}")]
    InvalidPayload(String),
}

/// Runs `request` through `integration`. A batch refused partway is refused whole here;
/// [`process_batch`] also gives the messages sent before the refused item.
pub fn process(integration: &Integration, request: &Request<'_>) -> Result<Outcome, Rejection> {
    process_batch(integration, request).outcome
}

/// What [`process_batch`] makes of a request.
#[derive(Debug, Clone, PartialEq)]
pub struct Processed {
    /// When a batch is refused at an item (`outcome` is `Err`), the messages of the
    /// items before it, which Zulip's view had sent by then (filtered, under the URL's
    /// topic); else empty.
    pub sent_first: Vec<WebhookMessage>,
    pub outcome: Result<Outcome, Rejection>,
}

impl Processed {
    fn only(outcome: Result<Outcome, Rejection>) -> Self {
        Self {
            sent_first: Vec::new(),
            outcome,
        }
    }
}

/// Runs `request` through `integration`, as Zulip's view sends: item by item.
pub fn process_batch(integration: &Integration, request: &Request<'_>) -> Processed {
    let json: Value = match body::read(integration, request.headers, request.body) {
        Ok(json) => json,
        Err(rejection) => return Processed::only(Err(rejection)),
    };
    let event_type = event_type(integration.event_source, request.headers, &json);
    if event_type.is_some_and(|event| event.chars().count() > MAX_EVENT_TYPE_CHARS) {
        return Processed::only(Err(Rejection::EventTypeTooLong));
    }
    let payload = Payload {
        method: request.method,
        json: &json,
        headers: request.headers,
        event_type,
        options: request.options,
        topic: request.topic,
    };
    match (integration.handler)(&payload) {
        Ok(output) => Processed::only(Ok(finish(output, event_type, request))),
        Err(HandlerError::AfterItems { sent, error }) => match refused(integration, *error) {
            Err(rejection) => Processed {
                sent_first: match finish(*sent, event_type, request) {
                    Outcome::Messages(messages) => messages,
                    _ => Vec::new(),
                },
                outcome: Err(rejection),
            },
            // A batch that ends in an answer of success: its items are all it sends.
            Ok(_) => Processed::only(Ok(finish(*sent, event_type, request))),
        },
        Err(error) => Processed::only(refused(integration, error)),
    }
}

/// The answer to a handler's error.
fn refused(integration: &Integration, error: HandlerError) -> Result<Outcome, Rejection> {
    match error {
        HandlerError::MissingKey(key) => Err(Rejection::MissingKey(key)),
        HandlerError::MissingEventHeader => Err(match integration.event_source {
            EventSource::Header(header) => Rejection::MissingEventHeader { header },
            EventSource::BodyField(field) => Rejection::MissingKey(field.to_owned()),
            EventSource::None => Rejection::MissingKey("event_type".to_owned()),
        }),
        HandlerError::AnomalousPayload => Err(Rejection::AnomalousPayload {
            webhook: integration.view_name,
        }),
        HandlerError::Ignored => Ok(Outcome::Ignored),
        HandlerError::MalformedJson => Err(Rejection::MalformedJson),
        HandlerError::Invalid(text) => Err(Rejection::InvalidPayload(text)),
        HandlerError::UnsupportedEvent(event) => Ok(Outcome::Unsupported { event }),
        HandlerError::AfterItems { error, .. } => refused(integration, *error),
    }
}

/// A handler's output filtered, under the URL's topic if it sets one.
fn finish(output: HandlerOutput, event_type: Option<&str>, request: &Request<'_>) -> Outcome {
    let mut messages = match filtered(output, event_type, request.filter) {
        Ok(messages) => messages,
        Err(filtered_out) => return filtered_out,
    };
    if let Some(topic) = request.topic {
        for message in &mut messages {
            topic.clone_into(&mut message.topic);
        }
    }
    if messages.is_empty() {
        return Outcome::Ignored;
    }
    Outcome::Messages(messages)
}

/// The messages `filter` lets through, by Zulip's own name for each one's event (which
/// the handler knows): one name for the whole output, or each item's own for a batch
/// Zulip filters item by item. `Err` carries the answer when nothing is left because
/// the filter left everything out.
fn filtered(
    output: HandlerOutput,
    requested: Option<&str>,
    filter: &EventFilter,
) -> Result<Vec<WebhookMessage>, Outcome> {
    let HandlerOutput {
        event,
        messages,
        item_events,
    } = output;
    if item_events.is_empty() {
        return match event.as_deref().or(requested) {
            Some(event) if !filter.allows(event) => Err(Outcome::Filtered {
                event: event.to_owned(),
            }),
            _ => Ok(messages),
        };
    }
    let mut left_out = None;
    let kept: Vec<WebhookMessage> = messages
        .into_iter()
        .zip(item_events)
        .filter_map(|(message, event)| {
            if filter.allows(&event) {
                Some(message)
            } else {
                left_out.get_or_insert(event);
                None
            }
        })
        .collect();
    match left_out {
        Some(event) if kept.is_empty() => Err(Outcome::Filtered { event }),
        _ => Ok(kept),
    }
}

/// Where the integration says the event type is; a header that is not visible ASCII
/// counts as absent.
fn event_type<'a>(source: EventSource, headers: &'a HeaderMap, json: &'a Value) -> Option<&'a str> {
    match source {
        EventSource::None => None,
        EventSource::Header(name) => headers.get(name).and_then(|value| value.to_str().ok()),
        EventSource::BodyField(field) => json.get(field).and_then(Value::as_str),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn run(
        name: &str,
        headers: &[(&'static str, &str)],
        body: &str,
        filter: &EventFilter,
    ) -> Result<Outcome, Rejection> {
        let mut map = HeaderMap::new();
        for (header, value) in headers {
            let name = http::HeaderName::from_bytes(header.as_bytes()).unwrap();
            map.insert(name, value.parse().unwrap());
        }
        let request = Request {
            method: &Method::POST,
            headers: &map,
            body: body.as_bytes(),
            options: &BTreeMap::new(),
            filter,
            topic: None,
        };
        process(find(name).unwrap(), &request)
    }

    fn fixture(name: &str, fixture: &str) -> (&'static str, &'static str) {
        let integration = find(name).unwrap();
        let fixture = integration
            .fixtures
            .iter()
            .find(|candidate| candidate.name == fixture)
            .unwrap();
        (
            fixture.body,
            fixture.headers.first().map_or("", |(_, value)| *value),
        )
    }

    #[test]
    fn every_fixture_produces_a_message() {
        for integration in crate::registry() {
            for fixture in integration.fixtures {
                let outcome = run(
                    integration.name,
                    fixture.headers,
                    fixture.body,
                    &EventFilter::default(),
                );
                assert!(
                    matches!(outcome, Ok(Outcome::Messages(_))),
                    "{}/{}: {outcome:?}",
                    integration.name,
                    fixture.name
                );
            }
        }
    }

    #[test]
    fn filters_apply_after_the_handler() {
        let (body, event) = fixture("bitbucket2", "fork");
        // Zulip's name for the event, not the header's value, is what filters match.
        let exclude = vec!["fo*".to_owned()];
        let filter = EventFilter::new(None, Some(&exclude)).unwrap();
        assert_eq!(
            run("bitbucket2", &[("X-Event-Key", event)], body, &filter),
            Ok(Outcome::Filtered {
                event: "fork".into()
            })
        );
        let by_header = vec!["repo:*".to_owned()];
        let filter = EventFilter::new(None, Some(&by_header)).unwrap();
        assert!(matches!(
            run("bitbucket2", &[("X-Event-Key", event)], body, &filter),
            Ok(Outcome::Messages(_))
        ));
        // An unsupported event is reported as such, whatever the filters say.
        let outcome = run("bitbucket2", &[("X-Event-Key", "repo:nope")], "{}", &filter);
        assert_eq!(
            outcome,
            Ok(Outcome::Unsupported {
                event: "repo:nope".into()
            })
        );
    }

    /// Zulip sends a batch's items one by one, each through the filters with its own
    /// event: a Grafana notification's alerts by status, PagerDuty's V2 `messages` by
    /// action. What is left is sent; with nothing left, the first left out names it.
    #[test]
    fn batches_are_filtered_item_by_item() {
        let only = |events: &[&str]| {
            let events: Vec<String> = events.iter().map(|e| (*e).to_owned()).collect();
            EventFilter::new(Some(&events), None).unwrap()
        };
        let alert = |status: &str, name: &str| {
            serde_json::json!({
                "status": status, "labels": {"alertname": name}, "fingerprint": "f",
                "startsAt": "2024-01-02T03:04:05Z", "endsAt": "0001-01-01T00:00:00Z",
            })
        };
        let grafana = serde_json::json!({"alerts": [
            alert("resolved", "disk"), alert("firing", "cpu"), alert("resolved", "memory"),
        ]})
        .to_string();
        let topics = |outcome: Result<Outcome, Rejection>| match outcome {
            Ok(Outcome::Messages(messages)) => messages.into_iter().map(|m| m.topic).collect(),
            other => panic!("{other:?}"),
        };
        let sent: Vec<String> = topics(run("grafana", &[], &grafana, &only(&["firing"])));
        assert_eq!(sent, ["[cpu]"]);
        let sent: Vec<String> = topics(run("grafana", &[], &grafana, &only(&["resolved"])));
        assert_eq!(sent, ["[disk]", "[memory]"]);
        assert_eq!(
            run("grafana", &[], &grafana, &only(&["pending"])),
            Ok(Outcome::Filtered {
                event: "resolved".into()
            })
        );
        let (body, _) = fixture("pagerduty", "incident_trigger_v2");
        let mut batch: serde_json::Value = serde_json::from_str(body).unwrap();
        let mut second = batch["messages"][0].clone();
        second["event"] = "incident.acknowledge".into();
        second["incident"]["incident_number"] = 7.into();
        batch["messages"].as_array_mut().unwrap().push(second);
        let batch = batch.to_string();
        let sent: Vec<String> = topics(run("pagerduty", &[], &batch, &only(&["ack*"])));
        assert_eq!(sent, ["Incident 7"]);
        let sent: Vec<String> = topics(run("pagerduty", &[], &batch, &EventFilter::default()));
        assert_eq!(sent, ["Incident 1042", "Incident 7"]);
    }

    #[test]
    fn refusals_say_why() {
        let none = EventFilter::default();
        assert_eq!(
            run("helloworld", &[], "not json", &none),
            Err(Rejection::MalformedJson)
        );
        assert_eq!(
            run("bitbucket2", &[], "{}", &none),
            Err(Rejection::MissingEventHeader {
                header: "X-Event-Key"
            })
        );
        let long = "e".repeat(MAX_EVENT_TYPE_CHARS + 1);
        let (body, _) = fixture("bitbucket2", "fork");
        assert_eq!(
            run("bitbucket2", &[("X-Event-Key", &long)], body, &none),
            Err(Rejection::EventTypeTooLong)
        );
        let anomalous = run("jira", &[], r#"{"accountId": "x"}"#, &none);
        assert_eq!(
            anomalous,
            Err(Rejection::AnomalousPayload { webhook: "Jira" })
        );
        assert_eq!(
            anomalous.unwrap_err().to_string(),
            "Unable to parse request: Did Jira generate this event?"
        );
        let fits = "e".repeat(MAX_EVENT_TYPE_CHARS);
        assert!(run("bitbucket2", &[("X-Event-Key", &fits)], body, &none).is_ok());
    }

    #[test]
    fn the_missing_header_notice_uses_zulips_wording() {
        let notice = find("bitbucket2").unwrap().missing_header_notice(
            "Relay",
            "/api/v1/external/bitbucket2",
            "X-Event-Key",
        );
        assert_eq!(
            notice,
            "Hi there! Your bot Relay just sent an HTTP request to /api/v1/external/bitbucket2 \
             that is missing the HTTP X-Event-Key header. Because this header is how Bitbucket \
             indicates the event type, this usually indicates a configuration issue, where you \
             either entered the URL for a different integration, or are running an older \
             version of the third-party service that doesn't provide that header."
        );
    }
}
