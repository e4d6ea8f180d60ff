//! `POST /api/v1/messages` (send a stream or direct message) and the `GET /messages`
//! narrows and parameters that need such messages: `sender`, `id`, `search`, `is:`,
//! negation, `message_ids`, and the message objects Zulip 10 documents.

use serde_json::Value;
use weir_tests::*;

async fn send_stream(api: &Api, to: Value, topic: &str, content: &str) -> Resp {
    api.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", to),
            ("topic", json!(topic)),
            ("content", json!(content)),
        ],
    )
    .await
}

async fn send_direct(api: &Api, to: Value, content: &str) -> Resp {
    api.post(
        "/messages",
        &[
            ("type", json!("direct")),
            ("to", to),
            ("content", json!(content)),
        ],
    )
    .await
}

fn id_of(r: &Resp) -> u64 {
    r.ok()["id"]
        .as_u64()
        .unwrap_or_else(|| panic!("no id\n{}", r.debug()))
}

/// The messages `api` reads through `narrow`, oldest first.
async fn narrowed(api: &Api, narrow: Value) -> Vec<Value> {
    let r = api
        .get(
            "/messages",
            &[
                ("anchor", json!("oldest")),
                ("num_before", json!(0)),
                ("num_after", json!(100)),
                ("narrow", narrow),
                ("apply_markdown", json!(false)),
            ],
        )
        .await;
    r.ok()["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("unexpected JSON shape"))
        .clone()
}

fn ids(messages: &[Value]) -> Vec<u64> {
    messages
        .iter()
        .map(|m| {
            m["id"]
                .as_u64()
                .unwrap_or_else(|| panic!("unexpected JSON shape"))
        })
        .collect()
}

#[tokio::test]
async fn a_stream_message_is_stored_rendered_and_read_back_with_zulips_fields() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let r = send_stream(&mark, json!("Verona"), "castle", "**Hi** @**Nina Member**").await;
    let id = id_of(&r);

    let got = narrowed(
        &server.as_user(&MEMBER2),
        json!([{"operator": "id", "operand": id}]),
    )
    .await;
    let [m] = got.as_slice() else {
        panic!("{got:?}")
    };
    assert_eq!(m["type"], "stream");
    assert_eq!(m["display_recipient"], "Verona");
    assert_eq!(m["stream_id"], VERONA.id);
    assert_eq!(m["subject"], "castle");
    assert_eq!(m["content"], "**Hi** @**Nina Member**");
    assert_eq!(m["sender_id"], MEMBER.id);
    assert_eq!(m["sender_realm_str"], "globex");
    assert_eq!(m["flags"], json!(["read", "mentioned"]), "{m}");
    assert_eq!(m["reactions"], json!([]));
    assert_eq!(m["submessages"], json!([]));
    assert_eq!(m["topic_links"], json!([]));
    assert_eq!(m["is_me_message"], false);
    assert_eq!(
        m["avatar_url"],
        Value::Null,
        "client_gravatar is the default"
    );
    assert!(m["recipient_id"].is_u64(), "{m}");
}

#[tokio::test]
async fn streams_are_named_by_id_or_name_and_topics_links_are_listed() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let by_id = id_of(&send_stream(&mark, json!(VERONA.id), "see https://x.test/a", "a").await);
    let by_list = id_of(&send_stream(&mark, json!(["verona"]), "t", "b").await);
    let got = narrowed(&mark, json!([{"operator": "channel", "operand": "Verona"}])).await;
    assert_eq!(ids(&got), [by_id, by_list]);
    assert_eq!(
        got[0]["topic_links"],
        json!([{"text": "https://x.test/a", "url": "https://x.test/a"}])
    );
}

#[tokio::test]
async fn a_direct_message_reaches_the_other_person_only() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let by_id = id_of(&send_direct(&mark, json!([MEMBER2.id]), "/me waves").await);
    let by_email = id_of(&send_direct(&mark, json!(MEMBER2.email), "again").await);
    let nina = narrowed(&server.as_user(&MEMBER2), json!([["dm", MEMBER.email]])).await;
    assert_eq!(ids(&nina), [by_id, by_email]);
    assert_eq!(nina[0]["is_me_message"], true);
    assert_eq!(nina[0]["type"], "private");
    let olivia = narrowed(&server.as_user(&OWNER), json!([["is", "dm"]])).await;
    assert!(olivia.iter().all(|m| m["id"] != by_id), "{olivia:?}");
}

#[tokio::test]
async fn sending_is_refused_as_zulip_refuses_it() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    send_stream(&mark, json!("Nowhere"), "t", "x")
        .await
        .stream_does_not_exist("Nowhere");
    // A private stream Mark cannot see is reported as missing, like any hidden stream.
    send_stream(&mark, json!("Hidden Lair"), "t", "x")
        .await
        .stream_does_not_exist("Hidden Lair");
    // An administrator sees it, but may only post where subscribed.
    send_stream(&server.as_user(&ADMIN), json!("Hidden Lair"), "t", "x")
        .await
        .bad_request("Not authorized to send to channel 'Hidden Lair'");
    let r = send_stream(&mark, json!(9999), "t", "x").await;
    r.err(
        400,
        "STREAM_DOES_NOT_EXIST",
        "Channel with ID '9999' does not exist",
    );
    assert_eq!(r.json["stream_id"], 9999);
    send_stream(&mark, json!("Verona"), "t", "  ")
        .await
        .bad_request("Message must not be empty");
    mark.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", json!("Verona")),
            ("content", json!("x")),
        ],
    )
    .await
    .bad_request("Missing topic");
    send_direct(&mark, json!(["nobody@globex.test"]), "x")
        .await
        .bad_request("Invalid email 'nobody@globex.test'");
    send_direct(&mark, json!([9999]), "x")
        .await
        .bad_request("Invalid user ID 9999");
    send_direct(&mark, json!([DEACTIVATED.id]), "x")
        .await
        .bad_request(&format!(
            "'{}' is no longer using Zulip.",
            DEACTIVATED.email
        ));
    mark.post(
        "/messages",
        &[
            ("type", json!("smoke")),
            ("to", json!("x")),
            ("content", json!("x")),
        ],
    )
    .await
    .bad_request("Invalid type");
}

