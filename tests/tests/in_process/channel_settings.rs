//! `PATCH /streams/{stream_id}`: name, description, privacy, retention and the group
//! settings, with Zulip 10's permission rules and messages, by feature level. What the
//! settings then decide is in `channel_permissions.rs`. The organization is
//! `user_groups.rs`'s: `backend` (30) holds 104 and 105.

use serde_json::{Value, json};
use weir_tests::*;

use crate::user_groups::{BACKEND, EVERYONE, INTERNET, MEMBERS, NOBODY, server};

pub(crate) fn path(stream_id: u64) -> String {
    format!("/streams/{stream_id}")
}

/// The stream as the owner's `GET /streams` lists it.
pub(crate) async fn listed(server: &TestServer, stream_id: u64) -> Value {
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

/// Who asks, where, with what, and the refusal expected.
type Case<'a> = (&'a Api, String, Vec<(&'static str, Value)>, &'static str);

pub(crate) fn update(setting: Value) -> Value {
    json!({ "new": setting })
}

#[tokio::test]
async fn an_administrator_renames_describes_and_makes_a_channel_private() {
    let server = server();
    let admin = server.as_user(&ADMIN);
    admin
        .patch(
            &path(VERONA.id),
            &[
                ("new_name", json!("  Verona Beach ")),
                ("description", json!("**Sun**\nand sea")),
                ("is_private", json!(true)),
            ],
        )
        .await
        .ok();
    let verona = listed(&server, VERONA.id).await;
    assert_eq!(verona["name"], "Verona Beach");
    assert_eq!(verona["description"], "**Sun** and sea");
    assert_eq!(
        verona["rendered_description"],
        "<p><strong>Sun</strong> and sea</p>"
    );
    assert_eq!(verona["invite_only"], true);
    // Made private without saying otherwise: history protected, as Zulip does.
    assert_eq!(verona["history_public_to_subscribers"], false);
    // Renaming only the case keeps the name free.
    admin
        .patch(&path(VERONA.id), &[("new_name", json!("VERONA BEACH"))])
        .await
        .ok();
    assert_eq!(listed(&server, VERONA.id).await["name"], "VERONA BEACH");
}

#[tokio::test]
async fn refusals_use_zulips_words() {
    let server = server();
    let (owner, admin, mark) = (
        server.as_user(&OWNER),
        server.as_user(&ADMIN),
        server.as_user(&MEMBER),
    );
    let verona = path(VERONA.id);
    let cases: Vec<Case<'_>> = vec![
        (
            &mark,
            verona.clone(),
            vec![("description", json!("x"))],
            "You do not have permission to administer this channel.",
        ),
        // 104 cannot see Hidden Lair: the same answer as for no channel at all.
        (
            &mark,
            path(HIDDEN_LAIR.id),
            vec![("description", json!("x"))],
            "Invalid channel ID",
        ),
        (
            &admin,
            path(999),
            vec![("description", json!("x"))],
            "Invalid channel ID",
        ),
        (
            &admin,
            verona.clone(),
            vec![("new_name", json!("Verona"))],
            "Channel already has that name.",
        ),
        (
            &admin,
            verona.clone(),
            vec![("new_name", json!("design"))],
            "Channel name already in use.",
        ),
        (
            &admin,
            verona.clone(),
            vec![("history_public_to_subscribers", json!(false))],
            "Invalid parameters",
        ),
        (
            &admin,
            verona.clone(),
            vec![("is_web_public", json!(true))],
            "Web-public channels are not enabled.",
        ),
        (
            &admin,
            path(HIDDEN_LAIR.id),
            vec![("is_private", json!(false))],
            "Channel content access is required.",
        ),
        (
            &owner,
            verona.clone(),
            vec![("message_retention_days", json!(0))],
            "Bad value for 'message_retention_days': 0",
        ),
        (
            &owner,
            verona.clone(),
            vec![("can_subscribe_group", update(json!(EVERYONE)))],
            "'can_subscribe_group' setting cannot be set to 'role:everyone' group.",
        ),
        (
            &owner,
            verona.clone(),
            vec![("can_send_message_group", update(json!(INTERNET)))],
            "'can_send_message_group' setting cannot be set to 'role:internet' group.",
        ),
        (
            &owner,
            verona.clone(),
            vec![("can_send_message_group", update(json!(999)))],
            "Invalid user group ID: 999",
        ),
        (
            &owner,
            verona.clone(),
            vec![("can_send_message_group", json!(7))],
            "Invalid can_send_message_group",
        ),
    ];
    for (api, target, params, msg) in cases {
        api.patch(&target, &params).await.bad_request(msg);
    }
    admin
        .patch(&verona, &[("message_retention_days", json!(30))])
        .await
        .err(
            400,
            "UNAUTHORIZED_PRINCIPAL",
            "Must be an organization owner",
        );
    owner
        .patch(
            &verona,
            &[(
                "can_send_message_group",
                json!({"new": NOBODY, "old": BACKEND}),
            )],
        )
        .await
        .err(
            400,
            "EXPECTATION_MISMATCH",
            "'old' value does not match the expected value.",
        );
    // Nothing refused changed anything.
    let stream = listed(&server, VERONA.id).await;
    assert_eq!(stream["name"], "Verona");
    assert_eq!(stream["can_send_message_group"], EVERYONE);
    assert_eq!(stream["message_retention_days"], Value::Null);
}

#[tokio::test]
async fn owners_set_message_retention() {
    let server = server();
    let owner = server.as_user(&OWNER);
    for (value, shown) in [
        (json!(30), json!(30)),
        (json!("unlimited"), json!(-1)),
        (json!("realm_default"), Value::Null),
    ] {
        owner
            .patch(&path(VERONA.id), &[("message_retention_days", value)])
            .await
            .ok();
        assert_eq!(
            listed(&server, VERONA.id).await["message_retention_days"],
            shown
        );
    }
}

