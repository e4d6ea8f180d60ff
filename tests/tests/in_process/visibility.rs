//! Private streams are never revealed to those who may not see them (`docs/zulip-compatibility.md`:
//! "Hidden private streams" and the visibility rules under Users and streams).
//!
//! In the standard seed, Hidden Lair (22) is private with subscribers 105, 106, 202, 203
//! and no administrator; Secret Plans (21) is private with 101, 104, 202. So 104 (Mark)
//! sees Secret Plans but not Hidden Lair, 103 (moderator) sees neither, 106 (guest) sees
//! only the streams they are in.

use std::collections::BTreeSet;

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

fn names(list: &Value) -> BTreeSet<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("expected a list of streams: {list}"))
        .iter()
        .map(|s| {
            s["name"]
                .as_str()
                .unwrap_or_else(|| panic!("no name: {s}"))
                .to_string()
        })
        .collect()
}

fn name_set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const PUBLIC: [&str; 5] = ["Café", "Design", "Empty Room", "Engineering", "Verona"];

fn with_public(extra: &[&str]) -> BTreeSet<String> {
    let mut s = name_set(&PUBLIC);
    s.extend(extra.iter().map(|x| x.to_string()));
    s
}

// ------------------------------------------------------------------ GET /streams

#[tokio::test]
async fn a_member_lists_public_streams_and_the_private_ones_they_are_in() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/streams", &[]).await;

    assert_eq!(
        names(&r.ok()["streams"]),
        with_public(&["Secret Plans"]),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn a_moderator_lists_no_private_stream_they_are_not_in() {
    let server = TestServer::standard();

    let r = server.as_user(&MODERATOR).get("/streams", &[]).await;

    assert_eq!(names(&r.ok()["streams"]), with_public(&[]), "{}", r.debug());
}

#[tokio::test]
async fn a_guest_lists_only_the_streams_they_are_in() {
    let server = TestServer::standard();

    let r = server.as_user(&GUEST).get("/streams", &[]).await;

    assert_eq!(
        names(&r.ok()["streams"]),
        name_set(&["Design", "Hidden Lair", "Verona"]),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn include_all_never_shows_a_non_admin_an_unjoined_private_stream() {
    let server = TestServer::standard();

    for who in [MEMBER, MODERATOR, GUEST] {
        let r = server
            .as_user(&who)
            .get("/streams", &[("include_all", json!(true))])
            .await;
        r.not_5xx();
        if r.status == 200 {
            let seen = names(&r.ok()["streams"]);
            let hidden = if who == MEMBER {
                "Hidden Lair"
            } else {
                "Secret Plans"
            };
            assert!(
                !seen.contains(hidden),
                "{} saw {hidden}\n{}",
                who.email,
                r.debug()
            );
        } else {
            r.any_zulip_error();
        }
    }
}

#[tokio::test]
async fn an_administrator_with_include_all_lists_every_stream() {
    let server = TestServer::standard();

    for who in [OWNER, ADMIN] {
        let r = server
            .as_user(&who)
            .get("/streams", &[("include_all", json!(true))])
            .await;
        assert_eq!(
            names(&r.ok()["streams"]),
            with_public(&["Secret Plans", "Hidden Lair"]),
            "{}",
            r.debug()
        );
    }
}

// ------------------------------------------------------------- stream members

#[tokio::test]
async fn members_of_an_invisible_private_stream_are_answered_like_an_unknown_id() {
    let server = TestServer::standard();

    for who in [MEMBER, MODERATOR] {
        let api = server.as_user(&who);
        let hidden = api.get("/streams/22/members", &[]).await;
        let missing = api.get("/streams/99999/members", &[]).await;

        hidden.bad_request("Invalid channel ID");
        missing.bad_request("Invalid channel ID");
        assert_indistinguishable(&hidden, "22", &missing, "99999");
    }
}

#[tokio::test]
async fn a_guest_cannot_read_members_of_a_public_stream_they_are_not_in() {
    let server = TestServer::standard();

    let r = server.as_user(&GUEST).get("/streams/11/members", &[]).await;

    r.bad_request("Invalid channel ID");
}

#[tokio::test]
async fn subscribers_and_administrators_read_members_of_a_private_stream() {
    let server = TestServer::standard();

    for who in [MEMBER2, GUEST, OWNER, ADMIN] {
        let r = server.as_user(&who).get("/streams/22/members", &[]).await;
        assert_eq!(
            ids(&r.ok()["subscribers"]),
            set(&[105, 106, 202, 203]),
            "{}",
            r.debug()
        );
    }
}

// ---------------------------------------------------------------- get_stream_id

#[tokio::test]
async fn get_stream_id_answers_an_invisible_private_stream_like_a_missing_one() {
    let server = TestServer::standard();

    for who in [MEMBER, MODERATOR] {
        let api = server.as_user(&who);
        let hidden = api
            .get("/get_stream_id", &[("stream", json!("Hidden Lair"))])
            .await;
        let missing = api
            .get("/get_stream_id", &[("stream", json!("Hidden Lain"))])
            .await;

        missing.any_zulip_error();
        assert_indistinguishable(&hidden, "Hidden Lair", &missing, "Hidden Lain");
        let hidden = api
            .get("/get_stream_id", &[("stream", json!("hidden lair"))])
            .await;
        let missing = api
            .get("/get_stream_id", &[("stream", json!("hidden lain"))])
            .await;
        assert_indistinguishable(&hidden, "hidden lair", &missing, "hidden lain");
    }
}

#[tokio::test]
async fn get_stream_id_finds_a_private_stream_for_subscribers_and_administrators() {
    let server = TestServer::standard();

    for who in [MEMBER2, OWNER, ADMIN] {
        let r = server
            .as_user(&who)
            .get("/get_stream_id", &[("stream", json!("Hidden Lair"))])
            .await;
        assert_eq!(r.ok()["stream_id"], 22, "{}", r.debug());
    }
}

#[tokio::test]
async fn get_stream_id_does_not_show_a_guest_a_public_stream_they_are_not_in() {
    let server = TestServer::standard();
    let gus = server.as_user(&GUEST);

    let public = gus
        .get("/get_stream_id", &[("stream", json!("Engineering"))])
        .await;
    let missing = gus
        .get("/get_stream_id", &[("stream", json!("Engineerinx"))])
        .await;

    missing.any_zulip_error();
    assert_indistinguishable(&public, "Engineering", &missing, "Engineerinx");
}

// ------------------------------------------------------------------ unsubscribe

#[tokio::test]
async fn unsubscribing_from_an_invisible_private_stream_looks_like_a_missing_stream() {
    let server = TestServer::standard();
    let cases: [(Account, &str, &str); 3] = [
        (MEMBER, "Hidden Lair", "Hidden Lain"),
        (MEMBER, "HIDDEN LAIR", "HIDDEN LAIN"),
        (MODERATOR, "Secret Plans", "Secret Plant"),
    ];

    for (who, hidden_name, missing_name) in cases {
        let api = server.as_user(&who);
        let hidden = api
            .delete(SUBS, &[("subscriptions", json!([hidden_name]))])
            .await;
        let missing = api
            .delete(SUBS, &[("subscriptions", json!([missing_name]))])
            .await;

        hidden.stream_does_not_exist(hidden_name);
        assert_indistinguishable(&hidden, hidden_name, &missing, missing_name);
    }
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn removing_others_from_an_invisible_private_stream_looks_like_a_missing_stream() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for principals in [
        json!([MEMBER2.id]),
        json!([GENERIC_BOT.id]),
        json!(["gus@globex.test"]),
    ] {
        let hidden = mark
            .delete(
                SUBS,
                &[
                    ("subscriptions", json!(["Hidden Lair"])),
                    ("principals", principals.clone()),
                ],
            )
            .await;
        let missing = mark
            .delete(
                SUBS,
                &[
                    ("subscriptions", json!(["Hidden Lain"])),
                    ("principals", principals.clone()),
                ],
            )
            .await;

        hidden.stream_does_not_exist("Hidden Lair");
        assert_indistinguishable(&hidden, "Hidden Lair", &missing, "Hidden Lain");
    }
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn an_invisible_private_stream_after_a_visible_one_is_named_as_missing() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let hidden = mark
        .delete(
            SUBS,
            &[("subscriptions", json!(["Engineering", "Hidden Lair"]))],
        )
        .await;
    let missing = mark
        .delete(
            SUBS,
            &[("subscriptions", json!(["Engineering", "Hidden Lain"]))],
        )
        .await;

    hidden.stream_does_not_exist("Hidden Lair");
    assert_indistinguishable(&hidden, "Hidden Lair", &missing, "Hidden Lain");
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn a_guest_leaving_a_private_stream_they_are_not_in_gets_the_missing_stream_answer() {
    let server = TestServer::standard();
    let gus = server.as_user(&GUEST);

    let hidden = gus
        .delete(SUBS, &[("subscriptions", json!(["Secret Plans"]))])
        .await;
    let missing = gus
        .delete(SUBS, &[("subscriptions", json!(["Secret Plant"]))])
        .await;

    hidden.stream_does_not_exist("Secret Plans");
    assert_indistinguishable(&hidden, "Secret Plans", &missing, "Secret Plant");
}

// -------------------------------------------------------------------- subscribe

#[tokio::test]
async fn subscribing_to_an_inaccessible_private_stream_is_refused_and_changes_nothing() {
    let server = TestServer::standard();

    for who in [MEMBER, MODERATOR] {
        let api = server.as_user(&who);
        let r = api
            .post(SUBS, &[("subscriptions", json!([{"name": "Hidden Lair"}]))])
            .await;
        r.bad_request("Unable to access channel (Hidden Lair).");
        let r = api
            .post(
                SUBS,
                &[
                    ("subscriptions", json!([{"name": "Hidden Lair"}])),
                    ("principals", json!([MEMBER2.id])),
                ],
            )
            .await;
        r.bad_request("Unable to access channel (Hidden Lair).");
    }
    // No second "Hidden Lair" was created and nobody was added.
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn an_administrator_subscribes_to_a_private_stream_they_are_not_in() {
    let server = TestServer::standard();

    let r = server
        .as_user(&ADMIN)
        .post(SUBS, &[("subscriptions", json!([{"name": "Hidden Lair"}]))])
        .await;

    assert_eq!(
        by_user(&r.ok()["subscribed"]),
        user_map(&[(ADMIN.id, &["Hidden Lair"])])
    );
    assert!(server.members_of(HIDDEN_LAIR.id).await.contains(&ADMIN.id));
}

// -------------------------------------------- nothing in any read mentions it

#[tokio::test]
async fn no_read_by_a_non_subscriber_mentions_an_invisible_private_stream() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let reads = [
        mark.get("/streams", &[]).await,
        mark.get(
            "/streams",
            &[
                ("include_public", json!(true)),
                ("include_subscribed", json!(true)),
            ],
        )
        .await,
        mark.get("/streams", &[("include_public", json!(false))])
            .await,
        mark.get(SUBS, &[("include_subscribers", json!(true))])
            .await,
        mark.get("/users", &[]).await,
        mark.get("/users/me", &[]).await,
        mark.post(
            "/register",
            &[
                ("fetch_event_types", json!(["realm_user", "subscription"])),
                ("include_subscribers", json!(true)),
            ],
        )
        .await,
    ];

    for r in &reads {
        r.ok();
        assert!(
            !mentions_stream(&r.json, 22, "Hidden Lair"),
            "leaks the hidden stream\n{}",
            r.debug()
        );
    }
}

/// Whether any object in `v` has `stream_id == id`, or any string contains `name`.
fn mentions_stream(v: &Value, id: u64, name: &str) -> bool {
    match v {
        Value::String(s) => s.contains(name),
        Value::Array(items) => items.iter().any(|x| mentions_stream(x, id, name)),
        Value::Object(map) => map.iter().any(|(k, x)| {
            k.contains(name) || (k == "stream_id" && x == id) || mentions_stream(x, id, name)
        }),
        _ => false,
    }
}

#[tokio::test]
async fn register_lists_only_streams_the_caller_may_see() {
    let server = TestServer::standard();

    let cases: [(Account, BTreeSet<String>); 3] = [
        (MEMBER, with_public(&["Secret Plans"])),
        (MODERATOR, with_public(&[])),
        (GUEST, name_set(&["Design", "Hidden Lair", "Verona"])),
    ];
    for (who, visible) in cases {
        let r = server
            .as_user(&who)
            .post(
                "/register",
                &[
                    ("fetch_event_types", json!(["realm_user", "subscription"])),
                    ("include_subscribers", json!(true)),
                ],
            )
            .await;
        let body = r.ok();
        let mut seen = names(&body["subscriptions"]);
        seen.extend(names(&body["unsubscribed"]));
        seen.extend(names(&body["never_subscribed"]));
        assert_eq!(
            seen,
            visible,
            "streams in /register for {}\n{}",
            who.email,
            r.debug()
        );
    }
}
