//! Incoming webhooks: `POST /api/v1/external/<integration>` with the Hello World
//! integration (reference §3), the registry (`GET /integrations`) and the Markdown
//! renderer the messages go through (`POST /messages/render`, §4).
//!
//! Every request here is checked for its *effects* as well as its answer: the messages
//! every seeded human can read are snapshotted before and compared after, so "sends
//! nothing" and "exactly one message" are proven, not assumed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use serde_json::Value;
use weir_tests::*;

const ADA: &str = include_str!("../fixtures/webhooks/helloworld/ada_lovelace.json");
const ADA_TITLE: &str = "Ada Lovelace";
const ADA_URL: &str = "https://en.wikipedia.org/wiki/Ada_Lovelace";
const MISSING_TITLE: &str = include_str!("../fixtures/webhooks/helloworld/missing_title.json");
const MISSING_URL: &str = include_str!("../fixtures/webhooks/helloworld/missing_url.json");
const MALFORMED: &str = include_str!("../fixtures/webhooks/helloworld/malformed.json");
const SCRIPT_TITLE: &str = include_str!("../fixtures/webhooks/helloworld/script_title.json");
const JAVASCRIPT_URL: &str = include_str!("../fixtures/webhooks/helloworld/javascript_url.json");

const NOTIFICATION_BOT_EMAIL: &str = "notification-bot@zulip.com";
const NOTIFICATION_BOT_NAME: &str = "Notification Bot";
const HELLO_CLIENT: &str = "ZulipHelloWorldWebhook";
const JSON_TYPE: &str = "application/json";
const FORM_TYPE: &str = "application/x-www-form-urlencoded";

/// A key with the right shape that belongs to nobody.
const UNKNOWN_KEY: &str = "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp";

// ---------------------------------------------------------------------- helpers

/// The Markdown Hello World builds (reference §3).
fn hello_markdown(title: &str, url: &str) -> String {
    format!(
        "Hello! I am happy to be here! :smile:\n\
         The Wikipedia featured article for today is **[{title}]({url})**"
    )
}

/// Zulip's rendering of [`hello_markdown`] for a plain title and URL (reference §3).
fn hello_html(title: &str, url: &str) -> String {
    format!(
        "<p>Hello! I am happy to be here! <span aria-label=\"smile\" class=\"emoji emoji-1f604\" \
         role=\"img\" title=\"smile\">:smile:</span><br>\n\
         The Wikipedia featured article for today is <strong><a href=\"{url}\">{title}</a></strong></p>"
    )
}

fn payload(title: &str, url: &str) -> String {
    json!({"featured_title": title, "featured_url": url}).to_string()
}

fn preview(body: &str) -> String {
    if body.chars().count() > 200 {
        let head: String = body.chars().take(200).collect();
        format!("{head}... ({} chars)", body.chars().count())
    } else {
        body.to_string()
    }
}

/// `POST /api/v1/external/<integration>` with `query` in the query string and a raw body.
async fn hook(
    server: &TestServer,
    integration: &str,
    query: &[(&str, &str)],
    content_type: Option<&str>,
    body: &str,
) -> Resp {
    let api = server.anon();
    let path = format!("/external/{integration}");
    let mut rb = api
        .request_unauthenticated(Method::POST, &path)
        .query(query)
        .body(body.to_string());
    if let Some(ct) = content_type {
        rb = rb.header("Content-Type", ct);
    }
    let describe = format!(
        "POST {path} query={query:?} content-type={content_type:?} body={}",
        preview(body)
    );
    api.send(rb, &describe).await
}

/// Hello World with a JSON body declared as JSON.
async fn hello(server: &TestServer, query: &[(&str, &str)], body: &str) -> Resp {
    hook(server, "helloworld", query, Some(JSON_TYPE), body).await
}

/// Asserts the plain webhook success `{"result":"success","msg":""}`.
#[track_caller]
fn assert_webhook_success(r: &Resp) {
    r.ok();
    assert_eq!(
        r.json,
        json!({"result": "success", "msg": ""}),
        "{}",
        r.debug()
    );
}

