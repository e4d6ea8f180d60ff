//! The client against answers shaped as Zulip 5, 7, 10 (level 372), 11 (421) and 12 (500)
//! send them. Every body starts from the examples of Zulip 10.2's OpenAPI document
//! (`GET /users`, `GET /users/me`, `GET /users/me/subscriptions`, `GET /streams`,
//! `GET /user_groups`, `GET /server_settings`) and adds or removes what the document's
//! "Changes" notes and Zulip's API changelog say each level adds or removes
//! (`docs/zulip-compatibility.md` lists them). The document has no example of
//! `register`'s `server_supported_permission_settings`: it is built from its schema
//! (`GroupPermissionSetting`) with the settings and defaults the changelog gives each level.

use axum::http::Method;
use serde_json::{Value, json};
use weir_core::channels::load_channels;
use weir_core::memberships::{GroupSetting, load_matrix};

use crate::support::{Reply, Stub, client};

/// A level of the 5.x series (70–124): groups have `is_system_group` (93), not subgroups.
const ZULIP_5: u32 = 100;
/// A level of the 7.x series (159–187): `can_remove_subscribers_group_id`, subgroups.
const ZULIP_7: u32 = 170;
const ZULIP_10: u32 = 372;
const ZULIP_11: u32 = 421;
const ZULIP_12: u32 = 500;

/// Channel keys by the level that added them (the 10.2 document's "Changes" notes).
const CHANNEL_KEYS: [(&str, u32); 7] = [
    ("can_remove_subscribers_group", 142),
    ("stream_weekly_traffic", 199),
    ("creator_id", 254),
    ("is_archived", 315),
    ("is_recently_active", 323),
    ("can_add_subscribers_group", 342),
    ("can_subscribe_group", 357),
];

/// User-group keys by the level that added them.
const GROUP_KEYS: [(&str, u32); 10] = [
    ("direct_subgroup_ids", 131),
    ("can_mention_group", 191),
    ("can_manage_group", 283),
    ("deactivated", 290),
    ("creator_id", 292),
    ("date_created", 292),
    ("can_join_group", 301),
    ("can_add_members_group", 305),
    ("can_leave_group", 308),
    ("can_remove_members_group", 324),
];

/// `object` as a server at `level` sends it: without the keys added after `level`, and
/// with the names keys had before a rename.
fn at_level(mut object: Value, level: u32, keys: &[(&str, u32)]) -> Value {
    let Some(map) = object.as_object_mut() else {
        return object;
    };
    for (key, added) in keys {
        if level < *added {
            map.remove(*key);
        }
    }
    let renames = [
        (
            "can_remove_subscribers_group",
            "can_remove_subscribers_group_id",
            197,
        ),
        ("can_mention_group", "can_mention_group_id", 198),
    ];
    for (new, old, renamed) in renames {
        if level < renamed
            && let Some(value) = map.remove(new)
        {
            map.insert(old.into(), value);
        }
    }
    // Before 163, `delivery_email` was sent only when it was visible.
    if level < 163 && map.get("delivery_email") == Some(&Value::Null) {
        map.remove("delivery_email");
    }
    object
}

fn with(mut base: Value, extra: Value) -> Value {
    if let (Some(target), Value::Object(extra)) = (base.as_object_mut(), extra) {
        target.extend(extra);
    }
    base
}

/// The documented `GET /server_settings` example (which has no level) at `level`.
fn server_settings(level: u32, version: &str) -> Value {
    json!({
        "authentication_methods": {"password": true, "dev": true, "email": true},
        "zulip_version": version, "zulip_feature_level": level,
        "push_notifications_enabled": false, "is_incompatible": false,
        "email_auth_enabled": true, "require_email_format_usernames": true,
        "realm_uri": "http://localhost:9991", "realm_url": "http://localhost:9991",
        "realm_name": "Zulip Dev", "realm_web_public_access_enabled": false
    })
}

/// The documented `GET /users/me` example: Iago, id 5.
fn iago() -> Value {
    json!({
        "avatar_url": "https://secure.gravatar.com/avatar/af4f06322c177ef4e1e9b2c424986b54?d=identicon&version=1",
        "avatar_version": 1, "email": "iago@zulip.com", "delivery_email": "iago@zulip.com",
        "full_name": "Iago", "is_admin": true, "is_owner": false, "role": 200,
        "is_guest": false, "is_bot": false, "is_active": true, "timezone": "",
        "date_joined": "2019-10-20T07:50:53.728864+00:00", "user_id": 5, "profile_data": {}
    })
}

