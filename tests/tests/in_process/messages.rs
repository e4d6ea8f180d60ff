//! `GET /api/v1/messages`: anchors, windows, narrows and who may read what
//! (`docs/zulip-compatibility.md`: `GET /messages`).
//!
//! Messages here are made through the Hello World webhook (`docs/zulip-compatibility.md`:
//! Incoming webhooks), which can post as a bot or, with a human's key, as that human;
//! `POST /messages` and the narrows that need messages of one's own are in `send.rs`.

use std::collections::BTreeSet;

use serde_json::Value;
use weir_tests::*;

const ADA: &str = include_str!("../../fixtures/webhooks/helloworld/ada_lovelace.json");
const NOTIFICATION_BOT_EMAIL: &str = "notification-bot@zulip.com";
const UNKNOWN_CHANNEL: &str = "Invalid narrow operator: unknown channel";

/// Posts Hello World with `key` to `stream` (None: a direct message) under `topic`.
async fn post(server: &TestServer, key: &str, stream: Option<&str>, topic: Option<&str>) {
    let mut query = vec![("api_key", key)];
    query.extend(stream.map(|s| ("stream", s)));
    query.extend(topic.map(|t| ("topic", t)));
    let api = server.anon();
    let rb = api
        .request_unauthenticated(Method::POST, "/external/helloworld")
        .query(&query)
        .header("Content-Type", "application/json")
        .body(ADA);
    let r = api
        .send(rb, &format!("POST /external/helloworld query={query:?}"))
        .await;
    r.ok();
}

