//! REST authentication (`docs/zulip-compatibility.md`: Authentication): HTTP basic auth
//! with e-mail and API key, and the exact 401 answers, each with `WWW-Authenticate: Basic
//! realm="zulip"`.

use serde_json::Value;
use weir_tests::*;

const NOT_LOGGED_IN: &str = "Not logged in: API authentication or user session required";
const INVALID_HEADER: &str = "Invalid authorization header for basic auth";
const MISSING_HEADER: &str = "Missing authorization header for basic auth";
const WEBHOOK_BOT_REFUSED: &str = "This API is not available to incoming webhook bots.";

type Endpoint = (Method, &'static str, Vec<(&'static str, Value)>);

/// Every authenticated REST endpoint under test, with valid parameters.
fn endpoints() -> Vec<Endpoint> {
    vec![
        (Method::GET, "/users", vec![]),
        (Method::GET, "/users/me", vec![]),
        (Method::GET, "/streams", vec![]),
        (
            Method::GET,
            "/users/me/subscriptions",
            vec![("include_subscribers", json!(true))],
        ),
        (Method::GET, "/streams/11/members", vec![]),
        (
            Method::GET,
            "/get_stream_id",
            vec![("stream", json!("Engineering"))],
        ),
        (
            Method::POST,
            "/users/me/subscriptions",
            vec![("subscriptions", json!([{"name": "Design"}]))],
        ),
        (
            Method::DELETE,
            "/users/me/subscriptions",
            vec![("subscriptions", json!(["Engineering"]))],
        ),
        (
            Method::POST,
            "/bots",
            vec![("full_name", json!("Zed")), ("short_name", json!("zed"))],
        ),
        (Method::GET, "/bots", vec![]),
        (Method::POST, "/bots/202/api_key/regenerate", vec![]),
        (Method::POST, "/users/me/api_key/regenerate", vec![]),
        (
            Method::POST,
            "/register",
            vec![("fetch_event_types", json!(["realm_user"]))],
        ),
    ]
}

async fn call(api: &Api, method: &Method, path: &str, params: &[(&str, Value)]) -> Resp {
    match *method {
        Method::GET => api.get(path, params).await,
        Method::POST => api.post(path, params).await,
        Method::DELETE => api.delete(path, params).await,
        _ => api.patch(path, params).await,
    }
}

async fn get_with_header(server: &TestServer, value: &[u8]) -> Resp {
    let api = server.anon();
    // An invalid header value fails at send time, where `send` reports it.
    let rb = api
        .request(Method::GET, "/users/me")
        .header("Authorization", value);
    api.send(
        rb,
        &format!(
            "GET /users/me Authorization: {:?}",
            String::from_utf8_lossy(value)
        ),
    )
    .await
}

fn b64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ------------------------------------------------------------- no credentials

#[tokio::test]
async fn every_endpoint_refuses_a_request_without_credentials() {
    let server = TestServer::standard();
    let anon = server.anon();

    for (method, path, params) in endpoints() {
        call(&anon, &method, path, &params)
            .await
            .unauthorized(NOT_LOGGED_IN);
    }
    assert_eq!(server.subscription_state().await, seeded_state());
}

// ------------------------------------------------------------ broken headers

#[tokio::test]
async fn a_header_that_is_not_base64_is_invalid() {
    let server = TestServer::standard();

    get_with_header(&server, b"Basic !!!not-base64!!!")
        .await
        .unauthorized(INVALID_HEADER);
}

#[tokio::test]
async fn credentials_without_a_colon_are_invalid() {
    let server = TestServer::standard();
    let value = format!("Basic {}", b64(b"olivia@globex.test"));

    get_with_header(&server, value.as_bytes())
        .await
        .unauthorized(INVALID_HEADER);
}

#[tokio::test]
async fn credentials_with_two_colons_are_invalid() {
    let server = TestServer::standard();
    let value = format!("Basic {}", b64(format!("a:{}:b", OWNER.key).as_bytes()));

    get_with_header(&server, value.as_bytes())
        .await
        .unauthorized(INVALID_HEADER);
}

#[tokio::test]
async fn a_basic_header_without_credentials_is_invalid() {
    let server = TestServer::standard();

    get_with_header(&server, b"Basic")
        .await
        .unauthorized(INVALID_HEADER);
    get_with_header(&server, b"Basic abc def")
        .await
        .unauthorized(INVALID_HEADER);
}

#[tokio::test]
async fn credentials_that_are_not_utf8_are_invalid() {
    let server = TestServer::standard();
    let value = format!("Basic {}", b64(b"\xff\xfe:\xc3\x28"));

    get_with_header(&server, value.as_bytes())
        .await
        .unauthorized(INVALID_HEADER);
}

#[tokio::test]
async fn an_empty_authorization_header_is_a_broken_header() {
    let server = TestServer::standard();

    let r = get_with_header(&server, b"").await;

    assert!(
        r.json["msg"] == MISSING_HEADER || r.json["msg"] == INVALID_HEADER,
        "an empty Authorization header must get one of the two broken-header answers\n{}",
        r.debug()
    );
    r.unauthorized(r.json["msg"].as_str().unwrap());
}

#[tokio::test]
async fn a_non_basic_scheme_is_refused_with_a_zulip_error() {
    let server = TestServer::standard();

    let r = get_with_header(&server, format!("Bearer {}", OWNER.key).as_bytes()).await;

    r.any_zulip_error();
}