#[tokio::test]
async fn sender_search_and_is_narrows_select_and_negate() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let nina = server.as_user(&MEMBER2);
    let a = id_of(&send_stream(&mark, json!("Verona"), "Plans", "the CASTLE gate").await);
    let b = id_of(&send_stream(&nina, json!("Verona"), "✔ done", "@**Mark Member** look").await);
    let c = id_of(&send_stream(&nina, json!("Verona"), "other", "castle walls").await);
    let verona = json!({"operator": "channel", "operand": "Verona"});

    let by_nina = narrowed(
        &mark,
        json!([verona, {"operator": "sender", "operand": MEMBER2.email}]),
    )
    .await;
    assert_eq!(ids(&by_nina), [b, c]);
    let by_id = narrowed(
        &mark,
        json!([verona, {"operator": "sender", "operand": MEMBER2.id}]),
    )
    .await;
    assert_eq!(ids(&by_id), [b, c]);
    let not_nina = narrowed(
        &mark,
        json!([verona, {"operator": "sender", "operand": MEMBER2.id, "negated": true}]),
    )
    .await;
    assert_eq!(ids(&not_nina), [a]);
    let castle = narrowed(&mark, json!([{"operator": "search", "operand": "castle"}])).await;
    assert_eq!(ids(&castle), [a, c]);
    let two_words = narrowed(&mark, json!([["search", "castle gate"]])).await;
    assert_eq!(ids(&two_words), [a]);
    let mentioned = narrowed(&mark, json!([["is", "mentioned"]])).await;
    assert_eq!(ids(&mentioned), [b]);
    let resolved = narrowed(&mark, json!([verona, ["is", "resolved"]])).await;
    assert_eq!(ids(&resolved), [b]);
    // Weir keeps no stars or unread state: nothing is starred, everything is read.
    assert!(narrowed(&mark, json!([["is", "starred"]])).await.is_empty());
    assert!(narrowed(&mark, json!([["is", "unread"]])).await.is_empty());
    let r = mark
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                ("narrow", json!([["is", "bogus"]])),
            ],
        )
        .await;
    r.bad_request("Invalid narrow operator: unknown 'is' operand bogus");
}

#[tokio::test]
async fn message_ids_fetch_exactly_the_visible_ones_and_exclude_the_anchor_parameters() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let public = id_of(&send_stream(&mark, json!("Verona"), "t", "x").await);
    let secret = id_of(&send_stream(&mark, json!("Secret Plans"), "t", "y").await);

    let r = server
        .as_user(&MEMBER2)
        .get(
            "/messages",
            &[("message_ids", json!([secret, public, 99999]))],
        )
        .await;
    let body = r.ok();
    assert_eq!(
        ids(body["messages"]
            .as_array()
            .unwrap_or_else(|| panic!("unexpected JSON shape"))),
        [public]
    );
    assert!(body.get("anchor").is_none(), "{}", r.debug());

    let r = mark
        .get(
            "/messages",
            &[
                ("message_ids", json!([public])),
                ("anchor", json!("newest")),
            ],
        )
        .await;
    r.bad_request("Unsupported parameter combination: anchor, message_ids");
    assert_eq!(r.json["parameters"], "anchor, message_ids");
}

#[tokio::test]
async fn include_anchor_false_leaves_the_anchor_out() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let first = id_of(&send_stream(&mark, json!("Café"), "t", "1").await);
    let second = id_of(&send_stream(&mark, json!("Café"), "t", "2").await);
    let r = mark
        .get(
            "/messages",
            &[
                ("anchor", json!(first)),
                ("num_before", json!(0)),
                ("num_after", json!(5)),
                ("include_anchor", json!(false)),
                ("narrow", json!([["channel", "Café"]])),
            ],
        )
        .await;
    assert_eq!(
        ids(r.ok()["messages"]
            .as_array()
            .unwrap_or_else(|| panic!("unexpected JSON shape"))),
        [second]
    );
    assert_eq!(r.json["found_anchor"], false);
}

#[tokio::test]
async fn documented_booleans_refuse_null() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let r = mark
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                ("client_gravatar", json!(null)),
            ],
        )
        .await;
    r.bad_request("client_gravatar is not a boolean");
    mark.post("/register", &[("client_gravatar", json!(null))])
        .await
        .bad_request("client_gravatar is not a boolean");
    mark.get("/users", &[("include_custom_profile_fields", json!(null))])
        .await
        .bad_request("include_custom_profile_fields is not a boolean");
}