/// Every message `who` can read, oldest first.
async fn read_all(api: &Api, narrow: Value, apply_markdown: bool) -> Vec<Value> {
    let r = api
        .get(
            "/messages",
            &[
                ("anchor", json!("oldest")),
                ("num_before", json!(0)),
                ("num_after", json!(5000)),
                ("narrow", narrow),
                ("apply_markdown", json!(apply_markdown)),
            ],
        )
        .await;
    r.ok()["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("no `messages` list\n{}", r.debug()))
        .clone()
}

/// Every message any seeded human can read (Markdown source), by id.
async fn everything(server: &TestServer) -> BTreeMap<u64, Value> {
    let mut all = BTreeMap::new();
    for who in [OWNER, ADMIN, MODERATOR, MEMBER, MEMBER2, GUEST] {
        for m in read_all(&server.as_user(&who), json!([]), false).await {
            all.insert(m["id"].as_u64().expect("message id"), m);
        }
    }
    all
}

/// Messages that appeared since `before`, oldest first.
async fn new_since(server: &TestServer, before: &BTreeMap<u64, Value>) -> Vec<Value> {
    everything(server)
        .await
        .into_iter()
        .filter(|(id, _)| !before.contains_key(id))
        .map(|(_, m)| m)
        .collect()
}

#[track_caller]
fn assert_nothing_new(new: &[Value], what: &str) {
    assert!(
        new.is_empty(),
        "{what}: expected no new message, got {new:#?}"
    );
}

#[track_caller]
fn only_one(new: &[Value], what: &str) -> Value {
    assert_eq!(
        new.len(),
        1,
        "{what}: expected exactly one new message, got {new:#?}"
    );
    new[0].clone()
}

/// The ids in a `display_recipient` list of a direct message.
#[track_caller]
fn dm_people(m: &Value) -> Vec<u64> {
    let mut people: Vec<u64> = m["display_recipient"]
        .as_array()
        .unwrap_or_else(|| panic!("display_recipient is not a list: {m:#}"))
        .iter()
        .map(|p| {
            p["id"]
                .as_u64()
                .unwrap_or_else(|| panic!("recipient without id: {m:#}"))
        })
        .collect();
    people.sort();
    people
}

/// Asserts `m` is a stream message from `sender` in `stream` with this topic and content.
#[track_caller]
fn assert_stream_message(m: &Value, sender: &Account, stream: Stream, topic: &str, content: &str) {
    assert_eq!(m["type"], "stream", "{m:#}");
    assert_eq!(m["sender_id"], sender.id, "{m:#}");
    assert_eq!(m["sender_email"], sender.email, "{m:#}");
    assert_eq!(m["sender_full_name"], sender.full_name, "{m:#}");
    assert_eq!(m["stream_id"], stream.id, "{m:#}");
    assert_eq!(m["display_recipient"], stream.name, "{m:#}");
    assert_eq!(m["subject"], topic, "{m:#}");
    assert_eq!(m["content"], content, "{m:#}");
    assert_eq!(m["client"], HELLO_CLIENT, "{m:#}");
}

/// Asserts `m` is Notification Bot's direct message to `owner` with exactly `text`.
#[track_caller]
fn assert_notification(m: &Value, owner: &Account, text: &str) {
    assert_eq!(m["type"], "private", "{m:#}");
    assert_eq!(m["sender_email"], NOTIFICATION_BOT_EMAIL, "{m:#}");
    assert_eq!(m["sender_full_name"], NOTIFICATION_BOT_NAME, "{m:#}");
    assert!(
        dm_people(m).contains(&owner.id),
        "not addressed to {}: {m:#}",
        owner.email
    );
    assert_eq!(m["content"], text, "{m:#}");
}

fn does_not_exist_text(bot: &Account, name: &str) -> String {
    format!(
        "Your bot `{}` tried to send a message to channel #**{name}**, but that channel does not \
         exist. Click [here](#channels/new) to create it.",
        bot.email
    )
}

fn no_such_id_text(bot: &Account, id: &str) -> String {
    format!(
        "Your bot `{}` tried to send a message to channel ID {id}, but there is no channel with \
         that ID.",
        bot.email
    )
}

fn no_subscribers_text(bot: &Account, name: &str) -> String {
    format!(
        "Your bot `{}` tried to send a message to channel #**{name}**. The channel exists but \
         does not have any subscribers.",
        bot.email
    )
}

// ---------------------------------------------------------------------- Hello World

#[tokio::test]
async fn hello_world_posts_zulips_message_to_the_stream_byte_for_byte() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "hello world");
    assert_stream_message(
        &m,
        &WEBHOOK_BOT,
        ENGINEERING,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
    assert_eq!(m["content_type"], "text/x-markdown", "{m:#}");

    // The same message, rendered (the default, and apply_markdown=true spelled out).
    let narrow = json!([{"operator": "channel", "operand": "Engineering"}]);
    let owner = server.as_user(&OWNER);
    let rendered = read_all(&owner, narrow.clone(), true).await;
    assert_eq!(rendered.len(), 1, "{rendered:#?}");
    assert_eq!(rendered[0]["id"], m["id"]);
    assert_eq!(
        rendered[0]["content"],
        hello_html(ADA_TITLE, ADA_URL),
        "{:#}",
        rendered[0]
    );
    assert_eq!(
        rendered[0]["content_type"], "text/html",
        "{:#}",
        rendered[0]
    );
    let default = owner
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                ("narrow", narrow),
            ],
        )
        .await;
    assert_eq!(
        default.ok()["messages"][0]["content"],
        hello_html(ADA_TITLE, ADA_URL),
        "apply_markdown defaults to true\n{}",
        default.debug()
    );
}

#[tokio::test]
async fn a_json_body_declared_as_form_data_is_still_read_as_json() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    // Zulip's own webhook tests send the fixture text with this content type.
    let r = hook(
        &server,
        "helloworld",
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
        Some(FORM_TYPE),
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "form-declared JSON");
    assert_stream_message(
        &m,
        &WEBHOOK_BOT,
        ENGINEERING,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
}

#[tokio::test]
async fn a_json_body_without_a_content_type_is_read_as_json() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hook(
        &server,
        "helloworld",
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
        None,
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(
        &new_since(&server, &before).await,
        "JSON without content type",
    );
    assert_eq!(m["content"], hello_markdown(ADA_TITLE, ADA_URL), "{m:#}");
}

#[tokio::test]
async fn the_api_key_may_come_in_a_form_body() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    // A body that is valid JSON and, read as a form, also carries `api_key` and `stream`
    // (a form reader sees `&api_key=...&stream=...&` inside the JSON string).
    let body = json!({
        "featured_title": ADA_TITLE,
        "featured_url": ADA_URL,
        "note": format!("&api_key={}&stream=Engineering&", WEBHOOK_BOT.key),
    })
    .to_string();
    let r = hook(&server, "helloworld", &[], Some(FORM_TYPE), &body).await;

    assert_webhook_success(&r);
    let m = only_one(
        &new_since(&server, &before).await,
        "api_key in the form body",
    );
    assert_stream_message(
        &m,
        &WEBHOOK_BOT,
        ENGINEERING,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
}

