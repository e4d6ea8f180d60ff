//! The Bots & webhooks commands through Tauri's mock runtime, against the local demo
//! server: keys go to the (in-memory) keyring only, URLs work, sends are read back, and a
//! dry run renders exactly what the real send stores.
// The helpers here unwrap as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use crate::support::{Harness, harness, invoke};
use serde_json::{Value, json};

fn ok(h: &Harness, cmd: &str, args: Value) -> Value {
    invoke(h, cmd, args).unwrap_or_else(|error| panic!("{cmd}: {error}"))
}

const HELLO: &str =
    r#"{"featured_title": "Tea", "featured_url": "https://en.wikipedia.org/wiki/Tea"}"#;

fn spec(stream: Option<&str>) -> Value {
    json!({"integration": "helloworld", "stream": stream, "topic": null,
           "onlyEvents": [], "excludeEvents": [], "options": []})
}

fn create(h: &Harness, name: &str, short: &str) -> (i64, String) {
    let bot = ok(
        h,
        "create_bot",
        json!({"request": {"fullName": name, "shortName": short}}),
    );
    assert_eq!(bot["botType"], "incoming_webhook", "{bot}");
    let id = bot["userId"].as_i64().unwrap();
    let key = ok(h, "reveal_bot_key", json!({"request": {"userId": id}}));
    (id, key.as_str().unwrap().to_owned())
}

#[test]
fn a_new_bot_is_listed_and_its_key_lives_in_the_keyring_only() {
    let h = harness();
    let before = h.secrets.len();
    let (id, key) = create(&h, "Build notices", "build");
    assert_eq!(key.len(), 32);
    assert_eq!(h.secrets.len(), before + 1, "the key went to the keyring");
    let bots = ok(&h, "list_bots", json!({}));
    let listed = bots
        .as_array()
        .unwrap()
        .iter()
        .find(|bot| bot["userId"] == id)
        .unwrap();
    assert_eq!(listed["fullName"], "Build notices");
    assert!(!bots.to_string().contains(&key), "{bots}");
}

