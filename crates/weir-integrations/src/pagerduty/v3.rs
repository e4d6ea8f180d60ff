//! Zulip's `build_pagerduty_formatdict_v3` and `get_v3_event_details`: one V3 event.

use serde_json::Value;

use super::{Incident, field, get, integer, missing, optional_string, reference, string};
use crate::HandlerError;
use crate::pyvalue::truthy;

/// V3 event types to Zulip's event names (`PAGER_DUTY_V3_EVENT_MAPPER`).
fn action(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "incident.triggered" => "triggered",
        "incident.acknowledged" => "acknowledged",
        "incident.unacknowledged" => "unacknowledged",
        "incident.resolved" => "resolved",
        "incident.reassigned" => "reassigned",
        "incident.escalated" => "escalated",
        "incident.delegated" => "delegated",
        "incident.reopened" => "reopened",
        "incident.priority_updated" => "priority updated",
        "incident.status_update_published" => "status updated",
        "incident.annotated" => "annotated",
        "incident.responder.added" => "responder added",
        "incident.responder.replied" => "responder replied",
        "incident.conference_bridge.updated" => "conference bridge updated",
        "incident.service_updated" => "service updated",
        "incident.workflow.started" => "workflow started",
        "incident.workflow.completed" => "workflow completed",
        _ => return None,
    })
}

pub(super) fn incident(event: &Value, kind: &str) -> Result<Incident, HandlerError> {
    let action = action(kind).ok_or_else(|| HandlerError::UnsupportedEvent(kind.to_owned()))?;
    let data = field(event, "data")?;
    // Events about the incident itself carry it as `data`; the others (annotations,
    // responders, status updates, workflows) as `data.incident`.
    let about = get(data, "incident")?;
    let (url, num_title) = if truthy(about) {
        string(about, "id")?;
        let url = string(about, "html_url")?;
        (url, string(about, "summary")?.to_owned())
    } else {
        string(data, "id")?;
        let url = string(data, "html_url")?;
        let number = integer(data, "number")?;
        (url, format!("{} (#{number})", string(data, "title")?))
    };
    let service = get(data, "service")?;
    let (service_name, service_url) = if truthy(service) {
        (string(service, "summary")?, string(service, "html_url")?)
    } else {
        ("", "")
    };
    let assignees = get(data, "assignees")?;
    let user = get(data, "user")?;
    let assignee = if truthy(assignees) {
        let first = assignees
            .as_array()
            .and_then(|list| list.first())
            .ok_or_else(|| missing("assignees"))?;
        reference(first)?
    } else if truthy(user) {
        reference(user)?
    } else {
        "nobody".to_owned()
    };
    let policy = get(data, "escalation_policy")?;
    let escalation_policy_clause = if truthy(policy) {
        format!(
            "current escalation policy is [{}]({}) and ",
            string(policy, "summary")?,
            string(policy, "html_url")?
        )
    } else {
        String::new()
    };
    let agent = match get(event, "agent")? {
        Value::Null => None,
        agent @ Value::Object(_) => Some(reference(agent)?),
        _ => return Err(missing("agent")),
    };
    Ok(Incident {
        action,
        num_title,
        url: url.to_owned(),
        service_name: service_name.to_owned(),
        service_url: service_url.to_owned(),
        assignee,
        agent,
        trigger_message: Some(String::new()),
        escalation_policy_clause,
        event_details: details(kind, data)?,
    })
}

/// Zulip's `get_v3_event_details`: what changed, for the events that say.
fn details(kind: &str, data: &Value) -> Result<String, HandlerError> {
    let summary_of = |key: &str| -> Result<String, HandlerError> {
        let value = get(data, key)?;
        if truthy(value) {
            Ok(string(value, "summary")?.to_owned())
        } else {
            Ok(String::new())
        }
    };
    Ok(match kind {
        "incident.priority_updated" => summary_of("priority")?,
        "incident.service_updated" => summary_of("service")?,
        "incident.status_update_published"
        | "incident.responder.added"
        | "incident.responder.replied" => string(data, "message")?.to_owned(),
        "incident.annotated" => string(data, "content")?.to_owned(),
        "incident.conference_bridge.updated" => {
            let url = get(data, "conference_url")?;
            if truthy(url) {
                url.as_str()
                    .ok_or_else(|| missing("conference_url"))?
                    .to_owned()
            } else {
                String::new()
            }
        }
        "incident.workflow.started" | "incident.workflow.completed" => {
            let workflow = string(field(data, "incident_workflow")?, "summary")?;
            // `data.get("summary", "")`: absent is empty, null is not a string.
            let summary = match data.get("summary") {
                None => "",
                Some(_) => optional_string(data, "summary")?.ok_or_else(|| missing("summary"))?,
            };
            if summary.is_empty() {
                workflow.to_owned()
            } else {
                format!("{workflow} ({summary})")
            }
        }
        _ => String::new(),
    })
}