#[tokio::test]
async fn a_key_in_a_form_body_is_authenticated_before_the_payload_is_read() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    // Not JSON at all: the key is found and judged first.
    let unknown = hook(
        &server,
        "helloworld",
        &[],
        Some(FORM_TYPE),
        &format!("api_key={UNKNOWN_KEY}&stream=Engineering"),
    )
    .await;
    unknown.err(401, "INVALID_API_KEY", "Invalid API key");

    // A good key in the form gets past authentication; the body is then no JSON payload.
    let known = hook(
        &server,
        "helloworld",
        &[],
        Some(FORM_TYPE),
        &format!("api_key={}&stream=Engineering", WEBHOOK_BOT.key),
    )
    .await;
    known.bad_request("Malformed JSON");

    assert_nothing_new(&new_since(&server, &before).await, "form-body key errors");
}

#[tokio::test]
async fn stream_names_match_case_insensitively_and_the_message_uses_the_stored_name() {
    let server = TestServer::standard();

    for spelling in ["engineering", "ENGINEERING", "eNgInEeRiNg"] {
        let before = everything(&server).await;
        let r = hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", spelling)],
            ADA,
        )
        .await;
        assert_webhook_success(&r);
        let m = only_one(&new_since(&server, &before).await, spelling);
        assert_stream_message(
            &m,
            &WEBHOOK_BOT,
            ENGINEERING,
            "Hello World",
            &hello_markdown(ADA_TITLE, ADA_URL),
        );
    }
}

#[tokio::test]
async fn non_ascii_stream_names_match_case_insensitively() {
    let server = TestServer::standard();

    for spelling in ["Café", "café", "CAFÉ"] {
        let before = everything(&server).await;
        let r = hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", spelling)],
            ADA,
        )
        .await;
        assert_webhook_success(&r);
        let new = new_since(&server, &before).await;
        let m = only_one(&new, spelling);
        assert_eq!(m["type"], "stream", "{spelling}: {m:#}");
        assert_eq!(m["stream_id"], CAFE.id, "{spelling}: {m:#}");
        assert_eq!(m["display_recipient"], CAFE.name, "{spelling}: {m:#}");
    }
}

#[tokio::test]
async fn a_numeric_stream_is_a_stream_id() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "13")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "stream=13");
    assert_stream_message(
        &m,
        &WEBHOOK_BOT,
        VERONA,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
}

#[tokio::test]
async fn a_numeric_stream_is_never_a_name() {
    // A stream *named* "14" exists; `stream=14` still means the stream with id 14.
    let mut seed = standard_seed();
    seed["streams"].as_array_mut().unwrap().push(json!({
        "stream_id": 31, "name": "14", "description": "A stream named 14",
        "invite_only": false, "subscribers": [MEMBER.id]
    }));
    let server = TestServer::start(seed, &[]);
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "14")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let new = new_since(&server, &before).await;
    let posted: Vec<&Value> = new.iter().filter(|m| m["type"] == "stream").collect();
    assert_eq!(posted.len(), 1, "{new:#?}");
    assert_eq!(posted[0]["stream_id"], EMPTY_ROOM.id, "{new:#?}");
    assert_eq!(posted[0]["display_recipient"], EMPTY_ROOM.name, "{new:#?}");
}

#[tokio::test]
async fn without_a_stream_the_bot_sends_its_owner_a_direct_message() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(&server, &[("api_key", WEBHOOK_BOT.key)], ADA).await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "no stream");
    assert_eq!(m["type"], "private", "{m:#}");
    assert_eq!(m["sender_id"], WEBHOOK_BOT.id, "{m:#}");
    assert_eq!(m["sender_email"], WEBHOOK_BOT.email, "{m:#}");
    assert_eq!(dm_people(&m), vec![MEMBER.id, WEBHOOK_BOT.id], "{m:#}");
    assert_eq!(m["content"], hello_markdown(ADA_TITLE, ADA_URL), "{m:#}");
    assert_eq!(m["client"], HELLO_CLIENT, "{m:#}");
    // The owner has it; nobody else does.
    let mark = read_all(&server.as_user(&MEMBER), json!([]), false).await;
    assert!(
        mark.iter().any(|x| x["id"] == m["id"]),
        "owner cannot read it: {mark:#?}"
    );
    for other in [OWNER, ADMIN, MODERATOR, MEMBER2, GUEST] {
        let seen = read_all(&server.as_user(&other), json!([]), false).await;
        assert!(
            !seen.iter().any(|x| x["id"] == m["id"]),
            "{} can read it",
            other.email
        );
    }
}

#[tokio::test]
async fn the_topic_parameter_overrides_the_integrations_topic() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Engineering"),
            ("topic", "Daily reading"),
        ],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "topic override");
    assert_stream_message(
        &m,
        &WEBHOOK_BOT,
        ENGINEERING,
        "Daily reading",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
}

#[tokio::test]
async fn topics_over_sixty_characters_are_cut_to_fifty_seven_plus_an_ellipsis() {
    let server = TestServer::standard();
    let cases = [
        ("t".repeat(60), "t".repeat(60)),
        ("t".repeat(61), format!("{}...", "t".repeat(57))),
        ("é".repeat(61), format!("{}...", "é".repeat(57))),
        (
            format!("{}tail", "x".repeat(100)),
            format!("{}...", "x".repeat(57)),
        ),
    ];

    for (topic, expected) in cases {
        let before = everything(&server).await;
        let r = hello(
            &server,
            &[
                ("api_key", WEBHOOK_BOT.key),
                ("stream", "Engineering"),
                ("topic", &topic),
            ],
            ADA,
        )
        .await;
        assert_webhook_success(&r);
        let m = only_one(&new_since(&server, &before).await, &topic);
        assert_eq!(
            m["subject"],
            expected,
            "topic of {} chars: {m:#}",
            topic.chars().count()
        );
    }
}

