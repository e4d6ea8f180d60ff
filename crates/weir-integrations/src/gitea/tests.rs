//! The handler on the project's own samples and on what Zulip's view does at the edges
//! (Zulip's own tests are replayed in `tests/zulip/gitea.rs`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::*;
use crate::{HeaderMap, Method};

fn run_with(
    json: &Value,
    headers: &[(&'static str, &str)],
    options: &[(&str, &str)],
    topic: Option<&str>,
) -> Result<WebhookMessage, HandlerError> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        map.insert(*name, value.parse().unwrap());
    }
    let options: BTreeMap<String, String> = options
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let event = map.get("X-Gitea-Event").map(|v| v.to_str().unwrap());
    let output = handler(&Payload {
        method: &Method::POST,
        json,
        headers: &map,
        event_type: event,
        options: &options,
        topic,
    })?;
    assert_eq!(output.event, None);
    let [message]: [WebhookMessage; 1] = output.messages.try_into().unwrap();
    Ok(message)
}

fn sample(name: &str) -> (Value, &'static str) {
    let fixture = FIXTURES.iter().find(|f| f.name == name).unwrap();
    (
        serde_json::from_str(fixture.body).unwrap(),
        fixture.headers[0].1,
    )
}

fn run(name: &str) -> WebhookMessage {
    let (json, event) = sample(name);
    run_with(&json, &[("X-Gitea-Event", event)], &[], None).unwrap()
}

#[test]
fn words_a_push_with_two_authors() {
    let message = run("push");
    assert_eq!(message.topic, "tide-tables / main");
    assert_eq!(
        message.content,
        "mokafor [pushed](https://git.example.org/harbor/tide-tables/compare/5c1a9e0d3b7f...\
         9f8e7d6c5b4a) 2 commits to branch main. Commits by Tomas (1) and mokafor (1).\n\n\
         * Read the port's tide offsets from the station file ([7b3e91c04d2](https://git.\
         example.org/harbor/tide-tables/commit/7b3e91c04d2a6f58e1c09b7a3d5f2e8c4a6b1d90))\n\
         * Round heights to the centimetre ([9f8e7d6c5b4](https://git.example.org/harbor/\
         tide-tables/commit/9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e))"
    );
}

#[test]
fn the_branches_option_ignores_other_branches() {
    let (json, _) = sample("push");
    let header = [("X-Gitea-Event", "push")];
    let ignored = run_with(&json, &header, &[("branches", "dev, release")], None);
    assert_eq!(ignored, Err(HandlerError::Ignored));
    let kept = run_with(&json, &header, &[("branches", "dev, main")], None);
    assert!(kept.is_ok());
}

#[test]
fn words_branches_releases_and_deletions() {
    let message = run("create");
    assert_eq!(message.topic, "tide-tables / spring-tides");
    assert_eq!(
        message.content,
        "mokafor created [spring-tides](https://git.example.org/harbor/tide-tables/src/\
         spring-tides) branch."
    );
    let message = run("release");
    assert_eq!(message.topic, "tide-tables / v2.1.0 Spring tables");
    assert_eq!(
        message.content,
        "mokafor published release [Spring tables](https://git.example.org/harbor/tide-tables) \
         for tag v2.1.0."
    );
    let message = run("delete");
    assert_eq!(message.topic, "mokafor deleted branch spring-tides.");
    assert_eq!(message.content, "mokafor deleted branch `spring-tides`.");
    let (mut json, _) = sample("delete");
    json["ref_type"] = json!("tag");
    let message = run_with(&json, &[("X-Gitea-Event", "delete")], &[], None).unwrap();
    assert_eq!(message.content, "mokafor deleted tag `spring-tides`.");
    json["ref_type"] = json!("note");
    let error = run_with(&json, &[("X-Gitea-Event", "delete")], &[], None);
    assert_eq!(error, Err(HandlerError::UnsupportedEvent("delete".into())));
}

#[test]
fn words_pull_requests_by_who_acted() {
    let message = run("pull_request_opened");
    assert_eq!(
        message.topic,
        "tide-tables / PR #3307 Station offsets from a file"
    );
    assert_eq!(
        message.content,
        "mokafor opened [PR #12](https://git.example.org/harbor/tide-tables/pulls/12) from \
         `station-offsets` to `main` (assigned to tlindqvist)."
    );
    let message = run("pull_request_merged");
    assert_eq!(
        message.content,
        "tlindqvist merged [PR #12](https://git.example.org/harbor/tide-tables/pulls/12) from \
         `station-offsets` to `main`."
    );
    // The URL's topic: the message names the title instead.
    let (json, event) = sample("pull_request_merged");
    let message = run_with(&json, &[("X-Gitea-Event", event)], &[], Some("t")).unwrap();
    assert!(
        message
            .content
            .contains("[PR #12 Station offsets from a file](")
    );
}

#[test]
fn words_issues_and_their_comments() {
    let message = run("issues_opened");
    assert_eq!(
        message.topic,
        "tide-tables / issue #15 Neap tides off by a day in March"
    );
    assert_eq!(
        message.content,
        "tlindqvist opened [issue #15](https://git.example.org/harbor/tide-tables/issues/15):\
         \n\n~~~ quote\nThe table for Port Ellen shows the neap on the 21st; the almanac says \
         the 20th.\n~~~"
    );
    let message = run("issue_comment");
    assert_eq!(
        message.content,
        "mokafor [commented](https://git.example.org/harbor/tide-tables/issues/15#issuecomment-\
         5521) on [issue #15](https://git.example.org/harbor/tide-tables/issues/15):\n\n\
         ~~~ quote\nThe station file uses UTC; the almanac uses local time. I'll convert.\n~~~"
    );
}

#[test]
fn refuses_as_zulip_does() {
    let (json, _) = sample("create");
    assert_eq!(
        run_with(&json, &[], &[], None),
        Err(HandlerError::MissingEventHeader)
    );
    assert_eq!(
        run_with(&json!({}), &[], &[], None),
        Err(HandlerError::MissingKey("name".into()))
    );
    assert_eq!(
        run_with(&json, &[("X-Gitea-Event", "wiki")], &[], None),
        Err(HandlerError::UnsupportedEvent("wiki".into()))
    );
    let (mut json, _) = sample("push");
    json["commits"][1]["author"]["name"] = json!("  ");
    assert_eq!(
        run_with(&json, &[("X-Gitea-Event", "push")], &[], None),
        Err(HandlerError::MissingKey("name".into()))
    );
}

#[test]
fn filters_match_the_event_header() {
    use crate::{EventFilter, Outcome, Request, process};
    let fixture = FIXTURES.iter().find(|f| f.name == "push").unwrap();
    let mut headers = HeaderMap::new();
    headers.insert("X-Gitea-Event", "push".parse().unwrap());
    let run = |only: &[&str]| {
        let only: Vec<String> = only.iter().map(|p| (*p).to_owned()).collect();
        let filter = EventFilter::new(Some(&only), None).unwrap();
        process(
            &integration(),
            &Request {
                method: &Method::POST,
                headers: &headers,
                body: fixture.body.as_bytes(),
                options: &BTreeMap::new(),
                filter: &filter,
                topic: None,
            },
        )
    };
    assert_eq!(
        run(&["issue*"]),
        Ok(Outcome::Filtered {
            event: "push".into()
        })
    );
    assert!(matches!(run(&["pu*"]), Ok(Outcome::Messages(_))));
}
