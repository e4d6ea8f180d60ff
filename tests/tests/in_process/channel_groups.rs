//! The channel settings that name user groups (`can_add_subscribers_group`,
//! `can_remove_subscribers_group`, `can_subscribe_group`, and channel administrators)
//! decide subscribe and unsubscribe from the feature levels where Zulip introduced them.
//! The organization is `user_groups.rs`'s, with Secret Plans (which 105 cannot see)
//! letting `backend` add others and join, and Engineering letting it remove others.

use serde_json::{Value, json};
use weir_tests::*;

use crate::user_groups::{
    ADMINISTRATORS, BACKEND, ENGINEERING, NOBODY, PERMISSION, change, seed_with_groups,
};

const ENGINEERING_STREAM: Stream = weir_tests::ENGINEERING;

/// The groups, and the channel settings naming `backend`.
fn channel_seed() -> Value {
    let mut seed = seed_with_groups();
    for stream in seed["streams"].as_array_mut().expect("streams") {
        if stream["stream_id"] == SECRET_PLANS.id {
            stream["can_add_subscribers_group"] = json!(BACKEND);
            stream["can_subscribe_group"] = json!(BACKEND);
        }
        if stream["stream_id"] == ENGINEERING_STREAM.id {
            stream["can_remove_subscribers_group"] =
                json!({"direct_members": [], "direct_subgroups": [BACKEND]});
        }
    }
    seed
}

fn channel_server(level: u32) -> TestServer {
    TestServer::start(channel_seed(), &["--feature-level", &level.to_string()])
}

const SUBS: &str = "/users/me/subscriptions";

async fn subscribe(api: &Api, stream: &str, principals: Option<Value>) -> Resp {
    let mut params = vec![("subscriptions", json!([{"name": stream}]))];
    params.extend(principals.map(|p| ("principals", p)));
    api.post(SUBS, &params).await
}

#[tokio::test]
async fn streams_show_the_groups_their_settings_name() {
    let server = channel_server(362);
    let r = server.as_user(&OWNER).get("/streams", &[]).await;
    let streams = r.ok()["streams"].as_array().cloned().unwrap_or_default();
    let find = |id: u64| {
        streams
            .iter()
            .find(|s| s["stream_id"] == id)
            .cloned()
            .unwrap_or_default()
    };
    let secret = find(SECRET_PLANS.id);
    assert_eq!(secret["can_add_subscribers_group"], BACKEND);
    assert_eq!(secret["can_subscribe_group"], BACKEND);
    assert_eq!(secret["can_remove_subscribers_group"], ADMINISTRATORS);
    // The single-subgroup form is stored as Zulip canonicalizes it: the group's id.
    assert_eq!(
        find(ENGINEERING_STREAM.id)["can_remove_subscribers_group"],
        BACKEND
    );
    assert_eq!(find(VERONA.id)["can_add_subscribers_group"], NOBODY);
}

#[tokio::test]
async fn can_add_subscribers_group_lets_its_members_add_others_from_level_349() {
    // Zulip 10.0 (level 349): "If a user is part of can_add_subscribers_group, they can
    // subscribe themselves or other users to a private channel without being subscribed".
    for (level, allowed) in [(362, true), (349, true), (348, false), (342, false)] {
        let server = channel_server(level);
        let r = subscribe(
            &server.as_user(&MEMBER2),
            SECRET_PLANS.name,
            Some(json!([MODERATOR.id])),
        )
        .await;
        if allowed {
            r.ok();
        } else {
            r.bad_request("Unable to access channel (Secret Plans).");
        }
        let subscribed = server
            .subscription_state()
            .await
            .get(SECRET_PLANS.name)
            .is_some_and(|members| members.contains(&MODERATOR.id));
        assert_eq!(subscribed, allowed, "level {level}");
    }
}

