//! Access rules as Zulip enforces them (issue 24): one sending rule for every path that
//! creates a message, protected history, bot names, stream links, topics and the notices
//! a webhook may cause. Each test cites the Zulip rule it checks. (The upload burst with
//! its memory bound is in `process/abuse.rs`.)

use serde_json::{Value, json};
use weir_tests::helloworld::*;
use weir_tests::*;

async fn post_to(api: &Api, stream: &str, topic: &str, content: &str) -> u64 {
    let r = api
        .post(
            "/messages",
            &[
                ("type", json!("stream")),
                ("to", json!(stream)),
                ("topic", json!(topic)),
                ("content", json!(content)),
            ],
        )
        .await;
    r.ok()["id"].as_u64().unwrap()
}

fn stream_narrow(name: &str) -> Value {
    json!([{"operator": "channel", "operand": name}])
}

fn contents(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

// ------------------------------------------------ 1: one sending rule, webhooks included

/// Zulip's `access_stream_for_send_message` (zerver/lib/streams.py): a public stream
/// without a subscription is open to non-guests only, and webhooks send through
/// `check_send_stream_message`, so the same rule holds for them.
#[tokio::test]
async fn a_guests_key_on_a_webhook_posts_nowhere_the_guest_may_not_post() {
    let server = TestServer::standard();
    let gus = server.as_user(&GUEST);
    // The same guest is refused by `POST /messages`.
    let r = gus
        .post(
            "/messages",
            &[
                ("type", json!("stream")),
                ("to", json!(ENGINEERING.name)),
                ("topic", json!("t")),
                ("content", json!("hi")),
            ],
        )
        .await;
    r.any_zulip_error();
    let before = everything(&server).await;

    for stream in [ENGINEERING.name, "11", CAFE.name, SECRET_PLANS.name] {
        let r = hello(&server, &[("api_key", GUEST.key), ("stream", stream)], ADA).await;
        r.not_5xx();
    }

    assert_nothing_new(&new_since(&server, &before).await, "a guest's webhooks");
    // Where the guest is subscribed, the webhook posts as before.
    let m = hello_one(
        &server,
        &[("api_key", GUEST.key), ("stream", VERONA.name)],
        ADA,
        "a guest's webhook to a stream they are in",
    )
    .await;
    assert_eq!(m["sender_id"], GUEST.id);
}

// ------------------------------------------------------- 2 and 8: what a user may read

/// Zulip's `can_access_stream_history` (zerver/lib/streams.py) and the `UserMessage`
/// rows `GET /messages` reads (zerver/lib/narrow.py): someone subscribed later to a
/// private stream whose history is not public to subscribers reads only what was sent
/// after they joined, with or without a narrow.
#[tokio::test]
async fn a_late_subscriber_to_a_protected_private_stream_reads_only_what_followed() {
    let server = TestServer::standard();
    let olivia = server.as_user(&OWNER);
    post_to(&olivia, SECRET_PLANS.name, "plans", "before Nina").await;
    let r = olivia
        .post(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([{"name": SECRET_PLANS.name}])),
                ("principals", json!([MEMBER2.id])),
            ],
        )
        .await;
    r.ok();
    post_to(&olivia, SECRET_PLANS.name, "plans", "after Nina").await;

    let nina = server.as_user(&MEMBER2);
    let narrowed = read_all(&nina, stream_narrow(SECRET_PLANS.name), false).await;
    assert_eq!(contents(&narrowed), ["after Nina"]);
    let mut all = read_all(&nina, json!([]), false).await;
    all.retain(|m| m["type"] == "stream");
    assert_eq!(contents(&all), ["after Nina"]);
    // Mark, subscribed from the start, reads both.
    let mark = read_all(
        &server.as_user(&MEMBER),
        stream_narrow(SECRET_PLANS.name),
        false,
    )
    .await;
    assert_eq!(contents(&mark), ["before Nina", "after Nina"]);
}

