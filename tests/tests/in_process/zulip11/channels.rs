//! Channel settings of Zulip 11: the new group settings, `subscriber_count`,
//! unarchiving and new-subscription messages.

use super::*;

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

/// Zulip 12 (427) renamed the channel-creator default of `can_administer_channel_group`
/// from `stream_creator_or_nobody` to `channel_creator`; 426 still says the old name.
#[tokio::test]
async fn the_channel_creator_default_is_named_channel_creator_from_level_427() {
    for (level, name) in [
        (426, "stream_creator_or_nobody"),
        (427, "channel_creator"),
        (421, "stream_creator_or_nobody"),
    ] {
        let body = register(&at_level(level).as_user(&MEMBER), json!(["realm"])).await;
        let setting =
            &body["server_supported_permission_settings"]["stream"]["can_administer_channel_group"];
        assert_eq!(
            setting["default_group_name"], name,
            "at level {level}: {setting}"
        );
    }
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