#[tokio::test]
async fn channel_administrators_by_group_may_change_the_channel_and_remove_others() {
    let server = server();
    let nina = server.as_user(&MEMBER2);
    nina.patch(&path(VERONA.id), &[("description", json!("x"))])
        .await
        .bad_request("You do not have permission to administer this channel.");
    server
        .as_user(&OWNER)
        .patch(
            &path(VERONA.id),
            &[(
                "can_administer_channel_group",
                update(json!({"direct_members": [MEMBER2.id], "direct_subgroups": []})),
            )],
        )
        .await
        .ok();
    assert_eq!(
        listed(&server, VERONA.id).await["can_administer_channel_group"],
        json!({"direct_members": [MEMBER2.id], "direct_subgroups": []})
    );
    nina.patch(&path(VERONA.id), &[("description", json!("Nina's"))])
        .await
        .ok();
    nina.delete(
        "/users/me/subscriptions",
        &[
            ("subscriptions", json!([VERONA.name])),
            ("principals", json!([MODERATOR.id])),
        ],
    )
    .await
    .ok();
    let state = server.subscription_state().await;
    assert!(!state[VERONA.name].contains(&MODERATOR.id));
    // Retention stays the owners'.
    nina.patch(&path(VERONA.id), &[("message_retention_days", json!(5))])
        .await
        .err(
            400,
            "UNAUTHORIZED_PRINCIPAL",
            "Must be an organization owner",
        );
}

#[tokio::test]
async fn each_setting_is_taken_from_the_level_zulip_added_it() {
    for (setting, since) in [
        ("can_remove_subscribers_group", 320),
        ("can_administer_channel_group", 325),
        ("can_send_message_group", 333),
        ("can_add_subscribers_group", 342),
        ("can_subscribe_group", 357),
    ] {
        for (level, taken) in [(since, true), (since - 1, false)] {
            let server = TestServer::standard_with(&["--feature-level", &level.to_string()]);
            let r = server
                .as_user(&OWNER)
                .patch(&path(VERONA.id), &[(setting, update(json!(MEMBERS)))])
                .await;
            let ignored = r.ok()["ignored_parameters_unsupported"].clone();
            // role:members is no setting's default.
            let value = listed(&server, VERONA.id).await[setting].clone();
            if taken {
                assert_eq!(ignored, Value::Null, "{setting} at {level}");
                assert_eq!(value, MEMBERS, "{setting} at {level}");
            } else {
                assert_eq!(ignored, json!([setting]), "{setting} at {level}");
                assert_ne!(value, MEMBERS, "{setting} at {level}");
            }
        }
    }
}

#[tokio::test]
async fn retention_web_public_and_lone_history_are_taken_from_their_levels() {
    let cases: [(&str, Value, u32); 3] = [
        ("message_retention_days", json!(30), 17),
        ("is_web_public", json!(true), 98),
        ("history_public_to_subscribers", json!(false), 136),
    ];
    for (name, value, since) in cases {
        let below = TestServer::standard_with(&["--feature-level", &(since - 1).to_string()]);
        let r = below
            .as_user(&OWNER)
            .patch(&path(VERONA.id), &[(name, value.clone())])
            .await;
        assert_eq!(r.ok()["ignored_parameters_unsupported"], json!([name]));
        let at = TestServer::standard_with(&["--feature-level", &since.to_string()]);
        let r = at
            .as_user(&OWNER)
            .patch(&path(VERONA.id), &[(name, value)])
            .await;
        match name {
            "message_retention_days" => {
                r.ok();
                assert_eq!(listed(&at, VERONA.id).await[name], 30);
            }
            "is_web_public" => {
                r.bad_request("Web-public channels are not enabled.");
            }
            _ => {
                r.bad_request("Invalid parameters");
            }
        }
    }
}

#[tokio::test]
async fn a_channels_creator_administers_it_and_guests_never_do() {
    let server = server();
    let mona = server.as_user(&MODERATOR);
    mona.post(
        "/users/me/subscriptions",
        &[("subscriptions", json!([{"name": "Fresh"}]))],
    )
    .await
    .ok();
    let fresh = server
        .as_user(&OWNER)
        .get("/get_stream_id", &[("stream", json!("Fresh"))])
        .await
        .ok()["stream_id"]
        .as_u64()
        .expect("stream_id");
    assert_eq!(
        listed(&server, fresh).await["can_administer_channel_group"],
        json!({"direct_members": [MODERATOR.id], "direct_subgroups": []})
    );
    mona.patch(&path(fresh), &[("description", json!("Mona's"))])
        .await
        .ok();
    // Seeded channels have no creator: nobody administers them but administrators.
    assert_eq!(
        listed(&server, VERONA.id).await["can_administer_channel_group"],
        NOBODY
    );
    server
        .as_user(&GUEST)
        .patch(&path(VERONA.id), &[("description", json!("x"))])
        .await
        .bad_request("You do not have permission to administer this channel.");
    // A guest cannot be made a channel administrator through a group either.
    server
        .as_user(&OWNER)
        .patch(
            &path(VERONA.id),
            &[(
                "can_administer_channel_group",
                update(json!({"direct_members": [GUEST.id], "direct_subgroups": []})),
            )],
        )
        .await
        .ok();
    server
        .as_user(&GUEST)
        .patch(&path(VERONA.id), &[("description", json!("x"))])
        .await
        .bad_request("You do not have permission to administer this channel.");
}