#[tokio::test]
async fn bodies_over_ten_thousand_characters_are_cut_to_exactly_ten_thousand() {
    let server = TestServer::standard();
    let url = "https://en.wikipedia.org/wiki/Long";
    let base = hello_markdown("", url).chars().count();
    const MARKER: &str = "\n[message truncated]";

    // Exactly 10000 characters: kept as it is.
    let title = "a".repeat(10_000 - base);
    let before = everything(&server).await;
    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
        &payload(&title, url),
    )
    .await;
    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "10000 chars");
    let content = m["content"].as_str().unwrap();
    assert_eq!(
        content,
        hello_markdown(&title, url),
        "a 10000-char body must not be cut"
    );

    // Longer, with multi-byte characters: cut by characters, marker included.
    for extra in [1usize, 9_000] {
        let title: String = "Ünïcødé "
            .chars()
            .cycle()
            .take(10_000 - base + extra)
            .collect();
        let full = hello_markdown(&title, url);
        let before = everything(&server).await;
        let r = hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
            &payload(&title, url),
        )
        .await;
        assert_webhook_success(&r);
        let m = only_one(&new_since(&server, &before).await, "long body");
        let content = m["content"].as_str().unwrap();
        let keep = 10_000 - MARKER.chars().count();
        let expected: String = full.chars().take(keep).chain(MARKER.chars()).collect();
        assert_eq!(
            content.chars().count(),
            10_000,
            "body of {} chars",
            full.chars().count()
        );
        assert!(
            content.ends_with(MARKER),
            "no truncation marker: ...{:?}",
            tail(content)
        );
        assert!(
            content == expected,
            "truncated body differs from the first {keep} chars + marker"
        );
    }
}

fn tail(s: &str) -> String {
    let n = s.chars().count();
    s.chars().skip(n.saturating_sub(60)).collect()
}

// ---------------------------------------------------------------------- destinations

#[tokio::test]
async fn a_stream_name_that_does_not_exist_posts_nothing_and_tells_the_owner() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Nowhere")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "nonexistent stream");
    assert_notification(&m, &MEMBER, &does_not_exist_text(&WEBHOOK_BOT, "Nowhere"));
    assert_eq!(dm_people(&m).len(), 2, "one-to-one with the owner: {m:#}");
}

#[tokio::test]
async fn a_stream_id_that_does_not_exist_posts_nothing_and_tells_the_owner() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "9999")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "nonexistent stream id");
    assert_notification(&m, &MEMBER, &no_such_id_text(&WEBHOOK_BOT, "9999"));
}

#[tokio::test]
async fn every_failed_delivery_notifies_the_owner_again() {
    // Zulip limits these notices to one per bot per 5 minutes; Weir sends every one.
    let server = TestServer::standard();
    let before = everything(&server).await;

    for stream in ["Nowhere", "Nowhere", "9999", "Empty Room", "Empty Room"] {
        let r = hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", stream)],
            ADA,
        )
        .await;
        assert_webhook_success(&r);
    }

    let new = new_since(&server, &before).await;
    let notices: Vec<&str> = new
        .iter()
        .filter(|m| m["sender_email"] == NOTIFICATION_BOT_EMAIL)
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    let missing = does_not_exist_text(&WEBHOOK_BOT, "Nowhere");
    let no_id = no_such_id_text(&WEBHOOK_BOT, "9999");
    let empty = no_subscribers_text(&WEBHOOK_BOT, "Empty Room");
    assert_eq!(
        notices,
        [
            missing.as_str(),
            missing.as_str(),
            no_id.as_str(),
            empty.as_str(),
            empty.as_str()
        ],
        "{new:#?}"
    );
    assert_eq!(
        new.iter().filter(|m| m["type"] == "stream").count(),
        2,
        "{new:#?}"
    );
}

#[tokio::test]
async fn notification_bot_is_not_listed_among_the_users() {
    let server = TestServer::standard();
    assert_webhook_success(
        &hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Nowhere")],
            ADA,
        )
        .await,
    );

    let r = server.as_user(&OWNER).get("/users", &[]).await;

    let members = r.ok()["members"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", r.debug()));
    assert!(
        !members.iter().any(|u| u["email"] == NOTIFICATION_BOT_EMAIL),
        "Notification Bot is listed\n{}",
        r.debug()
    );
}

#[tokio::test]
async fn a_stream_without_subscribers_gets_the_message_and_the_owner_is_told() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Empty Room")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let new = new_since(&server, &before).await;
    assert_eq!(new.len(), 2, "the message and one notification: {new:#?}");
    let posted: Vec<&Value> = new.iter().filter(|m| m["type"] == "stream").collect();
    assert_eq!(posted.len(), 1, "{new:#?}");
    assert_stream_message(
        posted[0],
        &WEBHOOK_BOT,
        EMPTY_ROOM,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
    let told: Vec<&Value> = new.iter().filter(|m| m["type"] == "private").collect();
    assert_eq!(told.len(), 1, "{new:#?}");
    assert_notification(
        told[0],
        &MEMBER,
        &no_subscribers_text(&WEBHOOK_BOT, "Empty Room"),
    );
}

