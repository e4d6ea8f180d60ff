//! Batches and anomalous payloads of incoming webhooks, as Zulip's views answer them
//! (`docs/zulip-compatibility.md`: Incoming webhooks): a Grafana notification's alerts and
//! a PagerDuty V2 `messages` list are one message per item, each kept or left out by
//! `only_events` / `exclude_events` on its own event (Zulip calls
//! `check_send_webhook_message` per item); a payload the service would not send is
//! Zulip's `AnomalousWebhookPayloadError`: a 400 with code `ANOMALOUS_WEBHOOK_PAYLOAD` and
//! `webhook_name`, and nothing is sent; a batch refused at an item is answered the same,
//! after the items before it are sent, as Zulip's view sends each before reading the next.

use serde_json::{Value, json};
use weir_tests::*;

const TO_ENGINEERING: [(&str, &str); 2] = [("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")];

fn alert(status: &str, name: &str) -> Value {
    json!({
        "status": status,
        "labels": {"alertname": name},
        "fingerprint": "f",
        "startsAt": "2024-01-02T03:04:05Z",
        "endsAt": "0001-01-01T00:00:00Z",
    })
}

/// Three alerts: disk resolved, cpu firing, memory resolved.
fn grafana_notification() -> String {
    json!({"alerts": [
        alert("resolved", "disk"),
        alert("firing", "cpu"),
        alert("resolved", "memory"),
    ]})
    .to_string()
}

/// Sends `body` to `integration` with `query` after the key and stream; the topics of
/// what it posted, in order.
async fn topics_posted(
    server: &TestServer,
    integration: &str,
    query: &[(&str, &str)],
    body: &str,
) -> Vec<String> {
    let before = everything(server).await;
    let mut all = TO_ENGINEERING.to_vec();
    all.extend_from_slice(query);
    let r = post_webhook(
        server,
        integration,
        &all,
        &[("Content-Type", JSON_TYPE)],
        body,
    )
    .await;
    assert_webhook_success(&r);
    new_since(server, &before)
        .await
        .iter()
        .map(|m| {
            assert_eq!(m["sender_id"], WEBHOOK_BOT.id, "{m:#}");
            m["subject"].as_str().unwrap_or_default().to_owned()
        })
        .collect()
}

#[tokio::test]
async fn each_grafana_alert_is_filtered_by_its_own_status() {
    let server = TestServer::standard();
    let body = grafana_notification();
    let firing = json!(["firing"]).to_string();
    let resolved = json!(["resolved"]).to_string();
    for (query, expected) in [
        (vec![], vec!["[disk]", "[cpu]", "[memory]"]),
        (vec![("only_events", firing.as_str())], vec!["[cpu]"]),
        (
            vec![("exclude_events", firing.as_str())],
            vec!["[disk]", "[memory]"],
        ),
        (
            vec![("only_events", resolved.as_str())],
            vec!["[disk]", "[memory]"],
        ),
        (
            vec![
                ("only_events", firing.as_str()),
                ("exclude_events", firing.as_str()),
            ],
            vec![],
        ),
    ] {
        assert_eq!(
            topics_posted(&server, "grafana", &query, &body).await,
            expected,
            "{query:?}"
        );
    }
}

