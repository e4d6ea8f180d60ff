//! Bots and API keys: `POST /bots`, `GET /bots`, key regeneration
//! (`docs/zulip-compatibility.md`: Bots and keys).

use serde_json::Value;
use weir_tests::*;

fn is_api_key(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|k| k.len() == 32 && k.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn find_bot<'a>(bots: &'a Value, email: &str) -> Option<&'a Value> {
    bots.as_array()?.iter().find(|b| b["username"] == email)
}

async fn create_bot(api: &Api, full_name: &str, short_name: &str, bot_type: Option<u8>) -> Resp {
    let mut params = vec![
        ("full_name", json!(full_name)),
        ("short_name", json!(short_name)),
    ];
    if let Some(t) = bot_type {
        params.push(("bot_type", json!(t)));
    }
    api.post("/bots", &params).await
}

// ---------------------------------------------------------------------- creating

#[tokio::test]
async fn a_member_creates_an_incoming_webhook_bot() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);

    let r = create_bot(&nina, "Build Bot", "build", Some(2)).await;

    let body = r.ok();
    assert!(is_api_key(&body["api_key"]), "{}", r.debug());
    let id = body["user_id"]
        .as_u64()
        .unwrap_or_else(|| panic!("no user_id\n{}", r.debug()));
    let users = server.as_user(&OWNER).get("/users", &[]).await;
    let bot = users.ok()["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["user_id"] == id)
        .unwrap_or_else(|| panic!("new bot not in GET /users\n{}", users.debug()))
        .clone();
    assert_eq!(bot["email"], "build-bot@globex.test", "{bot}");
    assert_eq!(bot["full_name"], "Build Bot", "{bot}");
    assert_eq!(bot["is_bot"], true, "{bot}");
    assert_eq!(bot["bot_type"], 2, "{bot}");
    assert_eq!(bot["bot_owner_id"], MEMBER2.id, "{bot}");
    assert_eq!(bot["is_active"], true, "{bot}");
    // Its key is real: as an incoming webhook bot it is turned away from REST endpoints.
    let key = body["api_key"].as_str().unwrap();
    server
        .with_key("build-bot@globex.test", key)
        .get("/users/me", &[])
        .await
        .unauthorized("This API is not available to incoming webhook bots.");
}

#[tokio::test]
async fn a_bot_created_without_a_type_is_generic_and_its_key_works() {
    let server = TestServer::standard();

    let r = create_bot(&server.as_user(&MEMBER), "Janitor", "janitor", None).await;

    let key = r.ok()["api_key"].as_str().unwrap().to_string();
    let me = server
        .with_key("janitor-bot@globex.test", &key)
        .get("/users/me", &[])
        .await;
    let me = me.ok();
    assert_eq!(me["email"], "janitor-bot@globex.test", "{me}");
    assert_eq!(me["bot_type"], 1, "{me}");
    assert_eq!(me["bot_owner_id"], MEMBER.id, "{me}");
}

#[tokio::test]
async fn bot_emails_use_the_host_of_the_realm_url_when_no_bot_domain_is_given() {
    let mut seed = standard_seed();
    seed["realm"] = json!({"name": "Acme", "url": "http://acme.localhost"});
    let server = TestServer::start(seed, &[]);

    let r = create_bot(&server.as_user(&MEMBER), "Deploy", "deploy", Some(1)).await;

    let key = r.ok()["api_key"].as_str().unwrap().to_string();
    let me = server
        .with_key("deploy-bot@acme.localhost", &key)
        .get("/users/me", &[])
        .await;
    assert_eq!(me.ok()["email"], "deploy-bot@acme.localhost");
}

