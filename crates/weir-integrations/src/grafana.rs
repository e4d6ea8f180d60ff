//! Zulip's Grafana integration: Grafana 8+ alerting (`alerts`, one message per alert,
//! each filtered by its own status `firing`/`resolved`) and Grafana 7's legacy alerts (one
//! message, filtered by the rule's `state`). Anything else is Zulip's "Did Grafana
//! generate this event?".

use serde_json::{Map, Value};

use crate::git::is_py_space;
use crate::python::float_repr;
use crate::pyvalue::{normalize_body, py_str, truthy};
use crate::time::global_time_from_iso;
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

pub fn integration() -> Integration {
    Integration {
        name: "grafana",
        display_name: "Grafana",
        categories: &["monitoring"],
        view_name: "Grafana",
        auth: AuthScheme::ApiKey,
        // Zulip names the event after the payload's status or state (no header).
        event_source: EventSource::None,
        event_types: &["ok", "pending", "alerting", "paused", "firing", "resolved"],
        config_options: &[],
        url_options: &[],
        fixtures: &[
            Fixture {
                name: "unified_firing",
                body: include_str!("fixtures/grafana/unified_firing.json"),
                headers: &[],
            },
            Fixture {
                name: "unified_resolved",
                body: include_str!("fixtures/grafana/unified_resolved.json"),
                headers: &[],
            },
            Fixture {
                name: "legacy_alerting",
                body: include_str!("fixtures/grafana/legacy_alerting.json"),
                headers: &[],
            },
        ],
        handler,
    }
}

/// What Zulip's view could not read: its `ValidationError`s, and the bad times and
/// numbers that make it fail outright, are all the same refusal here.
struct Unreadable;

impl From<Unreadable> for HandlerError {
    fn from(_: Unreadable) -> Self {
        HandlerError::AnomalousPayload
    }
}

type Object = Map<String, Value>;

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    if let Some(alerts) = payload.json.get("alerts") {
        let alerts = alerts.as_array().ok_or(Unreadable)?;
        // One message per alert, each filtered by its own status, as Zulip sends them.
        let mut items = Vec::with_capacity(alerts.len());
        // Zulip sends each alert before it reads the next: those before an unreadable
        // one are sent, and the request still fails.
        for alert in alerts {
            match alert.as_object().ok_or(Unreadable).and_then(unified) {
                Ok((status, message)) => items.push((status.to_owned(), message)),
                Err(unreadable) => return Err(HandlerError::after_items(items, unreadable.into())),
            }
        }
        return Ok(HandlerOutput::per_item(items));
    }
    let fields = payload.json.as_object().ok_or(Unreadable)?;
    let (state, message) = legacy(fields)?;
    Ok(HandlerOutput::new(Some(state.to_owned()), vec![message]))
}

