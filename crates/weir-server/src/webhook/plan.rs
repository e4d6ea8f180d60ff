//! The step of an incoming webhook that needs neither its sender nor the database:
//! find the integration, read the URL's parameters, let the integration
//! (`weir-integrations`, pure code) find the event type, apply
//! `only_events`/`exclude_events` and build the messages, and say what to answer.

use std::collections::BTreeMap;

use axum::http::{HeaderMap, Method, header};
use serde_json::{Value, json};
use weir_integrations::{self as integrations, EventFilter, Integration, Outcome};
use weir_integrations::{Processed, Rejection, Request, WebhookMessage, process_batch};
use zulip_api::ZulipErrorCode;

use crate::compose::Draft;
use crate::error::ApiError;
use crate::http::params::Params;
use crate::rules::names::check_stream_name;

/// The integration of `/api/v1/external/<name>`; an unknown name is a 404.
pub(crate) fn find_integration(name: &str) -> Result<&'static Integration, ApiError> {
    integrations::find(name).ok_or_else(ApiError::not_found)
}

/// A `stream` parameter of digits names a stream by id, never by name.
pub(crate) fn is_stream_id(stream: &str) -> bool {
    !stream.is_empty() && stream.bytes().all(|b| b.is_ascii_digit())
}

/// Whether the body is a form, whose fields count as URL parameters.
pub(crate) fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/x-www-form-urlencoded"))
}

/// What a webhook request comes to, whoever sent it: the part without I/O, shared by
/// the endpoint and by the dry run, so that a preview and a real send never disagree.
pub(crate) enum Plan {
    /// Render these messages (cut to Zulip's limits) on the render pool, store them in
    /// order, then answer success. `stream`: `None` is a direct message to the bot's
    /// owner.
    Post {
        stream: Option<String>,
        messages: Vec<Draft>,
        /// After storing them, fail with this: a batch refused at an item after these
        /// messages' items, which Zulip's view had sent by then.
        then: Option<ApiError>,
    },
    /// Answer plain success, send nothing (an ignored or filtered event).
    Accepted,
    /// Answer Zulip's "unsupported event" success, send nothing.
    Unsupported { event: String },
    /// Tell the bot's owner the event header is missing, and fail.
    MissingHeader { header: &'static str },
}

/// Reads the URL's parameters and runs the integration.
pub(crate) fn plan(
    integration: &Integration,
    headers: &HeaderMap,
    body: &[u8],
    mut query: Params,
) -> Result<Plan, ApiError> {
    let stream = query.take_str("stream");
    let topic_override = query
        .take_str("topic")
        .filter(|topic| !topic.trim().is_empty());
    let only_events = query.take_string_list("only_events")?;
    let exclude_events = query.take_string_list("exclude_events")?;
    let filter = EventFilter::new(only_events.as_deref(), exclude_events.as_deref())
        .map_err(|error| ApiError::bad_request(error.to_string()))?;
    let mut options = BTreeMap::new();
    for key in integration.option_keys() {
        if let Some(value) = query.take_str(key) {
            options.insert(key.to_owned(), value);
        }
    }
    let request = Request {
        // The route accepts POST only.
        method: &Method::POST,
        headers,
        body,
        options: &options,
        filter: &filter,
        topic: topic_override.as_deref(),
    };
    let Processed {
        sent_first,
        outcome,
    } = process_batch(integration, &request);
    let answer = match outcome {
        Ok(Outcome::Messages(messages)) => {
            return post(stream, &messages, None);
        }
        Ok(Outcome::Ignored | Outcome::Filtered { .. }) => Ok(Plan::Accepted),
        Ok(Outcome::Unsupported { event }) => Ok(Plan::Unsupported { event }),
        Err(Rejection::MissingKey(key)) => Err(ApiError::missing_argument(&key)),
        Err(Rejection::MissingEventHeader { header }) => Ok(Plan::MissingHeader { header }),
        // Zulip's `AnomalousWebhookPayloadError`: a 400 with its own code and the name.
        Err(rejection @ Rejection::AnomalousPayload { webhook }) => {
            Err(ApiError::bad_request(rejection.to_string())
                .code(ZulipErrorCode::AnomalousWebhookPayload)
                .with("webhook_name", webhook))
        }
        Err(
            rejection @ (Rejection::MalformedJson
            | Rejection::EventTypeTooLong
            | Rejection::InvalidPayload(_)),
        ) => Err(ApiError::bad_request(rejection.to_string())),
    };
    match answer {
        Err(error) if !sent_first.is_empty() => post(stream, &sent_first, Some(error)),
        answer => answer,
    }
}

/// Posts `messages` to `stream`, then answers `then` (`None`: success).
fn post(
    stream: Option<String>,
    messages: &[WebhookMessage],
    then: Option<ApiError>,
) -> Result<Plan, ApiError> {
    Ok(Plan::Post {
        stream: match stream {
            // Zulip's `check_stream_name` comes before the lookup: a name no stream
            // could have is a 400, and nobody is told about it.
            Some(name) if !is_stream_id(&name) => Some(check_stream_name(&name).map(|_| name)?),
            other => other,
        },
        messages: messages
            .iter()
            .map(|message| Draft::new(&message.topic, &message.content))
            .collect::<Result<_, _>>()?,
        then,
    })
}

/// The success envelope as `success(json!({}), ..)` writes it, without building it
/// for every accepted webhook.
pub(crate) const ACCEPTED_JSON: &str = r#"{"msg":"","result":"success"}"#;

/// The body of Zulip's answer to an event the integration does not handle (a 200).
pub(crate) fn unsupported_body(integration: &Integration, event: &str) -> Value {
    let name = integration.view_name;
    json!({
        "result": "success",
        "msg": format!("The '{event}' event isn't currently supported by the {name} webhook; ignoring"),
        "code": ZulipErrorCode::UnsupportedWebhookEventType.as_str(),
        "webhook_name": name,
        "event_type": event,
    })
}

pub(crate) fn missing_header_error(header: &str) -> ApiError {
    ApiError::bad_request(format!("Missing the HTTP event header '{header}'"))
        .code(ZulipErrorCode::MissingHttpEventHeader)
        .with("header", header)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accepted_body_is_the_success_envelope() {
        let axum::Json(built) = crate::api::success(json!({}), Vec::new()).unwrap();
        assert_eq!(ACCEPTED_JSON, serde_json::to_string(&built).unwrap());
    }
}