async fn fetch(api: &Api, params: &[Param<'_>]) -> Resp {
    api.get("/messages", params).await
}

/// Every message `api` reads through `narrow`, oldest first (Markdown source).
async fn read(api: &Api, narrow: Value) -> Vec<Value> {
    let r = fetch(
        api,
        &[
            ("anchor", json!("oldest")),
            ("num_before", json!(0)),
            ("num_after", json!(5000)),
            ("narrow", narrow),
            ("apply_markdown", json!(false)),
        ],
    )
    .await;
    messages_of(&r)
}

#[track_caller]
fn messages_of(r: &Resp) -> Vec<Value> {
    r.ok()["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("no `messages` list\n{}", r.debug()))
        .clone()
}

fn ids_of(messages: &[Value]) -> Vec<u64> {
    messages.iter().map(message_id).collect()
}

fn topics_of(messages: &[Value]) -> Vec<String> {
    messages
        .iter()
        .map(|m| m["subject"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn channel(name: &str) -> Value {
    json!([{"operator": "channel", "operand": name}])
}

/// The conversation set up by [`populate`], by message id.
struct Corpus {
    eng_alpha: Vec<u64>,
    eng_beta: u64,
    design: u64,
    verona: u64,
    secret: u64,
    lair: u64,
    bot_to_mark: u64,
    nina_to_self: u64,
    notice_to_mark: u64,
}

/// One message of every kind, each found as the newest message its reader sees.
async fn populate(server: &TestServer) -> Corpus {
    let mark = server.as_user(&MEMBER);
    let nina = server.as_user(&MEMBER2);
    let newest = |api: Api| async move {
        let r = fetch(
            &api,
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
            ],
        )
        .await;
        message_id(&messages_of(&r)[0])
    };

    let mut eng_alpha = Vec::new();
    post(server, WEBHOOK_BOT.key, Some("Engineering"), Some("alpha")).await;
    eng_alpha.push(newest(mark.clone()).await);
    post(server, WEBHOOK_BOT.key, Some("Engineering"), Some("alpha")).await;
    eng_alpha.push(newest(mark.clone()).await);
    post(server, WEBHOOK_BOT.key, Some("Engineering"), Some("beta")).await;
    let eng_beta = newest(mark.clone()).await;
    post(server, MEMBER2.key, Some("Design"), Some("gamma")).await;
    let design = newest(nina.clone()).await;
    post(server, MEMBER2.key, Some("Verona"), Some("piazza")).await;
    let verona = newest(nina.clone()).await;
    post(server, WEBHOOK_BOT.key, Some("Secret Plans"), Some("plans")).await;
    let secret = newest(mark.clone()).await;
    post(server, GENERIC_BOT.key, Some("Hidden Lair"), Some("lair")).await;
    let lair = newest(nina.clone()).await;
    post(server, WEBHOOK_BOT.key, None, None).await;
    let bot_to_mark = newest(mark.clone()).await;
    post(server, MEMBER2.key, None, None).await;
    let nina_to_self = newest(nina.clone()).await;
    post(server, WEBHOOK_BOT.key, Some("Nowhere"), None).await;
    let notice_to_mark = newest(mark.clone()).await;

    let all = [
        eng_alpha[0],
        eng_alpha[1],
        eng_beta,
        design,
        verona,
        secret,
        lair,
        bot_to_mark,
        nina_to_self,
        notice_to_mark,
    ];
    assert_eq!(
        all.iter().collect::<BTreeSet<_>>().len(),
        all.len(),
        "each post must be a new message: {all:?}"
    );
    assert!(
        all.windows(2).all(|w| w[0] < w[1]),
        "message ids must increase: {all:?}"
    );
    Corpus {
        eng_alpha,
        eng_beta,
        design,
        verona,
        secret,
        lair,
        bot_to_mark,
        nina_to_self,
        notice_to_mark,
    }
}

// ---------------------------------------------------------------------- shape

#[tokio::test]
async fn stream_and_direct_messages_have_zulips_fields() {
    let server = TestServer::standard();
    let c = populate(&server).await;
    let mark = server.as_user(&MEMBER);

    let all = read(&mark, json!([])).await;

    let stream = all
        .iter()
        .find(|m| m["id"] == c.eng_beta)
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(stream["type"], "stream", "{stream:#}");
    assert_eq!(stream["sender_id"], WEBHOOK_BOT.id, "{stream:#}");
    assert_eq!(stream["sender_email"], WEBHOOK_BOT.email, "{stream:#}");
    assert_eq!(
        stream["sender_full_name"], WEBHOOK_BOT.full_name,
        "{stream:#}"
    );
    assert_eq!(stream["stream_id"], ENGINEERING.id, "{stream:#}");
    assert_eq!(stream["display_recipient"], "Engineering", "{stream:#}");
    assert_eq!(stream["subject"], "beta", "{stream:#}");
    assert_eq!(stream["content_type"], "text/x-markdown", "{stream:#}");
    assert!(
        stream["content"]
            .as_str()
            .is_some_and(|s| s.contains(":smile:")),
        "{stream:#}"
    );
    assert!(
        stream["timestamp"]
            .as_u64()
            .is_some_and(|t| t > 1_600_000_000),
        "{stream:#}"
    );
    assert_eq!(stream["client"], "ZulipHelloWorldWebhook", "{stream:#}");

    let dm = all
        .iter()
        .find(|m| m["id"] == c.bot_to_mark)
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(dm["type"], "private", "{dm:#}");
    assert_eq!(dm["sender_id"], WEBHOOK_BOT.id, "{dm:#}");
    let people = dm["display_recipient"]
        .as_array()
        .unwrap_or_else(|| panic!("{dm:#}"));
    let mut seen: Vec<(u64, &str, &str)> = people
        .iter()
        .map(|p| {
            (
                p["id"].as_u64().unwrap(),
                p["email"].as_str().unwrap(),
                p["full_name"].as_str().unwrap(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![
            (MEMBER.id, MEMBER.email, MEMBER.full_name),
            (WEBHOOK_BOT.id, WEBHOOK_BOT.email, WEBHOOK_BOT.full_name)
        ],
        "{dm:#}"
    );
}

#[tokio::test]
async fn apply_markdown_chooses_html_or_the_markdown_source() {
    let server = TestServer::standard();
    let c = populate(&server).await;
    let owner = server.as_user(&OWNER);
    let one = |markdown: Option<bool>| {
        let mut params = vec![
            ("anchor", json!(c.eng_beta)),
            ("num_before", json!(0)),
            ("num_after", json!(0)),
        ];
        if let Some(m) = markdown {
            params.push(("apply_markdown", json!(m)));
        }
        params
    };

    for (markdown, content_type, starts) in [
        (None, "text/html", "<p>"),
        (Some(true), "text/html", "<p>"),
        (Some(false), "text/x-markdown", "Hello! I am happy"),
    ] {
        let r = fetch(&owner, &one(markdown)).await;
        let m = &messages_of(&r)[0];
        assert_eq!(m["content_type"], content_type, "{}", r.debug());
        assert!(
            m["content"].as_str().unwrap().starts_with(starts),
            "{}",
            r.debug()
        );
    }
}

// ---------------------------------------------------------------------- anchors

/// Five messages in Engineering (m0..m4) and their ids.
async fn five(server: &TestServer) -> Vec<u64> {
    for i in 0..5 {
        post(
            server,
            WEBHOOK_BOT.key,
            Some("Engineering"),
            Some(&format!("m{i}")),
        )
        .await;
    }
    let all = read(&server.as_user(&OWNER), channel("Engineering")).await;
    assert_eq!(topics_of(&all), ["m0", "m1", "m2", "m3", "m4"], "{all:#?}");
    ids_of(&all)
}

async fn window(server: &TestServer, anchor: Value, before: u32, after: u32) -> Resp {
    fetch(
        &server.as_user(&OWNER),
        &[
            ("anchor", anchor),
            ("num_before", json!(before)),
            ("num_after", json!(after)),
            ("narrow", channel("Engineering")),
        ],
    )
    .await
}

#[tokio::test]
async fn anchor_oldest_reads_forward_from_the_start() {
    let server = TestServer::standard();
    let ids = five(&server).await;

    let r = window(&server, json!("oldest"), 0, 2).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[..2], "{}", r.debug());
    assert_eq!(r.json["found_oldest"], true, "{}", r.debug());
    assert_eq!(r.json["found_newest"], false, "{}", r.debug());

    let r = window(&server, json!("oldest"), 0, 10).await;
    assert_eq!(ids_of(&messages_of(&r)), ids, "{}", r.debug());
    assert_eq!(r.json["found_oldest"], true, "{}", r.debug());
    assert_eq!(r.json["found_newest"], true, "{}", r.debug());
}

#[tokio::test]
async fn anchor_newest_reads_backward_from_the_end() {
    let server = TestServer::standard();
    let ids = five(&server).await;

    let r = window(&server, json!("newest"), 2, 0).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[3..], "{}", r.debug());
    assert_eq!(r.json["found_newest"], true, "{}", r.debug());
    assert_eq!(r.json["found_oldest"], false, "{}", r.debug());

    let r = window(&server, json!("newest"), 10, 0).await;
    assert_eq!(ids_of(&messages_of(&r)), ids, "{}", r.debug());
    assert_eq!(r.json["found_newest"], true, "{}", r.debug());
    assert_eq!(r.json["found_oldest"], true, "{}", r.debug());
}

#[tokio::test]
async fn a_message_id_anchor_reads_around_it_and_includes_it() {
    let server = TestServer::standard();
    let ids = five(&server).await;

    let r = window(&server, json!(ids[2]), 1, 1).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[1..4], "{}", r.debug());
    assert_eq!(r.json["found_anchor"], true, "{}", r.debug());
    assert_eq!(r.json["anchor"], ids[2], "{}", r.debug());
    assert_eq!(r.json["found_oldest"], false, "{}", r.debug());
    assert_eq!(r.json["found_newest"], false, "{}", r.debug());

    let r = window(&server, json!(ids[2]), 0, 0).await;
    assert_eq!(ids_of(&messages_of(&r)), [ids[2]], "{}", r.debug());
    assert_eq!(r.json["found_anchor"], true, "{}", r.debug());

    // The id may also be sent as a string, as the query string always carries it.
    let r = window(&server, json!(ids[2].to_string()), 2, 0).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[..3], "{}", r.debug());

    let r = window(&server, json!(ids[0]), 0, 2).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[..3], "{}", r.debug());
    assert_eq!(r.json["found_oldest"], true, "{}", r.debug());

    let r = window(&server, json!(ids[4]), 1, 3).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[3..], "{}", r.debug());
    assert_eq!(r.json["found_newest"], true, "{}", r.debug());
}

#[tokio::test]
async fn an_anchor_that_matches_no_message_is_not_found_but_still_places_the_window() {
    let server = TestServer::standard();
    let ids = five(&server).await;

    let beyond = ids[4] + 1000;
    let r = window(&server, json!(beyond), 2, 2).await;
    assert_eq!(ids_of(&messages_of(&r)), ids[3..], "{}", r.debug());
    assert_eq!(r.json["found_anchor"], false, "{}", r.debug());
    assert_eq!(r.json["found_newest"], true, "{}", r.debug());

    // Anchor on a message outside the narrow: not found in it.
    post(&server, WEBHOOK_BOT.key, Some("Verona"), Some("elsewhere")).await;
    let verona = read(&server.as_user(&OWNER), channel("Verona")).await;
    let outside = verona[0]["id"].as_u64().unwrap();
    let r = window(&server, json!(outside), 1, 1).await;
    assert_eq!(r.json["found_anchor"], false, "{}", r.debug());
    assert_eq!(ids_of(&messages_of(&r)), [ids[4]], "{}", r.debug());
}

#[tokio::test]
async fn an_empty_narrow_has_found_both_ends() {
    let server = TestServer::standard();

    let r = window(&server, json!("newest"), 10, 10).await;

    assert!(messages_of(&r).is_empty(), "{}", r.debug());
    assert_eq!(r.json["found_newest"], true, "{}", r.debug());
    assert_eq!(r.json["found_oldest"], true, "{}", r.debug());
    assert_eq!(r.json["found_anchor"], false, "{}", r.debug());
}

// ---------------------------------------------------------------------- narrows

#[tokio::test]
async fn a_channel_narrow_by_name_returns_that_streams_messages_in_order() {
    let server = TestServer::standard();
    let c = populate(&server).await;
    let mark = server.as_user(&MEMBER);
    let expected = vec![c.eng_alpha[0], c.eng_alpha[1], c.eng_beta];

    for narrow in [
        channel("Engineering"),
        json!([{"operator": "stream", "operand": "Engineering"}]),
        channel("engineering"),
        json!([["channel", "Engineering"]]),
    ] {
        let got = read(&mark, narrow.clone()).await;
        assert_eq!(ids_of(&got), expected, "narrow {narrow}: {got:#?}");
        assert!(
            got.iter().all(|m| m["display_recipient"] == "Engineering"),
            "{got:#?}"
        );
    }
}

#[tokio::test]
async fn a_topic_narrow_selects_within_the_channel() {
    let server = TestServer::standard();
    let c = populate(&server).await;
    let mark = server.as_user(&MEMBER);

    let alpha = read(
        &mark,
        json!([{"operator": "channel", "operand": "Engineering"},
               {"operator": "topic", "operand": "alpha"}]),
    )
    .await;
    assert_eq!(ids_of(&alpha), c.eng_alpha, "{alpha:#?}");

    let beta = read(
        &mark,
        json!([{"operator": "stream", "operand": "Engineering"},
               {"operator": "topic", "operand": "beta"}]),
    )
    .await;
    assert_eq!(ids_of(&beta), [c.eng_beta], "{beta:#?}");

    let none = read(
        &mark,
        json!([{"operator": "channel", "operand": "Engineering"},
               {"operator": "topic", "operand": "gamma"}]),
    )
    .await;
    assert!(none.is_empty(), "{none:#?}");
}

#[tokio::test]
async fn topic_narrows_ignore_case_as_zulips_do() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    let got = read(
        &server.as_user(&MEMBER),
        json!([{"operator": "channel", "operand": "Engineering"},
               {"operator": "topic", "operand": "ALPHA"}]),
    )
    .await;

    assert_eq!(ids_of(&got), c.eng_alpha, "{got:#?}");
}

