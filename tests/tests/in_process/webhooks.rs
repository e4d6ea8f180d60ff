//! Incoming webhooks: `POST /api/v1/external/<integration>` with the Hello World
//! integration: where its message goes, what the bot's owner is told, and every way a
//! request is refused. The registry is in `integrations.rs`, the Markdown renderer the
//! messages go through in `render.rs`, header-driven integrations in `webhook_events.rs`.
//!
//! Every request here is checked for its *effects* as well as its answer: the messages
//! every seeded human can read are snapshotted before and compared after, so "sends
//! nothing" and "exactly one message" are proven, not assumed.

use serde_json::Value;
use weir_tests::helloworld::*;
use weir_tests::*;

const MISSING_TITLE: &str = include_str!("../../fixtures/webhooks/helloworld/missing_title.json");
const MISSING_URL: &str = include_str!("../../fixtures/webhooks/helloworld/missing_url.json");
const MALFORMED: &str = include_str!("../../fixtures/webhooks/helloworld/malformed.json");

/// A key with the right shape that belongs to nobody.
const UNKNOWN_KEY: &str = "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp";

// ---------------------------------------------------------------------- helpers

/// A webhook post with this content type (`None`: no `Content-Type` header at all).
async fn hook(
    server: &TestServer,
    integration: &str,
    query: &[(&str, &str)],
    content_type: Option<&str>,
    body: &str,
) -> Resp {
    let headers: Vec<(&str, &str)> = content_type
        .map(|ct| ("Content-Type", ct))
        .into_iter()
        .collect();
    post_webhook(server, integration, query, &headers, body).await
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
    let m = hello_one(&server, &bot_to("Engineering"), ADA, "hello world").await;
    assert_ada_in(&m, ENGINEERING);
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
        &bot_to("Engineering"),
        Some(FORM_TYPE),
        ADA,
    )
    .await;

    assert_webhook_success(&r);
    let m = only_one(&new_since(&server, &before).await, "form-declared JSON");
    assert_ada_in(&m, ENGINEERING);
}

#[tokio::test]
async fn a_json_body_without_a_content_type_is_read_as_json() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hook(&server, "helloworld", &bot_to("Engineering"), None, ADA).await;

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
    assert_ada_in(&m, ENGINEERING);
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
        let m = hello_one(&server, &bot_to(spelling), ADA, spelling).await;
        assert_ada_in(&m, ENGINEERING);
    }
}

