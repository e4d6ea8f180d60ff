//! Event types of header-driven integrations (`docs/zulip-compatibility.md`: Incoming
//! webhooks), with Zulip's `bitbucket2`: the `X-Event-Key` header, unsupported events,
//! `only_events` / `exclude_events`.
//!
//! The payloads are the fixtures the integration ships, read from the registry
//! (`GET /api/v1/integrations`: each fixture has `name`, `body` and `headers`), so these
//! tests follow the registry as it grows.

use serde_json::Value;
use weir_tests::*;

const INTEGRATION: &str = "bitbucket2";
const PATH: &str = "/api/v1/external/bitbucket2";
const EVENT_HEADER: &str = "X-Event-Key";
const CLIENT: &str = "ZulipBitbucket2Webhook";
/// The name given to Zulip's webhook view (`webhook_view("Bitbucket2")`).
const VIEW_NAME: &str = "Bitbucket2";

// ---------------------------------------------------------------------- fixtures

#[derive(Debug, Clone)]
struct Fixture {
    name: String,
    body: String,
    headers: Vec<(String, String)>,
}

impl Fixture {
    fn event(&self) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(EVENT_HEADER))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("fixture {} is not JSON: {e}", self.name))
    }
}

/// Headers of a registry fixture: an object, or a list of `[name, value]` pairs.
fn headers_of(v: &Value) -> Vec<(String, String)> {
    match v {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect(),
        Value::Array(pairs) => pairs
            .iter()
            .map(|p| {
                let k = p[0].as_str().or_else(|| p["name"].as_str());
                let v = p[1].as_str().or_else(|| p["value"].as_str());
                match (k, v) {
                    (Some(k), Some(v)) => (k.to_string(), v.to_string()),
                    _ => panic!("unreadable fixture header {p}"),
                }
            })
            .collect(),
        Value::Null => Vec::new(),
        other => panic!("unreadable fixture headers {other}"),
    }
}

/// The bitbucket2 registry entry and its fixtures.
async fn registry(server: &TestServer) -> (Value, Vec<Fixture>) {
    let r = server.as_user(&MEMBER).get("/integrations", &[]).await;
    let entry = r.ok()["integrations"]
        .as_array()
        .unwrap_or_else(|| panic!("no `integrations` list\n{}", r.debug()))
        .iter()
        .find(|i| i["name"] == INTEGRATION)
        .unwrap_or_else(|| panic!("`{INTEGRATION}` is not registered\n{}", r.debug()))
        .clone();
    let fixtures = entry["fixtures"]
        .as_array()
        .unwrap_or_else(|| panic!("no fixtures: {entry:#}"))
        .iter()
        .map(|f| Fixture {
            name: f["name"]
                .as_str()
                .unwrap_or_else(|| panic!("fixture name: {f:#}"))
                .into(),
            body: f["body"]
                .as_str()
                .unwrap_or_else(|| panic!("fixture body: {f:#}"))
                .into(),
            headers: headers_of(&f["headers"]),
        })
        .collect();
    (entry, fixtures)
}

#[track_caller]
fn fixture<'a>(fixtures: &'a [Fixture], event: &str) -> &'a Fixture {
    fixtures
        .iter()
        .find(|f| f.event() == Some(event))
        .unwrap_or_else(|| panic!("no fixture for {event}: {fixtures:#?}"))
}

/// Fixtures whose event Zulip itself reads from the header (pull requests and
/// `repo:updated`; Zulip recognises the other payloads by their shape).
fn header_decided(fixtures: &[Fixture]) -> Vec<&Fixture> {
    fixtures
        .iter()
        .filter(|f| {
            f.event()
                .is_some_and(|e| e.starts_with("pullrequest:") || e == "repo:updated")
        })
        .collect()
}

// ---------------------------------------------------------------------- requests

/// `POST /api/v1/external/bitbucket2` with `query` and these headers, JSON body.
async fn send(
    server: &TestServer,
    query: &[(&str, &str)],
    headers: &[(String, String)],
    body: &str,
) -> Resp {
    let mut all = vec![("Content-Type".to_string(), JSON_TYPE.to_string())];
    all.extend_from_slice(headers);
    post_webhook(server, INTEGRATION, query, &all, body).await
}

fn event_header(event: &str) -> Vec<(String, String)> {
    vec![(EVENT_HEADER.to_string(), event.to_string())]
}

