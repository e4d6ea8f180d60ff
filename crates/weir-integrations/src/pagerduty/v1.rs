//! Zulip's `build_pagerduty_formatdict` (V1 messages, `type`) and
//! `build_pagerduty_formatdict_v2` (V2 messages, `event`).

use serde_json::Value;

use super::{Incident, agent, email, field, get, integer, missing, reference, string};
use crate::HandlerError;
use crate::pyvalue::truthy;

/// V1 types to Zulip's event names (`PAGER_DUTY_EVENT_NAMES`; `delineated` is Zulip's).
fn v1_action(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "incident.trigger" => "triggered",
        "incident.acknowledge" => "acknowledged",
        "incident.unacknowledge" => "unacknowledged",
        "incident.resolve" => "resolved",
        "incident.assign" => "assigned",
        "incident.escalate" => "escalated",
        "incident.delegate" => "delineated",
        _ => return None,
    })
}

/// V2 events to Zulip's event names (`PAGER_DUTY_EVENT_NAMES_V2`).
fn v2_action(event: &str) -> Option<&'static str> {
    Some(match event {
        "incident.trigger" => "triggered",
        "incident.acknowledge" => "acknowledged",
        "incident.resolve" => "resolved",
        "incident.assign" => "assigned",
        _ => return None,
    })
}

fn unsupported(kind: &str) -> HandlerError {
    HandlerError::UnsupportedEvent(kind.to_owned())
}

/// `[username](html_url)` of a V1 user, the name being the e-mail's local part.
fn user(user: &Value) -> Result<String, HandlerError> {
    let address = string(user, "email")?;
    let username = email::username(address).ok_or_else(|| missing("email"))?;
    Ok(agent(&username, string(user, "html_url")?))
}

pub(super) fn incident(message: &Value, kind: &str) -> Result<Incident, HandlerError> {
    let action = v1_action(kind).ok_or_else(|| unsupported(kind))?;
    let incident = field(field(message, "data")?, "incident")?;
    string(incident, "id")?;
    let num_title = integer(incident, "incident_number")?;
    let url = string(incident, "html_url")?.to_owned();
    let service = field(incident, "service")?;
    let service_name = string(service, "name")?.to_owned();
    let service_url = string(service, "html_url")?.to_owned();
    let assigned = get(incident, "assigned_to_user")?;
    let assignee = if truthy(assigned) {
        user(assigned)?
    } else {
        "nobody".to_owned()
    };
    let resolver = get(incident, "resolved_by_user")?;
    let resolver = if truthy(resolver) {
        Some(user(resolver)?)
    } else {
        None
    };
    let mut lines = Vec::new();
    let summary = get(incident, "trigger_summary_data")?;
    if truthy(summary) {
        for key in ["subject", "description"] {
            match get(summary, key)? {
                Value::Null if summary.get(key).is_none() => {}
                Value::String(text) if !text.is_empty() => lines.push(text.as_str()),
                Value::String(_) => {}
                _ => return Err(missing(key)),
            }
        }
    }
    Ok(Incident {
        action,
        num_title,
        url,
        service_name,
        service_url,
        assignee,
        agent: resolver,
        trigger_message: Some(quote(&lines.join("\n"))),
        ..Incident::default()
    })
}

pub(super) fn incident_v2(message: &Value, event: &str) -> Result<Incident, HandlerError> {
    let action = v2_action(event).ok_or_else(|| unsupported(event))?;
    let incident = field(message, "incident")?;
    string(incident, "id")?;
    let num_title = integer(incident, "incident_number")?;
    let url = string(incident, "html_url")?.to_owned();
    let service = field(incident, "service")?;
    let service_name = string(service, "name")?.to_owned();
    let service_url = string(service, "html_url")?.to_owned();
    let assignments = field(incident, "assignments")?;
    let assignee = if truthy(assignments) {
        let first = assignments
            .as_array()
            .and_then(|list| list.first())
            .ok_or_else(|| missing("assignments"))?;
        reference(field(first, "assignee")?)?
    } else {
        "nobody".to_owned()
    };
    // Zulip's `.get(...)` is never `None`, so it always reads who changed the status last.
    let changed_by = reference(get(incident, "last_status_change_by")?)?;
    let description = match get(incident, "description")? {
        Value::Null => None,
        Value::String(text) => Some(quote(text)),
        _ => return Err(missing("description")),
    };
    Ok(Incident {
        action,
        num_title,
        url,
        service_name,
        service_url,
        assignee,
        agent: Some(changed_by),
        trigger_message: description,
        ..Incident::default()
    })
}

/// Zulip's `TRIGGER_MESSAGE`.
fn quote(text: &str) -> String {
    format!("``` quote\n{text}\n```")
}
