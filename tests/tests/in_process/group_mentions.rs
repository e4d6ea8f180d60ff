//! Zulip 10's `can_mention_group` when sending: a message that mentions a group aloud
//! (`@*name*`) is refused with "You are not allowed to mention user group '<name>'."
//! unless the sender is in the group's `can_mention_group` (subgroups included); silent
//! mentions (`@_*name*`) are never checked; the default, `role:everyone`, lets anyone.
//! System groups are `role:nobody`'s to mention; a mention inside a quote, or of a
//! deactivated group, is rendered silent and so needs no permission.
//! On the groups organization of `user_groups.rs`: backend (30: Mark, Nina), engineering
//! (31: Adam and subgroup backend).

use serde_json::Value;
use weir_tests::*;

use super::user_groups::{BACKEND, ENGINEERING, EVERYONE, NOBODY, groups, seed_with_groups};

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

/// The rendered content of the newest message in the `mentions` topic.
async fn last_mention(server: &TestServer) -> String {
    let r = server
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                (
                    "narrow",
                    json!([{"operator": "topic", "operand": "mentions"}]),
                ),
            ],
        )
        .await;
    let messages = r.ok()["messages"].as_array().cloned().unwrap_or_default();
    let last = messages
        .last()
        .unwrap_or_else(|| panic!("no message: {}", r.debug()));
    last["content"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn nobody_may_mention_a_system_group_aloud() {
    let server = TestServer::start(seed_with_groups(), &[]);
    for group in groups(&server, false).await {
        if group["is_system_group"] == true {
            assert_eq!(group["can_mention_group"], NOBODY, "{group}");
            assert_eq!(group["can_leave_group"], NOBODY, "{group}");
        }
    }
    for account in [&GUEST, &MEMBER, &OWNER] {
        send(&server.as_user(account), "@*role:everyone* hello")
            .await
            .bad_request("You are not allowed to mention user group 'role:everyone'.");
    }
    send_direct(&server.as_user(&GUEST), OWNER.id, "@*role:members*")
        .await
        .bad_request("You are not allowed to mention user group 'role:members'.");
    // Silently, anyone may.
    send(&server.as_user(&GUEST), "@_*role:everyone*")
        .await
        .ok();
    assert_eq!(
        last_mention(&server).await,
        format!(
            "<p><span class=\"user-group-mention silent\" data-user-group-id=\"{EVERYONE}\">\
             role:everyone</span></p>"
        )
    );
}

#[tokio::test]
async fn a_quoted_mention_is_silent_and_needs_no_permission() {
    let server = TestServer::start(seed_with_groups(), &[]);
    set_can_mention(&server, BACKEND, json!(NOBODY)).await;
    let guest = server.as_user(&GUEST);
    send(&guest, "@*backend*")
        .await
        .bad_request("You are not allowed to mention user group 'backend'.");
    let silent = format!(
        "<span class=\"user-group-mention silent\" data-user-group-id=\"{BACKEND}\">backend</span>"
    );
    send(&guest, "> @*backend* and @**Mark Member**").await.ok();
    assert_eq!(
        last_mention(&server).await,
        format!(
            "<blockquote>\n<p>{silent} and \
             <span class=\"user-mention silent\" data-user-id=\"{}\">Mark Member</span></p>\n\
             </blockquote>",
            MEMBER.id
        )
    );
    send(&guest, "```quote\nsaid @*backend*\n```").await.ok();
    assert_eq!(
        last_mention(&server).await,
        format!("<blockquote>\n<p>said {silent}</p>\n</blockquote>")
    );
    // Outside the quote it is still checked.
    send(&guest, "> quoted\n\n@*backend*")
        .await
        .bad_request("You are not allowed to mention user group 'backend'.");
}

#[tokio::test]
async fn a_deactivated_groups_mention_is_silent_and_needs_no_permission() {
    let server = TestServer::start(seed_with_groups(), &[]);
    set_can_mention(&server, ENGINEERING, json!(NOBODY)).await;
    server
        .as_user(&OWNER)
        .post(&format!("/user_groups/{ENGINEERING}/deactivate"), &[])
        .await
        .ok();
    send(&server.as_user(&GUEST), "@*engineering*").await.ok();
    assert_eq!(
        last_mention(&server).await,
        format!(
            "<p><span class=\"user-group-mention silent\" data-user-group-id=\"{ENGINEERING}\">\
             engineering</span></p>"
        )
    );
}
