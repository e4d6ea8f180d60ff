//! The handler on the project's own samples and on the shapes Zulip's view tells apart;
//! Zulip's own fixtures are replayed in `tests/zulip/pagerduty.rs`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::{HeaderMap, Method};

fn run(json: &Value) -> Result<HandlerOutput, HandlerError> {
    crate::run_handler(handler, json, None, &[], None)
}

fn sample(name: &str) -> Value {
    let fixture = FIXTURES.iter().find(|f| f.name == name).unwrap();
    serde_json::from_str(fixture.body).unwrap()
}

const INCIDENT: &str =
    "[Checkout error rate above 5% (#1042)](https://acme.pagerduty.com/incidents/Q2J4H7XK1LM3NP)";
const AMINA: &str = "[Amina Okafor](https://acme.pagerduty.com/users/PU4K7Q2)";

fn one(output: HandlerOutput, event: &str) -> WebhookMessage {
    assert_eq!(output.event.as_deref(), Some(event));
    let [message]: [WebhookMessage; 1] = output.messages.try_into().unwrap();
    message
}

#[test]
fn v3_events_use_zulips_templates_and_names() {
    let triggered = one(run(&sample("incident_triggered")).unwrap(), "triggered");
    assert_eq!(
        triggered.topic,
        "Incident Checkout error rate above 5% (#1042)"
    );
    assert_eq!(
        triggered.content,
        format!(
            "Incident {INCIDENT} triggered by [Checkout API](https://acme.pagerduty.com/\
             service-directory/PS9W1XE) (assigned to {AMINA})."
        )
    );
    let acknowledged = one(
        run(&sample("incident_acknowledged")).unwrap(),
        "acknowledged",
    );
    assert_eq!(
        acknowledged.content,
        format!("Incident {INCIDENT} acknowledged by {AMINA}.")
    );
    let resolved = one(run(&sample("incident_resolved")).unwrap(), "resolved");
    assert_eq!(
        resolved.content,
        format!("Incident {INCIDENT} resolved by {AMINA}.")
    );
    let annotated = one(run(&sample("incident_annotated")).unwrap(), "annotated");
    assert_eq!(annotated.topic, "Incident Checkout error rate above 5%");
    assert!(
        annotated
            .content
            .ends_with("annotated with: Rolled back release 2026.03.1; error rate falling.")
    );
}

#[test]
fn v2_messages_quote_the_description() {
    let message = one(run(&sample("incident_trigger_v2")).unwrap(), "triggered");
    assert_eq!(message.topic, "Incident 1042");
    assert_eq!(
        message.content,
        format!(
            "Incident [1042](https://acme.pagerduty.com/incidents/PX91QZ3) triggered by \
             [Checkout API](https://acme.pagerduty.com/services/PS9W1XE) (assigned to \
             {AMINA}).\n\n``` quote\nCheckout error rate above 5%\n```"
        )
    );
    // Without a description Zulip's template has nothing to fill in.
    let mut bare = sample("incident_trigger_v2");
    bare["messages"][0]["incident"]["description"] = Value::Null;
    assert_eq!(
        run(&bare),
        Err(HandlerError::MissingKey("description".into()))
    );
}

#[test]
fn a_v1_batch_is_one_message_each() {
    let message = |kind: &str, number: u32| {
        json!({
            "type": kind,
            "data": {"incident": {
                "id": "P1", "incident_number": number, "html_url": "https://x.example/i/P1",
                "service": {"name": "Web", "html_url": "https://x.example/s/1"},
                "assigned_to_user": {"email": "ops@x.example", "html_url": "https://x.example/u/1"},
                "trigger_summary_data": {"subject": "down", "description": "since 9:00"},
            }},
        })
    };
    let batch =
        json!({"messages": [message("incident.delegate", 7), message("incident.trigger", 8)]});
    let output = run(&batch).unwrap();
    // Zulip's name for a V1 delegation.
    assert_eq!(output.event.as_deref(), Some("delineated"));
    assert_eq!(output.messages.len(), 2);
    assert_eq!(
        output.messages[0].content,
        "Incident [7](https://x.example/i/P1) delineated by [ops](https://x.example/u/1).\
         \n\n``` quote\ndown\nsince 9:00\n```"
    );
    assert_eq!(output.messages[1].topic, "Incident 8");
}

#[test]
fn unsupported_and_empty_payloads_answer_as_zulip() {
    let mut event = sample("incident_triggered");
    event["event"]["event_type"] = json!("incident.custom_field_values.updated");
    assert_eq!(
        run(&event),
        Err(HandlerError::UnsupportedEvent(
            "incident.custom_field_values.updated".into()
        ))
    );
    event["event"].as_object_mut().unwrap().remove("event_type");
    assert_eq!(
        run(&event),
        Err(HandlerError::UnsupportedEvent("None".into()))
    );
    // Neither `messages` nor `event`: success, nothing sent.
    assert_eq!(run(&json!({"messages": []})), Err(HandlerError::Ignored));
    assert_eq!(run(&json!({"messages": [{}]})), Err(HandlerError::Ignored));
    assert_eq!(
        run(&json!([1])),
        Err(HandlerError::MissingKey("messages".into()))
    );
    assert_eq!(
        run(&json!({"messages": {"type": "incident.trigger"}})),
        Err(HandlerError::MissingKey("messages".into()))
    );
}

#[test]
fn filters_match_zulips_names_for_the_events() {
    use crate::{EventFilter, Outcome, Request, process};
    let run_filtered = |fixture: &str, only: &str| {
        let only = vec![only.to_owned()];
        let filter = EventFilter::new(Some(&only), None).unwrap();
        let body = FIXTURES.iter().find(|f| f.name == fixture).unwrap().body;
        let request = Request {
            method: &Method::POST,
            headers: &HeaderMap::new(),
            body: body.as_bytes(),
            options: &BTreeMap::new(),
            filter: &filter,
            topic: None,
        };
        process(&integration(), &request)
    };
    assert!(matches!(
        run_filtered("incident_triggered", "trigger*"),
        Ok(Outcome::Messages(_))
    ));
    assert_eq!(
        run_filtered("incident_acknowledged", "trigger*"),
        Ok(Outcome::Filtered {
            event: "acknowledged".into()
        })
    );
    assert!(matches!(
        run_filtered("incident_trigger_v2", "triggered"),
        Ok(Outcome::Messages(_))
    ));
}
