//! Sentry, as Zulip's `sentry` integration (`zerver/webhooks/sentry/view.py`).
//!
//! Zulip reads no event header here (not even `Sentry-Hook-Resource`) and declares no
//! event types: it tells the payload's kind from its shape. `data.event` is an error or
//! message event (an alert rule's or the legacy plugin's), `data.issue` an issue created,
//! resolved, assigned or ignored; a body without `data` but with `event.event_id` is a
//! plain webhook's event, completed the way Zulip completes it (`web_url` from `url`,
//! `datetime` from `timestamp`); anything else is the deprecated plugin's payload.
//! Events of the old Raven Python SDK and unknown kinds are unsupported, with Zulip's
//! names for them (`Raven SDK`, `unknown-event type`, `unknown-issue-action type`, the
//! list of `data`'s keys).
//!
//! Zulip answers payloads missing what it indexes with a 500; Weir answers
//! `Missing '<key>' argument`.

mod event;
#[cfg(test)]
mod tests;
mod webhook;

use serde_json::Value;

use crate::pyvalue::{normalize_body, py_str, truthy};
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

/// Sentry names the resource in `Sentry-Hook-Resource`, which Zulip does not read; the
/// samples carry it as Sentry sends it.
macro_rules! fixture {
    ($name:literal, $resource:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/sentry/", $name, ".json")),
            headers: &[("Sentry-Hook-Resource", $resource)],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("event_alert_exception", "event_alert"),
    fixture!("event_alert_message", "event_alert"),
    fixture!("issue_created", "issue"),
    fixture!("issue_resolved", "issue"),
    fixture!("issue_assigned", "issue"),
];

pub fn integration() -> Integration {
    Integration {
        name: "sentry",
        display_name: "Sentry",
        categories: &["monitoring"],
        view_name: "Sentry",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::None,
        event_types: &[],
        config_options: &[],
        url_options: &[],
        fixtures: FIXTURES,
        handler,
    }
}

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let json = payload.json;
    let (topic, body) = match json.get("data").filter(|data| !data.is_null()) {
        Some(data) if truthy(data) => from_data(json, data)?,
        Some(_) => deprecated(json)?,
        None => match webhook::event(json)? {
            Some(event) => event::message(&event)?,
            None => deprecated(json)?,
        },
    };
    Ok(HandlerOutput::one(WebhookMessage {
        topic,
        content: normalize_body(&body),
    }))
}

/// A payload with `data`: an event or an issue.
fn from_data(json: &Value, data: &Value) -> Result<(String, String), HandlerError> {
    let Value::Object(fields) = data else {
        return Err(missing("data"));
    };
    if let Some(event) = fields.get("event") {
        event::message(event)
    } else if let Some(issue) = fields.get("issue") {
        let action = field(json, "action")?;
        let actor = field(json, "actor")?;
        issue_message(action, issue, actor)
    } else {
        // Zulip names the event by `str(list(data.keys()))`.
        let keys = fields
            .keys()
            .map(|key| Value::String(key.clone()))
            .collect();
        Err(HandlerError::UnsupportedEvent(py_str(&Value::Array(keys))))
    }
}

/// Zulip's `handle_issue_payload`.
fn issue_message(
    action: &Value,
    issue: &Value,
    actor: &Value,
) -> Result<(String, String), HandlerError> {
    let title = string(issue, "title")?;
    let datetime = timestamp_text(string(issue, "lastSeen")?);
    let assigned = field(issue, "assignedTo")?;
    let assignee = if truthy(assigned) {
        let team = field(assigned, "type")?.as_str() == Some("team");
        let name = py_str(field(assigned, "name")?);
        if team { format!("team {name}") } else { name }
    } else {
        "No one".to_owned()
    };
    let actor_name = || field(actor, "name").map(py_str);
    let body = match action.as_str() {
        Some("created") => {
            let level = py_str(field(issue, "level")?);
            format!(
                "**New issue created:** {title}\n```quote\n**level:** {level}\n\
                 **timestamp:** {datetime}\n**assignee:** {assignee}\n```"
            )
        }
        Some("resolved") => format!(
            "Issue **{title}** was marked as resolved by **{}**.",
            actor_name()?
        ),
        Some("assigned") => format!(
            "Issue **{title}** has now been assigned to **{assignee}** by **{}**.",
            actor_name()?
        ),
        Some("ignored") => format!("Issue **{title}** was ignored by **{}**.", actor_name()?),
        _ => {
            return Err(HandlerError::UnsupportedEvent(
                "unknown-issue-action type".into(),
            ));
        }
    };
    Ok((title.to_owned(), body))
}

/// Zulip's `handle_deprecated_payload`: the old plugin's flat payload.
fn deprecated(json: &Value) -> Result<(String, String), HandlerError> {
    let level = string(json, "level")?.to_uppercase();
    let optional = |key: &str| json.get(key).map_or_else(|| "None".to_owned(), py_str);
    let topic = optional("project_name");
    let body = format!(
        "New [issue]({}) (level: {level}):\n\n``` quote\n{}\n```",
        optional("url"),
        optional("message"),
    );
    Ok((topic, body))
}

/// Zulip's `datetime.split(".")[0].replace("T", " ")`.
fn timestamp_text(datetime: &str) -> String {
    datetime
        .split('.')
        .next()
        .unwrap_or_default()
        .replace('T', " ")
}

// Reading the payload: a key that is absent, or read from something that is not an
// object, is named as missing (Zulip fails on it with a KeyError or TypeError).

fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, HandlerError> {
    value.get(key).ok_or_else(|| missing(key))
}

fn string<'a>(value: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    field(value, key)?.as_str().ok_or_else(|| missing(key))
}
