//! Zulip 11.0's changes (feature levels 363–421) in Weir's areas, each at the level it
//! appeared and one below (`docs/zulip-compatibility.md`: Versions and feature levels).

use serde_json::{Value, json};
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

fn at_level(level: u32) -> TestServer {
    TestServer::standard_with(&["--feature-level", &level.to_string()])
}

async fn register(api: &Api, types: Value) -> Value {
    api.post("/register", &[("fetch_event_types", types)])
        .await
        .ok()
        .clone()
}

/// A stream as the owner's `GET /streams` lists it.
async fn listed(server: &TestServer, stream_id: u64) -> Value {
    let r = server
        .as_user(&OWNER)
        .get("/streams", &[("include_all", json!(true))])
        .await;
    r.ok()["streams"]
        .as_array()
        .and_then(|streams| streams.iter().find(|s| s["stream_id"] == stream_id))
        .cloned()
        .unwrap_or_else(|| panic!("stream {stream_id} not listed\n{}", r.debug()))
}

fn ignored(r: &Resp) -> Value {
    r.ok()["ignored_parameters_unsupported"].clone()
}

// ------------------------------------------- channel group settings (396, 402, 407)

/// The channel settings `register` says the server has, sorted.
async fn supported(server: &TestServer) -> Vec<String> {
    let body = register(&server.as_user(&MEMBER), json!(["realm"])).await;
    let mut names: Vec<String> = body["server_supported_permission_settings"]["stream"]
        .as_object()
        .unwrap_or_else(|| panic!("no stream settings: {body:#}"))
        .keys()
        .cloned()
        .collect();
    names.sort();
    names
}

const ZULIP_10_SETTINGS: [&str; 5] = [
    "can_add_subscribers_group",
    "can_administer_channel_group",
    "can_remove_subscribers_group",
    "can_send_message_group",
    "can_subscribe_group",
];

#[tokio::test]
async fn server_supported_permission_settings_lists_each_channel_setting_from_its_level() {
    let expect = |extra: &[&str]| {
        let mut names: Vec<String> = ZULIP_10_SETTINGS
            .iter()
            .chain(extra)
            .map(|name| (*name).to_owned())
            .collect();
        names.sort();
        names
    };
    let moves = [
        "can_move_messages_out_of_channel_group",
        "can_move_messages_within_channel_group",
    ];
    let resolve = [moves[0], moves[1], "can_resolve_topics_group"];
    let all = [
        resolve[0],
        resolve[1],
        resolve[2],
        "can_delete_any_message_group",
        "can_delete_own_message_group",
    ];
    for (level, want) in [
        (362, expect(&[])),
        (395, expect(&[])),
        (396, expect(&moves)),
        (401, expect(&moves)),
        (402, expect(&resolve)),
        (406, expect(&resolve)),
        (407, expect(&all)),
        (421, expect(&all)),
    ] {
        assert_eq!(supported(&at_level(level)).await, want, "at level {level}");
    }
    let body = register(&TestServer::standard().as_user(&MEMBER), json!(["realm"])).await;
    let setting =
        &body["server_supported_permission_settings"]["stream"]["can_resolve_topics_group"];
    assert_eq!(setting["default_group_name"], "role:nobody", "{setting}");
    assert_eq!(setting["allow_everyone_group"], true, "{setting}");
}

#[tokio::test]
async fn channels_show_the_new_group_settings_from_their_levels_at_zulips_default() {
    let at_396 = listed(&at_level(396), VERONA.id).await;
    assert_eq!(
        at_396["can_move_messages_out_of_channel_group"], 1,
        "{at_396}"
    );
    assert_eq!(
        at_396["can_move_messages_within_channel_group"], 1,
        "{at_396}"
    );
    assert!(at_396.get("can_resolve_topics_group").is_none(), "{at_396}");
    let at_395 = listed(&at_level(395), VERONA.id).await;
    assert!(
        at_395
            .get("can_move_messages_out_of_channel_group")
            .is_none(),
        "{at_395}"
    );
    let at_407 = listed(&at_level(407), VERONA.id).await;
    for name in [
        "can_resolve_topics_group",
        "can_delete_any_message_group",
        "can_delete_own_message_group",
    ] {
        assert_eq!(at_407[name], 1, "{name}: {at_407}");
    }
    let at_406 = listed(&at_level(406), VERONA.id).await;
    assert!(
        at_406.get("can_delete_own_message_group").is_none(),
        "{at_406}"
    );
    assert_eq!(at_406["can_resolve_topics_group"], 1, "{at_406}");
    let at_401 = listed(&at_level(401), VERONA.id).await;
    assert!(at_401.get("can_resolve_topics_group").is_none(), "{at_401}");
}