#[tokio::test]
async fn get_bots_lists_the_callers_own_active_bots() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);
    let created = create_bot(&nina, "Build Bot", "build", Some(2)).await;
    let key = created.ok()["api_key"].clone();

    let r = nina.get("/bots", &[]).await;

    let bots = &r.ok()["bots"];
    let emails: Vec<&str> = bots
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["username"].as_str().unwrap())
        .collect();
    let mut sorted = emails.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["build-bot@globex.test", "ninas-bot@globex.test"],
        "{}",
        r.debug()
    );
    let build = find_bot(bots, "build-bot@globex.test").unwrap();
    assert_eq!(build["full_name"], "Build Bot");
    assert_eq!(build["api_key"], key);
    let seeded = find_bot(bots, OTHER_BOT.email).unwrap();
    assert_eq!(seeded["full_name"], OTHER_BOT.full_name);
    assert_eq!(seeded["api_key"], OTHER_BOT.key);
}

#[tokio::test]
async fn get_bots_for_an_owner_of_two_bots() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/bots", &[]).await;

    let bots = &r.ok()["bots"];
    assert_eq!(bots.as_array().unwrap().len(), 2, "{}", r.debug());
    assert_eq!(
        find_bot(bots, WEBHOOK_BOT.email).unwrap()["api_key"],
        WEBHOOK_BOT.key
    );
    assert_eq!(
        find_bot(bots, GENERIC_BOT.email).unwrap()["api_key"],
        GENERIC_BOT.key
    );
}

#[tokio::test]
async fn an_empty_or_invalid_short_name_is_a_bad_name() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    create_bot(&mark, "Nameless", "", None)
        .await
        .bad_request("Bad name or username");
    create_bot(&mark, "Spacey", "has space", None)
        .await
        .bad_request("Bad name or username");
}

#[tokio::test]
async fn a_short_name_already_taken_is_refused() {
    let server = TestServer::standard();

    // relay-bot@globex.test is the seeded incoming-webhook bot.
    let r = create_bot(&server.as_user(&MEMBER2), "Another Relay", "relay", None).await;

    r.bad_request("Username already in use");
}

#[tokio::test]
async fn a_full_name_already_used_by_a_bot_is_refused() {
    let server = TestServer::standard();

    let r = create_bot(&server.as_user(&MEMBER2), "Relay", "relay2", None).await;

    r.bad_request("Name is already in use.");
}

#[tokio::test]
async fn guests_may_not_create_bots() {
    let server = TestServer::standard();

    let r = create_bot(&server.as_user(&GUEST), "Guest Bot", "guestly", Some(1)).await;

    r.bad_request("Not allowed for guest users");
}

#[tokio::test]
async fn missing_bot_arguments_are_reported() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    let r = mark.post("/bots", &[("short_name", json!("x"))]).await;
    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'full_name' argument",
    );
    assert_eq!(body["var_name"], "full_name");
    let r = mark.post("/bots", &[("full_name", json!("X Bot"))]).await;
    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'short_name' argument",
    );
    assert_eq!(body["var_name"], "short_name");
}

// ---------------------------------------------------------------- regenerating keys

#[tokio::test]
async fn a_bot_owner_regenerates_a_bot_key_and_the_old_one_stops_working() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post("/bots/202/api_key/regenerate", &[])
        .await;

    let new_key = r.ok()["api_key"].clone();
    assert!(is_api_key(&new_key), "{}", r.debug());
    assert_ne!(new_key, GENERIC_BOT.key);
    server
        .as_user(&GENERIC_BOT)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
    let me = server
        .with_key(GENERIC_BOT.email, new_key.as_str().unwrap())
        .get("/users/me", &[])
        .await;
    assert_eq!(me.ok()["user_id"], GENERIC_BOT.id);
    let listed = server.as_user(&MEMBER).get("/bots", &[]).await;
    assert_eq!(
        find_bot(&listed.ok()["bots"], GENERIC_BOT.email).unwrap()["api_key"],
        new_key
    );
}

#[tokio::test]
async fn a_webhook_bots_old_key_is_invalid_after_regeneration() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post("/bots/201/api_key/regenerate", &[])
        .await;

    let new_key = r.ok()["api_key"].as_str().unwrap().to_string();
    server
        .as_user(&WEBHOOK_BOT)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
    server
        .with_key(WEBHOOK_BOT.email, &new_key)
        .get("/users/me", &[])
        .await
        .unauthorized("This API is not available to incoming webhook bots.");
}