#[tokio::test]
async fn a_dm_narrow_with_a_user_id_list_selects_that_conversation() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    let mark = server.as_user(&MEMBER);
    let with_bot = read(
        &mark,
        json!([{"operator": "dm", "operand": [WEBHOOK_BOT.id]}]),
    )
    .await;
    assert_eq!(ids_of(&with_bot), [c.bot_to_mark], "{with_bot:#?}");

    // Naming yourself too is the same conversation.
    let both = read(
        &mark,
        json!([{"operator": "dm", "operand": [MEMBER.id, WEBHOOK_BOT.id]}]),
    )
    .await;
    assert_eq!(ids_of(&both), [c.bot_to_mark], "{both:#?}");

    // A conversation with yourself.
    let nina = server.as_user(&MEMBER2);
    let self_dm = read(&nina, json!([{"operator": "dm", "operand": [MEMBER2.id]}])).await;
    assert_eq!(ids_of(&self_dm), [c.nina_to_self], "{self_dm:#?}");

    // Someone with whom the caller has no conversation.
    let none = read(
        &nina,
        json!([{"operator": "dm", "operand": [WEBHOOK_BOT.id]}]),
    )
    .await;
    assert!(none.is_empty(), "{none:#?}");
}

#[tokio::test]
async fn is_dm_selects_every_direct_message_of_the_caller() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    let mark = read(
        &server.as_user(&MEMBER),
        json!([{"operator": "is", "operand": "dm"}]),
    )
    .await;
    assert_eq!(
        ids_of(&mark),
        [c.bot_to_mark, c.notice_to_mark],
        "{mark:#?}"
    );
    assert!(mark.iter().all(|m| m["type"] == "private"), "{mark:#?}");
    assert_eq!(mark[1]["sender_email"], NOTIFICATION_BOT_EMAIL, "{mark:#?}");

    let nina = read(
        &server.as_user(&MEMBER2),
        json!([{"operator": "is", "operand": "dm"}]),
    )
    .await;
    assert_eq!(ids_of(&nina), [c.nina_to_self], "{nina:#?}");

    let olivia = read(
        &server.as_user(&OWNER),
        json!([{"operator": "is", "operand": "dm"}]),
    )
    .await;
    assert!(olivia.is_empty(), "{olivia:#?}");
}