/// The server remembers the streams webhooks post to; every change to subscriptions and
/// streams must reach the next post.
#[tokio::test]
async fn each_post_sees_the_subscriptions_and_streams_as_they_are_now() {
    let server = &TestServer::standard();
    let member = server.as_user(&MEMBER);
    let subs = "/users/me/subscriptions";
    let post_to = |stream: &'static str| async move {
        let before = everything(server).await;
        let query = [("api_key", WEBHOOK_BOT.key), ("stream", stream)];
        assert_webhook_success(&hello(server, &query, ADA).await);
        new_since(server, &before).await
    };
    let count = |new: &[Value], kind: &str| new.iter().filter(|m| m["type"] == kind).count();

    let new = post_to("Empty Room").await;
    assert_eq!(
        (count(&new, "stream"), count(&new, "private")),
        (1, 1),
        "{new:#?}"
    );

    member
        .post(subs, &[("subscriptions", json!([{"name": "Empty Room"}]))])
        .await
        .ok();
    let new = post_to("Empty Room").await;
    assert_eq!(
        (count(&new, "stream"), count(&new, "private")),
        (1, 0),
        "{new:#?}"
    );

    member
        .delete(subs, &[("subscriptions", json!(["Empty Room"]))])
        .await
        .ok();
    let new = post_to("Empty Room").await;
    assert_eq!(
        (count(&new, "stream"), count(&new, "private")),
        (1, 1),
        "{new:#?}"
    );

    let new = post_to("Brand New").await;
    let notice = only_one(&new, "the notice about a missing stream");
    assert_notification(
        &notice,
        &MEMBER,
        &does_not_exist_text(&WEBHOOK_BOT, "Brand New"),
    );
    member
        .post(subs, &[("subscriptions", json!([{"name": "Brand New"}]))])
        .await
        .ok();
    let new = post_to("Brand New").await;
    let posted = only_one(&new, "the message in the new stream");
    assert_eq!(posted["display_recipient"], "Brand New", "{posted:#}");
}

#[tokio::test]
async fn a_private_stream_neither_bot_nor_owner_can_access_is_a_stream_that_does_not_exist() {
    let server = TestServer::standard();
    let lair_before = read_all(
        &server.as_user(&MEMBER2),
        json!([{"operator": "channel", "operand": "Hidden Lair"}]),
        false,
    )
    .await;
    assert!(lair_before.is_empty());

    // By name: the same answer and the same notice as for a name that does not exist.
    let before = everything(&server).await;
    let missing = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Nowhere Lair")],
        ADA,
    )
    .await;
    let missing_notice = only_one(&new_since(&server, &before).await, "missing stream");
    let before = everything(&server).await;
    let hidden = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Hidden Lair")],
        ADA,
    )
    .await;
    assert_webhook_success(&hidden);
    assert_indistinguishable(&hidden, "Hidden Lair", &missing, "Nowhere Lair");
    let notice = only_one(&new_since(&server, &before).await, "hidden stream by name");
    assert_notification(
        &notice,
        &MEMBER,
        &does_not_exist_text(&WEBHOOK_BOT, "Hidden Lair"),
    );
    assert_eq!(
        notice["content"]
            .as_str()
            .unwrap()
            .replace("Hidden Lair", "Nowhere Lair"),
        missing_notice["content"].as_str().unwrap()
    );

    // By id: "no channel with that ID".
    let before = everything(&server).await;
    let by_id = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "22")],
        ADA,
    )
    .await;
    assert_webhook_success(&by_id);
    let notice = only_one(&new_since(&server, &before).await, "hidden stream by id");
    assert_notification(&notice, &MEMBER, &no_such_id_text(&WEBHOOK_BOT, "22"));

    // And nothing reached the stream.
    let lair_after = read_all(
        &server.as_user(&MEMBER2),
        json!([{"operator": "channel", "operand": "Hidden Lair"}]),
        false,
    )
    .await;
    assert!(
        lair_after.is_empty(),
        "posted to a private stream: {lair_after:#?}"
    );
}

#[tokio::test]
async fn a_private_stream_the_owner_is_subscribed_to_gets_the_message() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Secret Plans")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "Secret Plans");
    assert_stream_message(
        &m,
        &WEBHOOK_BOT,
        SECRET_PLANS,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
    // Also by id.
    let before = everything(&server).await;
    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "21")],
        ADA,
    )
    .await;
    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "Secret Plans by id");
    assert_eq!(m["stream_id"], SECRET_PLANS.id, "{m:#}");
}

#[tokio::test]
async fn a_private_stream_the_bot_itself_is_subscribed_to_gets_the_message() {
    // Helper (202) is in Hidden Lair; its owner Mark is not.
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", GENERIC_BOT.key), ("stream", "Hidden Lair")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(
        &new_since(&server, &before).await,
        "Hidden Lair via a subscribed bot",
    );
    assert_stream_message(
        &m,
        &GENERIC_BOT,
        HIDDEN_LAIR,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
}

#[tokio::test]
async fn a_humans_key_posts_as_that_human() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", MEMBER2.key), ("stream", "Engineering")],
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "human key to a stream");
    assert_stream_message(
        &m,
        &MEMBER2,
        ENGINEERING,
        "Hello World",
        &hello_markdown(ADA_TITLE, ADA_URL),
    );
}

#[tokio::test]
async fn a_humans_key_without_a_stream_sends_the_human_a_message_to_themself() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(&server, &[("api_key", MEMBER2.key)], ADA).await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "human key, no stream");
    assert_eq!(m["type"], "private", "{m:#}");
    assert_eq!(m["sender_id"], MEMBER2.id, "{m:#}");
    assert_eq!(dm_people(&m), vec![MEMBER2.id], "{m:#}");
    assert_eq!(m["content"], hello_markdown(ADA_TITLE, ADA_URL), "{m:#}");
    assert_eq!(m["client"], HELLO_CLIENT, "{m:#}");
    let nina = read_all(&server.as_user(&MEMBER2), json!([]), false).await;
    assert!(nina.iter().any(|x| x["id"] == m["id"]), "{nina:#?}");
}