/// Three users of the documented `GET /users` example (aaron, King Hamlet, Iago's Bot)
/// and Iago; from level 433 users carry `is_imported_stub`.
fn realm_users(level: u32) -> Vec<Value> {
    let users = vec![
        iago(),
        json!({"is_active": true, "email": "AARON@zulip.com", "delivery_email": null,
            "is_admin": false, "is_owner": false, "role": 400, "avatar_url": null,
            "bot_type": null, "timezone": "", "is_bot": false, "user_id": 7,
            "profile_data": {}, "is_guest": false,
            "date_joined": "2019-10-20T07:50:53.728864+00:00", "full_name": "aaron"}),
        json!({"date_joined": "2019-10-20T07:50:53.729659+00:00", "full_name": "King Hamlet",
            "is_guest": false, "profile_data": {"4": {"value": "0"}}, "user_id": 10,
            "is_bot": false, "bot_type": null, "timezone": "", "is_admin": false,
            "is_owner": false, "role": 400, "avatar_url": null, "is_active": true,
            "email": "hamlet@zulip.com", "delivery_email": null}),
        json!({"bot_owner_id": 11, "is_guest": false,
            "date_joined": "2019-10-20T12:52:17.862053+00:00", "full_name": "Iago's Bot",
            "email": "iago-bot@zulipdev.com", "delivery_email": "iago-bot@zulipdev.com",
            "is_active": true, "avatar_url": null, "is_admin": false, "is_owner": false,
            "role": 400, "user_id": 23, "bot_type": 1, "timezone": "", "is_bot": true}),
    ];
    users
        .into_iter()
        .map(|user| at_level(user, level, &[]))
        .map(|user| match level {
            433.. => with(user, json!({"is_imported_stub": false})),
            _ => user,
        })
        .collect()
}

/// What levels 389–441 add to every channel object (folders, `topics_policy`,
/// `subscriber_count`, the newer group settings, some in the anonymous-group form).
fn channel_additions(level: u32, subscriber_count: usize) -> Value {
    let mut added = json!({});
    if level >= 389 {
        added = with(added, json!({"folder_id": null}));
    }
    if level >= 392 {
        added = with(added, json!({"topics_policy": "inherit"}));
    }
    if level >= 394 {
        added = with(added, json!({"subscriber_count": subscriber_count}));
    }
    if level >= 407 {
        added = with(
            added,
            json!({
                "can_move_messages_out_of_channel_group": 11,
                "can_move_messages_within_channel_group": 11,
                "can_resolve_topics_group": {"direct_members": [5], "direct_subgroups": [11]},
                "can_delete_any_message_group": 11, "can_delete_own_message_group": 11
            }),
        );
    }
    if level >= 441 {
        added = with(added, json!({"can_create_topic_group": 9}));
    }
    added
}

/// The documented `GET /users/me/subscriptions` example (Denmark and Scotland).
fn subscriptions(level: u32) -> Vec<Value> {
    let denmark = json!({"audible_notifications": true, "color": "#e79ab5",
        "creator_id": null, "description": "A Scandinavian country",
        "desktop_notifications": true, "is_archived": false, "is_muted": false,
        "invite_only": false, "name": "Denmark", "pin_to_top": false,
        "push_notifications": false, "stream_id": 1, "subscribers": [7, 10, 11, 12, 14]});
    let scotland = json!({"audible_notifications": true, "color": "#e79ab5",
        "creator_id": 8, "description": "Located in the United Kingdom",
        "desktop_notifications": true, "is_archived": false, "is_muted": false,
        "invite_only": false, "name": "Scotland", "pin_to_top": false,
        "push_notifications": false, "stream_id": 3, "subscribers": [7, 11, 12, 14]});
    vec![
        at_level(
            with(denmark, channel_additions(level, 5)),
            level,
            &CHANNEL_KEYS,
        ),
        at_level(
            with(scotland, channel_additions(level, 4)),
            level,
            &CHANNEL_KEYS,
        ),
    ]
}