#[tokio::test]
async fn a_channel_that_does_not_exist_is_an_unknown_channel() {
    let server = TestServer::standard();
    populate(&server).await;
    let mark = server.as_user(&MEMBER);

    for narrow in [
        channel("Nowhere"),
        json!([{"operator": "stream", "operand": "Nowhere"}]),
        json!([{"operator": "channel", "operand": "Nowhere"},
               {"operator": "topic", "operand": "alpha"}]),
    ] {
        let r = fetch(
            &mark,
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(10)),
                ("num_after", json!(0)),
                ("narrow", narrow),
            ],
        )
        .await;
        r.bad_request(UNKNOWN_CHANNEL);
    }
}

#[tokio::test]
async fn a_private_channel_the_caller_cannot_see_is_an_unknown_channel() {
    let server = TestServer::standard();
    let c = populate(&server).await;
    let params = |name: &str| {
        vec![
            ("anchor", json!("newest")),
            ("num_before", json!(10)),
            ("num_after", json!(0)),
            ("narrow", channel(name)),
        ]
    };

    // Mark is not in Hidden Lair; Mona (moderator) is in neither private stream.
    for (who, hidden) in [
        (MEMBER, "Hidden Lair"),
        (MEMBER2, "Secret Plans"),
        (MODERATOR, "Hidden Lair"),
    ] {
        let api = server.as_user(&who);
        let r_hidden = fetch(&api, &params(hidden)).await;
        r_hidden.bad_request(UNKNOWN_CHANNEL);
        let r_missing = fetch(&api, &params("Nowhere At All")).await;
        assert_indistinguishable(&r_hidden, hidden, &r_missing, "Nowhere At All");
    }

    // Subscribers read them.
    let lair = read(&server.as_user(&MEMBER2), channel("Hidden Lair")).await;
    assert_eq!(ids_of(&lair), [c.lair], "{lair:#?}");
    let plans = read(&server.as_user(&MEMBER), channel("Secret Plans")).await;
    assert_eq!(ids_of(&plans), [c.secret], "{plans:#?}");
}