/// `history_public_to_subscribers` is settable when a private stream is created
/// (`POST /users/me/subscriptions`, Zulip's `create_stream_if_needed`): then a later
/// subscriber reads the whole history.
#[tokio::test]
async fn a_private_stream_created_with_public_history_shows_it_to_later_subscribers() {
    let server = TestServer::standard();
    let olivia = server.as_user(&OWNER);
    let r = olivia
        .post(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([{"name": "Open Book"}])),
                ("invite_only", json!(true)),
                ("history_public_to_subscribers", json!(true)),
            ],
        )
        .await;
    r.ok();
    post_to(&olivia, "Open Book", "t", "early").await;
    let r = olivia
        .post(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([{"name": "Open Book"}])),
                ("principals", json!([MEMBER2.id])),
            ],
        )
        .await;
    r.ok();

    let nina = server.as_user(&MEMBER2);
    let narrowed = read_all(&nina, stream_narrow("Open Book"), false).await;
    assert_eq!(contents(&narrowed), ["early"]);
    let r = nina.get("/users/me/subscriptions", &[]).await;
    let open_book = r.ok()["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Open Book")
        .cloned()
        .unwrap();
    assert_eq!(open_book["history_public_to_subscribers"], true);
    assert_eq!(open_book["invite_only"], true);
}

/// Zulip keeps the `UserMessage` rows of what was received while subscribed: after
/// leaving and rejoining a protected stream, the messages of the first period stay
/// readable and those sent in between do not appear.
#[tokio::test]
async fn leaving_and_rejoining_a_protected_stream_keeps_what_was_received() {
    let server = TestServer::standard();
    let olivia = server.as_user(&OWNER);
    post_to(&olivia, SECRET_PLANS.name, "t", "while Mark is in").await;
    let r = olivia
        .delete(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([SECRET_PLANS.name])),
                ("principals", json!([MEMBER.id])),
            ],
        )
        .await;
    r.ok();
    post_to(&olivia, SECRET_PLANS.name, "t", "while Mark is away").await;
    let r = olivia
        .post(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([{"name": SECRET_PLANS.name}])),
                ("principals", json!([MEMBER.id])),
            ],
        )
        .await;
    r.ok();
    post_to(&olivia, SECRET_PLANS.name, "t", "Mark is back").await;

    let mark = server.as_user(&MEMBER);
    let narrowed = read_all(&mark, stream_narrow(SECRET_PLANS.name), false).await;
    assert_eq!(contents(&narrowed), ["while Mark is in", "Mark is back"]);
}

/// After leaving a private stream, what was received stays readable, in the default
/// view and narrowed to the stream (Zulip keeps the `UserMessage` rows and queries them
/// when the stream's history is not accessible).
#[tokio::test]
async fn what_was_received_stays_readable_after_leaving_a_private_stream() {
    let server = TestServer::standard();
    let olivia = server.as_user(&OWNER);
    post_to(&olivia, SECRET_PLANS.name, "t", "said to Mark").await;
    let r = olivia
        .delete(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([SECRET_PLANS.name])),
                ("principals", json!([MEMBER.id])),
            ],
        )
        .await;
    r.ok();
    post_to(&olivia, SECRET_PLANS.name, "t", "said after Mark left").await;

    let mark = server.as_user(&MEMBER);
    let narrowed = read_all(&mark, stream_narrow(SECRET_PLANS.name), false).await;
    assert_eq!(contents(&narrowed), ["said to Mark"]);
    let mut all = read_all(&mark, json!([]), false).await;
    all.retain(|m| m["type"] == "stream");
    assert_eq!(contents(&all), ["said to Mark"]);
    // Someone who never was in it still finds no such stream.
    let r = server
        .as_user(&MEMBER2)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(10)),
                ("num_after", json!(0)),
                ("narrow", stream_narrow(SECRET_PLANS.name)),
            ],
        )
        .await;
    r.bad_request("Invalid narrow operator: unknown channel");
}

/// Zulip's default view (`GET /messages` without a narrow) is the messages the user
/// received; a public stream's history shows when narrowed to it explicitly.
#[tokio::test]
async fn without_a_narrow_a_user_reads_what_they_received_not_every_public_stream() {
    let server = TestServer::standard();
    // Mona (103) is not in Engineering.
    post_to(
        &server.as_user(&OWNER),
        ENGINEERING.name,
        "t",
        "engineering only",
    )
    .await;

    let mona = server.as_user(&MODERATOR);
    let all = read_all(&mona, json!([]), false).await;
    assert!(contents(&all).is_empty(), "{all:#?}");
    let narrowed = read_all(&mona, stream_narrow(ENGINEERING.name), false).await;
    assert_eq!(contents(&narrowed), ["engineering only"]);
}