/// The documented `GET /streams` example's `management` channel; `stream_post_policy`
/// (deprecated at 333) is left out from Zulip 11 on.
fn management(level: u32) -> Value {
    let mut stream = json!({"can_add_subscribers_group": 10,
        "can_remove_subscribers_group": 10, "can_subscribe_group": 10, "creator_id": null,
        "date_created": 1691057093, "description": "A private channel",
        "first_message_id": 18, "is_recently_active": true,
        "history_public_to_subscribers": false, "invite_only": true,
        "is_announcement_only": false, "is_archived": false, "is_default": false,
        "is_web_public": false, "message_retention_days": null, "name": "management",
        "rendered_description": "<p>A private channel</p>", "stream_id": 2,
        "stream_post_policy": 1, "stream_weekly_traffic": null});
    if level >= ZULIP_11
        && let Some(object) = stream.as_object_mut()
    {
        object.remove("stream_post_policy");
    }
    at_level(
        with(stream, channel_additions(level, 0)),
        level,
        &CHANNEL_KEYS,
    )
}

/// The documented `GET /user_groups` example (owners, administrators, hamletcharacters,
/// their members mapped onto the four users above); from Zulip 11 a group setting in the
/// anonymous form.
fn user_groups(level: u32) -> Vec<Value> {
    let owners = json!({"description": "Owners of this organization", "id": 1,
        "creator_id": null, "date_created": null, "name": "role:owners", "members": [7],
        "direct_subgroup_ids": [], "is_system_group": true, "can_add_members_group": 16,
        "can_join_group": 16, "can_leave_group": 15, "can_manage_group": 16,
        "can_mention_group": 11, "can_remove_members_group": 16});
    let admins = json!({"description": "Administrators of this organization, including owners",
        "id": 2, "creator_id": null, "date_created": null, "name": "role:administrators",
        "members": [5], "direct_subgroup_ids": [1], "is_system_group": true,
        "can_add_members_group": 17, "can_join_group": 17, "can_leave_group": 15,
        "can_manage_group": 17, "can_mention_group": 12, "can_remove_members_group": 16});
    let mut hamlet = json!({"description": "Characters of Hamlet", "id": 3,
        "creator_id": null, "date_created": 1717484476, "name": "hamletcharacters",
        "members": [10, 7], "direct_subgroup_ids": [], "is_system_group": false,
        "can_add_members_group": 20, "can_join_group": 20, "can_leave_group": 15,
        "can_manage_group": 20, "can_mention_group": 13, "can_remove_members_group": 16});
    if level >= ZULIP_11 {
        hamlet = with(
            hamlet,
            json!({"deactivated": false,
                "can_manage_group": {"direct_members": [5], "direct_subgroups": [2]}}),
        );
    }
    [owners, admins, hamlet]
        .into_iter()
        .map(|group| at_level(group, level, &GROUP_KEYS))
        .collect()
}

/// `server_supported_permission_settings` as `register` sends it from level 221: the 10.2
/// document's `GroupPermissionSetting` for each channel setting a level has (the levels and
/// defaults of Zulip's API changelog; `channel_creator` for `stream_creator_or_nobody`
/// from 427), and one setting of each other kind.
fn supported_permission_settings(level: u32) -> Option<Value> {
    let setting = |everyone: bool, default: &str| {
        json!({"require_system_group": false, "allow_internet_group": false,
            "allow_nobody_group": true, "allow_everyone_group": everyone,
            "default_group_name": default, "default_for_system_groups": null,
            "allowed_system_groups": []})
    };
    let creator = match level {
        427.. => "channel_creator",
        _ => "stream_creator_or_nobody",
    };
    let channel = [
        (
            "can_remove_subscribers_group",
            221,
            true,
            "role:administrators",
        ),
        ("can_administer_channel_group", 325, false, creator),
        ("can_send_message_group", 333, true, "role:everyone"),
        ("can_add_subscribers_group", 342, false, "role:nobody"),
        ("can_subscribe_group", 357, false, "role:nobody"),
        (
            "can_move_messages_out_of_channel_group",
            396,
            true,
            "role:nobody",
        ),
        (
            "can_move_messages_within_channel_group",
            396,
            true,
            "role:nobody",
        ),
        ("can_resolve_topics_group", 402, true, "role:nobody"),
        ("can_delete_any_message_group", 407, true, "role:nobody"),
        ("can_delete_own_message_group", 407, true, "role:nobody"),
        ("can_create_topic_group", 441, true, "role:everyone"),
    ];
    let stream: serde_json::Map<String, Value> = channel
        .into_iter()
        .filter(|(_, since, _, _)| level >= *since)
        .map(|(name, _, everyone, default)| (name.to_owned(), setting(everyone, default)))
        .collect();
    (level >= 221).then(|| {
        json!({"stream": stream,
            "realm": {"create_multiuse_invite_group": setting(false, "role:administrators")},
            "group": {"can_mention_group": setting(true, "role:everyone")}})
    })
}