#[tokio::test]
async fn a_member_cannot_regenerate_someone_elses_bot_key() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post("/bots/203/api_key/regenerate", &[])
        .await;

    r.any_zulip_error();
    assert_eq!(r.status, 400, "{}", r.debug());
    assert!(!r.text.contains(OTHER_BOT.key), "{}", r.debug());
    server.as_user(&OTHER_BOT).get("/users/me", &[]).await.ok();
}

#[tokio::test]
async fn regenerating_the_key_of_a_missing_bot_or_a_human_fails() {
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);

    owner
        .post("/bots/9999/api_key/regenerate", &[])
        .await
        .any_zulip_error();
    owner
        .post("/bots/105/api_key/regenerate", &[])
        .await
        .any_zulip_error();
    server.as_user(&MEMBER2).get("/users/me", &[]).await.ok();
}

#[tokio::test]
async fn regenerating_your_own_key_invalidates_the_old_one_at_once() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post("/users/me/api_key/regenerate", &[])
        .await;

    let new_key = r.ok()["api_key"].as_str().unwrap().to_string();
    assert!(is_api_key(&json!(new_key)), "{}", r.debug());
    assert_ne!(new_key, MEMBER.key);
    server
        .as_user(&MEMBER)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
    let me = server
        .with_key(MEMBER.email, &new_key)
        .get("/users/me", &[])
        .await;
    assert_eq!(me.ok()["user_id"], MEMBER.id);
    // Others are unaffected.
    server.as_user(&MEMBER2).get("/users/me", &[]).await.ok();
}

#[tokio::test]
async fn guests_may_not_list_bots() {
    // Zulip's get_bots_backend is @require_member_or_admin.
    let server = TestServer::standard();

    let r = server.as_user(&GUEST).get("/bots", &[]).await;

    r.bad_request("Not allowed for guest users");
}

#[tokio::test]
async fn guests_may_not_regenerate_bot_keys() {
    // Zulip's regenerate_bot_api_key is @require_member_or_admin.
    let server = TestServer::standard();

    let r = server
        .as_user(&GUEST)
        .post("/bots/202/api_key/regenerate", &[])
        .await;

    r.bad_request("Not allowed for guest users");
    server
        .as_user(&GENERIC_BOT)
        .get("/users/me", &[])
        .await
        .ok();
}

#[tokio::test]
async fn the_new_bots_avatar_url_is_a_url() {
    // Zulip answers avatar_url(bot_profile): always a URL string.
    let server = TestServer::standard();

    let r = create_bot(&server.as_user(&MEMBER), "Painter", "painter", Some(1)).await;

    assert!(
        r.ok()["avatar_url"].as_str().is_some_and(|u| !u.is_empty()),
        "{}",
        r.debug()
    );
}

// ------------------------------------------------------------- bots are not people

/// Zulip's `require_member_or_admin` and `human_users_only`: the endpoints that manage
/// bots and API keys refuse bots, so a bot can never own a bot.
#[tokio::test]
async fn bots_may_not_call_the_endpoints_reserved_for_people() {
    let server = TestServer::standard();
    let bot = server.as_user(&GENERIC_BOT);
    let refused = "This endpoint does not accept bot requests.";

    create_bot(&bot, "Bot Child", "child", Some(1))
        .await
        .bad_request(refused);
    bot.get("/bots", &[]).await.bad_request(refused);
    bot.post(&format!("/bots/{}/api_key/regenerate", OTHER_BOT.id), &[])
        .await
        .bad_request(refused);
    bot.post("/users/me/api_key/regenerate", &[])
        .await
        .bad_request(refused);

    // Nothing changed: no new bot, and every key still works.
    let users = server.as_user(&OWNER).get("/users", &[]).await;
    let members = users.ok()["members"].as_array().unwrap();
    assert!(
        !members
            .iter()
            .any(|u| u["email"] == "child-bot@globex.test"),
        "{}",
        users.debug()
    );
    bot.get("/users/me", &[]).await.ok();
    server.as_user(&OTHER_BOT).get("/users/me", &[]).await.ok();
}

