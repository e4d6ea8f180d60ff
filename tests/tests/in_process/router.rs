//! A small organization of its own (an owner, a member, the member's incoming-webhook
//! bot; a public and a private stream) through the whole router: the cases that were
//! weir-server's own in-process suite (`crates/weir-server/tests/router.rs`) before it
//! joined this harness.

use serde_json::{Value, json};
use weir_tests::*;

const OWNER_KEY: &str = "OwnerKey00000000000000000000000a";
const MEMBER_KEY: &str = "MemberKey0000000000000000000000b";
const HOOK_KEY: &str = "HookKey000000000000000000000000c";

fn seed() -> Value {
    json!({
        "realm": {"name": "Globex", "url": "http://globex.localhost"},
        "users": [
            {"user_id": 1, "email": "owner@globex.test", "full_name": "Owner", "role": "owner", "api_key": OWNER_KEY},
            {"user_id": 2, "email": "member@globex.test", "full_name": "Member", "role": "member", "api_key": MEMBER_KEY},
            {"user_id": 3, "email": "hook-bot@globex.test", "full_name": "Hook", "role": "member",
             "bot_type": 2, "bot_owner_id": 2, "api_key": HOOK_KEY}
        ],
        "streams": [
            {"stream_id": 10, "name": "Engineering", "subscribers": [1, 2]},
            {"stream_id": 11, "name": "Secret", "invite_only": true, "subscribers": [1]}
        ]
    })
}

fn member(server: &TestServer) -> Api {
    server.with_key("member@globex.test", MEMBER_KEY)
}

#[tokio::test]
async fn member_unsubscribes_self_and_sees_the_pair_once() {
    let server = TestServer::start(seed(), &[]);

    let r = member(&server)
        .delete(
            "/users/me/subscriptions",
            &[("subscriptions", json!(["engineering", "ENGINEERING"]))],
        )
        .await;

    assert_eq!(r.status, 200, "{}", r.debug());
    assert_eq!(r.json["removed"], json!(["Engineering"]));
    assert_eq!(r.json["not_removed"], json!([]));
}

#[tokio::test]
async fn a_private_stream_is_reported_as_missing_to_those_who_cannot_see_it() {
    let server = TestServer::start(seed(), &[]);

    let r = member(&server)
        .delete(
            "/users/me/subscriptions",
            &[("subscriptions", json!(["Secret"]))],
        )
        .await;

    assert_eq!(r.status, 400, "{}", r.debug());
    assert_eq!(r.json["code"], "STREAM_DOES_NOT_EXIST");
    assert_eq!(r.json["msg"], "Channel 'Secret' does not exist");
}

#[tokio::test]
async fn webhook_bots_are_refused_on_the_rest_api() {
    let server = TestServer::start(seed(), &[]);

    let r = server
        .with_key("hook-bot@globex.test", HOOK_KEY)
        .get("/users/me", &[])
        .await;

    assert_eq!(r.status, 401, "{}", r.debug());
    assert_eq!(
        r.json["msg"],
        "This API is not available to incoming webhook bots."
    );
}

#[tokio::test]
async fn hello_world_webhook_stores_one_rendered_message() {
    let server = TestServer::start(seed(), &[]);
    let anon = server.anon();
    let rb = anon
        .request_unauthenticated(
            Method::POST,
            &format!("/external/helloworld?api_key={HOOK_KEY}&stream=engineering"),
        )
        .body(r#"{"featured_title":"Tea","featured_url":"https://x.test/tea"}"#);

    let r = anon.send(rb, "POST /external/helloworld").await;

    assert_eq!(
        (r.status, &r.json),
        (200, &json!({"result": "success", "msg": ""}))
    );

    let r = server
        .with_key("owner@globex.test", OWNER_KEY)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(10)),
                ("num_after", json!(0)),
            ],
        )
        .await;
    let messages = r.json["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{}", r.debug());
    assert_eq!(messages[0]["client"], "ZulipHelloWorldWebhook");
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .contains(r#"<a href="https://x.test/tea">Tea</a>"#)
    );
}

#[tokio::test]
async fn rate_limit_answers_429_with_retry_after_once_the_window_is_full() {
    let server = TestServer::start(seed(), &["--rate-limit", "2"]);
    let member = member(&server);

    let first = member.get("/users/me", &[]).await;
    assert_eq!(first.header("X-RateLimit-Remaining").as_deref(), Some("1"));
    member.get("/users/me", &[]).await;
    let r = member.get("/users/me", &[]).await;

    assert_eq!(r.status, 429, "{}", r.debug());
    assert_eq!(r.json["code"], "RATE_LIMIT_HIT");
    assert!(r.json["retry-after"].as_f64().unwrap() > 0.0);
}

#[tokio::test]
async fn a_regenerated_key_replaces_the_old_one_at_once_despite_the_auth_cache() {
    let server = TestServer::start(seed(), &[]);
    let me = |key: &str| server.with_key("member@globex.test", key);
    assert_eq!(
        me(MEMBER_KEY).get("/users/me", &[]).await.status,
        200,
        "warms the cache"
    );
    let r = me(MEMBER_KEY)
        .post("/users/me/api_key/regenerate", &[])
        .await;
    let new_key = r.json["api_key"].as_str().unwrap().to_owned();

    let r = me(MEMBER_KEY).get("/users/me", &[]).await;
    assert_eq!(
        (r.status, r.json["msg"].as_str()),
        (401, Some("Invalid API key"))
    );
    assert_eq!(me(&new_key).get("/users/me", &[]).await.status, 200);
}