#[track_caller]
fn assert_unsupported(r: &Resp, event: &str) {
    let expected = json!({
        "result": "success",
        "msg": format!(
            "The '{event}' event isn't currently supported by the {VIEW_NAME} webhook; ignoring"
        ),
        "code": "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        "webhook_name": VIEW_NAME,
        "event_type": event,
    });
    assert!(
        r.status == 200 && r.json == expected,
        "expected {expected:#}\n{}",
        r.debug()
    );
}

/// Asserts `new` is exactly one message from the webhook bot in Engineering.
#[track_caller]
fn assert_one_posted(new: &[Value], what: &str) -> Value {
    assert_eq!(new.len(), 1, "{what}: expected one message, got {new:#?}");
    assert_posted(new, what);
    new[0].clone()
}

/// Every message is the bot's, in Engineering, with content.
#[track_caller]
fn assert_posted(new: &[Value], what: &str) {
    for m in new {
        assert_eq!(m["type"], "stream", "{what}: {m:#}");
        assert_eq!(m["sender_id"], WEBHOOK_BOT.id, "{what}: {m:#}");
        assert_eq!(m["stream_id"], ENGINEERING.id, "{what}: {m:#}");
        assert_eq!(m["client"], CLIENT, "{what}: {m:#}");
        assert!(
            m["content"].as_str().is_some_and(|c| !c.trim().is_empty()),
            "{what}: {m:#}"
        );
    }
}

/// Zulip's name for a Bitbucket event, which `only_events`/`exclude_events` match:
/// `pullrequest:created` is `pull_request_created`, a push is `push`.
fn zulip_event_name(f: &Fixture) -> String {
    let event = f.event().unwrap_or_default();
    match event.split_once(':') {
        Some(("pullrequest", action)) => format!("pull_request_{action}"),
        Some(("repo", "push")) => "push".into(),
        Some(("repo", "fork")) => "fork".into(),
        Some(("repo", "updated")) => "repo:updated".into(),
        Some(("repo", "commit_comment_created")) => "commit_comment".into(),
        Some(("repo", status)) if status.starts_with("commit_status") => {
            "change_commit_status".into()
        }
        Some(("issue", "comment_created")) => "issue_commented".into(),
        Some(("issue", action)) => format!("issue_{action}"),
        _ => event.to_owned(),
    }
}

/// How many messages Zulip sends for a fixture: one per change of a push, else one.
fn expected_messages(f: &Fixture) -> usize {
    f.json()["push"]["changes"].as_array().map_or(1, Vec::len)
}

const TO_ENGINEERING: [(&str, &str); 2] = [("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")];

// ---------------------------------------------------------------------- registry

#[tokio::test]
async fn the_registry_describes_bitbucket2_and_ships_a_fixture_per_event() {
    let server = TestServer::standard();

    let (entry, fixtures) = registry(&server).await;

    assert_eq!(entry["display_name"], "Bitbucket", "{entry:#}");
    assert_eq!(entry["categories"], json!(["version-control"]), "{entry:#}");
    assert!(!fixtures.is_empty(), "{entry:#}");
    for f in &fixtures {
        assert!(!f.name.is_empty(), "{f:#?}");
        assert!(f.json().is_object(), "{f:#?}");
        assert!(
            f.event().is_some_and(|e| e.contains(':')),
            "fixture without X-Event-Key: {f:#?}"
        );
    }
    for event in ["repo:push", "pullrequest:created", "pullrequest:rejected"] {
        fixture(&fixtures, event);
    }
}

// ---------------------------------------------------------------------- delivery

#[tokio::test]
async fn every_shipped_fixture_posts_zulips_messages_as_the_bot() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;

    let mut several = 0;
    for f in &fixtures {
        let before = everything(&server).await;
        let r = send(&server, &TO_ENGINEERING, &f.headers, &f.body).await;
        assert_webhook_success(&r);
        let new = new_since(&server, &before).await;
        let expected = expected_messages(f);
        several += usize::from(expected > 1);
        assert_eq!(new.len(), expected, "{}: {new:#?}", f.name);
        assert_posted(&new, &f.name);
    }
    assert!(several > 0, "no fixture is a push of several changes");
}

