//! Zulip 10's `can_mention_group` when sending: a message that mentions a group aloud
//! (`@*name*`) is refused with "You are not allowed to mention user group '<name>'."
//! unless the sender is in the group's `can_mention_group` (subgroups included); silent
//! mentions (`@_*name*`) are never checked; the default, `role:everyone`, lets anyone.
//! On the groups organization of `user_groups.rs`: backend (30: Mark, Nina), engineering
//! (31: Adam and subgroup backend).

use serde_json::Value;
use weir_tests::*;

use super::user_groups::{BACKEND, ENGINEERING, seed_with_groups};

async fn send(api: &Api, content: &str) -> Resp {
    api.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", json!(VERONA.name)),
            ("topic", json!("mentions")),
            ("content", json!(content)),
        ],
    )
    .await
}

async fn send_direct(api: &Api, to: u64, content: &str) -> Resp {
    api.post(
        "/messages",
        &[
            ("type", json!("direct")),
            ("to", json!([to])),
            ("content", json!(content)),
        ],
    )
    .await
}

async fn set_can_mention(server: &TestServer, group: u64, value: Value) {
    server
        .as_user(&OWNER)
        .patch(
            &format!("/user_groups/{group}"),
            &[("can_mention_group", json!({ "new": value }))],
        )
        .await
        .ok();
}

#[tokio::test]
async fn anyone_may_mention_a_group_by_default() {
    let server = TestServer::start(seed_with_groups(), &[]);
    send(&server.as_user(&GUEST), "@*backend* and @*engineering*")
        .await
        .ok();
}

#[tokio::test]
async fn only_those_in_can_mention_group_may_mention_it_aloud() {
    let server = TestServer::start(seed_with_groups(), &[]);
    // Backend may be mentioned by engineering: Adam directly, Mark and Nina through
    // backend, its subgroup.
    set_can_mention(&server, BACKEND, json!(ENGINEERING)).await;
    for allowed in [&ADMIN, &MEMBER, &MEMBER2] {
        send(&server.as_user(allowed), "Ping @*backend*").await.ok();
    }
    let refused = "You are not allowed to mention user group 'backend'.";
    for account in [&MODERATOR, &GUEST, &OWNER] {
        send(&server.as_user(account), "Ping @*Backend*")
            .await
            .bad_request(refused);
    }
    // Direct messages too; silent mentions are never checked.
    send_direct(&server.as_user(&MODERATOR), ADMIN.id, "@*backend*")
        .await
        .bad_request(refused);
    send(&server.as_user(&GUEST), "fyi @_*backend*").await.ok();
}

#[tokio::test]
async fn an_anonymous_setting_names_people_and_the_first_refused_group_is_named() {
    let server = TestServer::start(seed_with_groups(), &[]);
    set_can_mention(
        &server,
        BACKEND,
        json!({"direct_members": [MODERATOR.id], "direct_subgroups": []}),
    )
    .await;
    set_can_mention(
        &server,
        ENGINEERING,
        json!({"direct_members": [], "direct_subgroups": [BACKEND]}),
    )
    .await;
    send(&server.as_user(&MODERATOR), "@*backend*").await.ok();
    // Mona may mention backend, not engineering; Mark the other way round.
    send(&server.as_user(&MODERATOR), "@*backend* @*engineering*")
        .await
        .bad_request("You are not allowed to mention user group 'engineering'.");
    send(&server.as_user(&MEMBER), "@*engineering* @*backend*")
        .await
        .bad_request("You are not allowed to mention user group 'backend'.");
    // Nothing refused was stored.
    let r = server
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(10)),
                ("num_after", json!(0)),
                (
                    "narrow",
                    json!([{"operator": "topic", "operand": "mentions"}]),
                ),
            ],
        )
        .await;
    let stored = r.ok()["messages"].as_array().map_or(0, Vec::len);
    assert_eq!(stored, 1, "{}", r.debug());
}
