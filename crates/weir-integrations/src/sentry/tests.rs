//! The handler on the project's own samples and on the payload shapes Zulip's view tells
//! apart; Zulip's own fixtures are replayed in `tests/zulip/sentry.rs`.

use serde_json::{Value, json};

use super::*;

fn run(json: &Value) -> Result<WebhookMessage, HandlerError> {
    let output = crate::run_handler(handler, json, None, &[], None)?;
    assert_eq!(output.event, None);
    let [message]: [WebhookMessage; 1] = output
        .messages
        .try_into()
        .unwrap_or_else(|messages| panic!("not one message: {messages:?}"));
    Ok(message)
}

fn sample(name: &str) -> Value {
    let fixture = FIXTURES.iter().find(|f| f.name == name).unwrap();
    serde_json::from_str(fixture.body).unwrap()
}

#[test]
fn an_exception_shows_the_line_that_raised() {
    let message = run(&sample("event_alert_exception")).unwrap();
    assert_eq!(message.topic, "KeyError: 'invoice_id'");
    assert_eq!(
        message.content,
        "**New exception:** [KeyError: 'invoice_id'](https://sentry.example.com/organizations/\
         acme/issues/4812/events/4f1c2a9e8b7d4c3ea1f0d2b6c5e8a7f3/)\n```quote\n\
         **level:** error\n**timestamp:** 2026-03-02 09:14:27\n\
         **filename:** billing/export.py\n```\n\nTraceback:\n```python3\n\
         \u{20}    def export_row(row):\n         total = row[\"amount\"]\n\n\
         --->     ref = row[\"invoice_id\"]\n         return f\"{ref};{total}\"\n```"
    );
}

#[test]
fn issues_name_the_assignee_and_the_actor() {
    let created = run(&sample("issue_created")).unwrap();
    assert_eq!(
        created.content,
        "**New issue created:** KeyError: 'invoice_id'\n```quote\n**level:** error\n\
         **timestamp:** 2026-03-02 09:14:27\n**assignee:** No one\n```"
    );
    let assigned = run(&sample("issue_assigned")).unwrap();
    assert_eq!(
        assigned.content,
        "Issue **KeyError: 'invoice_id'** has now been assigned to **team payments** by \
         **Jonas Berg**."
    );
    let message = run(&sample("event_alert_message")).unwrap();
    assert!(
        message
            .content
            .starts_with("**New message event:** [Nightly export")
    );
}

#[test]
fn unknown_kinds_are_unsupported_with_zulips_names() {
    let mut issue = sample("issue_resolved");
    issue["action"] = json!("archived");
    assert_eq!(
        run(&issue),
        Err(HandlerError::UnsupportedEvent(
            "unknown-issue-action type".into()
        ))
    );
    assert_eq!(
        run(&json!({"data": {"metric_alert": {}, "description_text": "x"}})),
        Err(HandlerError::UnsupportedEvent(
            "['description_text', 'metric_alert']".into()
        ))
    );
    let mut event = sample("event_alert_message");
    event["data"]["event"]
        .as_object_mut()
        .unwrap()
        .remove("logentry");
    assert_eq!(
        run(&event),
        Err(HandlerError::UnsupportedEvent("unknown-event type".into()))
    );
    let mut raven = sample("event_alert_exception");
    raven["data"]["event"]["version"] = json!("6");
    assert_eq!(
        run(&raven),
        Err(HandlerError::UnsupportedEvent("Raven SDK".into()))
    );
}

#[test]
fn a_plain_webhook_event_gets_zulips_link_and_time() {
    let mut event = sample("event_alert_message")["data"]["event"].clone();
    let fields = event.as_object_mut().unwrap();
    fields.remove("web_url");
    fields.remove("datetime");
    fields.insert("timestamp".into(), json!(1_772_416_805.25));
    fields.insert("received".into(), json!(1_772_416_806));
    let payload = json!({
        "url": "https://sentry.example.com/organizations/acme/issues/4820/?referrer=webhooks_plugin",
        "event": event,
        "project_name": "billing",
    });
    let message = run(&payload).unwrap();
    assert_eq!(
        message.content,
        "**New message event:** [Nightly export finished with 3 skipped rows](https://sentry.\
         example.com/organizations/acme/issues/4820/events/a02d6e1f93b84c7c9d7e5b1f0c3a8e24/)\n\
         ```quote\n**level:** warning\n**timestamp:** 2026-03-02 02:00:05\n```"
    );
}

#[test]
fn the_deprecated_payload_prints_absent_values_as_none() {
    let message = run(&json!({"level": "warning", "message": "disk full"})).unwrap();
    assert_eq!(message.topic, "None");
    assert_eq!(
        message.content,
        "New [issue](None) (level: WARNING):\n\n``` quote\ndisk full\n```"
    );
    // Falsy `data` is the deprecated payload too.
    assert_eq!(
        run(&json!({"data": {}})),
        Err(HandlerError::MissingKey("level".into()))
    );
}

#[test]
fn missing_keys_are_named() {
    let mut issue = sample("issue_resolved");
    issue.as_object_mut().unwrap().remove("actor");
    assert_eq!(run(&issue), Err(HandlerError::MissingKey("actor".into())));
    let mut event = sample("event_alert_exception");
    event["data"]["event"]["metadata"] = json!("billing/export.py");
    assert_eq!(
        run(&event),
        Err(HandlerError::MissingKey("metadata".into()))
    );
    let webhook = json!({"url": "https://s.example", "event": {"event_id": "e", "timestamp": 1}});
    assert_eq!(
        run(&webhook),
        Err(HandlerError::MissingKey("received".into()))
    );
}

#[test]
fn objects_where_lists_belong_are_iterated_by_key_as_python_does() {
    let mut event = sample("event_alert_exception");
    event["data"]["event"]["exception"]["values"] = json!({"first": 1});
    let message = run(&event).unwrap();
    assert!(
        message
            .content
            .ends_with("**filename:** billing/export.py\n```")
    );
    event["data"]["event"]["exception"]["values"] = json!({"has_stacktrace": 1});
    assert_eq!(run(&event), Err(HandlerError::MissingKey("values".into())));
    let mut event = sample("event_alert_exception");
    event["data"]["event"]["exception"]["values"][0]["stacktrace"]["frames"] = json!({});
    assert!(
        run(&event)
            .unwrap()
            .content
            .ends_with("billing/export.py\n```")
    );
    event["data"]["event"]["exception"]["values"][0]["stacktrace"]["frames"] = json!({"a": 1});
    assert_eq!(run(&event), Err(HandlerError::MissingKey("frames".into())));
}
