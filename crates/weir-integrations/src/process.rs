//! One webhook request through an integration, as Zulip's webhook views do it: parse the
//! body, find the event type, let the handler build its message, then apply
//! `only_events`/`exclude_events`. No I/O: what to do with the outcome is the caller's.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::{
    EventFilter, EventSource, HandlerError, HeaderMap, Integration, Method, Payload,
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

/// Runs `request` through `integration`.
pub fn process(integration: &Integration, request: &Request<'_>) -> Result<Outcome, Rejection> {
    let json: Value = body::read(integration, request.headers, request.body)?;
    let event_type = event_type(integration.event_source, request.headers, &json);
    if event_type.is_some_and(|event| event.chars().count() > MAX_EVENT_TYPE_CHARS) {
        return Err(Rejection::EventTypeTooLong);
    }
    let payload = Payload {
        method: request.method,
        json: &json,
        headers: request.headers,
        event_type,
        options: request.options,
        topic: request.topic,
    };
    let output = match (integration.handler)(&payload) {
        Ok(output) => output,
        Err(HandlerError::MissingKey(key)) => return Err(Rejection::MissingKey(key)),
        Err(HandlerError::MissingEventHeader) => {
            return Err(match integration.event_source {
                EventSource::Header(header) => Rejection::MissingEventHeader { header },
                EventSource::BodyField(field) => Rejection::MissingKey(field.to_owned()),
                EventSource::None => Rejection::MissingKey("event_type".to_owned()),
            });
        }
        Err(HandlerError::AnomalousPayload) => {
            return Err(Rejection::AnomalousPayload {
                webhook: integration.view_name,
            });
        }
        Err(HandlerError::Ignored) => return Ok(Outcome::Ignored),
        Err(HandlerError::MalformedJson) => return Err(Rejection::MalformedJson),
        Err(HandlerError::Invalid(text)) => return Err(Rejection::InvalidPayload(text)),
        Err(HandlerError::UnsupportedEvent(event)) => return Ok(Outcome::Unsupported { event }),
    };
    // Zulip filters on its own name for the event, which the handler knows.
    let event = output.event.as_deref().or(event_type);
    if let Some(event) = event
        && !request.filter.allows(event)
    {
        return Ok(Outcome::Filtered {
            event: event.to_owned(),
        });
    }
    let mut messages = output.messages;
    if let Some(topic) = request.topic {
        for message in &mut messages {
            topic.clone_into(&mut message.topic);
        }
    }
    if messages.is_empty() {
        return Ok(Outcome::Ignored);
    }
    Ok(Outcome::Messages(messages))
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
        (fixture.body, fixture.headers[0].1)
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