/// A stub answering the grid's three requests (and server settings) as `level`.
async fn zulip(level: u32, version: &'static str) -> Stub {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/server_settings", move |_, _| {
        Reply::success(server_settings(level, version))
    })
    .route(Method::GET, "/api/v1/users/me", |_, _| {
        Reply::success(with(iago(), json!({"max_message_id": 30})))
    })
    .route(Method::POST, "/api/v1/register", move |_, _| {
        Reply::success(json!({
            "queue_id": null, "last_event_id": -1, "zulip_feature_level": level,
            "zulip_version": version, "zulip_merge_base": version,
            "realm_users": realm_users(level), "realm_non_active_users": [],
            "cross_realm_bots": [], "subscriptions": subscriptions(level), "unsubscribed": [],
            "never_subscribed": [with(management(level), json!({"subscribers": [5]}))],
            "server_supported_permission_settings": supported_permission_settings(level)
        }))
    })
    .route(Method::GET, "/api/v1/user_groups", move |_, _| {
        Reply::success(json!({"user_groups": user_groups(level)}))
    })
    .route(Method::GET, "/api/v1/streams", move |_, _| {
        Reply::success(json!({"streams": [management(level)]}))
    })
    .route(
        Method::GET,
        "/api/v1/users/me/subscriptions",
        move |_, _| Reply::success(json!({"subscriptions": subscriptions(level)})),
    );
    stub
}

/// Every series the replays answer as (5.0 and 7.0 are the 5.x and 7.x releases).
const VERSIONS: [(u32, &str); 5] = [
    (ZULIP_5, "5.0"),
    (ZULIP_7, "7.0"),
    (ZULIP_10, "10.4"),
    (ZULIP_11, "11.5"),
    (ZULIP_12, "12.3"),
];

#[tokio::test]
async fn the_memberships_grid_loads_from_zulip_5_to_12() {
    for (level, version) in VERSIONS {
        let stub = zulip(level, version).await;
        let matrix = load_matrix(&client(&stub)).await.unwrap();
        assert_eq!(matrix.people().len(), 4, "{version}");
        assert_eq!(matrix.channels().len(), 3, "{version}");
        assert_eq!(matrix.is_subscribed(10, 1), Some(true), "{version}");
        assert_eq!(matrix.is_subscribed(7, 3), Some(true), "{version}");
        assert_eq!(matrix.is_subscribed(10, 3), Some(false), "{version}");
        assert_eq!(matrix.is_subscribed(5, 2), Some(true), "{version}");
        let hamlet = matrix.groups().get(3).unwrap();
        assert_eq!(hamlet.direct_members.len(), 2, "{version}");
        let expected = match level {
            ZULIP_11.. => Some(GroupSetting::Anonymous {
                direct_members: vec![5],
                direct_subgroups: vec![2],
            }),
            ZULIP_10 => Some(GroupSetting::Named(20)),
            _ => None,
        };
        assert_eq!(hamlet.can_manage, expected, "{version}");
        let admins = matrix.groups().get(2).unwrap();
        let expanded = if level >= 131 { 2 } else { 1 };
        assert_eq!(
            admins.members.len(),
            expanded,
            "{version}: owners inside admins"
        );
    }
}