#[tokio::test]
async fn push_and_pull_request_topics_follow_zulips_templates() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;

    // Push: "<repository> / <branch>".
    let push = fixture(&fixtures, "repo:push");
    let json = push.json();
    let change = &json["push"]["changes"][0];
    let branch = change["new"]["name"]
        .as_str()
        .or_else(|| change["old"]["name"].as_str());
    let expected = format!(
        "{} / {}",
        json["repository"]["name"].as_str().unwrap(),
        branch.unwrap()
    );
    let before = everything(&server).await;
    assert_webhook_success(&send(&server, &TO_ENGINEERING, &push.headers, &push.body).await);
    let m = assert_one_posted(&new_since(&server, &before).await, &push.name);
    assert_eq!(m["subject"], expected, "{m:#}");

    // Pull request: "<repository> / PR #<id> <title>" (cut to 60 characters).
    let pr = fixture(&fixtures, "pullrequest:created");
    let json = pr.json();
    let full = format!(
        "{} / PR #{} {}",
        json["repository"]["name"].as_str().unwrap(),
        json["pullrequest"]["id"],
        json["pullrequest"]["title"].as_str().unwrap()
    );
    let expected = if full.chars().count() > 60 {
        format!("{}...", full.chars().take(57).collect::<String>())
    } else {
        full
    };
    let before = everything(&server).await;
    assert_webhook_success(&send(&server, &TO_ENGINEERING, &pr.headers, &pr.body).await);
    let m = assert_one_posted(&new_since(&server, &before).await, &pr.name);
    assert_eq!(m["subject"], expected, "{m:#}");
}

#[tokio::test]
async fn the_topic_parameter_overrides_the_integrations_topic() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;

    for event in ["repo:push", "pullrequest:created"] {
        let f = fixture(&fixtures, event);
        let before = everything(&server).await;
        let query = [
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Engineering"),
            ("topic", "ci"),
        ];
        assert_webhook_success(&send(&server, &query, &f.headers, &f.body).await);
        let m = assert_one_posted(&new_since(&server, &before).await, event);
        assert_eq!(m["subject"], "ci", "{m:#}");
    }
}

// ---------------------------------------------------------------------- missing header

#[tokio::test]
async fn a_missing_event_header_fails_and_tells_the_owner() {
    let (_, fixtures) = registry(&TestServer::standard()).await;
    let cases = header_decided(&fixtures);
    assert!(!cases.is_empty(), "no pull request fixture: {fixtures:#?}");

    for f in cases {
        for query in [&TO_ENGINEERING[..], &TO_ENGINEERING[..1]] {
            // A fresh server each time: a bot's owner is told once per five minutes.
            let server = TestServer::standard();
            let before = everything(&server).await;

            let r = send(&server, query, &[], &f.body).await;

            let body = r.err(
                400,
                "MISSING_HTTP_EVENT_HEADER",
                &format!("Missing the HTTP event header '{EVENT_HEADER}'"),
            );
            assert_eq!(body["header"], EVENT_HEADER, "{}", r.debug());
            let new = new_since(&server, &before).await;
            assert_eq!(
                new.len(),
                1,
                "{}: only the owner's notice, got {new:#?}",
                f.name
            );
            let m = &new[0];
            assert_eq!(m["type"], "private", "{m:#}");
            assert_eq!(m["sender_email"], NOTIFICATION_BOT_EMAIL, "{m:#}");
            assert_eq!(m["sender_full_name"], "Notification Bot", "{m:#}");
            let to: Vec<u64> = m["display_recipient"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_u64().unwrap())
                .collect();
            assert!(to.contains(&MEMBER.id), "not to the bot's owner: {m:#}");
            let text = m["content"].as_str().unwrap();
            assert!(text.contains(PATH), "the notice names the path: {text}");
            assert!(
                text.contains(EVENT_HEADER),
                "the notice names the header: {text}"
            );
            assert!(
                !text.contains(WEBHOOK_BOT.key),
                "the notice repeats the API key: {text}"
            );
        }
    }
}

#[tokio::test]
async fn a_missing_event_header_from_a_human_key_tells_nobody() {
    // Only bots have owners to tell; the request still fails.
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let f = fixture(&fixtures, "pullrequest:created");
    let before = everything(&server).await;

    let r = send(
        &server,
        &[("api_key", MEMBER2.key), ("stream", "Engineering")],
        &[],
        &f.body,
    )
    .await;

    r.err(
        400,
        "MISSING_HTTP_EVENT_HEADER",
        &format!("Missing the HTTP event header '{EVENT_HEADER}'"),
    );
    let new = new_since(&server, &before).await;
    assert!(new.is_empty(), "{new:#?}");
}

#[tokio::test]
async fn authentication_comes_before_the_event_header() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let f = fixture(&fixtures, "pullrequest:created");
    let before = everything(&server).await;

    send(&server, &[("stream", "Engineering")], &[], &f.body)
        .await
        .err(
            400,
            "REQUEST_VARIABLE_MISSING",
            "Missing 'api_key' argument",
        );
    send(
        &server,
        &[("api_key", "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp")],
        &[],
        &f.body,
    )
    .await
    .err(401, "INVALID_API_KEY", "Invalid API key");

    let new = new_since(&server, &before).await;
    assert!(new.is_empty(), "a rejected request told someone: {new:#?}");
}