#[tokio::test]
async fn an_administrator_changes_a_new_group_setting_from_its_level() {
    let server = at_level(402);
    let admin = server.as_user(&ADMIN);
    let r = admin
        .patch(
            &format!("/streams/{}", VERONA.id),
            &[("can_resolve_topics_group", json!({"new": 7, "old": 1}))],
        )
        .await;
    r.ok();
    assert_eq!(
        listed(&server, VERONA.id).await["can_resolve_topics_group"],
        7
    );
    // Subscriptions show the same value.
    let subs = server.as_user(&OWNER).get(SUBS, &[]).await;
    let everyone = subs.ok()["subscriptions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["stream_id"] == VERONA.id)
        .all(|s| s["can_resolve_topics_group"] == 7);
    assert!(everyone, "{}", subs.debug());

    let older = at_level(401);
    let r = older
        .as_user(&ADMIN)
        .patch(
            &format!("/streams/{}", VERONA.id),
            &[("can_resolve_topics_group", json!({"new": 7}))],
        )
        .await;
    assert_eq!(
        ignored(&r),
        json!(["can_resolve_topics_group"]),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn a_channel_created_by_subscribing_takes_a_new_group_setting() {
    let server = TestServer::standard();
    server
        .as_user(&MEMBER)
        .post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Lab"}])),
                ("can_delete_own_message_group", json!(7)),
            ],
        )
        .await
        .ok();
    let streams = server
        .as_user(&OWNER)
        .get("/streams", &[("include_all", json!(true))])
        .await;
    let lab = streams.ok()["streams"]
        .as_array()
        .and_then(|all| all.iter().find(|s| s["name"] == "Lab"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(lab["can_delete_own_message_group"], 7, "{lab}");
    assert_eq!(lab["can_delete_any_message_group"], 1, "{lab}");
}

// --------------------------------------------------------- subscriber_count (394)

#[tokio::test]
async fn channels_count_their_active_subscribers_from_level_394() {
    let server = at_level(394);
    let members = server
        .as_user(&OWNER)
        .get(&format!("/streams/{}/members", ENGINEERING.id), &[])
        .await;
    let count = members.ok()["subscribers"].as_array().map_or(0, Vec::len);
    assert!(count > 0, "{}", members.debug());
    assert_eq!(
        listed(&server, ENGINEERING.id).await["subscriber_count"],
        count
    );
    let body = register(&server.as_user(&MEMBER), json!(["subscription"])).await;
    for sub in body["subscriptions"].as_array().into_iter().flatten() {
        assert!(sub["subscriber_count"].is_u64(), "{sub}");
    }

    let older = listed(&at_level(393), ENGINEERING.id).await;
    assert!(older.get("subscriber_count").is_none(), "{older}");
}

// -------------------------------------------------------------- unarchiving (388)

#[tokio::test]
async fn is_archived_false_is_refused_for_a_channel_that_is_not_archived_from_level_388() {
    let path = format!("/streams/{}", VERONA.id);
    at_level(388)
        .as_user(&ADMIN)
        .patch(&path, &[("is_archived", json!(false))])
        .await
        .bad_request("Channel is not currently deactivated");

    let r = at_level(387)
        .as_user(&ADMIN)
        .patch(&path, &[("is_archived", json!(false))])
        .await;
    assert_eq!(ignored(&r), json!(["is_archived"]), "{}", r.debug());
}

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

// ------------------------------------------------- new subscription messages (397)

async fn subscribe_member2(server: &TestServer, extra: &[(&'static str, Value)]) -> Resp {
    let mut params = vec![
        ("subscriptions", json!([{"name": CAFE.name}])),
        ("principals", json!([MEMBER2.id])),
    ];
    params.extend(extra.iter().cloned());
    server.as_user(&ADMIN).post(SUBS, &params).await
}

fn is_notice_to_member2(m: &Value) -> bool {
    m["type"] == "private"
        && m["content"]
            .as_str()
            .is_some_and(|text| text.contains("subscribed you"))
}

#[tokio::test]
async fn send_new_subscription_messages_decides_the_notices_from_level_397() {
    let server = at_level(397);
    let before = everything(&server).await;
    let r = subscribe_member2(&server, &[("send_new_subscription_messages", json!(false))]).await;
    assert!(
        r.ok().get("new_subscription_messages_sent").is_none(),
        "{}",
        r.debug()
    );
    let new = new_since(&server, &before).await;
    assert!(!new.iter().any(is_notice_to_member2), "{new:#?}");

    let server = at_level(397);
    let before = everything(&server).await;
    let r = subscribe_member2(&server, &[]).await;
    assert_eq!(
        r.ok()["new_subscription_messages_sent"],
        true,
        "{}",
        r.debug()
    );
    let new = new_since(&server, &before).await;
    assert!(new.iter().any(is_notice_to_member2), "{new:#?}");

    let older = at_level(396);
    let before = everything(&older).await;
    let r = subscribe_member2(&older, &[("send_new_subscription_messages", json!(false))]).await;
    assert_eq!(
        ignored(&r),
        json!(["send_new_subscription_messages"]),
        "{}",
        r.debug()
    );
    assert!(r.ok().get("new_subscription_messages_sent").is_none());
    let new = new_since(&older, &before).await;
    assert!(new.iter().any(is_notice_to_member2), "{new:#?}");
}

// ------------------------------------------------------------------- register

#[tokio::test]
async fn register_brings_zulip_11s_realm_keys_from_their_levels() {
    let key_levels = [
        ("realm_topics_policy", 392, json!("allow_empty_topic")),
        ("realm_can_set_topics_policy_group", 392, json!(6)),
        ("max_bulk_new_subscription_messages", 397, json!(100)),
        ("realm_can_set_delete_message_policy_group", 407, json!(4)),
        ("realm_require_e2ee_push_notifications", 409, json!(false)),
        ("realm_welcome_message_custom_text", 416, json!("")),
    ];
    for (key, level, value) in key_levels {
        let body = register(&at_level(level).as_user(&MEMBER), json!(["realm"])).await;
        assert_eq!(body[key], value, "{key} at {level}");
        let below = register(&at_level(level - 1).as_user(&MEMBER), json!(["realm"])).await;
        assert!(below.get(key).is_none(), "{key} below {level}");
    }
}

#[tokio::test]
async fn administrators_are_moderators_in_register_from_level_380() {
    let types = json!(["realm_user"]);
    let body = register(&at_level(380).as_user(&ADMIN), types.clone()).await;
    assert_eq!(body["is_moderator"], true);
    let body = register(&at_level(379).as_user(&ADMIN), types.clone()).await;
    assert_eq!(body["is_moderator"], false);
    let body = register(&at_level(380).as_user(&MEMBER), types).await;
    assert_eq!(body["is_moderator"], false);
}

#[tokio::test]
async fn include_subscribers_partial_gives_full_lists_from_level_412() {
    let server = at_level(412);
    let r = server
        .as_user(&MEMBER)
        .get(SUBS, &[("include_subscribers", json!("partial"))])
        .await;
    let subs = r.ok()["subscriptions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!subs.is_empty(), "{}", r.debug());
    for sub in &subs {
        let listed = sub["subscribers"].as_array().map_or(0, Vec::len);
        assert_eq!(json!(listed), sub["subscriber_count"], "{sub}");
    }
    let body = server
        .as_user(&MEMBER)
        .post(
            "/register",
            &[
                ("fetch_event_types", json!(["subscription"])),
                ("include_subscribers", json!("\"partial\"")),
            ],
        )
        .await;
    assert!(body.ok()["subscriptions"][0]["subscribers"].is_array());

    at_level(411)
        .as_user(&MEMBER)
        .get(SUBS, &[("include_subscribers", json!("partial"))])
        .await
        .bad_request("include_subscribers is not valid JSON");
}

// ------------------------------------------------------------- user groups (386, 391)

mod groups {
    use super::*;
    use crate::user_groups::{BACKEND, ENGINEERING, change, group, members_path, seed_with_groups};

    fn groups_at(level: u32) -> TestServer {
        TestServer::start(seed_with_groups(), &["--feature-level", &level.to_string()])
    }

    async fn deactivate(server: &TestServer, id: u64) {
        server
            .as_user(&OWNER)
            .post(&format!("/user_groups/{id}/deactivate"), &[])
            .await
            .ok();
    }

    #[tokio::test]
    async fn deactivated_false_reactivates_a_group_from_level_386() {
        let server = groups_at(386);
        deactivate(&server, ENGINEERING).await;
        let path = format!("/user_groups/{ENGINEERING}");
        // Only someone who may manage the group.
        server
            .as_user(&MEMBER)
            .patch(&path, &[("deactivated", json!(false))])
            .await
            .bad_request("Insufficient permission");
        server
            .as_user(&OWNER)
            .patch(&path, &[("deactivated", json!(false))])
            .await
            .ok();
        assert_eq!(group(&server, ENGINEERING).await["deactivated"], false);
        server
            .as_user(&OWNER)
            .get(&members_path(ENGINEERING), &[])
            .await
            .ok();
        // `true` does not deactivate: that has its own endpoint.
        server
            .as_user(&OWNER)
            .patch(&path, &[("deactivated", json!(true))])
            .await
            .ok();
        assert_eq!(group(&server, ENGINEERING).await["deactivated"], false);

        let older = groups_at(385);
        deactivate(&older, ENGINEERING).await;
        older
            .as_user(&OWNER)
            .patch(&path, &[("deactivated", json!(false))])
            .await
            .bad_request("No new data supplied");
        assert_eq!(group(&older, ENGINEERING).await["deactivated"], true);
    }

    #[tokio::test]
    async fn a_deactivated_groups_members_and_subgroups_change_from_level_391() {
        let server = groups_at(391);
        deactivate(&server, ENGINEERING).await;
        let owner = server.as_user(&OWNER);
        change(&owner, ENGINEERING, &[("add", json!([OWNER.id]))])
            .await
            .ok();
        change(
            &owner,
            ENGINEERING,
            &[("delete_subgroups", json!([BACKEND]))],
        )
        .await
        .ok();
        owner
            .post(
                &format!("/user_groups/{ENGINEERING}/subgroups"),
                &[("add", json!([BACKEND]))],
            )
            .await
            .ok();
        let after = group(&server, ENGINEERING).await;
        assert_eq!(after["deactivated"], true, "{after}");
        assert!(
            after["members"]
                .as_array()
                .is_some_and(|m| m.contains(&json!(OWNER.id))),
            "{after}"
        );
        // A deactivated group still cannot become someone's subgroup.
        change(&owner, BACKEND, &[("add_subgroups", json!([ENGINEERING]))])
            .await
            .bad_request("User group is deactivated.");

        let older = groups_at(390);
        deactivate(&older, ENGINEERING).await;
        change(
            &older.as_user(&OWNER),
            ENGINEERING,
            &[("add", json!([OWNER.id]))],
        )
        .await
        .bad_request("User group is deactivated.");
        older
            .as_user(&OWNER)
            .post(
                &format!("/user_groups/{ENGINEERING}/subgroups"),
                &[("delete", json!([BACKEND]))],
            )
            .await
            .bad_request("User group is deactivated.");
    }
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