#[tokio::test]
async fn every_accepted_request_sends_exactly_one_message() {
    let server = TestServer::standard();
    let before = everything(&server).await;
    let topics = ["one", "two", "three", "four", "five"];

    for topic in topics {
        let r = hello(
            &server,
            &[
                ("api_key", WEBHOOK_BOT.key),
                ("stream", "Verona"),
                ("topic", topic),
            ],
            ADA,
        )
        .await;
        assert_webhook_success(&r);
    }
    // Same payload, no stream: one direct message each.
    for _ in 0..2 {
        assert_webhook_success(&hello(&server, &[("api_key", WEBHOOK_BOT.key)], ADA).await);
    }

    let new = new_since(&server, &before).await;
    let got: Vec<&str> = new
        .iter()
        .filter(|m| m["type"] == "stream")
        .map(|m| m["subject"].as_str().unwrap())
        .collect();
    assert_eq!(got, topics, "{new:#?}");
    assert_eq!(
        new.iter().filter(|m| m["type"] == "private").count(),
        2,
        "{new:#?}"
    );
    assert_eq!(new.len(), 7, "{new:#?}");
}

// ---------------------------------------------------------------------- failures

#[tokio::test]
async fn a_missing_api_key_is_a_missing_argument() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(&server, &[("stream", "Engineering")], ADA).await;

    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'api_key' argument",
    );
    assert_eq!(body["var_name"], "api_key", "{}", r.debug());
    assert_nothing_new(&new_since(&server, &before).await, "missing api_key");
}

#[tokio::test]
async fn a_malformed_api_key_is_rejected() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    for key in [
        "short",
        "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0P!",
        &format!("{}x", WEBHOOK_BOT.key),
    ] {
        let r = hello(&server, &[("api_key", key), ("stream", "Engineering")], ADA).await;
        r.err(401, "INVALID_API_KEY", "Malformed API key");
    }
    assert_nothing_new(&new_since(&server, &before).await, "malformed keys");
}

#[tokio::test]
async fn an_unknown_api_key_is_rejected() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", UNKNOWN_KEY), ("stream", "Engineering")],
        ADA,
    )
    .await;

    r.err(401, "INVALID_API_KEY", "Invalid API key");
    assert_nothing_new(&new_since(&server, &before).await, "unknown key");
}

#[tokio::test]
async fn a_deactivated_bot_or_human_is_rejected() {
    const RETIRED_KEY: &str = "Rt1rEdB0tK3yRt1rEdB0tK3yRt1rEdB0";
    let mut seed = standard_seed();
    seed["users"].as_array_mut().unwrap().push(json!({
        "user_id": 204, "email": "retired-bot@globex.test", "full_name": "Retired",
        "role": "member", "bot_type": 2, "bot_owner_id": MEMBER.id,
        "api_key": RETIRED_KEY, "is_active": false
    }));
    let server = TestServer::start(seed, &[]);
    let before = everything(&server).await;

    for key in [RETIRED_KEY, DEACTIVATED.key] {
        let r = hello(&server, &[("api_key", key), ("stream", "Engineering")], ADA).await;
        r.err(401, "USER_DEACTIVATED", "Account is deactivated");
        let r = hello(&server, &[("api_key", key)], ADA).await;
        r.err(401, "USER_DEACTIVATED", "Account is deactivated");
    }
    assert_nothing_new(&new_since(&server, &before).await, "deactivated senders");
}

#[tokio::test]
async fn a_body_that_is_not_json_is_malformed_json() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    for (ct, body) in [
        (Some(JSON_TYPE), MALFORMED),
        (Some(FORM_TYPE), MALFORMED),
        (Some(JSON_TYPE), ""),
        (Some("text/plain"), "featured_title=x&featured_url=y"),
    ] {
        let r = hook(
            &server,
            "helloworld",
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
            ct,
            body,
        )
        .await;
        r.bad_request("Malformed JSON");
    }
    assert_nothing_new(&new_since(&server, &before).await, "malformed JSON");
}

#[tokio::test]
async fn authentication_is_judged_before_the_body() {
    let server = TestServer::standard();

    hello(&server, &[("api_key", UNKNOWN_KEY)], MALFORMED)
        .await
        .err(401, "INVALID_API_KEY", "Invalid API key");
    hello(&server, &[], MALFORMED).await.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'api_key' argument",
    );
}

#[tokio::test]
async fn a_payload_without_a_required_key_is_a_missing_argument() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    for (body, key) in [
        (MISSING_TITLE, "featured_title"),
        (MISSING_URL, "featured_url"),
    ] {
        for stream in [Some("Engineering"), None] {
            let mut query = vec![("api_key", WEBHOOK_BOT.key)];
            query.extend(stream.map(|s| ("stream", s)));
            let r = hello(&server, &query, body).await;
            let json = r.err(
                400,
                "REQUEST_VARIABLE_MISSING",
                &format!("Missing '{key}' argument"),
            );
            assert_eq!(json["var_name"], key, "{}", r.debug());
        }
    }
    assert_nothing_new(&new_since(&server, &before).await, "payloads missing keys");
}

#[tokio::test]
async fn an_unknown_integration_is_a_zulip_shaped_404() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    for name in ["nosuchintegration", "HelloWorld", "hello_world"] {
        let r = hook(
            &server,
            name,
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
            Some(JSON_TYPE),
            ADA,
        )
        .await;
        assert_eq!(r.status, 404, "{}", r.debug());
        assert_eq!(r.json["result"], "error", "{}", r.debug());
        assert!(
            r.json["msg"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            r.debug()
        );
        assert!(r.json["code"].is_string(), "{}", r.debug());
        r.assert_json_content_type();
    }
    assert_nothing_new(&new_since(&server, &before).await, "unknown integrations");
}