#[tokio::test]
async fn can_subscribe_group_lets_its_members_join_from_level_357() {
    for (level, allowed) in [(362, true), (357, true), (356, false)] {
        let server = one_setting_server("can_subscribe_group", level);
        let r = subscribe(&server.as_user(&MEMBER2), SECRET_PLANS.name, None).await;
        if allowed {
            r.ok();
        } else {
            r.bad_request("Unable to access channel (Secret Plans).");
        }
    }
    // Someone outside the group still may not.
    let server = channel_server(362);
    subscribe(&server.as_user(&MODERATOR), SECRET_PLANS.name, None)
        .await
        .bad_request("Unable to access channel (Secret Plans).");
}

/// Secret Plans naming `backend` in one setting only.
fn one_setting_server(setting: &str, level: u32) -> TestServer {
    let mut seed = seed_with_groups();
    for stream in seed["streams"].as_array_mut().expect("streams") {
        if stream["stream_id"] == SECRET_PLANS.id {
            stream[setting] = json!(BACKEND);
        }
    }
    TestServer::start(seed, &["--feature-level", &level.to_string()])
}

#[tokio::test]
async fn either_group_opens_a_private_channel_for_yourself_and_others() {
    // Zulip's content access through groups: can_add_subscribers_group lets its members
    // join too; can_subscribe_group members may add others (the organization lets
    // members add people to the channels they reach).
    let cases = [
        ("can_add_subscribers_group", None, 349, true),
        ("can_add_subscribers_group", None, 348, false),
        (
            "can_subscribe_group",
            Some(json!([MODERATOR.id])),
            357,
            true,
        ),
        (
            "can_subscribe_group",
            Some(json!([MODERATOR.id])),
            356,
            false,
        ),
    ];
    for (setting, principals, level, allowed) in cases {
        let server = one_setting_server(setting, level);
        let r = subscribe(
            &server.as_user(&MEMBER2),
            SECRET_PLANS.name,
            principals.clone(),
        )
        .await;
        if allowed {
            r.ok();
        } else {
            r.bad_request("Unable to access channel (Secret Plans).");
        }
        let who = if principals.is_some() {
            MODERATOR.id
        } else {
            MEMBER2.id
        };
        let subscribed = server
            .subscription_state()
            .await
            .get(SECRET_PLANS.name)
            .is_some_and(|members| members.contains(&who));
        assert_eq!(subscribed, allowed, "{setting} at {level}");
    }
}

#[tokio::test]
async fn can_remove_subscribers_group_lets_its_members_remove_others_from_level_142() {
    let remove = |api: Api| async move {
        api.delete(
            SUBS,
            &[
                ("subscriptions", json!([ENGINEERING_STREAM.name])),
                ("principals", json!([OWNER.id])),
            ],
        )
        .await
    };
    for (level, allowed) in [(362, true), (142, true), (141, false)] {
        let server = channel_server(level);
        let r = remove(server.as_user(&MEMBER2)).await;
        if allowed {
            r.ok();
        } else {
            r.bad_request(PERMISSION);
        }
    }
    let server = channel_server(362);
    remove(server.as_user(&MODERATOR))
        .await
        .bad_request(PERMISSION);
}

#[tokio::test]
async fn a_channels_creator_removes_others_from_level_349() {
    for (level, allowed) in [(362, true), (349, true), (348, false)] {
        let server = channel_server(level);
        let creator = server.as_user(&MODERATOR);
        subscribe(&creator, "Fresh", Some(json!([MODERATOR.id, MEMBER.id])))
            .await
            .ok();
        let r = creator
            .delete(
                SUBS,
                &[
                    ("subscriptions", json!(["Fresh"])),
                    ("principals", json!([MEMBER.id])),
                ],
            )
            .await;
        if allowed {
            r.ok();
        } else {
            r.bad_request(PERMISSION);
        }
    }
}

#[tokio::test]
async fn a_group_a_channel_setting_names_is_in_use() {
    let server = channel_server(362);
    let owner = server.as_user(&OWNER);
    // Engineering stops naming backend as a subgroup; the channels still name it.
    change(
        &owner,
        ENGINEERING,
        &[("delete_subgroups", json!([BACKEND]))],
    )
    .await
    .ok();
    let r = owner
        .post(&format!("/user_groups/{BACKEND}/deactivate"), &[])
        .await;
    let body = r.err(
        400,
        "CANNOT_DEACTIVATE_GROUP_IN_USE",
        "Cannot deactivate user group in use.",
    );
    assert_eq!(
        body["objections"],
        json!([
            {"type": "channel", "channel_id": ENGINEERING_STREAM.id,
             "settings": ["can_remove_subscribers_group"]},
            {"type": "channel", "channel_id": SECRET_PLANS.id,
             "settings": ["can_add_subscribers_group", "can_subscribe_group"]}
        ])
    );
}

