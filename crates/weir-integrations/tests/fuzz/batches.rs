//! The largest payloads the services send, grown from the integrations' own samples:
//! pushes of 1,000 commits on every git integration (each lists `COMMITS_LIMIT` and
//! counts the rest, so the message stays small however many commits come) and batches
//! of 1,000 items (a Grafana notification's alerts, a PagerDuty V2 `messages` list: a
//! message each, as Zulip sends them), all within the budget.

use std::collections::BTreeMap;

use http::{HeaderName, HeaderValue};
use serde_json::Value;
use weir_integrations::{
    EventFilter, HeaderMap, Method, Outcome, Request, WebhookMessage, find, process,
};

use crate::support::within_budget;

const ITEMS: usize = 1_000;
/// `COMMITS_LIMIT` of weir-integrations' git helpers (Zulip's).
const COMMITS_LIMIT: usize = 20;

/// The first array called `key` in `json`, depth first.
fn array_named<'a>(json: &'a mut Value, key: &str) -> Option<&'a mut Vec<Value>> {
    match json {
        Value::Object(fields) => {
            if fields.get(key).is_some_and(Value::is_array) {
                return fields.get_mut(key).and_then(Value::as_array_mut);
            }
            fields
                .values_mut()
                .find_map(|child| array_named(child, key))
        }
        Value::Array(items) => items.iter_mut().find_map(|child| array_named(child, key)),
        _ => None,
    }
}

/// A sample of `integration` with its `key` array grown to [`ITEMS`] copies of its first
/// item, each marked by `mark` with its index.
fn grown(integration: &str, sample: &str, key: &str, mark: impl Fn(&mut Value, usize)) -> String {
    let fixture = find(integration)
        .unwrap()
        .fixtures
        .iter()
        .find(|f| f.name == sample)
        .unwrap_or_else(|| panic!("{integration} has no sample {sample}"));
    let mut json: Value = serde_json::from_str(fixture.body).unwrap();
    let items = array_named(&mut json, key)
        .unwrap_or_else(|| panic!("{integration}/{sample} has no {key:?} list"));
    let first = items.first().unwrap().clone();
    *items = (0..ITEMS)
        .map(|n| {
            let mut item = first.clone();
            mark(&mut item, n);
            item
        })
        .collect();
    json.to_string()
}

/// Runs `body` through `integration` with `sample`'s headers; its messages.
fn messages(integration: &str, sample: &str, body: &str) -> Vec<WebhookMessage> {
    let integration = find(integration).unwrap();
    let fixture = integration
        .fixtures
        .iter()
        .find(|f| f.name == sample)
        .unwrap();
    let mut headers = HeaderMap::new();
    for (name, value) in fixture.headers {
        headers.insert(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    let (options, filter) = (BTreeMap::new(), EventFilter::default());
    let request = Request {
        method: &Method::POST,
        headers: &headers,
        body: body.as_bytes(),
        options: &options,
        filter: &filter,
        topic: None,
    };
    let what = format!("{} {sample} of {} bytes", integration.name, body.len());
    match within_budget(&what, || process(integration, &request)) {
        Ok(Outcome::Messages(messages)) => messages,
        other => panic!("{what}: {other:?}"),
    }
}

/// Gives a commit its own id and message (GitHub, GitLab and Gitea's `id`, Bitbucket's
/// `hash`).
fn numbered_commit(commit: &mut Value, n: usize) {
    for key in ["id", "hash"] {
        if commit.get(key).is_some() {
            commit[key] = Value::from(format!("{n:040x}"));
        }
    }
    commit["message"] = Value::from(format!("Change {n}\n\n{}", "detail ".repeat(50)));
}

#[test]
fn every_git_push_of_a_thousand_commits_lists_commits_limit_of_them() {
    for integration in ["github", "gitlab", "gitea", "bitbucket2"] {
        let body = grown(integration, "push", "commits", numbered_commit);
        let sent = messages(integration, "push", &body);
        let [message] = sent.as_slice() else {
            panic!("{integration}: {sent:?}");
        };
        let content = &message.content;
        assert_eq!(
            content.matches("Change ").count(),
            COMMITS_LIMIT,
            "{integration}: {content}"
        );
        assert!(
            content.contains(&format!("[and {} more commit(s)]", ITEMS - COMMITS_LIMIT)),
            "{integration}: {content}"
        );
        assert!(
            content.len() < 8_000 && body.len() > 300_000,
            "{integration}: {} bytes of message from {} of body",
            content.len(),
            body.len()
        );
    }
}

#[test]
fn a_grafana_notification_of_a_thousand_alerts_is_a_message_each() {
    let body = grown("grafana", "unified_firing", "alerts", |alert, n| {
        alert["labels"]["alertname"] = Value::from(format!("Alert {n}"));
    });
    let sent = messages("grafana", "unified_firing", &body);
    assert_eq!(sent.len(), ITEMS);
    assert_eq!(sent[999].topic, "[Alert 999]");
    let text: usize = sent.iter().map(|m| m.content.len()).sum();
    assert!(text < 2 * body.len(), "{text} bytes from {}", body.len());
}

#[test]
fn a_pagerduty_batch_of_a_thousand_messages_is_a_message_each() {
    let body = grown(
        "pagerduty",
        "incident_trigger_v2",
        "messages",
        |message, n| {
            message["incident"]["incident_number"] = Value::from(n);
        },
    );
    let sent = messages("pagerduty", "incident_trigger_v2", &body);
    assert_eq!(sent.len(), ITEMS);
    assert_eq!(sent[999].topic, "Incident 999");
    let text: usize = sent.iter().map(|m| m.content.len()).sum();
    assert!(text < 2 * body.len(), "{text} bytes from {}", body.len());
}
