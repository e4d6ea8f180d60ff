use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::HeaderMap;

const REPO: &str = "https://github.com/lantern-labs/tidepool";

fn run(
    json: &Value,
    event: Option<&str>,
    options: &[(&str, &str)],
    topic: Option<&str>,
) -> Result<HandlerOutput, HandlerError> {
    crate::run_handler(handler, json, event, options, topic)
}

/// The one message of a fixture, with Zulip's event name.
fn message(name: &str, options: &[(&str, &str)], topic: Option<&str>) -> (String, String, String) {
    let fixture = FIXTURES
        .iter()
        .find(|fixture| fixture.name == name)
        .unwrap_or_else(|| panic!("no fixture {name}"));
    let json: Value = serde_json::from_str(fixture.body).unwrap();
    let event = fixture.headers[0].1;
    let output = run(&json, Some(event), options, topic).unwrap();
    let [message]: [WebhookMessage; 1] = output.messages.try_into().unwrap();
    (output.event.unwrap(), message.topic, message.content)
}

#[test]
fn every_fixture_names_the_event_zulip_would() {
    let expected = [
        ("ping", "ping"),
        ("push", "push_commits"),
        ("push_tag", "push_tags"),
        ("pull_request_opened", "opened_pull_request"),
        ("pull_request_closed", "closed_pull_request"),
        ("issues_opened", "issues"),
        ("issue_comment", "issue_comment"),
        ("release", "release"),
    ];
    assert_eq!(FIXTURES.len(), expected.len());
    for (name, event) in expected {
        assert_eq!(message(name, &[], None).0, event, "{name}");
        assert!(EVENT_TYPES.contains(&event));
    }
}

#[test]
fn words_the_samples_as_zulip() {
    let (_, topic, content) = message("push", &[], None);
    assert_eq!(topic, "tidepool / main");
    assert_eq!(
        content,
        format!(
            "mira-okafor [pushed]({REPO}/compare/3f0c2a91d6be...b7e41c09a2f3) 2 commits to \
             branch main. Commits by mira-okafor (1) and tberg (1).\n\n\
             * sensors: Read the salinity probe every 30 seconds. ([9a4d2e71c0b]({REPO}/commit/\
             9a4d2e71c0b58f36a1e7d49c2b0f83a65e1d7c40))\n\
             * docs: Explain the calibration steps. ([b7e41c09a2f]({REPO}/commit/\
             b7e41c09a2f35d6e8c1a0f94e27b3d5c6a8f1e02))"
        )
    );
    let (_, topic, content) = message("pull_request_opened", &[], None);
    assert_eq!(topic, "tidepool / PR #42 Alert when the salinity drifts");
    assert_eq!(
        content,
        format!(
            "tberg opened [PR #42]({REPO}/pull/42) from `tberg:drift-alarm` to \
             `lantern-labs:main` (assigned to mira-okafor):\n\n~~~ quote\nAdds a drift alarm \
             with a configurable threshold.\n\nCloses #37.\n~~~"
        )
    );
    let (_, _, content) = message("pull_request_closed", &[], Some("alerts"));
    assert_eq!(
        content,
        format!("mira-okafor merged [PR #42 Alert when the salinity drifts]({REPO}/pull/42).")
    );
    let (_, topic, content) = message("push_tag", &[], None);
    assert_eq!(
        (topic.as_str(), content.as_str()),
        ("tidepool", "tberg pushed tag v0.4.0.")
    );
    let (_, _, content) = message("release", &[], None);
    assert_eq!(
        content,
        format!(
            "tberg published release [Tidepool 0.4]({REPO}/releases/tag/v0.4.0) for tag v0.4.0."
        )
    );
}

#[test]
fn branches_are_compared_whole() {
    let options = [("branches", "mainline, dev")];
    let fixture: Value = serde_json::from_str(FIXTURES[1].body).unwrap();
    let outcome = run(&fixture, Some("push"), &options, None);
    assert_eq!(outcome, Err(HandlerError::Ignored));
    let options = [("branches", "dev, main ")];
    assert!(run(&fixture, Some("push"), &options, None).is_ok());
    // Tags are not branches: never filtered.
    let (event, _, _) = message("push_tag", &[("branches", "dev")], None);
    assert_eq!(event, "push_tags");
}

#[test]
fn private_repositories_are_ignored_when_asked() {
    let mut json: Value = serde_json::from_str(FIXTURES[1].body).unwrap();
    json["repository"]["private"] = json!(true);
    let ignore = [("ignore_private_repositories", "true")];
    assert_eq!(
        run(&json, Some("push"), &ignore, None),
        Err(HandlerError::Ignored)
    );
    assert!(run(&json, Some("push"), &[], None).is_ok());
    assert!(
        run(
            &json,
            Some("push"),
            &[("ignore_private_repositories", "false")],
            None
        )
        .is_ok()
    );
    json["repository"]["private"] = json!(false);
    assert!(run(&json, Some("push"), &ignore, None).is_ok());
    // An organization's ping has no repository: sent.
    let ping = json!({"zen": "z", "organization": {"login": "org"}, "sender": {"login": "al"}});
    assert!(run(&ping, Some("ping"), &ignore, None).is_ok());
}