#[test]
fn sends_are_read_back_and_match_their_dry_run() {
    let h = harness();
    let (id, _) = create(&h, "Relay two", "relay2");
    let request = |stream: Option<&str>| json!({"request": {"botUserId": id, "spec": spec(stream), "headers": [], "body": HELLO}});

    let sent = ok(&h, "send_webhook", request(Some("general")));
    assert_eq!(sent["status"], 200, "{sent}");
    let message = &sent["messages"][0];
    assert_eq!(message["stream"], "general", "{sent}");
    assert_eq!(message["topic"], "Hello World");
    assert_eq!(message["senderFullName"], "Relay two");
    let html = message["contentHtml"].as_str().unwrap();
    assert!(html.contains("emoji-1f642"), "{html}");
    assert!(
        html.contains(r#"<strong><a href="https://en.wikipedia.org/wiki/Tea">Tea</a></strong>"#),
        "{html}"
    );

    let dry = ok(&h, "dry_run_webhook", request(Some("general")));
    assert_eq!(dry["status"], 200);
    assert_eq!(dry["messages"][0]["contentHtml"], message["contentHtml"]);
    assert_eq!(
        dry["comparisons"],
        json!([]),
        "the demo needs no comparison"
    );

    let direct = ok(&h, "send_webhook", request(None));
    assert_eq!(direct["messages"][0]["stream"], Value::Null, "{direct}");
    assert_eq!(
        direct["messages"][0]["recipients"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_missing_event_header_is_a_400_and_a_notice_to_the_owner() {
    let h = harness();
    let (id, _) = create(&h, "Bucket", "bucket");
    let integrations = ok(&h, "list_integrations", json!({}));
    let bitbucket = integrations
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "bitbucket2")
        .unwrap();
    assert_eq!(bitbucket["eventHeader"], "X-Event-Key");
    // A push is known by its payload; the first pull request needs the header.
    assert_eq!(bitbucket["needsHeaderFixture"], "pullrequest_created");
    assert!(
        bitbucket["eventTypes"]
            .as_array()
            .unwrap()
            .contains(&json!("pull_request_created"))
    );
    let fixture = bitbucket["fixtures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "pullrequest_created")
        .unwrap();
    let mut spec = spec(Some("general"));
    spec["integration"] = json!("bitbucket2");
    let sent = ok(
        &h,
        "send_webhook",
        json!({"request": {"botUserId": id, "spec": spec, "headers": [], "body": fixture["body"]}}),
    );
    assert_eq!(sent["status"], 400, "{sent}");
    assert!(
        sent["response"]
            .as_str()
            .unwrap()
            .contains("MISSING_HTTP_EVENT_HEADER")
    );
    let notice = &sent["messages"][0];
    assert_eq!(notice["isNotification"], true, "{sent}");
    assert!(
        notice["contentHtml"]
            .as_str()
            .unwrap()
            .contains("X-Event-Key")
    );
}

#[test]
fn built_urls_are_remembered_without_keys_and_listed_after_a_rotation() {
    let h = harness();
    let (id, old_key) = create(&h, "Rotor", "rotor");
    let masked = ok(
        &h,
        "preview_webhook_url",
        json!({"request": {"spec": spec(Some("R&D #1"))}}),
    );
    let masked = masked.as_str().unwrap();
    assert!(
        masked.ends_with("?api_key=********&stream=R%26D%20%231"),
        "{masked}"
    );
    let urls = ok(&h, "webhook_urls", json!({"request": {"userId": id}}));
    assert_eq!(urls, json!([]), "previewing remembers nothing");

    let rotated = ok(&h, "regenerate_bot_key", json!({"request": {"userId": id}}));
    assert_eq!(rotated, json!([]));
    let new_key = ok(&h, "reveal_bot_key", json!({"request": {"userId": id}}));
    assert_ne!(new_key.as_str().unwrap(), old_key);

    ok(&h, "deactivate_bot", json!({"request": {"userId": id}}));
    let bots = ok(&h, "list_bots", json!({}));
    let bot = bots
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["userId"] == id)
        .unwrap();
    assert_eq!(bot["isActive"], false);
    ok(&h, "reactivate_bot", json!({"request": {"userId": id}}));
}

#[test]
fn bots_of_others_are_out_of_reach() {
    let h = harness();
    let refused = invoke(&h, "reveal_bot_key", json!({"request": {"userId": 1}})).unwrap_err();
    assert_eq!(refused["code"], "not_found", "{refused}");
}

#[test]
fn the_local_servers_catalog_lists_its_integrations_by_display_name() {
    let h = harness();
    let catalog = ok(&h, "webhook_catalog", json!({}));
    let registry = ok(&h, "list_integrations", json!({}));
    let listed = catalog["integrations"].as_array().unwrap();
    let names = |list: &[Value]| -> Vec<String> {
        list.iter()
            .map(|i| i["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(listed), names(registry.as_array().unwrap()));
    let bitbucket = listed.iter().find(|i| i["name"] == "bitbucket2").unwrap();
    assert_eq!(bitbucket["displayName"], "Bitbucket", "{catalog}");
    assert_eq!(
        bitbucket["urlOptions"],
        json!([{"key": "branches", "label": "", "kind": "text"}])
    );
    assert!(
        catalog["featureLevel"].as_u64().unwrap() >= 318,
        "{catalog}"
    );
}

/// A Hello World title that closes the integration's bold link and puts `middle` in a
/// paragraph of its own.
fn hello_around(middle: &str) -> String {
    let title = format!("x](https://x.test/b)**\n\n{middle}\n\n**[y");
    json!({"featured_title": title, "featured_url": "https://x.test/a"}).to_string()
}

#[test]
fn a_dry_run_resolves_mentions_and_channel_links_as_the_send_stores_them() {
    let h = harness();
    let (id, _) = create(&h, "Names", "names");
    let middle = "@**Dana Cohen** @_**Dana Cohen** @*backend* #**general** #**general>party**";
    let request = json!({"request": {"botUserId": id, "spec": spec(Some("general")),
                         "headers": [], "body": hello_around(middle)}});
    let dry = ok(&h, "dry_run_webhook", request.clone());
    let html = dry["messages"][0]["contentHtml"]
        .as_str()
        .unwrap()
        .to_owned();
    let line = html
        .lines()
        .find(|line| line.contains("Dana Cohen"))
        .unwrap_or_else(|| panic!("{html}"));
    assert!(
        line.starts_with("<p><span class=\"user-mention\" data-user-id=\""),
        "{line}"
    );
    assert!(line.contains(">@Dana Cohen</span>"), "{line}");
    assert!(
        line.contains("<span class=\"user-mention silent\""),
        "{line}"
    );
    assert!(
        line.contains("<span class=\"user-group-mention\""),
        "{line}"
    );
    assert!(
        line.contains("<a class=\"stream\" data-stream-id="),
        "{line}"
    );
    assert!(line.contains("<a class=\"stream-topic\""), "{line}");
    // Exactly what the local server stores for the same request.
    let sent = ok(&h, "send_webhook", request);
    assert_eq!(
        dry["messages"][0]["contentHtml"],
        sent["messages"][0]["contentHtml"]
    );
}