// ---------------------------------------------------------------------- unsupported events

#[tokio::test]
async fn an_unsupported_event_is_a_200_that_sends_nothing() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let pr = fixture(&fixtures, "pullrequest:created");
    let repo = fixture(&fixtures, "repo:updated");

    for (f, event) in [
        (pr, "pullrequest:bogus_action"),
        (pr, "pullrequest:"),
        (repo, "repo:imported"),
        (repo, "repo:transfer"),
    ] {
        let before = everything(&server).await;
        for query in [&TO_ENGINEERING[..], &TO_ENGINEERING[..1]] {
            let r = send(&server, query, &event_header(event), &f.body).await;
            assert_unsupported(&r, event);
        }
        let new = new_since(&server, &before).await;
        assert!(
            new.is_empty(),
            "{event}: an unsupported event sent {new:#?}"
        );
    }
}

// ---------------------------------------------------------------------- event filters

#[tokio::test]
async fn only_events_keeps_the_matching_events() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    // Zulip's names for the events, not the X-Event-Key values.
    let only = json!(["pull_request_*"]).to_string();
    let query = [
        ("api_key", WEBHOOK_BOT.key),
        ("stream", "Engineering"),
        ("only_events", &only),
    ];

    let mut filtered = 0;
    for f in &fixtures {
        let event = zulip_event_name(f);
        let before = everything(&server).await;
        let r = send(&server, &query, &f.headers, &f.body).await;
        assert_webhook_success(&r);
        let new = new_since(&server, &before).await;
        if event.starts_with("pull_request_") {
            assert_one_posted(&new, &f.name);
        } else {
            filtered += 1;
            assert!(
                new.is_empty(),
                "{event} passed only_events={only}: {new:#?}"
            );
        }
    }
    assert!(filtered > 0, "no fixture was filtered out: {fixtures:#?}");
}

#[tokio::test]
async fn exclude_events_drops_the_matching_events() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let exclude = json!(["pull_request_*"]).to_string();
    let query = [
        ("api_key", WEBHOOK_BOT.key),
        ("stream", "Engineering"),
        ("exclude_events", &exclude),
    ];

    for event in ["pullrequest:created", "pullrequest:rejected", "repo:push"] {
        let f = fixture(&fixtures, event);
        let before = everything(&server).await;
        let r = send(&server, &query, &f.headers, &f.body).await;
        assert_webhook_success(&r);
        let new = new_since(&server, &before).await;
        if event.starts_with("pullrequest:") {
            assert!(
                new.is_empty(),
                "{event} passed exclude_events={exclude}: {new:#?}"
            );
        } else {
            assert_one_posted(&new, event);
        }
    }
}

#[tokio::test]
async fn only_events_and_exclude_events_combine() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let only = json!(["pull_request_*", "pus?"]).to_string();
    let exclude = json!(["pull_request_[r]ejected"]).to_string();
    let query = [
        ("api_key", WEBHOOK_BOT.key),
        ("stream", "Engineering"),
        ("only_events", &only),
        ("exclude_events", &exclude),
    ];

    for (event, sent) in [
        ("pullrequest:created", true),
        ("repo:push", true),
        ("pullrequest:rejected", false),
        ("issue:created", false),
    ] {
        let f = fixture(&fixtures, event);
        let before = everything(&server).await;
        assert_webhook_success(&send(&server, &query, &f.headers, &f.body).await);
        let new = new_since(&server, &before).await;
        if sent {
            assert_one_posted(&new, event);
        } else {
            assert!(
                new.is_empty(),
                "{event} should have been filtered: {new:#?}"
            );
        }
    }
}

#[tokio::test]
async fn a_filtered_out_event_to_a_missing_stream_tells_nobody() {
    // Filtering happens before the destination is resolved: nothing is sent at all.
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let f = fixture(&fixtures, "pullrequest:created");
    let only = json!(["repo:*"]).to_string();
    let before = everything(&server).await;

    let r = send(
        &server,
        &[
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Nowhere"),
            ("only_events", &only),
        ],
        &f.headers,
        &f.body,
    )
    .await;

    assert_webhook_success(&r);
    let new = new_since(&server, &before).await;
    assert!(new.is_empty(), "{new:#?}");
}

