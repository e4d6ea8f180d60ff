//! `register`'s keys and parameters of Zulip 11.

use super::*;

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
        ("max_channel_folder_name_length", 410, json!(60)),
        ("max_channel_folder_description_length", 410, json!(1024)),
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