// ----------------------------------------------------------------------- 3: bot names

/// Zulip's `check_bot_name_available` (zerver/lib/users.py) refuses any active user's
/// name with "Name is already in use."
#[tokio::test]
async fn a_bot_may_not_take_an_active_persons_name() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    for name in [MEMBER2.full_name, "nina member"] {
        let r = mark
            .post(
                "/bots",
                &[
                    ("full_name", json!(name)),
                    ("short_name", json!("impostor")),
                    ("bot_type", json!(1)),
                ],
            )
            .await;
        r.bad_request("Name is already in use.");
    }
    // Mentions of Nina still resolve to her.
    let r = mark
        .post(
            "/messages/render",
            &[("content", json!("@**Nina Member**"))],
        )
        .await;
    let rendered = r.ok()["rendered"].as_str().unwrap().to_owned();
    assert!(
        rendered.contains(&format!("data-user-id=\"{}\"", MEMBER2.id)),
        "{rendered}"
    );
}

// ------------------------------------------------------------------ 4: stream links

/// Zulip's `MentionBackend.get_stream_name_map` (zerver/lib/mention.py) links only
/// streams the acting user has content access to; any other `#**name**` renders as
/// an unknown name: `#<strong>name</strong>`.
#[tokio::test]
async fn a_private_stream_link_renders_as_text_for_those_who_cannot_see_it() {
    let server = TestServer::standard();
    let unlinked = "<p>#<strong>Secret Plans</strong></p>";
    let content = "#**Secret Plans**";
    // Nina (105) is not in Secret Plans; neither is Adam the administrator (102).
    for who in [MEMBER2, ADMIN] {
        let r = server
            .as_user(&who)
            .post("/messages/render", &[("content", json!(content))])
            .await;
        assert_eq!(r.ok()["rendered"], unlinked, "{}", who.email);
    }
    // Sent to a stream, it is stored as its sender saw it.
    post_to(&server.as_user(&MEMBER2), VERONA.name, "t", content).await;
    let m = read_all(&server.as_user(&MEMBER2), stream_narrow(VERONA.name), true).await;
    assert_eq!(m.last().unwrap()["content"], unlinked);
    // Mark, a subscriber, gets the link.
    let r = server
        .as_user(&MEMBER)
        .post("/messages/render", &[("content", json!(content))])
        .await;
    let rendered = r.ok()["rendered"].as_str().unwrap().to_owned();
    assert!(rendered.contains("data-stream-id=\"21\""), "{rendered}");
}

// ------------------------------------------------------------------------ 5: topics

/// Zulip's `check_stream_topic` (zerver/lib/string_validation.py via
/// zerver/lib/addressee.py): control characters, surrogates and noncharacters are
/// refused with "Invalid character in topic, at position N!" (1-based); bidirectional
/// overrides are accepted.
#[tokio::test]
async fn topics_with_control_characters_are_refused_by_api_and_webhook() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    for (topic, position) in [("Test\n\rTopic", 5), ("a\0b", 2), ("x\u{FFFE}", 2)] {
        let r = mark
            .post(
                "/messages",
                &[
                    ("type", json!("stream")),
                    ("to", json!(VERONA.name)),
                    ("topic", json!(topic)),
                    ("content", json!("hi")),
                ],
            )
            .await;
        r.bad_request(&format!(
            "Invalid character in topic, at position {position}!"
        ));
    }
    let before = everything(&server).await;
    let r = hello(
        &server,
        &[
            ("api_key", WEBHOOK_BOT.key),
            ("stream", VERONA.name),
            ("topic", "line\nbreak"),
        ],
        ADA,
    )
    .await;
    r.bad_request("Invalid character in topic, at position 5!");
    assert_nothing_new(&new_since(&server, &before).await, "a webhook's bad topic");
    // Bidirectional overrides pass, as in Zulip.
    post_to(&mark, VERONA.name, "\u{202E}reversed", "hi").await;
}

// --------------------------------------------------- 7: notices a webhook may cause