#[tokio::test]
async fn each_message_of_a_pagerduty_batch_is_filtered_by_its_own_event() {
    let server = TestServer::standard();
    let incident = |event: &str, number: u64| {
        json!({
            "event": event,
            "incident": {
                "id": format!("P{number}"),
                "incident_number": number,
                "html_url": format!("https://acme.pagerduty.com/incidents/P{number}"),
                "description": "Checkout is down",
                "service": {"name": "Checkout", "html_url": "https://acme.pagerduty.com/services/S"},
                "assignments": [],
                // Zulip's view reads it whenever the key is there or not (a wrapped
                // value is never None).
                "last_status_change_by": {"summary": "Ada", "html_url": "https://acme.pagerduty.com/users/A"},
            },
        })
    };
    let body = json!({"messages": [
        incident("incident.trigger", 1),
        incident("incident.acknowledge", 2),
        incident("incident.resolve", 3),
    ]})
    .to_string();
    let acknowledged = json!(["ack*"]).to_string();
    let triggered = json!(["triggered"]).to_string();
    for (query, expected) in [
        (vec![], vec!["Incident 1", "Incident 2", "Incident 3"]),
        (
            vec![("only_events", acknowledged.as_str())],
            vec!["Incident 2"],
        ),
        (
            vec![("exclude_events", triggered.as_str())],
            vec!["Incident 2", "Incident 3"],
        ),
    ] {
        assert_eq!(
            topics_posted(&server, "pagerduty", &query, &body).await,
            expected,
            "{query:?}"
        );
    }
}

#[tokio::test]
async fn anomalous_payloads_answer_zulips_code_and_send_nothing() {
    let server = TestServer::standard();
    let mut no_status = alert("firing", "cpu");
    no_status["status"] = json!("pending");
    for (integration, view, body) in [
        ("grafana", "Grafana", json!({"alerts": [no_status]})),
        (
            "grafana",
            "Grafana",
            json!({"message": "Someone is testing"}),
        ),
        ("jira", "Jira", json!({"accountId": "x"})),
    ] {
        let before = everything(&server).await;
        let r = post_webhook(
            &server,
            integration,
            &TO_ENGINEERING,
            &[("Content-Type", JSON_TYPE)],
            &body.to_string(),
        )
        .await;
        let expected = json!({
            "result": "error",
            "msg": format!("Unable to parse request: Did {view} generate this event?"),
            "code": "ANOMALOUS_WEBHOOK_PAYLOAD",
            "webhook_name": view,
        });
        assert!(
            r.status == 400 && r.json == expected,
            "expected {expected:#}\n{}",
            r.debug()
        );
        let new = new_since(&server, &before).await;
        assert!(new.is_empty(), "{integration}: {new:#?}");
    }
}

#[tokio::test]
async fn a_batch_refused_partway_sends_the_items_before_it() {
    let server = TestServer::standard();
    let mut unreadable = alert("firing", "memory");
    unreadable["status"] = json!("pending");
    let body = json!({"alerts": [
        alert("firing", "cpu"),
        alert("resolved", "disk"),
        unreadable,
        alert("firing", "swap"),
    ]})
    .to_string();
    let before = everything(&server).await;
    let r = post_webhook(
        &server,
        "grafana",
        &TO_ENGINEERING,
        &[("Content-Type", JSON_TYPE)],
        &body,
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.debug());
    assert_eq!(r.json["code"], "ANOMALOUS_WEBHOOK_PAYLOAD", "{}", r.debug());
    assert_eq!(r.json["webhook_name"], "Grafana", "{}", r.debug());
    let topics: Vec<_> = new_since(&server, &before)
        .await
        .iter()
        .map(|m| m["subject"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(topics, ["[cpu]", "[disk]"]);

    // Items the filter leaves out before the refused one are not sent; a refusal at the
    // first item sends nothing.
    let before = everything(&server).await;
    let mut query = TO_ENGINEERING.to_vec();
    query.push(("only_events", r#"["resolved"]"#));
    let r = post_webhook(
        &server,
        "grafana",
        &query,
        &[("Content-Type", JSON_TYPE)],
        &body,
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.debug());
    let new = new_since(&server, &before).await;
    assert_eq!(new.len(), 1, "{new:#?}");
    assert_eq!(new[0]["subject"], "[disk]");
    let mut first = alert("firing", "cpu");
    first["status"] = json!("pending");
    let body = json!({"alerts": [first, alert("firing", "swap")]}).to_string();
    let before = everything(&server).await;
    let r = post_webhook(
        &server,
        "grafana",
        &TO_ENGINEERING,
        &[("Content-Type", JSON_TYPE)],
        &body,
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.debug());
    assert!(new_since(&server, &before).await.is_empty());
}
