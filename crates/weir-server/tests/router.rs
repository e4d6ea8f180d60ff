//! The router driven in-process with `oneshot`: no socket, same handlers. The black-box
//! suites in the workspace's `tests/` package cover the binary over real sockets.
// The helpers here unwrap as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use base64::Engine;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;
use weir_server::{AppState, Config, Seed, Store, router};

const OWNER_KEY: &str = "OwnerKey00000000000000000000000a";
const MEMBER_KEY: &str = "MemberKey0000000000000000000000b";
const HOOK_KEY: &str = "HookKey000000000000000000000000c";

struct Fixture {
    _dir: tempfile::TempDir,
    state: AppState,
}

fn fixture(config: Config) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let seed = Seed::from_json(
        &json!({
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
        .to_string(),
    )
    .unwrap();
    weir_server::store::create_seeded(dir.path(), &seed).unwrap();
    let store = Store::open(dir.path()).unwrap();
    Fixture {
        _dir: dir,
        state: AppState::new(store, config),
    }
}

fn basic(email: &str, key: &str) -> String {
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{email}:{key}"));
    format!("Basic {token}")
}

async fn call(state: &AppState, request: Request<Body>) -> (StatusCode, Value) {
    let response = router(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn form(method: &str, uri: &str, auth: &str, body: &str) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, auth)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

#[tokio::test]
async fn member_unsubscribes_self_and_sees_the_pair_once() {
    let f = fixture(Config::default());
    let body = "subscriptions=%5B%22engineering%22%2C%22ENGINEERING%22%5D";
    let (status, json) = call(
        &f.state,
        form(
            "DELETE",
            "/api/v1/users/me/subscriptions",
            &basic("member@globex.test", MEMBER_KEY),
            body,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["removed"], json!(["Engineering"]));
    assert_eq!(json["not_removed"], json!([]));
}

#[tokio::test]
async fn a_private_stream_is_reported_as_missing_to_those_who_cannot_see_it() {
    let f = fixture(Config::default());
    let body = "subscriptions=%5B%22Secret%22%5D";
    let (status, json) = call(
        &f.state,
        form(
            "DELETE",
            "/api/v1/users/me/subscriptions",
            &basic("member@globex.test", MEMBER_KEY),
            body,
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(json["code"], "STREAM_DOES_NOT_EXIST");
    assert_eq!(json["msg"], "Channel 'Secret' does not exist");
}

#[tokio::test]
async fn webhook_bots_are_refused_on_the_rest_api() {
    let f = fixture(Config::default());
    let request = Request::builder()
        .uri("/api/v1/users/me")
        .header(
            header::AUTHORIZATION,
            basic("hook-bot@globex.test", HOOK_KEY),
        )
        .body(Body::empty())
        .unwrap();
    let (status, json) = call(&f.state, request).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        json["msg"],
        "This API is not available to incoming webhook bots."
    );
}

#[tokio::test]
async fn hello_world_webhook_stores_one_rendered_message() {
    let f = fixture(Config::default());
    let request = Request::builder()
        .method("POST")
        .uri(format!(
            "/api/v1/external/helloworld?api_key={HOOK_KEY}&stream=engineering"
        ))
        .body(Body::from(
            r#"{"featured_title":"Tea","featured_url":"https://x.test/tea"}"#,
        ))
        .unwrap();
    let (status, json) = call(&f.state, request).await;
    assert_eq!(
        (status, json),
        (StatusCode::OK, json!({"result": "success", "msg": ""}))
    );

    let request = Request::builder()
        .uri("/api/v1/messages?anchor=newest&num_before=10&num_after=0")
        .header(header::AUTHORIZATION, basic("owner@globex.test", OWNER_KEY))
        .body(Body::empty())
        .unwrap();
    let (_, json) = call(&f.state, request).await;
    let messages = json["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{json}");
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
    let f = fixture(Config {
        rate_limit: Some(2),
        ..Config::default()
    });
    let get = || {
        Request::builder()
            .uri("/api/v1/users/me")
            .header(
                header::AUTHORIZATION,
                basic("member@globex.test", MEMBER_KEY),
            )
            .body(Body::empty())
            .unwrap()
    };
    let first = router(f.state.clone()).oneshot(get()).await.unwrap();
    assert_eq!(first.headers()["X-RateLimit-Remaining"], "1");
    call(&f.state, get()).await;
    let (status, json) = call(&f.state, get()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(json["code"], "RATE_LIMIT_HIT");
    assert!(json["retry-after"].as_f64().unwrap() > 0.0);
}

#[tokio::test]
async fn a_regenerated_key_replaces_the_old_one_at_once_despite_the_auth_cache() {
    let f = fixture(Config::default());
    let me = |key: &str| {
        Request::builder()
            .uri("/api/v1/users/me")
            .header(header::AUTHORIZATION, basic("member@globex.test", key))
            .body(Body::empty())
            .unwrap()
    };
    assert_eq!(
        call(&f.state, me(MEMBER_KEY)).await.0,
        StatusCode::OK,
        "warms the cache"
    );
    let request = form(
        "POST",
        "/api/v1/users/me/api_key/regenerate",
        &basic("member@globex.test", MEMBER_KEY),
        "",
    );
    let (_, json) = call(&f.state, request).await;
    let new_key = json["api_key"].as_str().unwrap().to_owned();

    let (status, json) = call(&f.state, me(MEMBER_KEY)).await;
    assert_eq!(
        (status, json["msg"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("Invalid API key"))
    );
    assert_eq!(call(&f.state, me(&new_key)).await.0, StatusCode::OK);
}
