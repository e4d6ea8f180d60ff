//! `--rate-limit N`: Zulip's per-user rate limiting (`docs/zulip-compatibility.md`: Rate
//! limiting). Off by default.

use std::time::{SystemTime, UNIX_EPOCH};

use weir_tests::*;

const HEADERS: [&str; 3] = [
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
];

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
}

#[track_caller]
fn header_f64(r: &Resp, name: &str) -> f64 {
    let v = r
        .header(name)
        .unwrap_or_else(|| panic!("no {name} header\n{}", r.debug()));
    v.trim()
        .parse()
        .unwrap_or_else(|_| panic!("{name}: {v:?} is not a number\n{}", r.debug()))
}

#[track_caller]
fn assert_rate_headers(r: &Resp, limit: u32, remaining: u32) {
    assert_eq!(
        header_f64(r, "x-ratelimit-limit"),
        f64::from(limit),
        "{}",
        r.debug()
    );
    assert_eq!(
        header_f64(r, "x-ratelimit-remaining"),
        f64::from(remaining),
        "{}",
        r.debug()
    );
    let reset = header_f64(r, "x-ratelimit-reset");
    let t = now();
    assert!(
        reset >= t - 2.0 && reset <= t + 62.0,
        "X-RateLimit-Reset {reset} is not a unix time within the 60 s window (now {t})\n{}",
        r.debug()
    );
}

#[tokio::test]
async fn without_the_option_nothing_is_limited_and_no_headers_are_sent() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);

    for _ in 0..40 {
        let r = mark.get("/users/me", &[]).await;
        r.ok();
        for h in HEADERS {
            assert!(
                r.header(h).is_none(),
                "{h} sent while rate limiting is off\n{}",
                r.debug()
            );
        }
    }
}

#[tokio::test]
async fn headers_count_down_and_the_request_over_the_limit_gets_429() {
    let server = TestServer::standard_with(&["--rate-limit", "5"]);
    let mark = server.as_user(&MEMBER);

    for remaining in (0..5).rev() {
        let r = mark.get("/users/me", &[]).await;
        r.ok();
        assert_rate_headers(&r, 5, remaining);
    }
    let r = mark.get("/users/me", &[]).await;

    let body = r.err(429, "RATE_LIMIT_HIT", "API usage exceeded rate limit");
    let retry = body["retry-after"]
        .as_f64()
        .unwrap_or_else(|| panic!("`retry-after` is not a number\n{}", r.debug()));
    assert!(
        retry > 0.0 && retry <= 60.0,
        "retry-after {retry}\n{}",
        r.debug()
    );
    let header = header_f64(&r, "retry-after");
    assert!(
        header > 0.0 && header <= 60.0,
        "Retry-After {header}\n{}",
        r.debug()
    );
    assert!(
        (header - retry).abs() < 2.0,
        "header and field disagree\n{}",
        r.debug()
    );
    assert_rate_headers(&r, 5, 0);
}

#[tokio::test]
async fn the_limit_is_per_user() {
    let server = TestServer::standard_with(&["--rate-limit", "3"]);
    let mark = server.as_user(&MEMBER);
    for _ in 0..3 {
        mark.get("/users/me", &[]).await.ok();
    }
    mark.get("/users/me", &[])
        .await
        .err(429, "RATE_LIMIT_HIT", "API usage exceeded rate limit");

    let r = server.as_user(&MEMBER2).get("/users/me", &[]).await;

    r.ok();
    assert_rate_headers(&r, 3, 2);
}

#[tokio::test]
async fn every_authenticated_endpoint_counts_and_carries_the_headers() {
    let server = TestServer::standard_with(&["--rate-limit", "10"]);
    let mark = server.as_user(&MEMBER);

    let answers = [
        mark.get("/users", &[]).await,
        mark.get("/streams", &[]).await,
        mark.get("/users/me/subscriptions", &[]).await,
        mark.get("/streams/11/members", &[]).await,
        mark.get("/bots", &[]).await,
        mark.post("/register", &[("fetch_event_types", json!(["realm_user"]))])
            .await,
    ];

    for (i, r) in answers.iter().enumerate() {
        r.ok();
        assert_rate_headers(r, 10, 9 - i as u32);
    }
}

#[tokio::test]
async fn a_limited_request_changes_nothing() {
    let server = TestServer::standard_with(&["--rate-limit", "20"]);
    let mark = server.as_user(&MEMBER);
    for _ in 0..20 {
        mark.get("/users/me", &[]).await.ok();
    }

    let r = mark
        .delete(
            "/users/me/subscriptions",
            &[("subscriptions", json!(["Engineering"]))],
        )
        .await;

    r.err(429, "RATE_LIMIT_HIT", "API usage exceeded rate limit");
    assert_eq!(server.subscription_state().await, seeded_state());
}

#[tokio::test]
async fn server_settings_is_not_limited_by_a_users_budget() {
    let server = TestServer::standard_with(&["--rate-limit", "2"]);
    let mark = server.as_user(&MEMBER);
    for _ in 0..3 {
        mark.get("/users/me", &[]).await;
    }

    let r = server.anon().get("/server_settings", &[]).await;

    r.ok();
}

#[tokio::test]
async fn webhook_calls_count_against_the_bot() {
    let server = TestServer::standard_with(&["--rate-limit", "2"]);
    let api = server.anon();
    let hello = |api: &Api| {
        let rb = api
            .request(
                Method::POST,
                &format!("/external/helloworld?api_key={}&stream=Engineering", WEBHOOK_BOT.key),
            )
            .header("Content-Type", "application/json")
            .body(r#"{"featured_title": "Lighthouse", "featured_url": "https://en.wikipedia.org/wiki/Lighthouse"}"#);
        let api = api.clone();
        async move { api.send(rb, "POST /external/helloworld").await }
    };

    hello(&api).await.ok();
    hello(&api).await.ok();
    let third = hello(&api).await;

    third.err(429, "RATE_LIMIT_HIT", "API usage exceeded rate limit");
    // The bot's owner has a budget of their own.
    let owner = server.as_user(&MEMBER).get("/users/me", &[]).await;
    owner.ok();
    assert_rate_headers(&owner, 2, 1);
}

/// Issue 24: `X-RateLimit-Reset` on the 429 was a second earlier than on the request
/// just before it. Zulip reports when the window has room again; it cannot move back.
#[tokio::test]
async fn the_reset_time_never_moves_backwards_at_the_429() {
    let server = TestServer::standard_with(&["--rate-limit", "3"]);
    let mark = server.as_user(&MEMBER);
    let mut last = 0.0;
    for _ in 0..3 {
        let r = mark.get("/users/me", &[]).await;
        r.ok();
        last = header_f64(&r, "x-ratelimit-reset");
    }
    let refused = mark.get("/users/me", &[]).await;
    assert_eq!(refused.status, 429, "{}", refused.debug());
    let reset = header_f64(&refused, "x-ratelimit-reset");
    assert!(reset >= last, "reset went from {last} to {reset}");
}
