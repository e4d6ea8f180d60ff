//! Users as Zulip 10 describes them: `GET /users` with `client_gravatar` and
//! `include_custom_profile_fields`, `GET /users/{user_id}` and `GET /users/{email}`,
//! `GET /users/me`, and `register`'s users and system bots.

use std::collections::BTreeMap;

use serde_json::Value;
use weir_tests::*;

fn by_id(members: &Value) -> BTreeMap<u64, Value> {
    members
        .as_array()
        .unwrap_or_else(|| panic!("unexpected JSON shape"))
        .iter()
        .map(|m| {
            (
                m["user_id"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("unexpected JSON shape")),
                m.clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn avatars_follow_client_gravatar_and_every_user_has_an_avatar_version() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let default = mark.get("/users", &[]).await;
    let urls = mark
        .get("/users", &[("client_gravatar", json!(false))])
        .await;
    for m in default.ok()["members"]
        .as_array()
        .unwrap_or_else(|| panic!("unexpected JSON shape"))
    {
        assert_eq!(m["avatar_url"], Value::Null, "{m}");
        assert_eq!(m["avatar_version"], 1, "{m}");
    }
    for m in urls.ok()["members"]
        .as_array()
        .unwrap_or_else(|| panic!("unexpected JSON shape"))
    {
        let url = m["avatar_url"].as_str().unwrap_or_default();
        assert!(
            url.starts_with("https://secure.gravatar.com/avatar/"),
            "{m}"
        );
    }
}

#[tokio::test]
async fn bot_fields_are_only_on_bots_and_profile_data_only_on_people_when_asked() {
    let server = TestServer::standard();
    let r = server
        .as_user(&MEMBER)
        .get("/users", &[("include_custom_profile_fields", json!(true))])
        .await;
    let members = by_id(&r.ok()["members"]);
    let person = &members[&MEMBER2.id];
    assert!(
        person.get("bot_type").is_none() && person.get("bot_owner_id").is_none(),
        "{person}"
    );
    assert_eq!(
        person["profile_data"],
        json!({}),
        "an organization without custom fields"
    );
    let bot = &members[&WEBHOOK_BOT.id];
    assert_eq!(bot["bot_type"], 2);
    assert_eq!(bot["bot_owner_id"], MEMBER.id);
    assert!(bot.get("profile_data").is_none(), "{bot}");

    let plain = server.as_user(&MEMBER).get("/users", &[]).await;
    assert!(
        by_id(&plain.ok()["members"])[&MEMBER2.id]
            .get("profile_data")
            .is_none()
    );
}

#[tokio::test]
async fn own_user_has_an_avatar_and_bot_fields_only_for_bots() {
    let server = TestServer::standard();
    let me = server.as_user(&MEMBER).get("/users/me", &[]).await;
    let me = me.ok();
    assert!(
        me.get("bot_type").is_none() && me.get("bot_owner_id").is_none(),
        "{me}"
    );
    assert!(me["avatar_url"].as_str().is_some(), "{me}");
    assert_eq!(me["avatar_version"], 1);
    let bot = server.as_user(&GENERIC_BOT).get("/users/me", &[]).await;
    assert_eq!(bot.ok()["bot_type"], 1);
    assert_eq!(bot.ok()["bot_owner_id"], MEMBER.id);
}

#[tokio::test]
async fn one_user_by_id_or_email_including_deactivated_ones() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let by_id = mark.get(&format!("/users/{}", MEMBER2.id), &[]).await;
    assert_eq!(by_id.ok()["user"]["email"], MEMBER2.email);
    assert_eq!(
        by_id.ok()["user"]["delivery_email"],
        Value::Null,
        "members see no one else's"
    );
    let by_email = mark
        .get(&format!("/users/{}", MEMBER2.email.to_uppercase()), &[])
        .await;
    assert_eq!(by_email.ok()["user"]["user_id"], MEMBER2.id);
    let gone = mark.get(&format!("/users/{}", DEACTIVATED.id), &[]).await;
    assert_eq!(gone.ok()["user"]["is_active"], false);
    let with_fields = mark
        .get(
            &format!("/users/{}", MEMBER2.id),
            &[
                ("include_custom_profile_fields", json!(true)),
                ("client_gravatar", json!(false)),
            ],
        )
        .await;
    assert_eq!(with_fields.ok()["user"]["profile_data"], json!({}));
    assert!(with_fields.ok()["user"]["avatar_url"].is_string());

    mark.get("/users/9999", &[])
        .await
        .bad_request("No such user");
    mark.get("/users/nobody@globex.test", &[])
        .await
        .bad_request("No such user");
    // System bots are not users of the organization.
    mark.get("/users/notification-bot@zulip.com", &[])
        .await
        .bad_request("No such user");
}

#[tokio::test]
async fn register_lists_system_bots_as_such_and_the_callers_own_rights() {
    let server = TestServer::standard();
    let r = server
        .as_user(&GUEST)
        .post("/register", &[("fetch_event_types", json!(["realm_user"]))])
        .await;
    let body = r.ok();
    let bots = body["cross_realm_bots"]
        .as_array()
        .unwrap_or_else(|| panic!("unexpected JSON shape"));
    assert!(!bots.is_empty(), "{}", r.debug());
    assert!(bots.iter().all(|b| b["is_system_bot"] == true), "{bots:?}");
    assert_eq!(body["user_id"], GUEST.id);
    assert_eq!(body["is_guest"], true);
    assert_eq!(body["can_subscribe_other_users"], false);
    assert_eq!(body["can_create_web_public_streams"], false);
    assert!(body["avatar_url"].as_str().is_some());
}