#[tokio::test]
async fn a_guest_in_can_remove_subscribers_group_removes_others_only_where_subscribed() {
    // Zulip's `can_remove_subscribers_from_stream` checks basic access first: a guest
    // reads only the channels they are in, public ones included.
    let mut seed = seed_with_groups();
    let guest_only = json!({"direct_members": [GUEST.id], "direct_subgroups": []});
    for stream in seed["streams"].as_array_mut().expect("streams") {
        if stream["stream_id"] == ENGINEERING_STREAM.id || stream["stream_id"] == DESIGN.id {
            stream["can_remove_subscribers_group"] = guest_only.clone();
        }
    }
    let server = TestServer::start(seed, &[]);
    let guest = server.as_user(&GUEST);
    let remove = |stream: &'static str, who: u64| {
        let guest = guest.clone();
        async move {
            guest
                .delete(
                    SUBS,
                    &[
                        ("subscriptions", json!([stream])),
                        ("principals", json!([who])),
                    ],
                )
                .await
        }
    };
    // Engineering is public and the guest is not in it.
    remove(ENGINEERING_STREAM.name, OWNER.id)
        .await
        .bad_request(PERMISSION);
    assert!(
        server
            .members_of(ENGINEERING_STREAM.id)
            .await
            .contains(&OWNER.id)
    );
    // Design is public and the guest is in it.
    let r = remove(DESIGN.name, MODERATOR.id).await;
    assert_unsubscribed(&r, &[DESIGN.name], &[]);
    assert!(!server.members_of(DESIGN.id).await.contains(&MODERATOR.id));
}

#[tokio::test]
async fn anonymous_setting_values_leave_deactivated_users_out() {
    // Zulip reads anonymous groups for `GET /streams` and `register` without
    // deactivated users; the subgroups stay, and so does an emptied list.
    let mut seed = seed_with_groups();
    for stream in seed["streams"].as_array_mut().expect("streams") {
        if stream["stream_id"] == ENGINEERING_STREAM.id {
            stream["can_remove_subscribers_group"] = json!({
                "direct_members": [MEMBER.id, DEACTIVATED.id], "direct_subgroups": [BACKEND]});
            stream["can_subscribe_group"] =
                json!({"direct_members": [DEACTIVATED.id], "direct_subgroups": []});
        }
    }
    let server = TestServer::start(seed, &[]);
    let owner = server.as_user(&OWNER);
    let expected_remove = json!({"direct_members": [MEMBER.id], "direct_subgroups": [BACKEND]});
    let expected_join = json!({"direct_members": [], "direct_subgroups": []});

    let listed = owner.get("/streams", &[]).await;
    let listed = listed.ok();
    let engineering = listed["streams"]
        .as_array()
        .and_then(|all| all.iter().find(|s| s["stream_id"] == ENGINEERING_STREAM.id))
        .cloned()
        .expect("Engineering listed");
    assert_eq!(engineering["can_remove_subscribers_group"], expected_remove);
    assert_eq!(engineering["can_subscribe_group"], expected_join);

    let registered = owner
        .post(
            "/register",
            &[("fetch_event_types", json!(["subscription"]))],
        )
        .await;
    let registered = registered.ok();
    let lists = ["subscriptions", "unsubscribed", "never_subscribed"];
    let engineering = lists
        .iter()
        .filter_map(|list| registered[*list].as_array())
        .flatten()
        .find(|s| s["stream_id"] == ENGINEERING_STREAM.id)
        .cloned()
        .expect("Engineering in register");
    assert_eq!(engineering["can_remove_subscribers_group"], expected_remove);
    assert_eq!(engineering["can_subscribe_group"], expected_join);
}
