//! Zulip's Prometheus Alertmanager integration: the alerts of a notification grouped by
//! the label (or annotation) the URL's `name` names, one message per group and status.

use serde_json::{Map, Value};

use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

pub fn integration() -> Integration {
    Integration {
        name: "alertmanager",
        display_name: "Prometheus Alertmanager",
        categories: &["monitoring"],
        view_name: "Alertmanager",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::None,
        event_types: &[],
        config_options: &[],
        // The label or annotation naming the topic (default `instance`) and the one
        // describing each alert (default `alertname`).
        url_options: &["name", "desc"],
        fixtures: &[
            Fixture {
                name: "disk_firing",
                body: include_str!("fixtures/alertmanager/disk_firing.json"),
                headers: &[],
            },
            Fixture {
                name: "latency_resolved",
                body: include_str!("fixtures/alertmanager/latency_resolved.json"),
                headers: &[],
            },
        ],
        handler,
    }
}

/// The alerts of one topic, by status, in the order Zulip sends them.
#[derive(Default)]
struct Group {
    firing: Vec<String>,
    resolved: Vec<String>,
}

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let option = |key: &str, default: &'static str| {
        payload
            .options
            .get(key)
            .map_or(default, String::as_str)
            .to_owned()
    };
    let (name_field, desc_field) = (option("name", "instance"), option("desc", "alertname"));
    let alerts = payload
        .value_at("/alerts")?
        .as_array()
        .ok_or_else(|| missing("alerts"))?;
    // Topics in the order their first alert came, as Python's dict keeps them.
    let mut groups: Vec<(String, Group)> = Vec::new();
    for alert in alerts {
        let alert = alert.as_object().ok_or_else(|| missing("alerts"))?;
        let labels = dict(alert, "labels")?;
        let annotations = dict(alert, "annotations")?;
        let name = field(labels, annotations, &name_field, "(unknown)")?;
        let desc = field(
            labels,
            annotations,
            &desc_field,
            &format!("<missing field: {desc_field}>"),
        )?;
        let url = string(alert, "generatorURL")?.replace("tab=1", "tab=0");
        let line = format!("{desc} ([source]({url}))");
        let group = match groups.iter().position(|(topic, _)| *topic == name) {
            Some(index) => &mut groups[index].1,
            None => {
                groups.push((name, Group::default()));
                let last = groups.len() - 1;
                &mut groups[last].1
            }
        };
        match string(alert, "status")? {
            "firing" => group.firing.push(line),
            "resolved" => group.resolved.push(line),
            _ => return Err(missing("status")),
        }
    }
    let mut messages = Vec::new();
    for (topic, group) in groups {
        for (lines, icon, title) in [
            (group.firing, ":alert:", "FIRING"),
            (group.resolved, ":squared_ok:", "Resolved"),
        ] {
            let content = match lines.as_slice() {
                [] => continue,
                [one] => format!("{icon} **{title}** {one}"),
                many => {
                    let list: Vec<String> = many.iter().map(|line| format!("* {line}")).collect();
                    format!("{icon} **{title}**\n{}", list.join("\n"))
                }
            };
            messages.push(WebhookMessage {
                topic: topic.clone(),
                content,
            });
        }
    }
    Ok(HandlerOutput {
        event: None,
        item_events: Vec::new(),
        messages,
    })
}

fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

/// `alert.get(key, {})`: absent is empty, anything but an object is refused.
fn dict<'a>(
    alert: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, HandlerError> {
    match alert.get(key) {
        None => Ok(None),
        Some(value) => value.as_object().map(Some).ok_or_else(|| missing(key)),
    }
}

fn string<'a>(alert: &'a Map<String, Value>, key: &str) -> Result<&'a str, HandlerError> {
    alert
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| missing(key))
}

/// `labels.get(key, annotations.get(key, default))`, a string.
fn field(
    labels: Option<&Map<String, Value>>,
    annotations: Option<&Map<String, Value>>,
    key: &str,
    default: &str,
) -> Result<String, HandlerError> {
    let found = labels
        .and_then(|labels| labels.get(key))
        .or_else(|| annotations.and_then(|annotations| annotations.get(key)));
    match found {
        None => Ok(default.to_owned()),
        Some(value) => value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| missing(key)),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use crate::HeaderMap;

    use super::*;

    fn run(json: Value, options: &[(&str, &str)]) -> Result<Vec<(String, String)>, HandlerError> {
        let headers = HeaderMap::new();
        let options: BTreeMap<String, String> = options
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect();
        let output = handler(&Payload {
            method: &crate::Method::POST,
            json: &json,
            headers: &headers,
            event_type: None,
            options: &options,
            topic: None,
        })?;
        Ok(output
            .messages
            .into_iter()
            .map(|message| (message.topic, message.content))
            .collect())
    }

    fn alert(status: &str, instance: &str, name: &str) -> Value {
        json!({
            "status": status,
            "labels": {"instance": instance, "alertname": name},
            "generatorURL": "http://p/graph?tab=1",
        })
    }

    #[test]
    fn groups_by_topic_then_status_in_arrival_order() {
        let alerts = json!({"alerts": [
            alert("resolved", "b", "One"),
            alert("firing", "a", "Two"),
            alert("firing", "b", "Three"),
            alert("firing", "b", "Four"),
        ]});
        let source = "([source](http://p/graph?tab=0))";
        assert_eq!(
            run(alerts, &[]),
            Ok(vec![
                (
                    "b".into(),
                    format!(":alert: **FIRING**\n* Three {source}\n* Four {source}")
                ),
                (
                    "b".into(),
                    format!(":squared_ok: **Resolved** One {source}")
                ),
                ("a".into(), format!(":alert: **FIRING** Two {source}")),
            ])
        );
    }

    #[test]
    fn falls_back_to_annotations_then_to_placeholders() {
        let alerts = json!({"alerts": [{
            "status": "firing",
            "annotations": {"topic": "t"},
            "generatorURL": "u",
        }]});
        assert_eq!(
            run(
                alerts.clone(),
                &[("name", "topic"), ("desc", "description")]
            ),
            Ok(vec![(
                "t".into(),
                ":alert: **FIRING** <missing field: description> ([source](u))".into()
            )])
        );
        assert_eq!(
            run(alerts, &[]),
            Ok(vec![(
                "(unknown)".into(),
                ":alert: **FIRING** <missing field: alertname> ([source](u))".into()
            )])
        );
    }

    #[test]
    fn refuses_what_zulip_cannot_read() {
        assert_eq!(run(json!({}), &[]), Err(missing("alerts")));
        let no_url = json!({"alerts": [{"status": "firing"}]});
        assert_eq!(run(no_url, &[]), Err(missing("generatorURL")));
        let odd = json!({"alerts": [{"status": "odd", "generatorURL": "u"}]});
        assert_eq!(run(odd, &[]), Err(missing("status")));
        assert_eq!(run(json!({"alerts": []}), &[]), Ok(vec![]));
    }
}
