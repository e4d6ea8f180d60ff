//! Malformed input of every kind gets a Zulip-shaped 4xx JSON error, never a 5xx, and the
//! server keeps serving afterwards.

use serde_json::Value;
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

async fn raw_delete(api: &Api, content_type: Option<&str>, body: Vec<u8>, what: &str) -> Resp {
    let mut rb = api.request(Method::DELETE, SUBS).body(body);
    if let Some(ct) = content_type {
        rb = rb.header("Content-Type", ct);
    }
    api.send(rb, what).await
}

async fn assert_still_serving(server: &TestServer) {
    server.anon().get("/server_settings", &[]).await.ok();
    server.as_user(&MEMBER).get("/users/me", &[]).await.ok();
}

// ------------------------------------------------------------- parameter values

#[tokio::test]
async fn wrong_json_types_in_parameters_are_bad_requests() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let values: [Value; 9] = [
        json!("null"),
        json!("{}"),
        json!("[[]]"),
        json!("[\"a\"]]"),
        json!("1e999"),
        json!("[\"\\ud800\"]"),
        json!("\u{0}"),
        json!("[\"Engineering\",]"),
        json!("[\"Engineering\"] trailing"),
    ];

    for v in values {
        let r = mark.delete(SUBS, &[("subscriptions", v)]).await;
        r.any_zulip_error();
        assert_eq!(r.status, 400, "{}", r.debug());
    }
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn deeply_nested_json_is_a_bad_request() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let deep = format!("{}{}", "[".repeat(20_000), "]".repeat(20_000));

    let r = mark.delete(SUBS, &[("subscriptions", json!(deep))]).await;

    r.any_zulip_error();
    assert_eq!(r.status, 400, "{}", r.debug());
    assert_still_serving(&server).await;
}

#[tokio::test]
async fn boolean_flags_that_are_not_booleans_are_bad_requests() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for (path, flag) in [
        ("/streams", "include_public"),
        ("/streams", "include_all"),
        (SUBS, "include_subscribers"),
    ] {
        for v in ["maybe", "[true]", "2"] {
            let r = mark.get(path, &[(flag, json!(v))]).await;
            r.any_zulip_error();
            assert_eq!(r.status, 400, "{}", r.debug());
        }
    }
}

#[tokio::test]
async fn wrong_types_on_subscribe_and_bots_are_bad_requests() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for r in [
        mark.post(SUBS, &[("subscriptions", json!([{"name": 5}]))])
            .await,
        mark.post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Design"}])),
                ("invite_only", json!("yes")),
            ],
        )
        .await,
        mark.post(
            SUBS,
            &[
                ("subscriptions", json!([{"name": "Design"}])),
                ("principals", json!("{")),
            ],
        )
        .await,
        mark.post(
            "/bots",
            &[
                ("full_name", json!("A")),
                ("short_name", json!("a")),
                ("bot_type", json!("two")),
            ],
        )
        .await,
        mark.post(
            "/bots",
            &[
                ("full_name", json!("A")),
                ("short_name", json!("a")),
                ("bot_type", json!(99)),
            ],
        )
        .await,
        mark.post("/register", &[("fetch_event_types", json!("realm_user"))])
            .await,
    ] {
        r.any_zulip_error();
        assert_eq!(r.status, 400, "{}", r.debug());
    }
}

#[tokio::test]
async fn a_very_long_stream_name_is_a_length_error() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .delete(SUBS, &[("subscriptions", json!(["w".repeat(100_000)]))])
        .await;

    r.bad_request("Channel name too long (limit: 60 characters).");
}

#[tokio::test]
async fn a_long_list_of_missing_names_is_answered_quickly_and_correctly() {
    let server = TestServer::standard();
    // The longest list allowed (longer ones: weir-server's `rules/limits.rs`).
    let names: Vec<String> = (0..1_000).map(|i| format!("missing-{i}")).collect();

    let started = std::time::Instant::now();
    let r = server
        .as_user(&MEMBER)
        .delete(SUBS, &[("subscriptions", json!(names))])
        .await;

    r.stream_does_not_exist("missing-0");
    assert!(
        started.elapsed().as_secs() < 30,
        "took {:?}",
        started.elapsed()
    );
}

// ------------------------------------------------------------------ bodies

#[tokio::test]
async fn a_broken_form_body_gets_a_zulip_error() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let form = Some("application/x-www-form-urlencoded");

    let cases: Vec<(Option<&str>, Vec<u8>)> = vec![
        (form, b"subscriptions=%ZZ%".to_vec()),
        (form, b"subscriptions=%FF%FE".to_vec()),
        (form, b"\xff\xfe\xfd".to_vec()),
        (form, b"=&&=x&subscriptions".to_vec()),
        (
            Some("application/json"),
            br#"{"subscriptions": ["Engineering"]}"#.to_vec(),
        ),
        (
            Some("multipart/form-data; boundary=nope"),
            b"garbage without parts".to_vec(),
        ),
        (Some("multipart/form-data"), b"--x\r\n\r\n".to_vec()),
        (
            Some("text/plain"),
            b"subscriptions=[\"Engineering\"]".to_vec(),
        ),
        (None, b"\x00\x01\x02".to_vec()),
    ];
    for (ct, body) in cases {
        let what = format!(
            "DELETE subscriptions content-type={ct:?} body={:?}",
            String::from_utf8_lossy(&body)
        );
        let r = raw_delete(&mark, ct, body, &what).await;
        r.not_5xx();
        if r.status != 200 {
            r.any_zulip_error();
        }
    }
    assert_still_serving(&server).await;
}