/// One alert of Grafana 8+ alerting.
fn unified(alert: &Object) -> Result<(&'static str, WebhookMessage), Unreadable> {
    let (status, mut body) = match string(alert, "status")? {
        "firing" => ("firing", ":alert: **FIRING**\n\n".to_owned()),
        "resolved" => ("resolved", ":checkbox: **RESOLVED**\n\n".to_owned()),
        _ => return Err(Unreadable),
    };
    let labels = alert
        .get("labels")
        .and_then(Value::as_object)
        .ok_or(Unreadable)?;
    let topic = match labels.get("alertname") {
        Some(name) if truthy(name) => {
            let name = name.as_str().ok_or(Unreadable)?;
            body.push_str(&format!("**{name}**\n\n"));
            format!("[{name}]")
        }
        _ => format!("[{}]", string(alert, "fingerprint")?),
    };
    let started = global_time_from_iso(string(alert, "startsAt")?).ok_or(Unreadable)?;
    body.push_str(&format!("This alert was fired at {started}."));
    let ended = string(alert, "endsAt")?;
    if ended != "0001-01-01T00:00:00Z" {
        let ended = global_time_from_iso(ended).ok_or(Unreadable)?;
        body.push_str(&format!("\n\nThis alert was resolved at {ended}."));
    }
    if !labels.is_empty() {
        body.push_str(&format!("\n\nLabels:\n{}\n", list(labels, strict)?));
    }
    if let Some(values) = alert.get("values").filter(|values| truthy(values)) {
        let values = values.as_object().ok_or(Unreadable)?;
        body.push_str(&format!(
            "Values:\n{}\n",
            list(values, |value| Ok(py_str(value)))?
        ));
    } else if let Some(text) = alert.get("valueString").filter(|text| truthy(text)) {
        let text = text.as_str().ok_or(Unreadable)?;
        body.push_str(&format!("Values:\n{text}\n\n"));
    }
    if let Some(annotations) = alert.get("annotations").filter(|found| truthy(found)) {
        let annotations = annotations.as_object().ok_or(Unreadable)?;
        body.push_str(&format!("Annotations:\n{}", list(annotations, strict)?));
    }
    for (key, label) in [
        ("generatorURL", "Generator"),
        ("silenceURL", "Silence"),
        ("imageURL", "Image"),
    ] {
        if let Some(url) = alert.get(key).filter(|url| truthy(url)) {
            let url = url.as_str().ok_or(Unreadable)?;
            body.push_str(&format!("\n[{label}]({url})"));
        }
    }
    Ok((
        status,
        WebhookMessage {
            topic,
            content: normalize_body(&body),
        },
    ))
}

/// A Grafana 7 alert.
fn legacy(payload: &Object) -> Result<(&'static str, WebhookMessage), Unreadable> {
    let title = string(payload, "title")?;
    let state = match string(payload, "state")? {
        "no_data" => "no_data",
        "paused" => "paused",
        "alerting" => "alerting",
        "ok" => "ok",
        "pending" => "pending",
        "unknown" => "unknown",
        _ => return Err(Unreadable),
    };
    let rule_name = string(payload, "ruleName")?;
    let rule_url = string(payload, "ruleUrl")?;
    let mut eval_matches = String::new();
    // Zulip tests `is not None` on a wrapped value, which never is: a null list fails.
    if let Some(matches) = payload.get("evalMatches") {
        for found in matches.as_array().ok_or(Unreadable)? {
            let found = found.as_object().ok_or(Unreadable)?;
            let metric = string(found, "metric")?;
            let value = match found.get("value").ok_or(Unreadable)? {
                Value::Null => "None".to_owned(),
                // Python's `check_int` takes booleans, which are integers there.
                Value::Bool(true) => "True".to_owned(),
                Value::Bool(false) => "False".to_owned(),
                Value::Number(number) => match (number.as_i64(), number.as_u64()) {
                    (Some(int), _) => int.to_string(),
                    (None, Some(int)) => int.to_string(),
                    (None, None) => float_repr(number.as_f64().ok_or(Unreadable)?),
                },
                _ => return Err(Unreadable),
            };
            eval_matches.push_str(&format!("**{metric}:** {value}\n"));
        }
    }
    let message = match payload.get("message") {
        Some(message) => format!("{}\n\n", message.as_str().ok_or(Unreadable)?),
        None => String::new(),
    };
    let icon = match state {
        "alerting" => ":alert:",
        "ok" => ":squared_ok:",
        _ => ":info:",
    };
    let upper = state.to_uppercase();
    let mut body =
        format!("{icon} **{upper}**\n\n[{rule_name}]({rule_url})\n\n{message}{eval_matches}");
    if let Some(image) = payload.get("imageUrl") {
        let image = image.as_str().ok_or(Unreadable)?;
        body.push_str(&format!("\n[Click to view visualization]({image})"));
    }
    Ok((
        state,
        WebhookMessage {
            topic: title.to_owned(),
            content: body.trim_matches(is_py_space).to_owned(),
        },
    ))
}