/// Zulip validates a stream name (`check_stream_name`) before looking it up, so a name
/// no stream could have is a 400 with Zulip's message, and no notice is sent.
#[tokio::test]
async fn a_webhook_naming_an_impossible_stream_is_refused_without_a_notice() {
    let server = TestServer::standard();
    let before = everything(&server).await;

    let r = hello(&server, &bot_to("\u{1b}[31mred"), ADA).await;
    r.bad_request("Invalid character in channel name, at position 1.");
    let r = hello(&server, &bot_to(&"x".repeat(65)), ADA).await;
    r.bad_request("Channel name too long (limit: 60 characters).");

    assert_nothing_new(&new_since(&server, &before).await, "impossible names");
}

/// A missing stream's name is quoted escaped in the notice (a deliberate improvement on
/// Zulip, which quotes it as it came): it carries no Markdown into the system bot's
/// message.
#[tokio::test]
async fn a_missing_streams_name_carries_no_markdown_into_the_notice() {
    let server = TestServer::standard();
    let before = everything(&server).await;
    let name = "[click](https://evil.test) *now*";
    assert_webhook_success(&hello(&server, &bot_to(name), ADA).await);
    let new = new_since(&server, &before).await;
    let notice = only_one(&new, "the notice");
    let id = message_id(&notice);
    let rendered = read_all(
        &server.as_user(&MEMBER),
        json!([{"operator": "id", "operand": id}]),
        true,
    )
    .await;
    let html = rendered[0]["content"].as_str().unwrap();
    // No link text of the name's choosing and no emphasis: the syntax stays as
    // written (a bare URL is still linkified, as in any message).
    assert!(!html.contains(">click<"), "{html}");
    assert!(!html.contains("<em>"), "{html}");
    assert!(
        html.contains("[click](") && html.contains(") *now*"),
        "{html}"
    );
}

// ------------------------------------------------------------------- smaller items

/// Zulip rate limits by IP address before credentials are looked at (`api_by_ip`,
/// zerver/decorator.py and zerver/lib/rate_limiter.py), so API keys cannot be guessed
/// at full speed: with limiting on, an address whose failures reach the limit is
/// answered 429 before any key is checked, the right one included.
#[tokio::test]
async fn failed_authentications_are_rate_limited_per_address() {
    let server = TestServer::standard_with(&["--rate-limit", "3"]);
    let guess = server.with_key(MEMBER.email, "0123456789abcdefABCDEF0123456789");
    for _ in 0..2 {
        guess
            .get("/users/me", &[])
            .await
            .unauthorized("Invalid API key");
    }
    let r = hello(
        &server,
        &[
            ("api_key", "0123456789abcdefABCDEF0123456789"),
            ("stream", "Verona"),
        ],
        ADA,
    )
    .await;
    r.err(401, "INVALID_API_KEY", "Invalid API key");

    let refused = server.as_user(&MEMBER).get("/users/me", &[]).await;
    assert_eq!(refused.status, 429, "{}", refused.debug());
    assert_eq!(
        refused.json["code"],
        "RATE_LIMIT_HIT",
        "{}",
        refused.debug()
    );
    let r = hello(&server, &bot_to(VERONA.name), ADA).await;
    assert_eq!(r.status, 429, "{}", r.debug());
}

/// Zulip's `extract_private_recipients` (zerver/lib/recipient_parsing.py): a list whose
/// first item is neither an e-mail nor an integer is "Invalid data type for recipients".
#[tokio::test]
async fn a_recipient_list_of_floats_is_an_invalid_data_type() {
    let server = TestServer::standard();
    let r = server
        .as_user(&MEMBER)
        .post(
            "/messages",
            &[
                ("type", json!("direct")),
                ("to", json!("[107.0]")),
                ("content", json!("hi")),
            ],
        )
        .await;
    r.bad_request("Invalid data type for recipients");
}

/// `DELETE /events` for a queue the server does not have is Zulip's
/// `BAD_EVENT_QUEUE_ID` (`BadEventQueueIdError`), not a 404: weir-server registers no
/// queues, so every id is one.
#[tokio::test]
async fn deleting_an_event_queue_is_zulips_bad_queue_answer() {
    let server = TestServer::standard();
    let r = server
        .as_user(&OWNER)
        .delete("/events", &[("queue_id", json!("fb67bf8a"))])
        .await;
    let body = r.err(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: fb67bf8a");
    assert_eq!(body["queue_id"], "fb67bf8a");
}