#[tokio::test]
async fn streams_and_subscriptions_read_every_level_s_settings() {
    for (level, version) in VERSIONS {
        let stub = zulip(level, version).await;
        let client = client(&stub);
        let streams = client.get_streams(true).await.unwrap();
        let subscriptions = client.get_subscriptions(true).await.unwrap();
        assert_eq!(client.feature_level().await.unwrap(), level);
        let management = &streams[0];
        assert_eq!(management.name, "management");
        let settings = management.group_settings();
        let expected = match level {
            ZULIP_5 => 0,
            ZULIP_7 => 1,
            ZULIP_10 => 3,
            ZULIP_11 => 8,
            _ => 9,
        };
        assert_eq!(settings.len(), expected, "{version}: {settings:?}");
        let denmark = &subscriptions[0];
        assert_eq!(
            denmark.subscribers.as_deref(),
            Some(&[7, 10, 11, 12, 14][..])
        );
        if level >= ZULIP_11 {
            assert_eq!(denmark.subscriber_count, Some(5), "{version}");
            assert_eq!(denmark.topics_policy.as_deref(), Some("inherit"));
            assert_eq!(denmark.folder_id, None);
            let resolve = denmark.can_resolve_topics_group.as_ref().unwrap();
            assert_eq!(
                GroupSetting::from_value(resolve),
                Some(GroupSetting::Anonymous {
                    direct_members: vec![5],
                    direct_subgroups: vec![11]
                })
            );
        } else {
            assert!(denmark.subscriber_count.is_none() && denmark.topics_policy.is_none());
        }
        assert_eq!(
            management.can_create_topic_group.is_some(),
            level >= ZULIP_12,
            "{version}"
        );
    }
}

/// The Channels page's columns are the channel settings the server lists (Zulip 10's
/// five, Zulip 11's ten, Zulip 12's eleven); below level 221 Zulip 10's by the level each
/// appeared at, read-only below the level that changes it with `{"new", "old"}` (320).
#[tokio::test]
async fn the_channels_table_has_the_settings_each_server_lists() {
    for (level, version) in VERSIONS {
        let stub = zulip(level, version).await;
        let loaded = load_channels(&client(&stub)).await.unwrap();
        let table = &loaded.table;
        let expected = match level {
            ZULIP_5 => 0,
            ZULIP_7 => 1,
            ZULIP_10 => 5,
            ZULIP_11 => 10,
            _ => 11,
        };
        assert_eq!(
            table.settings.len(),
            expected,
            "{version}: {:?}",
            table.settings
        );
        assert_eq!(table.channels.len(), 3, "{version}");
        let denmark = table.channels.iter().find(|c| c.stream_id == 1).unwrap();
        assert_eq!(denmark.cells.len(), expected, "{version}");
        for (setting, cell) in table.settings.iter().zip(&denmark.cells) {
            assert_eq!(setting.name, cell.setting);
            // Iago administers the organization: only the server's level may stop him.
            assert_eq!(setting.read_only.is_some(), level < 320, "{version}");
            assert_eq!(cell.denied.is_some(), level < 320, "{version}");
        }
        if level >= ZULIP_11 {
            let resolve = denmark
                .cells
                .iter()
                .find(|cell| cell.setting == "can_resolve_topics_group")
                .unwrap();
            assert_eq!(resolve.label, "Group 11, Iago", "{version}");
        }
        let topics = table
            .settings
            .iter()
            .any(|s| s.name == "can_create_topic_group");
        assert_eq!(topics, level >= ZULIP_12, "{version}");
    }
}

/// A channel's group setting is an integer (a group's id) or, from Zulip 10 (level 320),
/// an anonymous group; both read, anything else is no setting.
#[test]
fn channel_group_settings_read_in_both_forms() {
    assert_eq!(
        GroupSetting::from_value(&json!(10)),
        Some(GroupSetting::Named(10))
    );
    assert_eq!(
        GroupSetting::from_value(&json!({"direct_members": [12], "direct_subgroups": []})),
        Some(GroupSetting::Anonymous {
            direct_members: vec![12],
            direct_subgroups: vec![]
        })
    );
    assert_eq!(GroupSetting::from_value(&json!("role:nobody")), None);
}

/// Zulip's own `GET /server_settings` example has no `zulip_feature_level`: the client
/// reads it as level 0 (as Zulip's clients do) instead of failing.
#[tokio::test]
async fn server_settings_without_a_level_read_as_level_0() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/server_settings", |_, _| {
        let mut settings = server_settings(0, "5.0-dev-1650-gc3fd37755f");
        if let Some(object) = settings.as_object_mut() {
            object.remove("zulip_feature_level");
        }
        Reply::success(settings)
    });
    assert_eq!(client(&stub).feature_level().await.unwrap(), 0);
}