#[tokio::test]
async fn failed_requests_send_nothing_even_to_the_owner() {
    // A single sweep over every rejection, with a stream that does not exist (which
    // would make an accepted request notify the owner): nothing may appear anywhere.
    let server = TestServer::standard();
    let before = everything(&server).await;
    let stream = ("stream", "Nowhere");

    hello(&server, &[stream], ADA).await.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'api_key' argument",
    );
    hello(&server, &[("api_key", "nope"), stream], ADA)
        .await
        .err(401, "INVALID_API_KEY", "Malformed API key");
    hello(&server, &[("api_key", UNKNOWN_KEY), stream], ADA)
        .await
        .err(401, "INVALID_API_KEY", "Invalid API key");
    hello(&server, &[("api_key", DEACTIVATED.key), stream], ADA)
        .await
        .err(401, "USER_DEACTIVATED", "Account is deactivated");
    hello(&server, &[("api_key", WEBHOOK_BOT.key), stream], MALFORMED)
        .await
        .bad_request("Malformed JSON");
    hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), stream],
        MISSING_TITLE,
    )
    .await
    .err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'featured_title' argument",
    );

    assert_nothing_new(&new_since(&server, &before).await, "rejected requests");
}

// ---------------------------------------------------------------------- hostile payloads

/// The real tags of `html` (text between `<` and `>`; escaped text has no `<`), lower case.
fn tags(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut rest = lower.as_str();
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let close = after.find('>').unwrap_or(after.len());
        out.push(after[..close].to_string());
        rest = &after[close..];
    }
    out
}

/// Attributes of one tag as (name, value), values entity-decoded enough to judge a URL.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let body = tag.trim_start_matches('/');
    let mut chars = body.char_indices().peekable();
    // Skip the tag name.
    while chars
        .peek()
        .is_some_and(|(_, c)| !c.is_whitespace() && *c != '/')
    {
        chars.next();
    }
    loop {
        while chars
            .peek()
            .is_some_and(|(_, c)| c.is_whitespace() || *c == '/')
        {
            chars.next();
        }
        let mut name = String::new();
        while let Some((_, c)) = chars.peek().copied() {
            if c.is_whitespace() || c == '=' || c == '/' {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            break;
        }
        while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
            chars.next();
        }
        let mut value = String::new();
        if chars.peek().is_some_and(|(_, c)| *c == '=') {
            chars.next();
            while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek().copied() {
                Some((_, q @ ('"' | '\''))) => {
                    chars.next();
                    for (_, c) in chars.by_ref() {
                        if c == q {
                            break;
                        }
                        value.push(c);
                    }
                }
                _ => {
                    while let Some((_, c)) = chars.peek().copied() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
            }
        }
        let decoded = value
            .replace("&#x09;", "")
            .replace("&#9;", "")
            .replace("&#x0a;", "")
            .replace("&#10;", "")
            .replace("&colon;", ":")
            .replace("&#58;", ":")
            .replace("&#x3a;", ":");
        let decoded: String = decoded
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_control())
            .collect();
        out.push((name, decoded));
    }
    out
}

/// No script element, no event-handler attribute, no link or source with a script scheme.
#[track_caller]
fn assert_harmless(html: &str, what: &str) {
    for tag in tags(html) {
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        assert!(
            !["script", "iframe", "object", "embed"].contains(&name.as_str()),
            "{what}: rendered HTML has a <{name}> element:\n{html}"
        );
        for (attr, value) in attributes(&tag) {
            assert!(
                !attr.starts_with("on"),
                "{what}: event handler `{attr}` in <{tag}>:\n{html}"
            );
            if ["href", "src", "action", "formaction", "xlink:href"].contains(&attr.as_str()) {
                for scheme in ["javascript:", "vbscript:", "data:"] {
                    assert!(
                        !value.starts_with(scheme),
                        "{what}: rendered HTML has {attr}={value:?}:\n{html}"
                    );
                }
            }
        }
    }
}

#[tokio::test]
async fn a_script_in_the_title_is_escaped_in_the_rendered_message() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(
        &server,
        &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
        SCRIPT_TITLE,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "script title");
    // The Markdown source is stored as the integration built it...
    assert_eq!(
        m["content"],
        hello_markdown(
            "<script>alert(1)</script>",
            "https://en.wikipedia.org/wiki/Cross-site_scripting"
        ),
        "{m:#}"
    );
    // ...and rendered without a live script.
    let rendered = read_all(
        &server.as_user(&OWNER),
        json!([{"operator": "channel", "operand": "Engineering"}]),
        true,
    )
    .await;
    let html = rendered[0]["content"].as_str().unwrap();
    assert_harmless(html, "script title");
    assert!(
        html.contains("&lt;script&gt;"),
        "the title should be shown, escaped:\n{html}"
    );
}

#[tokio::test]
async fn a_javascript_url_is_not_a_live_link_in_the_rendered_message() {
    let server = TestServer::standard();
    let urls = [
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "https://x.test/\"onmouseover=\"alert(1)",
    ];
    let mut bodies = vec![JAVASCRIPT_URL.to_string()];
    bodies.extend(urls.iter().map(|u| payload("Click me", u)));

    for body in bodies {
        let before = everything(&server).await;
        let r = hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
            &body,
        )
        .await;
        assert_webhook_success(&r);
        let m = only_one(&new_since(&server, &before).await, &body);
        let rendered = server
            .as_user(&OWNER)
            .get(
                "/messages",
                &[
                    ("anchor", json!(m["id"])),
                    ("num_before", json!(0)),
                    ("num_after", json!(0)),
                    ("apply_markdown", json!(true)),
                ],
            )
            .await;
        let html = rendered.ok()["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(!html.is_empty(), "{}", rendered.debug());
        assert_harmless(&html, &body);
    }
}

// ---------------------------------------------------------------------- rendering

