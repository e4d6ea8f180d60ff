//! The handler on the project's own samples and at the edges of Zulip's view (Zulip's
//! own tests are replayed in `tests/zulip/jira.rs`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::{HeaderMap, Method};

const ISSUE: &str =
    "[TIDE-88: Neap tides off by a day in March](https://tidewater.atlassian.net/browse/TIDE-88)";

fn run_json(json: &Value) -> Result<(String, WebhookMessage), HandlerError> {
    let event = json.get("webhookEvent").and_then(Value::as_str);
    let output = crate::run_handler(handler, json, event, &[], None)?;
    let [message]: [WebhookMessage; 1] = output.messages.try_into().unwrap();
    Ok((output.event.unwrap(), message))
}

fn sample(name: &str) -> Value {
    let fixture = FIXTURES.iter().find(|f| f.name == name).unwrap();
    serde_json::from_str(fixture.body).unwrap()
}

fn run(name: &str) -> (String, WebhookMessage) {
    run_json(&sample(name)).unwrap()
}

#[test]
fn words_created_and_deleted_issues() {
    let (event, message) = run("issue_created");
    assert_eq!(event, "jira:issue_created");
    assert_eq!(message.topic, "TIDE-88: Neap tides off by a day in March");
    assert_eq!(
        message.content,
        format!(
            "Mireille Okafor created {ISSUE}:\n\n* **Priority**: High\n* **Assignee**: Tomas \
             Lindqvist"
        )
    );
    let (_, message) = run("issue_deleted");
    assert_eq!(
        message.content,
        "Mireille Okafor deleted [TIDE-95: Duplicate of TIDE-88](https://tidewater.atlassian.\
         net/browse/TIDE-95)."
    );
}

#[test]
fn words_updates_from_the_changelog() {
    let (event, message) = run("issue_updated");
    assert_eq!(event, "jira:issue_updated");
    assert_eq!(
        message.content,
        format!(
            "Tomas Lindqvist updated {ISSUE} (assigned to **tomas@example.org**):\n\n\
             * Changed status from **To Do** to **In Progress**\n\
             * Changed priority from **High** to **Highest**"
        )
    );
    // A transition alone is an update (no `webhookEvent`).
    let json = json!({
        "transition": {"from_status": "To Do", "to_status": "Done"},
        "user": {"displayName": "Al"},
        "issue": {"key": "T-1", "fields": {"summary": "S"}},
    });
    let (event, message) = run_json(&json).unwrap();
    assert_eq!(event, "jira:issue_updated");
    assert_eq!(
        message.content,
        "Al updated T-1: S:\n\n* Changed status from **To Do** to **Done**"
    );
}

#[test]
fn converts_the_markup_of_comments_on_updates() {
    let (_, message) = run("issue_commented");
    assert_eq!(
        message.content,
        format!(
            "Mireille Okafor commented on {ISSUE} (assigned to **tomas@example.org**):\n\n\
             ``` quote\nThe station file is in **UTC**; see `ports.csv` and [the almanac]\
             (https://almanac.example.org/2026).\n~~~ quote\nNeap on the 20th\n~~~\n```"
        )
    );
    let (event, message) = run("comment_created");
    assert_eq!(event, "comment_created");
    assert_eq!(
        message.content,
        format!(
            "Tomas Lindqvist commented on {ISSUE}\n``` quote\nConverted to local time ! The \
             March table is fixed.\n```"
        )
    );
}

#[test]
fn ignores_refuses_and_does_not_support_as_zulip_does() {
    for ignored in IGNORED_EVENTS {
        let json = json!({"webhookEvent": ignored});
        assert_eq!(run_json(&json), Err(HandlerError::Ignored), "{ignored}");
    }
    assert_eq!(
        run_json(&json!({"accountId": "x"})),
        Err(HandlerError::AnomalousPayload)
    );
    assert_eq!(
        run_json(&json!({"webhookEvent": "board_created"})),
        Err(HandlerError::UnsupportedEvent("board_created".into()))
    );
    assert_eq!(
        run_json(&json!({"webhookEvent": 3})),
        Err(HandlerError::MissingKey("webhookEvent".into()))
    );
    assert_eq!(
        run_json(&json!([1])),
        Err(HandlerError::MissingKey("webhookEvent".into()))
    );
    // A comment event without its issue: the issue number from the comment's URL.
    let json = json!({
        "webhookEvent": "comment_deleted",
        "comment": {"self": "https://j.test/rest/api/2/issue/10001/comment/5", "author": {"displayName": "Al"}, "body": "x"},
    });
    let (_, message) = run_json(&json).unwrap();
    assert_eq!(
        message.topic,
        "10001: Upgrade Jira to get the issue title here."
    );
    assert_eq!(
        message.content,
        "Al deleted their comment on 10001: Upgrade Jira to get the issue title here.\n\
         ``` quote\n~~x~~\n```"
    );
    let short = json!({"webhookEvent": "comment_created", "comment": {"self": "a/b"}});
    assert_eq!(
        run_json(&short),
        Err(HandlerError::MissingKey("self".into()))
    );
}

#[test]
fn reads_the_base_url_as_zulips_pattern_does() {
    assert_eq!(
        base_url("https://j.test/rest/api/2/issue/1"),
        Some("https://j.test")
    );
    assert_eq!(
        base_url("https://j.test/a/rest/api/x/rest/api/"),
        Some("https://j.test/a/rest/api/x")
    );
    assert_eq!(base_url("https://j.test/x\n/rest/api/2"), None);
    assert_eq!(base_url("https://j.test/rest/api"), None);
}

#[test]
fn filters_match_zulips_event_names() {
    use crate::{EventFilter, Outcome, Request, process};
    let run = |body: &str, exclude: &[&str]| {
        let exclude: Vec<String> = exclude.iter().map(|p| (*p).to_owned()).collect();
        let filter = EventFilter::new(None, Some(&exclude)).unwrap();
        process(
            &integration(),
            &Request {
                method: &Method::POST,
                headers: &HeaderMap::new(),
                body: body.as_bytes(),
                options: &BTreeMap::new(),
                filter: &filter,
                topic: None,
            },
        )
    };
    let created = FIXTURES.iter().find(|f| f.name == "issue_created").unwrap();
    assert_eq!(
        run(created.body, &["jira:issue_*"]),
        Ok(Outcome::Filtered {
            event: "jira:issue_created".into()
        })
    );
    assert!(matches!(
        run(created.body, &["comment_*"]),
        Ok(Outcome::Messages(_))
    ));
    // A transition without `webhookEvent` is filtered as the update Zulip makes of it.
    let transition = r#"{"transition": {"from_status": "A", "to_status": "B"}, "issue": {}}"#;
    assert_eq!(
        run(transition, &["jira:issue_updated"]),
        Ok(Outcome::Filtered {
            event: "jira:issue_updated".into()
        })
    );
}