#[tokio::test]
async fn non_ascii_stream_names_match_case_insensitively() {
    let server = TestServer::standard();

    for spelling in ["Café", "café", "CAFÉ"] {
        let before = everything(&server).await;
        let r = hello(&server, &bot_to(spelling), ADA).await;
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
    let m = hello_one(&server, &bot_to("13"), ADA, "stream=13").await;
    assert_ada_in(&m, VERONA);
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

    let r = hello(&server, &bot_to("14"), ADA).await;

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
    let m = hello_one(
        &server,
        &bot_to("Engineering"),
        &payload(&title, url),
        "10000 chars",
    )
    .await;
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
        let m = hello_one(
            &server,
            &bot_to("Engineering"),
            &payload(&title, url),
            "long body",
        )
        .await;
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
    let m = hello_one(&server, &bot_to("Nowhere"), ADA, "nonexistent stream").await;
    assert_notification(&m, &MEMBER, &does_not_exist_text(&WEBHOOK_BOT, "Nowhere"));
    assert_eq!(dm_people(&m).len(), 2, "one-to-one with the owner: {m:#}");
}

#[tokio::test]
async fn a_stream_id_that_does_not_exist_posts_nothing_and_tells_the_owner() {
    let server = TestServer::standard();
    let m = hello_one(&server, &bot_to("9999"), ADA, "nonexistent stream id").await;
    assert_notification(&m, &MEMBER, &no_such_id_text(&WEBHOOK_BOT, "9999"));
}

#[tokio::test]
async fn a_bots_owner_is_told_of_failed_deliveries_at_most_once_per_five_minutes() {
    // Zulip's `send_rate_limited_pm_notification_to_bot_owner`
    // (zerver/actions/message_send.py): one notice per bot every five minutes, whatever
    // failed; the messages that could be delivered still are.
    let server = TestServer::standard();
    let before = everything(&server).await;

    for stream in ["Nowhere", "Nowhere", "9999", "Empty Room", "Empty Room"] {
        let r = hello(&server, &bot_to(stream), ADA).await;
        assert_webhook_success(&r);
    }

    let new = new_since(&server, &before).await;
    let notices: Vec<&str> = new
        .iter()
        .filter(|m| m["sender_email"] == NOTIFICATION_BOT_EMAIL)
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    let missing = does_not_exist_text(&WEBHOOK_BOT, "Nowhere");
    assert_eq!(notices, [missing.as_str()], "{new:#?}");
    assert_eq!(
        new.iter().filter(|m| m["type"] == "stream").count(),
        2,
        "{new:#?}"
    );
}

#[tokio::test]
async fn notification_bot_is_not_listed_among_the_users() {
    let server = TestServer::standard();
    assert_webhook_success(&hello(&server, &bot_to("Nowhere"), ADA).await);

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

    let r = hello(&server, &bot_to("Empty Room"), ADA).await;

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
    // A bot's owner is told once per five minutes: each step that expects a notice
    // posts with a bot that has not caused one yet.
    let post_as = |bot: Account, stream: &'static str| async move {
        let before = everything(server).await;
        let query = [("api_key", bot.key), ("stream", stream)];
        assert_webhook_success(&hello(server, &query, ADA).await);
        new_since(server, &before).await
    };
    let count = |new: &[Value], kind: &str| new.iter().filter(|m| m["type"] == kind).count();

    let new = post_as(WEBHOOK_BOT, "Empty Room").await;
    assert_eq!(
        (count(&new, "stream"), count(&new, "private")),
        (1, 1),
        "{new:#?}"
    );

    member
        .post(subs, &[("subscriptions", json!([{"name": "Empty Room"}]))])
        .await
        .ok();
    let new = post_as(GENERIC_BOT, "Empty Room").await;
    assert_eq!(
        (count(&new, "stream"), count(&new, "private")),
        (1, 0),
        "{new:#?}"
    );

    member
        .delete(subs, &[("subscriptions", json!(["Empty Room"]))])
        .await
        .ok();
    let new = post_as(GENERIC_BOT, "Empty Room").await;
    assert_eq!(
        (count(&new, "stream"), count(&new, "private")),
        (1, 1),
        "{new:#?}"
    );

    let new = post_as(OTHER_BOT, "Brand New").await;
    let notice = only_one(&new, "the notice about a missing stream");
    assert_notification(
        &notice,
        &MEMBER2,
        &does_not_exist_text(&OTHER_BOT, "Brand New"),
    );
    member
        .post(subs, &[("subscriptions", json!([{"name": "Brand New"}]))])
        .await
        .ok();
    let new = post_as(OTHER_BOT, "Brand New").await;
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
    // (Each on a server of its own: a bot's owner is told once per five minutes.)
    let other = TestServer::standard();
    let before = everything(&other).await;
    let missing = hello(&other, &bot_to("Nowhere Lair"), ADA).await;
    let missing_notice = only_one(&new_since(&other, &before).await, "missing stream");
    let before = everything(&server).await;
    let hidden = hello(&server, &bot_to("Hidden Lair"), ADA).await;
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
    let other = TestServer::standard();
    let before = everything(&other).await;
    let by_id = hello(&other, &bot_to("22"), ADA).await;
    assert_webhook_success(&by_id);
    let notice = only_one(&new_since(&other, &before).await, "hidden stream by id");
    assert_notification(&notice, &MEMBER, &no_such_id_text(&WEBHOOK_BOT, "22"));
    let lair_after = read_all(
        &other.as_user(&MEMBER2),
        json!([{"operator": "channel", "operand": "Hidden Lair"}]),
        false,
    )
    .await;
    assert!(lair_after.is_empty(), "posted by id: {lair_after:#?}");

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
    let m = hello_one(&server, &bot_to("Secret Plans"), ADA, "Secret Plans").await;
    assert_ada_in(&m, SECRET_PLANS);
    // Also by id.
    let m = hello_one(&server, &bot_to("21"), ADA, "Secret Plans by id").await;
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
        let r = hook(&server, "helloworld", &bot_to("Engineering"), ct, body).await;
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
        let r = hook(&server, name, &bot_to("Engineering"), Some(JSON_TYPE), ADA).await;
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