#[tokio::test]
async fn a_repeated_parameter_is_not_a_server_error() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let body = b"subscriptions=%5B%22Design%22%5D&subscriptions=%5B%22Verona%22%5D".to_vec();

    let r = raw_delete(
        &mark,
        Some("application/x-www-form-urlencoded"),
        body,
        "repeated",
    )
    .await;

    r.not_5xx();
    if r.status != 200 {
        r.any_zulip_error();
    }
}

#[tokio::test]
async fn an_oversized_body_gets_a_zulip_error_and_the_server_keeps_serving() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    // 32 MiB: well over any sensible limit for these endpoints.
    let mut body = b"subscriptions=".to_vec();
    body.resize(32 << 20, b'a');

    let rb = mark
        .request(Method::DELETE, SUBS)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body);
    let r = mark
        .send(rb, "DELETE subscriptions with a 32 MiB body")
        .await;

    r.any_zulip_error();
    assert_still_serving(&server).await;
}

#[tokio::test]
async fn an_oversized_post_body_gets_a_zulip_error() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    // 33 MiB of `[{"name":"x"},{"name":"x"},...]`, percent-encoded.
    let item = "%7B%22name%22%3A%22x%22%7D%2C";
    let mut body = String::from("subscriptions=%5B");
    while body.len() < 33 << 20 {
        body.push_str(item);
    }
    body.push_str("%7B%22name%22%3A%22y%22%7D%5D");

    let rb = mark
        .request(Method::POST, SUBS)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body);
    let r = mark
        .send(rb, "POST subscriptions with an oversized body")
        .await;

    r.any_zulip_error();
    assert_eq!(server.subscription_state().await, seeded_state());
}

// ---------------------------------------------------------------- auth headers

#[tokio::test]
async fn garbage_authorization_headers_get_a_401_json_answer() {
    let server = TestServer::standard();
    let api = server.anon();
    let huge = format!("Basic {}", "A".repeat(16 * 1024));
    let values: Vec<Vec<u8>> = vec![
        b"\xff\xfe\xfd".to_vec(),
        b"Basic \xc3\x28".to_vec(),
        b"Basic ====".to_vec(),
        b"Basic Og==".to_vec(), // ":"
        huge.into_bytes(),
        b"Digest username=\"x\"".to_vec(),
        b"   ".to_vec(),
    ];

    for v in values {
        let header = reqwest::header::HeaderValue::from_bytes(&v).unwrap();
        let rb = api
            .request(Method::GET, "/users/me")
            .header("Authorization", header);
        let what = format!(
            "GET /users/me Authorization: {:?}",
            String::from_utf8_lossy(&v)
        );
        let r = api.send(rb, &what).await;
        r.any_zulip_error();
        assert!(r.status == 401 || r.status == 400, "{}", r.debug());
    }
    assert_still_serving(&server).await;
}

#[tokio::test]
async fn two_authorization_headers_do_not_crash_the_server() {
    let server = TestServer::standard();
    let api = server.anon();
    let rb = api
        .request(Method::GET, "/users/me")
        .basic_auth(MEMBER.email, Some(MEMBER.key))
        .header("Authorization", "Basic Og==");

    let r = api.send(rb, "two Authorization headers").await;

    r.not_5xx();
}

// ---------------------------------------------------------------------- routes

#[tokio::test]
async fn unknown_api_routes_get_a_zulip_shaped_404() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for path in [
        "/no_such_endpoint",
        "/users/me/nonsense",
        "/streams/11/nonsense",
        "/api/v2/users",
        "/api/v1",
    ] {
        let r = mark.get(path, &[]).await;
        r.any_zulip_error();
        assert_eq!(r.status, 404, "{}", r.debug());
    }
}

#[tokio::test]
async fn a_wrong_method_on_a_known_route_gets_a_zulip_error() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for (method, path) in [
        (Method::PUT, SUBS),
        (Method::DELETE, "/users"),
        (Method::PATCH, "/server_settings"),
        (Method::DELETE, "/bots"),
    ] {
        let rb = mark.request(method.clone(), path);
        let r = mark.send(rb, &format!("{method} {path}")).await;
        r.any_zulip_error();
        assert!(r.status == 405 || r.status == 404, "{}", r.debug());
    }
}

