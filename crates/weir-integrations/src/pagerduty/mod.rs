//! PagerDuty, as Zulip's `pagerduty` integration (`zerver/webhooks/pagerduty/view.py`).
//!
//! Three payload shapes, told apart as Zulip tells them: V1 and V2 webhooks batch
//! `messages` (V1's have a `type`, `incident.trigger`; V2's an `event`), and each is one
//! message; V3 sends one `event` whose `event_type` is `incident.triggered` and the like.
//! A body with neither is accepted and sends nothing. The event is Zulip's name for the
//! action (`triggered`, `priority updated`, V1's `delineated` for a delegation, …), which
//! `only_events`/`exclude_events` match; every message is topic `Incident <number or
//! title>`.
//!
//! Each message of a V1/V2 batch is filtered by its own event, as Zulip filters them.
//! Differences: a batch with an unsupported message sends none of it (Zulip sends the
//! ones before). Payloads missing
//! what Zulip's view reads are `Missing '<key>' argument` (Zulip fails with a 500).

mod email;
#[cfg(test)]
mod tests;
mod v1;
mod v3;

use serde_json::Value;

use crate::pyvalue::{normalize_body, truthy};
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

/// Zulip's names for the events (its `ALL_EVENT_TYPES`).
const EVENT_TYPES: &[&str] = &[
    "triggered",
    "acknowledged",
    "unacknowledged",
    "resolved",
    "assigned",
    "reassigned",
    "escalated",
    "delegated",
    "reopened",
    "priority updated",
    "status updated",
    "annotated",
    "responder added",
    "responder replied",
    "conference bridge updated",
    "service updated",
    "workflow started",
    "workflow completed",
];

macro_rules! fixture {
    ($name:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/pagerduty/", $name, ".json")),
            headers: &[],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("incident_triggered"),
    fixture!("incident_acknowledged"),
    fixture!("incident_resolved"),
    fixture!("incident_annotated"),
    fixture!("incident_trigger_v2"),
];

pub fn integration() -> Integration {
    Integration {
        name: "pagerduty",
        display_name: "PagerDuty",
        categories: &["monitoring"],
        view_name: "PagerDuty",
        auth: AuthScheme::ApiKey,
        // V3's `event` is an object, so no event is read from the request: the handler
        // reports Zulip's name for it (`event.event_type`, a message's `type` or `event`).
        event_source: EventSource::BodyField("event"),
        event_types: EVENT_TYPES,
        config_options: &[],
        url_options: &[],
        fixtures: FIXTURES,
        handler,
    }
}

/// What Zulip's templates are filled with (its `format_dict`).
#[derive(Debug, Default)]
struct Incident {
    /// Zulip's name for the event, also the word in most templates.
    action: &'static str,
    /// The incident's number (V1, V2) or `Title (#number)` (V3).
    num_title: String,
    url: String,
    service_name: String,
    service_url: String,
    /// `[name](url)` of the assignee, or `nobody`.
    assignee: String,
    /// `[name](url)` of who resolved it, when known.
    agent: Option<String>,
    /// V2 has none without an incident description (Zulip then fails on the template).
    trigger_message: Option<String>,
    escalation_policy_clause: String,
    event_details: String,
}

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let json = payload.json;
    if !json.is_object() {
        return Err(missing("messages"));
    }
    let mut sent = Vec::new();
    match json.get("messages").filter(|messages| truthy(messages)) {
        Some(messages) => {
            let messages = messages.as_array().ok_or_else(|| missing("messages"))?;
            // V1 messages until one has no `type`, then V2 ones until one has no `event`.
            for message in messages {
                let Some(kind) = optional_string(message, "type")? else {
                    break;
                };
                sent.push((kind, v1::incident(message, kind)?));
            }
            for message in messages {
                let Some(event) = optional_string(message, "event")? else {
                    break;
                };
                sent.push((event, v1::incident_v2(message, event)?));
            }
        }
        None => {
            if let Some(event) = json.get("event") {
                let Some(kind) = optional_string(event, "event_type")? else {
                    return Err(HandlerError::UnsupportedEvent("None".into()));
                };
                sent.push((kind, v3::incident(event, kind)?));
            }
        }
    }
    // One message per item, each filtered by its own action, as Zulip sends them.
    let items = sent
        .iter()
        .map(|(kind, incident)| Ok((incident.action.to_owned(), message(kind, incident)?)))
        .collect::<Result<Vec<_>, HandlerError>>()?;
    if items.is_empty() {
        return Err(HandlerError::Ignored);
    }
    Ok(HandlerOutput::per_item(items))
}