#[tokio::test]
async fn malformed_event_filters_are_rejected_and_send_nothing() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let f = fixture(&fixtures, "repo:push");
    let before = everything(&server).await;

    for (name, value, msg) in [
        ("only_events", "repo:*", "only_events is not valid JSON"),
        (
            "exclude_events",
            "[pullrequest",
            "exclude_events is not valid JSON",
        ),
        ("only_events", "\"repo:*\"", "only_events is not a list"),
        ("exclude_events", "[1]", "exclude_events[0] is not a string"),
    ] {
        let query = [
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Engineering"),
            (name, value),
        ];
        send(&server, &query, &f.headers, &f.body)
            .await
            .bad_request(msg);
    }

    let new = new_since(&server, &before).await;
    assert!(new.is_empty(), "{new:#?}");
}

/// Issue 11, finding 2: `only_events` patterns backtracked exponentially in their stars
/// (`****b` against a 200-character event took seconds, each further `*` multiplied
/// that), so anyone holding a webhook URL could freeze the server. A generous budget:
/// the answer takes milliseconds.
#[tokio::test]
async fn hostile_event_patterns_are_answered_at_once() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    // A push is recognised by its payload, so the header can be anything.
    let push = fixture(&fixtures, "repo:push");
    let event = "a".repeat(200);
    let before = everything(&server).await;
    for pattern in [
        "****b",
        "********************b",
        "*a*a*a*a*a*a*a*a*a*a*a*a*b",
    ] {
        let only = json!([pattern]).to_string();
        let query = [
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Engineering"),
            ("only_events", only.as_str()),
        ];
        let rb = server
            .anon()
            .request_unauthenticated(Method::POST, PATH)
            .query(&query)
            .header("Content-Type", "application/json")
            .header(EVENT_HEADER, event.as_str())
            .timeout(std::time::Duration::from_secs(20))
            .body(push.body.clone());
        let r = server.anon().send(rb, &format!("only_events={only}")).await;
        assert_webhook_success(&r);
    }
    let new = new_since(&server, &before).await;
    assert!(new.is_empty(), "filtered events were sent: {new:#?}");
}

#[tokio::test]
async fn oversized_event_filters_and_event_types_are_rejected() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let push = fixture(&fixtures, "repo:push");
    let before = everything(&server).await;
    let many = json!(vec!["repo:*"; 33]).to_string();
    let long = json!(["*".repeat(129)]).to_string();
    for (name, value, msg) in [
        (
            "only_events",
            &many,
            "Too many patterns in only_events (at most 32)",
        ),
        (
            "exclude_events",
            &long,
            "A pattern in exclude_events is too long (at most 128 characters)",
        ),
    ] {
        let query = [
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Engineering"),
            (name, value.as_str()),
        ];
        send(&server, &query, &push.headers, &push.body)
            .await
            .bad_request(msg);
    }
    let long_event = event_header(&"e".repeat(257));
    send(&server, &TO_ENGINEERING, &long_event, &push.body)
        .await
        .bad_request("The event type is too long (at most 256 characters)");
    // The limits themselves are accepted.
    let fits = json!(vec!["*".repeat(128); 32]).to_string();
    let query = [
        ("api_key", WEBHOOK_BOT.key),
        ("stream", "Engineering"),
        ("exclude_events", fits.as_str()),
    ];
    assert_webhook_success(
        &send(&server, &query, &event_header(&"e".repeat(256)), &push.body).await,
    );
    let new = new_since(&server, &before).await;
    assert!(new.is_empty(), "{new:#?}");
}

// ---------------------------------------------------------------------- branches

#[tokio::test]
async fn the_branches_option_filters_pushes_by_branch() {
    let server = TestServer::standard();
    let (_, fixtures) = registry(&server).await;
    let push = fixture(&fixtures, "repo:push");
    let json = push.json();
    let branch = json["push"]["changes"][0]["new"]["name"]
        .as_str()
        .unwrap()
        .to_string();

    let before = everything(&server).await;
    let query = [
        ("api_key", WEBHOOK_BOT.key),
        ("stream", "Engineering"),
        ("branches", "zzz-other"),
    ];
    let r = send(&server, &query, &push.headers, &push.body).await;
    assert_eq!(r.status, 200, "{}", r.debug());
    assert_eq!(r.json["result"], "success", "{}", r.debug());
    let new = new_since(&server, &before).await;
    assert!(
        new.is_empty(),
        "a push to {branch} passed branches=zzz-other: {new:#?}"
    );

    let listed = format!("zzz-other,{branch}");
    let query = [
        ("api_key", WEBHOOK_BOT.key),
        ("stream", "Engineering"),
        ("branches", &listed),
    ];
    let before = everything(&server).await;
    assert_webhook_success(&send(&server, &query, &push.headers, &push.body).await);
    assert_one_posted(&new_since(&server, &before).await, "listed branch");
}