#[tokio::test]
async fn non_numeric_or_huge_ids_in_paths_get_a_zulip_error() {
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);

    for path in [
        "/streams/abc/members",
        "/streams/-1/members",
        "/streams/99999999999999999999999/members",
        "/streams/1.5/members",
    ] {
        let r = owner.get(path, &[]).await;
        r.any_zulip_error();
    }
    for path in [
        "/bots/abc/api_key/regenerate",
        "/bots/99999999999999999999999/api_key/regenerate",
    ] {
        owner.post(path, &[]).await.any_zulip_error();
    }
}

#[tokio::test]
async fn a_query_string_that_is_not_valid_gets_no_server_error() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for raw in [
        "/api/v1/get_stream_id?stream=%ZZ",
        "/api/v1/get_stream_id?stream=%FF",
        "/api/v1/streams?&&=&include_public",
    ] {
        let rb = mark.request(Method::GET, raw);
        let r = mark.send(rb, raw).await;
        r.not_5xx();
        if r.status != 200 {
            r.any_zulip_error();
        }
    }
}

#[tokio::test]
async fn errors_are_declared_as_json() {
    let server = TestServer::standard();

    let r = server.anon().get("/users", &[]).await;

    r.assert_json_content_type();
    let r = server.as_user(&MEMBER).delete(SUBS, &[]).await;
    r.assert_json_content_type();
    let r = server.as_user(&MEMBER).get("/users", &[]).await;
    r.assert_json_content_type();
}

// ------------------------------------------------------------------ a small fuzz

/// Values that are wrong in many ways; each is tried in every parameter of every
/// endpoint, the other parameters being valid.
fn nasty_values() -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        " ",
        "null",
        "true",
        "0",
        "-1",
        "1.5",
        "1e400",
        "[]",
        "{}",
        "[null]",
        "[[]]",
        "[{}]",
        "[\"\"]",
        "[-1]",
        "[0]",
        "[1.5]",
        "[true]",
        "[9223372036854775808]",
        "[-9223372036854775809]",
        "[18446744073709551616]",
        "{\"name\":null}",
        "[{\"name\":null}]",
        "[{\"name\":[]}]",
        "[{\"name\":\"x\",\"description\":{}}]",
        "\"string\"",
        "[\"\\u0000\"]",
        "[\"\\ud800\"]",
        "%",
        "%00",
        "\u{0}",
        "[",
        "]",
        "{",
        "[\"a\",",
        "[1,\"a\"]",
        "[\"a\",1]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push(format!("[\"{}\"]", "x".repeat(5000)));
    v.push(format!("[{}]", vec!["1"; 5000].join(",")));
    v.push("é".repeat(3000));
    v
}

type Case = (Method, &'static str, Vec<(&'static str, Value)>);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_parameter_value_causes_a_server_error() {
    let server = TestServer::standard();
    // The administrator may do almost everything, so requests get past permission
    // checks into the deeper code paths.
    let admin = server.as_user(&ADMIN);
    let cases: Vec<Case> = vec![
        (
            Method::DELETE,
            SUBS,
            vec![
                ("subscriptions", json!(["Verona"])),
                ("principals", json!([MEMBER.id])),
            ],
        ),
        (
            Method::POST,
            SUBS,
            vec![
                ("subscriptions", json!([{"name": "Verona"}])),
                ("principals", json!([MEMBER.id])),
                ("invite_only", json!(false)),
                ("announce", json!(false)),
            ],
        ),
        (
            Method::GET,
            "/streams",
            vec![
                ("include_public", json!(true)),
                ("include_subscribed", json!(true)),
                ("include_all", json!(false)),
            ],
        ),
        (
            Method::GET,
            SUBS,
            vec![("include_subscribers", json!(true))],
        ),
        (
            Method::GET,
            "/get_stream_id",
            vec![("stream", json!("Verona"))],
        ),
        (
            Method::GET,
            "/users",
            vec![("client_gravatar", json!(true))],
        ),
        (
            Method::POST,
            "/bots",
            vec![
                ("full_name", json!("Fuzz Bot")),
                ("short_name", json!("fuzz")),
                ("bot_type", json!(1)),
            ],
        ),
        (
            Method::POST,
            "/register",
            vec![
                ("fetch_event_types", json!(["realm_user", "subscription"])),
                ("include_subscribers", json!(true)),
            ],
        ),
    ];

    let mut sent = 0;
    for (method, path, params) in &cases {
        for i in 0..params.len() {
            for bad in nasty_values() {
                let mut these = params.clone();
                these[i].1 = json!(bad);
                let r = match *method {
                    Method::GET => admin.get(path, &these).await,
                    Method::POST => admin.post(path, &these).await,
                    _ => admin.delete(path, &these).await,
                };
                sent += 1;
                r.not_5xx();
                if r.status != 200 {
                    r.any_zulip_error();
                } else {
                    r.ok();
                }
            }
        }
    }
    assert!(sent > 500);
    assert_still_serving(&server).await;
}