#[test]
fn unknown_events_are_named_as_zulip_names_them() {
    let unsupported = |event: &str, json: Value| run(&json, Some(event), &[], None);
    assert_eq!(
        unsupported("workflow_run", json!({"action": "requested"})),
        Err(HandlerError::UnsupportedEvent(
            "workflow_run:requested".into()
        ))
    );
    assert_eq!(
        unsupported("sponsorship", json!({})),
        Err(HandlerError::UnsupportedEvent("sponsorship:???".into()))
    );
    assert_eq!(
        unsupported("pull_request", json!({"action": "dequeued"})),
        Err(HandlerError::UnsupportedEvent(
            "pull_request:dequeued".into()
        ))
    );
    assert_eq!(
        unsupported("team", json!({"action": "renamed"})),
        Err(HandlerError::UnsupportedEvent(
            "unsupported team action renamed".into()
        ))
    );
    assert_eq!(
        unsupported("pull_request", json!({"action": 3})),
        Err(HandlerError::MissingKey("action".into()))
    );
    assert_eq!(
        run(&json!({}), None, &[], None),
        Err(HandlerError::MissingEventHeader)
    );
}

#[test]
fn missing_keys_are_named() {
    let mut json: Value = serde_json::from_str(FIXTURES[1].body).unwrap();
    json["commits"][1].as_object_mut().unwrap().remove("url");
    assert_eq!(
        run(&json, Some("push"), &[], None),
        Err(HandlerError::MissingKey("url".into()))
    );
    assert_eq!(
        run(&json!({"action": "opened"}), Some("issues"), &[], None),
        Err(HandlerError::MissingKey("issue".into()))
    );
}

/// Zulip rewrites the first `assigned` of the message, wherever it is.
#[test]
fn assignments_name_the_assignee() {
    let json = json!({
        "action": "assigned",
        "issue": {"number": 3, "title": "T", "html_url": "https://i/3", "body": null},
        "assignee": {"login": "bo"},
        "repository": {"name": "r"},
        "sender": {"login": "al"},
    });
    let output = run(&json, Some("issues"), &[], None).unwrap();
    assert_eq!(
        output.messages[0].content,
        "al assigned bo to [issue #3](https://i/3)."
    );
    let mut json = json;
    json["action"] = json!("unassigned");
    json["sender"]["login"] = json!("reassigned-bot");
    let output = run(&json, Some("issues"), &[], None).unwrap();
    assert_eq!(
        output.messages[0].content,
        "reassigned-bot unassigned bo from [issue #3](https://i/3)."
    );
}

#[test]
fn a_push_of_a_thousand_commits_lists_twenty() {
    let commits: Vec<Value> = (0..1000)
        .map(|n| {
            json!({
                "id": format!("{n:040x}"),
                "message": format!("Commit {n}\n\n{}", "body ".repeat(50)),
                "url": format!("{REPO}/commit/{n:040x}"),
                "author": {"name": format!("Author {}", n % 7), "username": ""},
            })
        })
        .collect();
    let json = json!({
        "ref": "refs/heads/main",
        "compare": format!("{REPO}/compare/a...b"),
        "commits": commits,
        "deleted": false,
        "forced": false,
        "repository": {"name": "tidepool"},
        "sender": {"login": "al"},
    });
    let output = run(&json, Some("push"), &[], None).unwrap();
    let content = &output.messages[0].content;
    assert_eq!(
        content.matches("\n* Commit ").count(),
        crate::git::COMMITS_LIMIT
    );
    assert!(content.ends_with("[and 980 more commit(s)]"), "{content}");
    assert!(
        content.contains(
            "Commits by Author 0 (143), Author 1 (143), Author 2 (143) and others (571)."
        )
    );
    assert!(content.len() < 4_000, "{} bytes", content.len());
}

/// `only_events`/`exclude_events` match Zulip's names for the events, not the header.
#[test]
fn filters_match_zulips_event_names() {
    let integration = integration();
    let fixture = &FIXTURES[1];
    let mut headers = HeaderMap::new();
    headers.insert("x-github-event", crate::HeaderValue::from_static("push"));
    let options = BTreeMap::new();
    let outcome = |only: &[&str]| {
        let only: Vec<String> = only.iter().map(|p| (*p).to_owned()).collect();
        let filter = crate::EventFilter::new(Some(&only), None).unwrap();
        crate::process(
            &integration,
            &crate::Request {
                method: &crate::Method::POST,
                headers: &headers,
                body: fixture.body.as_bytes(),
                options: &options,
                filter: &filter,
                topic: None,
            },
        )
    };
    assert_eq!(
        outcome(&["push"]),
        Ok(crate::Outcome::Filtered {
            event: "push_commits".into()
        })
    );
    assert!(matches!(
        outcome(&["push_*"]),
        Ok(crate::Outcome::Messages(_))
    ));
}

/// GitHub's own action words are put in as they come, as Zulip's git.py of the time did
/// (today's adds an assignee after `assigned`).
#[test]
fn review_comment_actions_are_worded_as_they_come() {
    let json = json!({
        "action": "assigned",
        "comment": {"html_url": "https://c/1", "body": "b"},
        "pull_request": {"number": 1, "title": "T"},
        "repository": {"name": "r"},
        "sender": {"login": "al"},
    });
    let output = run(&json, Some("pull_request_review_comment"), &[], None).unwrap();
    assert_eq!(
        output.messages[0].content,
        "al assigned [PR review comment](https://c/1)."
    );
}