// ---------------------------------------------------------------------- visibility

#[tokio::test]
async fn a_member_does_not_see_direct_messages_between_others() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    for who in [MEMBER2, MODERATOR, OWNER, ADMIN, GUEST] {
        let api = server.as_user(&who);
        let all: BTreeSet<u64> = ids_of(&read(&api, json!([])).await).into_iter().collect();
        for other in [c.bot_to_mark, c.notice_to_mark] {
            assert!(
                !all.contains(&other),
                "{} reads Mark's DM {other}: {all:?}",
                who.email
            );
        }
        if who != MEMBER2 {
            assert!(
                !all.contains(&c.nina_to_self),
                "{} reads Nina's DM: {all:?}",
                who.email
            );
        }
        let dms = read(&api, json!([{"operator": "is", "operand": "dm"}])).await;
        let dm_ids: BTreeSet<u64> = ids_of(&dms).into_iter().collect();
        assert!(!dm_ids.contains(&c.bot_to_mark), "{}: {dms:#?}", who.email);
        // Naming the conversation does not open it either.
        let narrowed = read(&api, json!([{"operator": "dm", "operand": [MEMBER.id]}])).await;
        assert!(
            !ids_of(&narrowed)
                .iter()
                .any(|id| [c.bot_to_mark, c.notice_to_mark].contains(id)),
            "{}: {narrowed:#?}",
            who.email
        );
    }
    let mark: BTreeSet<u64> = ids_of(&read(&server.as_user(&MEMBER), json!([])).await)
        .into_iter()
        .collect();
    assert!(
        mark.contains(&c.bot_to_mark) && mark.contains(&c.notice_to_mark),
        "{mark:?}"
    );
    assert!(!mark.contains(&c.nina_to_self), "{mark:?}");
}

