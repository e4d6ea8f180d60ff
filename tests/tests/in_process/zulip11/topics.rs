//! `topics_policy` and the empty topic.

use super::*;

// ------------------------------------------------------ topics_policy (392, 404)

async fn send(api: &Api, stream: &str, topic: &str) -> Resp {
    api.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", json!(stream)),
            ("topic", json!(topic)),
            ("content", json!("hello")),
        ],
    )
    .await
}

#[tokio::test]
async fn disable_empty_topic_refuses_the_general_chat_topic_from_level_392() {
    let server = at_level(392);
    assert_eq!(listed(&server, VERONA.id).await["topics_policy"], "inherit");
    let admin = server.as_user(&ADMIN);
    let path = format!("/streams/{}", VERONA.id);
    admin
        .patch(&path, &[("topics_policy", json!("disable_empty_topic"))])
        .await
        .ok();
    assert_eq!(
        listed(&server, VERONA.id).await["topics_policy"],
        "disable_empty_topic"
    );
    send(&admin, VERONA.name, "")
        .await
        .bad_request("Sending messages to the general chat topic is not allowed in this channel.");
    send(&admin, VERONA.name, "news").await.ok();
    admin
        .patch(&path, &[("topics_policy", json!("empty_topic_only"))])
        .await
        .bad_request("Invalid topics_policy");
    admin
        .patch(&path, &[("topics_policy", json!("inherit"))])
        .await
        .ok();
    send(&admin, VERONA.name, "").await.ok();

    let older = at_level(391);
    let r = older
        .as_user(&ADMIN)
        .patch(&path, &[("topics_policy", json!("disable_empty_topic"))])
        .await;
    assert_eq!(ignored(&r), json!(["topics_policy"]), "{}", r.debug());
    assert!(
        listed(&older, VERONA.id)
            .await
            .get("topics_policy")
            .is_none()
    );
    send(&older.as_user(&ADMIN), VERONA.name, "").await.ok();
}

#[tokio::test]
async fn empty_topic_only_channels_take_only_the_general_chat_topic_from_level_404() {
    let server = at_level(404);
    let admin = server.as_user(&ADMIN);
    send(&admin, VERONA.name, "news").await.ok();
    // A channel with named topics cannot become "general chat" only.
    admin
        .patch(
            &format!("/streams/{}", VERONA.id),
            &[("topics_policy", json!("empty_topic_only"))],
        )
        .await
        .bad_request(
            "To enable this configuration, all messages in this channel must be in the \
             general chat topic. Consider renaming or deleting other topics.",
        );
    admin
        .patch(
            &format!("/streams/{}", EMPTY_ROOM.id),
            &[("topics_policy", json!("empty_topic_only"))],
        )
        .await
        .ok();
    send(&admin, EMPTY_ROOM.name, "news")
        .await
        .bad_request("Only the general chat topic is allowed in this channel.");
    send(&admin, EMPTY_ROOM.name, "").await.ok();

    at_level(403)
        .as_user(&ADMIN)
        .patch(
            &format!("/streams/{}", EMPTY_ROOM.id),
            &[("topics_policy", json!("empty_topic_only"))],
        )
        .await
        .bad_request("Invalid topics_policy");
}

#[tokio::test]
async fn a_channel_created_by_subscribing_takes_a_topics_policy_but_not_from_a_guest() {
    let server = TestServer::standard();
    // JSON-encoded here, as Zulip's subscribe takes it.
    server
        .as_user(&MEMBER)
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Quiet"}])),
                ("topics_policy", json!("\"disable_empty_topic\"")),
            ],
        )
        .await
        .ok();
    let streams = server.as_user(&MEMBER).get("/streams", &[]).await;
    let quiet = streams.ok()["streams"]
        .as_array()
        .and_then(|all| all.iter().find(|s| s["name"] == "Quiet"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(quiet["topics_policy"], "disable_empty_topic", "{quiet}");
    server
        .as_user(&MEMBER)
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Loud"}])),
                ("topics_policy", json!("\"sometimes\"")),
            ],
        )
        .await
        .bad_request("Invalid topics_policy");
}

// ---------------------------------------------------------------- "(no topic)" (370)

/// The topic of the newest message the owner can read, as stored.
async fn newest_topic(server: &TestServer) -> Value {
    let r = server
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                ("allow_empty_topic_name", json!(true)),
            ],
        )
        .await;
    r.ok()["messages"][0]["subject"].clone()
}

#[tokio::test]
async fn no_topic_is_the_empty_topic_from_level_370() {
    let server = at_level(370);
    send(&server.as_user(&OWNER), VERONA.name, "(no topic)")
        .await
        .ok();
    assert_eq!(newest_topic(&server).await, "");

    let older = at_level(369);
    send(&older.as_user(&OWNER), VERONA.name, "(no topic)")
        .await
        .ok();
    assert_eq!(newest_topic(&older).await, "(no topic)");
}

#[tokio::test]
async fn webhooks_follow_the_channels_topics_policy_from_its_level() {
    use weir_tests::helloworld::{ADA, hello};
    let server = at_level(404);
    server
        .as_user(&ADMIN)
        .patch(
            &format!("/streams/{}", EMPTY_ROOM.id),
            &[("topics_policy", json!("empty_topic_only"))],
        )
        .await
        .ok();
    let before = everything(&server).await;
    let query = [("api_key", WEBHOOK_BOT.key), ("stream", EMPTY_ROOM.name)];
    hello(&server, &query, ADA)
        .await
        .bad_request("Only the general chat topic is allowed in this channel.");
    assert_nothing_new(&new_since(&server, &before).await, "a refused topic");
    // Hello World's own topic is a named one, so a "general chat" channel refuses it;
    // other channels still take it.
    let query = [("api_key", WEBHOOK_BOT.key), ("stream", VERONA.name)];
    assert_webhook_success(&hello(&server, &query, ADA).await);
}