/// Zulip's `check_full_name` and short-name rules: no control or format characters, no
/// mention or markup characters, 2 to 100 characters; a short name must make a valid
/// address of at most 254 characters.
#[tokio::test]
async fn names_with_hostile_characters_or_lengths_are_refused() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER2);

    for (full_name, msg) in [
        ("Nul\0Bot", "Invalid characters in name!"),
        ("\u{202E}toB evil", "Invalid characters in name!"),
        ("<b>*Bold*</b> Bot", "Invalid characters in name!"),
        ("@**Olivia Owner**", "Invalid characters in name!"),
        ("Ambiguous|101", "Invalid format!"),
        ("X", "Name too short!"),
    ] {
        create_bot(&member, full_name, "hostile", Some(1))
            .await
            .bad_request(msg);
    }
    create_bot(&member, &"n".repeat(101), "long", Some(1))
        .await
        .bad_request("Name too long!");
    create_bot(&member, "Long Short Name", &"s".repeat(500), Some(1))
        .await
        .bad_request("Bad name or username");

    let bots = member.get("/bots", &[]).await;
    assert_eq!(
        bots.ok()["bots"].as_array().unwrap().len(),
        1,
        "{}",
        bots.debug()
    );
    // The longest name Zulip allows is fine.
    create_bot(&member, &"n".repeat(100), "longest", Some(1))
        .await
        .ok();
}

// ------------------------------------------------------- Zulip 12: GET /bots/{id}/api_key

fn at_level(level: u32) -> TestServer {
    TestServer::standard_with(&["--feature-level", &level.to_string()])
}

#[tokio::test]
async fn from_level_463_an_owner_reads_a_bots_key_from_the_key_endpoint() {
    let server = at_level(463);

    let r = server.as_user(&MEMBER2).get("/bots/203/api_key", &[]).await;

    assert_eq!(r.ok()["api_key"], OTHER_BOT.key, "{}", r.debug());
}

#[tokio::test]
async fn below_level_463_the_key_endpoint_does_not_exist() {
    let server = at_level(462);

    let r = server.as_user(&MEMBER2).get("/bots/203/api_key", &[]).await;

    assert_eq!(r.status, 404, "{}", r.debug());
    assert!(!r.text.contains(OTHER_BOT.key), "{}", r.debug());
}

#[tokio::test]
async fn the_key_endpoint_refuses_other_peoples_bots_and_humans() {
    let server = at_level(500);

    let r = server.as_user(&MEMBER).get("/bots/203/api_key", &[]).await;
    r.bad_request("Insufficient permission");
    assert!(!r.text.contains(OTHER_BOT.key), "{}", r.debug());
    server
        .as_user(&OWNER)
        .get("/bots/105/api_key", &[])
        .await
        .bad_request("No such bot");
    server
        .as_user(&GUEST)
        .get("/bots/203/api_key", &[])
        .await
        .any_zulip_error();
    // An administrator may read any bot's key, as Zulip's access_bot_by_id allows.
    let r = server.as_user(&OWNER).get("/bots/203/api_key", &[]).await;
    assert_eq!(r.ok()["api_key"], OTHER_BOT.key, "{}", r.debug());
}

#[tokio::test]
async fn listings_carry_keys_up_to_level_473_and_none_from_474() {
    for (level, keyed) in [(473, true), (474, false)] {
        let server = at_level(level);

        let r = server.as_user(&MEMBER2).get("/bots", &[]).await;

        let bot = find_bot(&r.ok()["bots"], OTHER_BOT.email).unwrap().clone();
        assert_eq!(bot.get("api_key").is_some(), keyed, "level {level}: {bot}");
        assert!(keyed || !r.text.contains(OTHER_BOT.key), "{}", r.debug());
    }
}