#[tokio::test]
async fn render_returns_zulips_html_for_the_hello_world_markdown() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post(
            "/messages/render",
            &[("content", json!(hello_markdown(ADA_TITLE, ADA_URL)))],
        )
        .await;

    assert_eq!(
        r.ok()["rendered"],
        hello_html(ADA_TITLE, ADA_URL),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn render_agrees_with_the_stored_rendering() {
    let server = TestServer::standard();
    let title = "Grace Hopper & COBOL";
    let url = "https://en.wikipedia.org/wiki/Grace_Hopper";
    assert_webhook_success(
        &hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Engineering")],
            &payload(title, url),
        )
        .await,
    );
    let stored = read_all(
        &server.as_user(&OWNER),
        json!([{"operator": "channel", "operand": "Engineering"}]),
        true,
    )
    .await;

    let r = server
        .as_user(&OWNER)
        .post(
            "/messages/render",
            &[("content", json!(hello_markdown(title, url)))],
        )
        .await;

    assert_eq!(r.ok()["rendered"], stored[0]["content"], "{}", r.debug());
    assert_eq!(
        r.json["rendered"],
        hello_html("Grace Hopper &amp; COBOL", url),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn render_neutralises_hostile_markdown() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);

    for content in [
        hello_markdown("<script>alert(1)</script>", ADA_URL),
        hello_markdown("Click me", "javascript:alert(1)"),
        "<img src=x onerror=alert(1)>".to_string(),
        "[x](javascript:alert(1))".to_string(),
    ] {
        let r = nina
            .post("/messages/render", &[("content", json!(content))])
            .await;
        let html = r.ok()["rendered"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", r.debug()));
        assert_harmless(html, &content);
    }
}

#[tokio::test]
async fn render_requires_content_and_authentication() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).post("/messages/render", &[]).await;
    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'content' argument",
    );
    assert_eq!(body["var_name"], "content");

    server
        .anon()
        .post("/messages/render", &[("content", json!("hi"))])
        .await
        .unauthorized("Not logged in: API authentication or user session required");
}

// ---------------------------------------------------------------------- registry

#[tokio::test]
async fn the_registry_lists_hello_world_with_its_fixtures() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/integrations", &[]).await;

    let list = r.ok()["integrations"]
        .as_array()
        .unwrap_or_else(|| panic!("no `integrations` list\n{}", r.debug()));
    let hw = list
        .iter()
        .find(|i| i["name"] == "helloworld")
        .unwrap_or_else(|| panic!("no helloworld\n{}", r.debug()));
    assert_eq!(hw["display_name"], "Hello World", "{hw:#}");
    assert_eq!(hw["categories"], json!(["misc"]), "{hw:#}");
    let fixtures = hw["fixtures"]
        .as_array()
        .unwrap_or_else(|| panic!("no fixtures: {hw:#}"));
    assert!(!fixtures.is_empty(), "{hw:#}");
    for f in fixtures {
        assert!(f["name"].as_str().is_some_and(|n| !n.is_empty()), "{f:#}");
        assert!(f["headers"].is_array() || f["headers"].is_object(), "{f:#}");
        let body = f["body"]
            .as_str()
            .unwrap_or_else(|| panic!("fixture body: {f:#}"));
        let parsed: Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("fixture body not JSON: {e}"));
        assert!(parsed["featured_title"].is_string() && parsed["featured_url"].is_string());
    }
    for i in list {
        assert!(
            i["name"]
                .as_str()
                .is_some_and(|n| !n.is_empty() && n == n.to_lowercase()),
            "integration names are lower case: {i:#}"
        );
    }
}

#[tokio::test]
async fn every_hello_world_fixture_posts_its_article() {
    let server = TestServer::standard();
    let r = server.as_user(&MEMBER).get("/integrations", &[]).await;
    let hw = r.ok()["integrations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "helloworld")
        .unwrap_or_else(|| panic!("no helloworld\n{}", r.debug()))
        .clone();

    for f in hw["fixtures"].as_array().unwrap() {
        let body = f["body"].as_str().unwrap();
        let parsed: Value = serde_json::from_str(body).unwrap();
        let before = everything(&server).await;
        let r = hello(
            &server,
            &[("api_key", WEBHOOK_BOT.key), ("stream", "Verona")],
            body,
        )
        .await;
        assert_webhook_success(&r);
        let m = only_one(
            &new_since(&server, &before).await,
            f["name"].as_str().unwrap(),
        );
        assert_stream_message(
            &m,
            &WEBHOOK_BOT,
            VERONA,
            "Hello World",
            &hello_markdown(
                parsed["featured_title"].as_str().unwrap(),
                parsed["featured_url"].as_str().unwrap(),
            ),
        );
    }
}

#[tokio::test]
async fn the_registry_needs_a_rest_login() {
    let server = TestServer::standard();

    server
        .anon()
        .get("/integrations", &[])
        .await
        .unauthorized("Not logged in: API authentication or user session required");
    server
        .as_user(&WEBHOOK_BOT)
        .get("/integrations", &[])
        .await
        .unauthorized("This API is not available to incoming webhook bots.");
}

#[test]
#[should_panic(expected = "href")]
fn the_harmlessness_check_catches_a_script_link() {
    assert_harmless(
        "<p><a href=\" JavaScript&#x3A;alert(1)\">x</a></p>",
        "self-test",
    );
}

#[test]
#[should_panic(expected = "event handler")]
fn the_harmlessness_check_catches_an_event_handler() {
    assert_harmless("<p><img src=\"x\" onerror=\"alert(1)\"></p>", "self-test");
}

#[test]
fn the_harmlessness_check_accepts_escaped_text() {
    assert_harmless(
        "<p>&lt;img src=x onerror=alert(1)&gt; <a href=\"https://x.test/\">javascript:</a></p>",
        "self-test",
    );
}