fn string<'a>(object: &'a Object, key: &str) -> Result<&'a str, Unreadable> {
    object.get(key).and_then(Value::as_str).ok_or(Unreadable)
}

/// `- key: value` lines, each ended by a newline.
fn list(
    object: &Object,
    text: impl Fn(&Value) -> Result<String, Unreadable>,
) -> Result<String, Unreadable> {
    let mut out = String::new();
    for (key, value) in object {
        out.push_str(&format!("- {key}: {}\n", text(value)?));
    }
    Ok(out)
}

fn strict(value: &Value) -> Result<String, Unreadable> {
    value.as_str().map(str::to_owned).ok_or(Unreadable)
}

#[cfg(test)]
mod tests {

    use serde_json::json;

    use super::*;

    fn run(json: Value) -> Result<HandlerOutput, HandlerError> {
        crate::run_handler(handler, &json, None, &[], None)
    }

    fn alert(status: &str) -> Value {
        json!({
            "status": status,
            "labels": {},
            "fingerprint": "f1",
            "startsAt": "2024-01-02T03:04:05Z",
            "endsAt": "0001-01-01T00:00:00Z",
        })
    }

    #[test]
    fn a_bare_alert_is_named_by_its_fingerprint() {
        let output = run(json!({"alerts": [alert("firing")]})).unwrap();
        assert_eq!(output.event.as_deref(), Some("firing"));
        assert_eq!(
            output.messages,
            [WebhookMessage {
                topic: "[f1]".into(),
                content: ":alert: **FIRING**\n\nThis alert was fired at \
                          <time:2024-01-02T03:04:05+00:00>."
                    .into(),
            }]
        );
    }

    #[test]
    fn values_print_as_python_prints_them() {
        let mut one = alert("resolved");
        one["values"] = json!({"a": 1.0, "b": null, "c": [true, "x"]});
        let output = run(json!({"alerts": [one]})).unwrap();
        assert!(
            output.messages[0]
                .content
                .ends_with("Values:\n- a: 1.0\n- b: None\n- c: [True, 'x']"),
            "{:?}",
            output.messages[0].content
        );
        assert_eq!(output.event.as_deref(), Some("resolved"));
    }

    #[test]
    fn each_alert_is_named_by_its_own_status() {
        let output = run(json!({"alerts": [alert("resolved"), alert("firing")]})).unwrap();
        assert_eq!(output.item_events, ["resolved", "firing"]);
        assert_eq!(output.event.as_deref(), Some("resolved"));
        assert_eq!(output.messages.len(), 2);
        assert!(output.messages[1].content.starts_with(":alert: **FIRING**"));
    }

    #[test]
    fn what_grafana_does_not_send_is_anomalous() {
        for body in [
            json!({"alerts": [{"status": "firing"}]}),
            json!({"alerts": {}}),
            json!({"alerts": [alert("pending")]}),
            json!([1]),
            json!({"title": "t", "state": "weird", "ruleName": "r", "ruleUrl": "u"}),
            json!({"title": "t", "state": "ok", "ruleName": "r", "ruleUrl": "u", "evalMatches": null}),
        ] {
            assert_eq!(
                run(body.clone()),
                Err(HandlerError::AnomalousPayload),
                "{body}"
            );
        }
        let mut late = alert("firing");
        late["startsAt"] = json!("not a time");
        assert_eq!(
            run(json!({"alerts": [late]})),
            Err(HandlerError::AnomalousPayload)
        );
    }

    #[test]
    fn a_legacy_alert_without_extras() {
        let output = run(json!({
            "title": "T", "state": "no_data", "ruleName": "R", "ruleUrl": "U",
            "evalMatches": [{"metric": "m", "value": 1.5}, {"metric": "n", "value": null}],
        }))
        .unwrap();
        assert_eq!(output.event.as_deref(), Some("no_data"));
        assert_eq!(
            output.messages[0].content,
            ":info: **NO_DATA**\n\n[R](U)\n\n**m:** 1.5\n**n:** None"
        );
    }
}