/// Zulip's `send_formatted_pagerduty`: the template for the payload's own event name.
fn message(kind: &str, incident: &Incident) -> Result<WebhookMessage, HandlerError> {
    let Incident {
        action,
        num_title: title,
        url,
        assignee,
        event_details: details,
        ..
    } = incident;
    let link = format!("[{title}]({url})");
    let trigger = || {
        incident
            .trigger_message
            .as_deref()
            .ok_or_else(|| missing("description"))
    };
    let body = match kind {
        "incident.trigger"
        | "incident.triggered"
        | "incident.unacknowledge"
        | "incident.unacknowledged" => format!(
            "Incident {link} {action} by [{}]({}) (assigned to {assignee}).\n\n{}",
            incident.service_name,
            incident.service_url,
            trigger()?
        ),
        "incident.assign" | "incident.reassigned" => {
            format!("Incident {link} {action} to {assignee}.\n\n{}", trigger()?)
        }
        "incident.resolve" | "incident.resolved" => match &incident.agent {
            Some(agent) => format!("Incident {link} resolved by {agent}.\n\n{}", trigger()?),
            None => format!("Incident {link} resolved.\n\n{}", trigger()?),
        },
        "incident.escalated" => format!("Incident {link} escalated to {assignee}."),
        "incident.delegated" => format!(
            "Incident {link} delegated; {}current assignee is {assignee}.",
            incident.escalation_policy_clause
        ),
        "incident.reopened" => format!("Incident {link} reopened."),
        "incident.priority_updated" => format!("Incident {link} priority updated to {details}"),
        "incident.status_update_published" => {
            format!("Incident {link} status update published: {details}")
        }
        "incident.annotated" => format!("Incident {link} annotated with: {details}"),
        "incident.responder.added" => {
            format!("Responder {assignee} added to incident {link}.\n\n``` quote\n{details}\n```")
        }
        "incident.responder.replied" => {
            format!("Responder {assignee} replied to incident {link}.\n\n``` quote\n{details}\n```")
        }
        "incident.conference_bridge.updated" => {
            format!("Incident {link} conference bridge updated: {details}")
        }
        "incident.service_updated" => format!("Incident {link} service updated to {details}"),
        "incident.workflow.started" => format!("Incident {link} workflow started: {details}"),
        "incident.workflow.completed" => format!("Incident {link} workflow completed: {details}"),
        // Acknowledgements (all versions), V1's escalations and delegations.
        _ => format!("Incident {link} {action} by {assignee}.\n\n{}", trigger()?),
    };
    Ok(WebhookMessage {
        topic: format!("Incident {title}"),
        content: normalize_body(&body),
    })
}

// Reading the payload as Zulip's `WildValue` does: indexing or `.get` on something that
// is not an object, an absent key, or a value of the wrong type names the key.

fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

/// `value[key]`.
fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, HandlerError> {
    value.get(key).ok_or_else(|| missing(key))
}

/// `value.get(key)`: `value` must be an object; an absent key reads as null.
fn get<'a>(value: &'a Value, key: &str) -> Result<&'a Value, HandlerError> {
    match value {
        Value::Object(fields) => Ok(fields.get(key).unwrap_or(&Value::Null)),
        _ => Err(missing(key)),
    }
}

/// `value[key].tame(check_string)`.
fn string<'a>(value: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    field(value, key)?.as_str().ok_or_else(|| missing(key))
}

/// `value.get(key).tame(check_none_or(check_string))`.
fn optional_string<'a>(value: &'a Value, key: &str) -> Result<Option<&'a str>, HandlerError> {
    match get(value, key)? {
        Value::Null => Ok(None),
        Value::String(text) => Ok(Some(text)),
        _ => Err(missing(key)),
    }
}

/// `value[key].tame(check_int)`, as Python prints it (a JSON boolean is a Python int).
fn integer(value: &Value, key: &str) -> Result<String, HandlerError> {
    match field(value, key)? {
        Value::Bool(flag) => Ok(if *flag { "True" } else { "False" }.into()),
        Value::Number(number) if !number.is_f64() => Ok(number.to_string()),
        _ => Err(missing(key)),
    }
}

/// Zulip's `AGENT_TEMPLATE`: `[name](url)`.
fn agent(name: &str, url: &str) -> String {
    format!("[{name}]({url})")
}

/// `[summary](html_url)` of a PagerDuty reference (V2 assignees, V3 users).
fn reference(value: &Value) -> Result<String, HandlerError> {
    Ok(agent(string(value, "summary")?, string(value, "html_url")?))
}
