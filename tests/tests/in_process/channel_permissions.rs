//! What the channel settings `PATCH /streams/{stream_id}` and subscribing set then
//! decide: who posts (messages and webhooks), who joins, adds and removes others, and
//! which groups can no longer be deactivated. The organization is `user_groups.rs`'s:
//! `backend` (30) holds 104 and 105.

use serde_json::{Value, json};
use weir_tests::helloworld::{bot_to, hello, hello_one, payload};
use weir_tests::*;

use crate::channel_settings::{listed, path, update};
use crate::user_groups::{BACKEND, EVERYONE, NOBODY, server};

#[tokio::test]
async fn can_send_message_group_decides_who_posts() {
    let server = server();
    server
        .as_user(&ADMIN)
        .patch(
            &path(VERONA.id),
            &[("can_send_message_group", update(json!(BACKEND)))],
        )
        .await
        .ok();
    assert_eq!(
        listed(&server, VERONA.id).await["can_send_message_group"],
        BACKEND
    );
    let post = |who: &'static Account| {
        let api = server.as_user(who);
        async move {
            api.post(
                "/messages",
                &[
                    ("type", json!("stream")),
                    ("to", json!(VERONA.name)),
                    ("topic", json!("t")),
                    ("content", json!("hello")),
                ],
            )
            .await
        }
    };
    post(&MEMBER).await.ok();
    // A bot posts through its owner's membership (202 is 104's).
    post(&GENERIC_BOT).await.ok();
    let before = everything(&server).await;
    for who in [&MODERATOR, &OWNER] {
        post(who)
            .await
            .bad_request("You do not have permission to post in this channel.");
    }
    assert!(new_since(&server, &before).await.is_empty());
}

#[tokio::test]
async fn subscription_settings_set_by_patch_decide_joining_adding_and_removing() {
    let server = server();
    let owner = server.as_user(&OWNER);
    let nina = server.as_user(&MEMBER2);
    let join = [("subscriptions", json!([{"name": SECRET_PLANS.name}]))];
    nina.post("/users/me/subscriptions", &join)
        .await
        .bad_request("Unable to access channel (Secret Plans).");
    owner
        .patch(
            &path(SECRET_PLANS.id),
            &[
                ("can_subscribe_group", update(json!(BACKEND))),
                ("can_add_subscribers_group", update(json!(BACKEND))),
                (
                    "can_remove_subscribers_group",
                    update(json!({"direct_members": [], "direct_subgroups": [BACKEND]})),
                ),
            ],
        )
        .await
        .ok();
    let secret = listed(&server, SECRET_PLANS.id).await;
    assert_eq!(secret["can_subscribe_group"], BACKEND);
    assert_eq!(secret["can_add_subscribers_group"], BACKEND);
    assert_eq!(secret["can_remove_subscribers_group"], BACKEND);
    // Not subscribed, yet may add others (can_add_subscribers_group), then join.
    nina.post(
        "/users/me/subscriptions",
        &[
            ("subscriptions", json!([{"name": SECRET_PLANS.name}])),
            ("principals", json!([MODERATOR.id])),
        ],
    )
    .await
    .ok();
    nina.post("/users/me/subscriptions", &join).await.ok();
    nina.delete(
        "/users/me/subscriptions",
        &[
            ("subscriptions", json!([SECRET_PLANS.name])),
            ("principals", json!([OWNER.id])),
        ],
    )
    .await
    .ok();
    let state = server.subscription_state().await;
    let members = &state[SECRET_PLANS.name];
    assert!(members.contains(&MEMBER2.id) && members.contains(&MODERATOR.id));
    assert!(!members.contains(&OWNER.id));
}

#[tokio::test]
async fn a_group_a_patched_channel_setting_names_cannot_be_deactivated() {
    let server = server();
    let owner = server.as_user(&OWNER);
    let created = owner
        .post(
            "/user_groups/create",
            &[
                ("name", json!("ops")),
                ("description", json!("")),
                ("members", json!([MEMBER.id])),
            ],
        )
        .await;
    let ops = created.ok()["group_id"].as_u64().expect("group_id");
    owner
        .patch(
            &path(VERONA.id),
            &[
                ("can_administer_channel_group", update(json!(ops))),
                (
                    "can_send_message_group",
                    update(json!({"direct_members": [OWNER.id], "direct_subgroups": [ops]})),
                ),
            ],
        )
        .await
        .ok();
    let r = owner
        .post(&format!("/user_groups/{ops}/deactivate"), &[])
        .await;
    let body = r.err(
        400,
        "CANNOT_DEACTIVATE_GROUP_IN_USE",
        "Cannot deactivate user group in use.",
    );
    assert_eq!(
        body["objections"],
        json!([{"type": "channel", "channel_id": VERONA.id,
                "settings": ["can_administer_channel_group", "can_send_message_group"]}])
    );
    // Once no setting names it, it goes.
    owner
        .patch(
            &path(VERONA.id),
            &[
                ("can_administer_channel_group", update(json!(NOBODY))),
                ("can_send_message_group", update(json!(EVERYONE))),
            ],
        )
        .await
        .ok();
    owner
        .post(&format!("/user_groups/{ops}/deactivate"), &[])
        .await
        .ok();
}

#[tokio::test]
async fn webhooks_post_only_where_can_send_message_group_lets_the_bot_or_its_owner() {
    let server = server();
    let owner = server.as_user(&OWNER);
    let body = payload("Ada", "https://example.test/ada");
    // 201's owner, 104, is in backend: the bot posts through them.
    owner
        .patch(
            &path(VERONA.id),
            &[("can_send_message_group", update(json!(BACKEND)))],
        )
        .await
        .ok();
    hello_one(&server, &bot_to(VERONA.name), &body, "through its owner").await;
    owner
        .patch(
            &path(VERONA.id),
            &[("can_send_message_group", update(json!(NOBODY)))],
        )
        .await
        .ok();
    let before = everything(&server).await;
    hello(&server, &bot_to(VERONA.name), &body)
        .await
        .bad_request("You do not have permission to post in this channel.");
    assert!(new_since(&server, &before).await.is_empty());
}

#[tokio::test]
async fn channels_created_by_subscribing_take_the_group_settings_given() {
    let server = server();
    let mona = server.as_user(&MODERATOR);
    let create = |name: &'static str, setting: &'static str, value: Value| {
        let mona = &mona;
        async move {
            mona.post(
                "/users/me/subscriptions",
                &[("subscriptions", json!([{"name": name}])), (setting, value)],
            )
            .await
        }
    };
    create("Refused", "can_subscribe_group", json!(EVERYONE))
        .await
        .bad_request("'can_subscribe_group' setting cannot be set to 'role:everyone' group.");
    assert!(!server.subscription_state().await.contains_key("Refused"));
    create("Announcements", "can_send_message_group", json!(BACKEND))
        .await
        .ok();
    let id = server
        .as_user(&OWNER)
        .get("/get_stream_id", &[("stream", json!("Announcements"))])
        .await
        .ok()["stream_id"]
        .as_u64()
        .expect("stream_id");
    let stream = listed(&server, id).await;
    assert_eq!(stream["can_send_message_group"], BACKEND);
    // The others keep their defaults: the creator administers it.
    assert_eq!(
        stream["can_administer_channel_group"],
        json!({"direct_members": [MODERATOR.id], "direct_subgroups": []})
    );
    mona.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", json!("Announcements")),
            ("topic", json!("t")),
            ("content", json!("x")),
        ],
    )
    .await
    .bad_request("You do not have permission to post in this channel.");
}