#[tokio::test]
async fn nobody_reads_a_private_stream_they_are_not_in() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    for (who, hidden) in [
        (MEMBER, c.lair),
        (MEMBER2, c.secret),
        (MODERATOR, c.lair),
        (MODERATOR, c.secret),
        (GUEST, c.secret),
    ] {
        let all = ids_of(&read(&server.as_user(&who), json!([])).await);
        assert!(
            !all.contains(&hidden),
            "{} reads private message {hidden}: {all:?}",
            who.email
        );
    }
}

#[tokio::test]
async fn a_guest_does_not_see_public_streams_they_are_not_in() {
    let server = TestServer::standard();
    let c = populate(&server).await;
    let gus = server.as_user(&GUEST);

    // Gus is in Design, Verona and Hidden Lair only.
    let all: BTreeSet<u64> = ids_of(&read(&gus, json!([])).await).into_iter().collect();
    for id in [c.design, c.verona, c.lair] {
        assert!(
            all.contains(&id),
            "guest misses {id} from a stream he is in: {all:?}"
        );
    }
    for id in c
        .eng_alpha
        .iter()
        .chain([&c.eng_beta, &c.secret, &c.bot_to_mark, &c.notice_to_mark])
    {
        assert!(!all.contains(id), "guest reads {id}: {all:?}");
    }

    // Narrowing to Engineering does not open it: an error or nothing, never its messages.
    let r = fetch(
        &gus,
        &[
            ("anchor", json!("oldest")),
            ("num_before", json!(0)),
            ("num_after", json!(100)),
            ("narrow", channel("Engineering")),
        ],
    )
    .await;
    if r.status == 200 {
        assert!(
            messages_of(&r).is_empty(),
            "guest reads Engineering\n{}",
            r.debug()
        );
    } else {
        r.bad_request(UNKNOWN_CHANNEL);
    }
    // Anchoring on one of its messages does not open it either.
    let r = fetch(
        &gus,
        &[
            ("anchor", json!(c.eng_beta)),
            ("num_before", json!(0)),
            ("num_after", json!(0)),
        ],
    )
    .await;
    assert!(
        messages_of(&r).is_empty(),
        "guest reads by anchor\n{}",
        r.debug()
    );
}

#[tokio::test]
async fn members_read_the_history_of_public_streams_they_are_not_in() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    // Mark is not subscribed to Design, which is public.
    let design = read(&server.as_user(&MEMBER), channel("Design")).await;

    assert_eq!(ids_of(&design), [c.design], "{design:#?}");
}

#[tokio::test]
async fn subscribers_read_their_streams() {
    let server = TestServer::standard();
    let c = populate(&server).await;

    let nina: BTreeSet<u64> = ids_of(&read(&server.as_user(&MEMBER2), json!([])).await)
        .into_iter()
        .collect();
    for id in [
        c.eng_alpha[0],
        c.eng_alpha[1],
        c.eng_beta,
        c.design,
        c.verona,
        c.lair,
    ] {
        assert!(nina.contains(&id), "Nina misses {id}: {nina:?}");
    }
    assert!(nina.contains(&c.nina_to_self), "{nina:?}");
}

#[tokio::test]
async fn messages_need_a_rest_login() {
    let server = TestServer::standard();
    let params = [
        ("anchor", json!("newest")),
        ("num_before", json!(1)),
        ("num_after", json!(0)),
    ];

    fetch(&server.anon(), &params)
        .await
        .unauthorized("Not logged in: API authentication or user session required");
    fetch(&server.as_user(&WEBHOOK_BOT), &params)
        .await
        .unauthorized("This API is not available to incoming webhook bots.");
    fetch(&server.as_user(&DEACTIVATED), &params).await.err(
        401,
        "USER_DEACTIVATED",
        "Account is deactivated",
    );
}

#[tokio::test]
async fn a_narrow_that_is_not_json_is_rejected() {
    let server = TestServer::standard();

    let r = server
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                ("narrow", json!("[{not json")),
            ],
        )
        .await;

    r.bad_request("narrow is not valid JSON");
}
