//! Deactivating and reactivating bots: `DELETE /bots/{id}` and
//! `POST /users/{id}/reactivate` (Zulip's rules: a bot's owner or an administrator).

use weir_tests::*;

const HELLO: &str =
    r#"{"featured_title": "Tea", "featured_url": "https://en.wikipedia.org/wiki/Tea"}"#;

/// Hello World posted with `key`, as a third-party service would.
async fn hello(server: &TestServer, key: &str) -> Resp {
    let api = server.anon();
    let rb = api
        .request_unauthenticated(Method::POST, "/external/helloworld")
        .query(&[("api_key", key)])
        .header("Content-Type", "application/json")
        .body(HELLO);
    api.send(rb, "POST /external/helloworld").await
}

async fn is_active(server: &TestServer, user_id: u64) -> bool {
    let users = server.as_user(&OWNER).get("/users", &[]).await;
    let user = users.ok()["members"]
        .as_array()
        .and_then(|members| members.iter().find(|user| user["user_id"] == user_id))
        .unwrap_or_else(|| panic!("user {user_id} not listed\n{}", users.debug()));
    user["is_active"]
        .as_bool()
        .unwrap_or_else(|| panic!("`is_active` is not a boolean\n{}", users.debug()))
}

#[tokio::test]
async fn an_owner_deactivates_and_reactivates_their_bot() {
    let server = TestServer::standard();
    let owner = server.as_user(&MEMBER);
    hello(&server, WEBHOOK_BOT.key).await.ok();

    owner
        .delete(&format!("/bots/{}", WEBHOOK_BOT.id), &[])
        .await
        .ok();

    assert!(!is_active(&server, WEBHOOK_BOT.id).await);
    hello(&server, WEBHOOK_BOT.key)
        .await
        .err(401, "USER_DEACTIVATED", "Account is deactivated");
    // Again: nothing changes.
    owner
        .delete(&format!("/bots/{}", WEBHOOK_BOT.id), &[])
        .await
        .ok();

    owner
        .post(&format!("/users/{}/reactivate", WEBHOOK_BOT.id), &[])
        .await
        .ok();
    assert!(is_active(&server, WEBHOOK_BOT.id).await);
    hello(&server, WEBHOOK_BOT.key).await.ok();
}

#[tokio::test]
async fn only_the_owner_or_an_administrator_may_deactivate_a_bot() {
    let server = TestServer::standard();
    let path = format!("/bots/{}", WEBHOOK_BOT.id);

    server
        .as_user(&MEMBER2)
        .delete(&path, &[])
        .await
        .bad_request("Insufficient permission");
    assert!(is_active(&server, WEBHOOK_BOT.id).await);

    server.as_user(&ADMIN).delete(&path, &[]).await.ok();
    assert!(!is_active(&server, WEBHOOK_BOT.id).await);
}

#[tokio::test]
async fn people_and_unknown_ids_are_no_such_bot() {
    let server = TestServer::standard();
    let admin = server.as_user(&ADMIN);
    for path in [
        format!("/bots/{}", MEMBER.id),
        "/bots/999999".to_string(),
        "/bots/abc".to_string(),
    ] {
        admin.delete(&path, &[]).await.bad_request("No such bot");
    }
    assert!(is_active(&server, MEMBER.id).await);
}

#[tokio::test]
async fn only_administrators_reactivate_people() {
    let server = TestServer::standard();
    let path = format!("/users/{}/reactivate", DEACTIVATED.id);

    server
        .as_user(&MEMBER)
        .post(&path, &[])
        .await
        .bad_request("Insufficient permission");
    assert!(!is_active(&server, DEACTIVATED.id).await);

    server.as_user(&ADMIN).post(&path, &[]).await.ok();
    assert!(is_active(&server, DEACTIVATED.id).await);
    server
        .as_user(&ADMIN)
        .post("/users/999999/reactivate", &[])
        .await
        .bad_request("No such user");
}

#[tokio::test]
async fn a_bot_whose_name_was_taken_meanwhile_stays_deactivated() {
    let server = TestServer::standard();
    let owner = server.as_user(&MEMBER);
    owner
        .delete(&format!("/bots/{}", WEBHOOK_BOT.id), &[])
        .await
        .ok();
    owner
        .post(
            "/bots",
            &[
                ("full_name", json!(WEBHOOK_BOT.full_name)),
                ("short_name", json!("relay2")),
            ],
        )
        .await
        .ok();

    owner
        .post(&format!("/users/{}/reactivate", WEBHOOK_BOT.id), &[])
        .await
        .bad_request("Name is already in use.");
    assert!(!is_active(&server, WEBHOOK_BOT.id).await);
}