#[tokio::test]
async fn the_basic_scheme_name_is_case_insensitive() {
    let server = TestServer::standard();
    let value = format!(
        "basic {}",
        b64(format!("{}:{}", OWNER.email, OWNER.key).as_bytes())
    );

    let r = get_with_header(&server, value.as_bytes()).await;

    assert_eq!(r.ok()["user_id"], OWNER.id);
}

// ------------------------------------------------------------------- API keys

#[tokio::test]
async fn a_key_that_is_not_32_letters_or_digits_is_malformed() {
    let server = TestServer::standard();
    let bad_keys = [
        &OWNER.key[..31],
        &format!("{}x", OWNER.key),
        &format!("{}-", &OWNER.key[..31]),
        "",
        "short",
    ]
    .map(str::to_string);

    for key in bad_keys {
        let r = server
            .with_key(OWNER.email, &key)
            .get("/users/me", &[])
            .await;
        r.unauthorized("Malformed API key");
    }
}

#[tokio::test]
async fn an_unknown_well_formed_key_is_invalid() {
    let server = TestServer::standard();

    let r = server
        .with_key(OWNER.email, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345")
        .get("/users/me", &[])
        .await;

    r.unauthorized("Invalid API key");
}

#[tokio::test]
async fn a_key_presented_with_another_users_email_is_invalid() {
    let server = TestServer::standard();

    server
        .with_key(MEMBER2.email, MEMBER.key)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
    server
        .with_key("stranger@globex.test", MEMBER.key)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
}

#[tokio::test]
async fn a_keys_case_matters() {
    let server = TestServer::standard();
    let swapped: String = MEMBER
        .key
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();

    let r = server
        .with_key(MEMBER.email, &swapped)
        .get("/users/me", &[])
        .await;

    r.unauthorized("Invalid API key");
}

#[tokio::test]
async fn the_email_is_matched_case_insensitively() {
    let server = TestServer::standard();

    let r = server
        .with_key("MARK@Globex.TEST", MEMBER.key)
        .get("/users/me", &[])
        .await;

    assert_eq!(r.ok()["user_id"], MEMBER.id);
}

#[tokio::test]
async fn every_seeded_active_account_authenticates() {
    let server = TestServer::standard();

    for a in ALL_ACCOUNTS
        .iter()
        .filter(|a| a.id != DEACTIVATED.id && a.id != WEBHOOK_BOT.id)
    {
        let r = server.as_user(a).get("/users/me", &[]).await;
        assert_eq!(r.ok()["user_id"], a.id, "{}", r.debug());
    }
}

// ----------------------------------------------------------------- deactivated

#[tokio::test]
async fn a_deactivated_account_is_refused_everywhere() {
    let server = TestServer::standard();
    let dora = server.as_user(&DEACTIVATED);

    // Zulip's `UserDeactivatedError` (zerver/lib/exceptions.py): 401 with the code
    // USER_DEACTIVATED, not UNAUTHORIZED.
    for (method, path, params) in endpoints() {
        call(&dora, &method, path, &params).await.err(
            401,
            "USER_DEACTIVATED",
            "Account is deactivated",
        );
    }
}

#[tokio::test]
async fn a_deactivated_accounts_key_checks_come_first() {
    let server = TestServer::standard();

    server
        .with_key(DEACTIVATED.email, "short")
        .get("/users/me", &[])
        .await
        .unauthorized("Malformed API key");
    server
        .with_key(OWNER.email, DEACTIVATED.key)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
}

// ----------------------------------------------------------- incoming webhook bots

#[tokio::test]
async fn an_incoming_webhook_bot_is_refused_on_every_rest_endpoint() {
    let server = TestServer::standard();
    let relay = server.as_user(&WEBHOOK_BOT);

    for (method, path, params) in endpoints() {
        call(&relay, &method, path, &params)
            .await
            .unauthorized(WEBHOOK_BOT_REFUSED);
    }
    assert_eq!(server.subscription_state().await, seeded_state());
    // Its key was not regenerated by the refused call.
    let bots = server.as_user(&MEMBER).get("/bots", &[]).await;
    assert!(bots.text.contains(WEBHOOK_BOT.key), "{}", bots.debug());
}

#[tokio::test]
async fn an_incoming_webhook_bot_is_refused_before_parameters_are_read() {
    let server = TestServer::standard();

    let r = server
        .as_user(&WEBHOOK_BOT)
        .delete("/users/me/subscriptions", &[])
        .await;

    r.unauthorized(WEBHOOK_BOT_REFUSED);
}

#[tokio::test]
async fn an_incoming_webhook_bot_with_a_wrong_key_gets_invalid_api_key() {
    let server = TestServer::standard();

    let r = server
        .with_key(WEBHOOK_BOT.email, OTHER_BOT.key)
        .get("/users/me", &[])
        .await;

    r.unauthorized("Invalid API key");
}

#[tokio::test]
async fn the_webhook_bot_refusal_does_not_depend_on_the_path_being_known() {
    // The same answer for every REST path the bot may not use, e.g. with a query string.
    let server = TestServer::standard();
    let relay = server.as_user(&WEBHOOK_BOT);

    relay
        .get("/streams", &[("include_all", json!(true))])
        .await
        .unauthorized(WEBHOOK_BOT_REFUSED);
    relay
        .get("/streams/22/members", &[])
        .await
        .unauthorized(WEBHOOK_BOT_REFUSED);
}
