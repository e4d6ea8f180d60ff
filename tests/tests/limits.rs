//! Requests that ask for too much: every list has a documented maximum answered with a
//! 400 naming the parameter, the largest accepted request never holds up the others,
//! rendering is bounded, and SIGTERM stops a busy server promptly (issue 11, findings
//! 1, 3 and 6).
//!
//! No timings are asserted: a probe may take up to [`STALL`], which only a server that
//! stopped serving others would exceed.

use std::time::Duration;

use serde_json::Value;
use weir_tests::*;

/// Longer than any probe takes unless the server stalls.
const STALL: Duration = Duration::from_secs(10);
/// How long SIGTERM may take to end the process ("promptly", however busy).
const EXIT: Duration = Duration::from_secs(30);
/// The documented limits (README, "Limits").
const MAX_SUBSCRIPTIONS: usize = 1_000;
const MAX_PRINCIPALS: usize = 1_000;
/// People in the large-request test: enough for 300,000 pairs, few enough to be quick.
const LARGE_TEST_PEOPLE: usize = 300;

const OWNER_EMAIL: &str = "boss@big.test";
const OWNER_KEY: &str = "BigBossKey000000000000000000000a";

fn person_id(n: usize) -> u64 {
    1_000 + n as u64
}

/// An organization of an owner and `people` members, without streams.
fn big_seed(people: usize) -> Value {
    let mut users = vec![
        json!({"user_id": 1, "email": OWNER_EMAIL, "full_name": "Boss",
                                "role": "owner", "api_key": OWNER_KEY}),
    ];
    users.extend((0..people).map(|n| {
        json!({"user_id": person_id(n), "email": format!("p{n}@big.test"),
               "full_name": format!("Person {n}"), "role": "member"})
    }));
    json!({"realm": {"name": "Big", "url": "http://big.localhost", "bot_domain": "big.test"},
           "users": users, "streams": []})
}

fn names(count: usize) -> Vec<String> {
    (0..count).map(|n| format!("stream {n:05}")).collect()
}

fn subscription_objects(names: &[String]) -> Value {
    Value::Array(names.iter().map(|name| json!({ "name": name })).collect())
}

/// Runs `request` while probing `/server_settings`: every probe must be answered
/// within [`STALL`]. Returns the request's response.
async fn while_probing(
    server: &TestServer,
    request: impl Future<Output = Resp> + Send + 'static,
) -> Resp {
    let task = tokio::spawn(request);
    let anon = server.anon();
    let mut probes = 0;
    while !task.is_finished() {
        let probe = tokio::time::timeout(STALL, anon.get("/server_settings", &[])).await;
        let probe = probe.unwrap_or_else(|_| {
            panic!("/server_settings took over {STALL:?} while a large request ran ({probes} answered before)")
        });
        probe.ok();
        probes += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    task.await
        .unwrap_or_else(|error| panic!("the large request failed: {error}"))
}

// ------------------------------------------------------------ finding 1: list limits

#[tokio::test]
async fn an_unsubscribe_naming_more_streams_than_the_limit_is_refused() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);
    let before = server.subscription_state().await;
    let mut too_many = names(MAX_SUBSCRIPTIONS);
    too_many.push("Verona".into());

    let r = member
        .delete(
            "/users/me/subscriptions",
            &[("subscriptions", json!(too_many))],
        )
        .await;

    r.bad_request("subscriptions is too long (limit: 1000 items)");
    assert_eq!(server.subscription_state().await, before);
}

#[tokio::test]
async fn a_subscribe_naming_more_streams_than_the_limit_is_refused() {
    let server = TestServer::standard();
    let before = server.subscription_state().await;

    let r = server
        .as_user(&OWNER)
        .post(
            "/users/me/subscriptions",
            &[(
                "subscriptions",
                subscription_objects(&names(MAX_SUBSCRIPTIONS + 1)),
            )],
        )
        .await;

    r.bad_request("subscriptions is too long (limit: 1000 items)");
    assert_eq!(server.subscription_state().await, before);
}

#[tokio::test]
async fn more_principals_than_the_limit_are_refused_on_both_endpoints() {
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);
    let principals: Vec<u64> = (0..=MAX_PRINCIPALS as u64).map(|n| 101 + n % 6).collect();

    owner
        .delete(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!(["Verona"])),
                ("principals", json!(principals)),
            ],
        )
        .await
        .bad_request("principals is too long (limit: 1000 items)");
    owner
        .post(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([{"name": "Verona"}])),
                ("principals", json!(principals)),
            ],
        )
        .await
        .bad_request("principals is too long (limit: 1000 items)");
}

#[tokio::test]
async fn a_stream_description_longer_than_zulips_limit_is_refused() {
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);
    let subscribe = |description: String| {
        let owner = owner.clone();
        async move {
            let subscriptions = json!([{"name": "Long story", "description": description}]);
            owner
                .post(
                    "/users/me/subscriptions",
                    &[("subscriptions", subscriptions)],
                )
                .await
        }
    };

    subscribe("d".repeat(1_025))
        .await
        .bad_request("subscriptions[0][\"description\"] is too long (limit: 1024 characters)");
    subscribe("d".repeat(1_024)).await.ok();
}

/// Before the limits, de-duplicating names was quadratic and ran on the async worker:
/// 20,000 names held every other request for tens of seconds.
#[tokio::test]
async fn an_oversized_list_never_holds_up_other_requests() {
    let server = TestServer::spawn_standard_with(&["--worker-threads", "1"]);
    let member = server.as_user(&MEMBER);

    let r = while_probing(&server, async move {
        member
            .delete(
                "/users/me/subscriptions",
                &[("subscriptions", json!(names(20_000)))],
            )
            .await
    })
    .await;

    r.bad_request("subscriptions is too long (limit: 1000 items)");
}

/// A large accepted request — the most streams allowed, for hundreds of people — is
/// written off the async worker: the server keeps answering meanwhile. (In a debug build
/// each of the two takes well over ten seconds: it stalled every probe before.)
#[tokio::test]
async fn a_large_subscribe_and_unsubscribe_never_hold_up_other_requests() {
    let people = LARGE_TEST_PEOPLE;
    let server = TestServer::spawn(big_seed(people), &["--worker-threads", "1"]);
    let owner = server.with_key(OWNER_EMAIL, OWNER_KEY);
    let streams = names(MAX_SUBSCRIPTIONS);
    let principals: Vec<u64> = (0..people).map(person_id).collect();

    let subscribe = {
        let (owner, streams, principals) = (owner.clone(), streams.clone(), principals.clone());
        async move {
            owner
                .post(
                    "/users/me/subscriptions",
                    &[
                        ("subscriptions", subscription_objects(&streams)),
                        ("principals", json!(principals)),
                    ],
                )
                .await
        }
    };
    let r = while_probing(&server, subscribe).await;
    let subscribed = r.ok()["subscribed"].as_object().unwrap();
    assert_eq!(subscribed.len(), people, "{}", r.text.len());
    assert!(
        subscribed
            .values()
            .all(|names| names.as_array().unwrap().len() == streams.len())
    );

    let unsubscribe = async move {
        owner
            .delete(
                "/users/me/subscriptions",
                &[
                    ("subscriptions", json!(streams)),
                    ("principals", json!(principals)),
                ],
            )
            .await
    };
    let r = while_probing(&server, unsubscribe).await;
    let body = r.ok();
    assert_eq!(
        body["removed"].as_array().unwrap().len(),
        people * MAX_SUBSCRIPTIONS
    );
    assert_eq!(body["not_removed"].as_array().unwrap().len(), 0);
}

/// SIGTERM ends the process promptly even while the largest accepted request and an
/// oversized one are in flight.
#[tokio::test]
async fn sigterm_stops_a_busy_server_promptly() {
    let people = MAX_PRINCIPALS;
    let mut server = TestServer::spawn(big_seed(people), &["--worker-threads", "1"]);
    let owner = server.with_key(OWNER_EMAIL, OWNER_KEY);
    let principals: Vec<u64> = (0..people).map(person_id).collect();
    let largest = {
        let owner = owner.clone();
        tokio::spawn(async move {
            let subscriptions = subscription_objects(&names(MAX_SUBSCRIPTIONS));
            let params = [
                ("subscriptions", subscriptions),
                ("principals", json!(principals)),
            ];
            let body = form_body(&params);
            owner
                .request(Method::POST, "/users/me/subscriptions")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
        })
    };
    let oversized = tokio::spawn(async move {
        let params = [("subscriptions", json!(names(100_000)))];
        owner
            .request(Method::DELETE, "/users/me/subscriptions")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(form_body(&params))
            .send()
            .await
    });
    // Let both reach the server.
    tokio::time::sleep(Duration::from_secs(2)).await;

    server.terminate();
    let exited = server.wait_for_exit(EXIT);

    assert!(
        exited.is_some(),
        "still running {EXIT:?} after SIGTERM\n{}",
        server.stderr()
    );
    // Whatever the two clients got, they got it without waiting on a dead server.
    let _ = largest.await;
    let _ = oversized.await;
}

// --------------------------------------------------------- findings 3 and 6: rendering

#[tokio::test]
async fn content_longer_than_a_message_may_be_is_not_rendered() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);

    member
        .post(
            "/messages/render",
            &[("content", json!("x".repeat(10_000)))],
        )
        .await
        .ok();
    // 16,000 channel links (208 KB) once took seconds.
    member
        .post(
            "/messages/render",
            &[("content", json!("#**Verona** ".repeat(16_000)))],
        )
        .await
        .bad_request("Message too long (limit: 10000 characters)");
    member
        .post(
            "/messages/render",
            &[("content", json!(">".repeat(1_000_000)))],
        )
        .await
        .bad_request("Message too long (limit: 10000 characters)");
}

#[tokio::test]
async fn mentions_never_land_inside_an_attribute() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);
    let render = |content: &'static str| {
        let member = member.clone();
        async move {
            let r = member
                .post("/messages/render", &[("content", json!(content))])
                .await;
            r.ok()["rendered"].as_str().unwrap().to_owned()
        }
    };

    assert_eq!(
        render("[x](#**Engineering**)").await,
        "<p><a href=\"#**Engineering**\">x</a></p>"
    );
    assert_eq!(
        render("[x](<https://a.org/@**Mark Member**>)").await,
        "<p><a href=\"https://a.org/@**Mark Member**\">x</a></p>"
    );
    let fenced = render("> ```#**Engineering**\n> code\n> ```").await;
    assert!(
        fenced.contains("data-code-language=\"#**Engineering**\"")
            && !fenced.contains("data-stream-id"),
        "{fenced}"
    );
    // In text, they still resolve.
    assert!(
        render("see #**Engineering**")
            .await
            .contains("data-stream-id=\"11\"")
    );
}

// ------------------------------------------------------- finding 10: one body limit

/// `subscriptions=["xxx…"]` as a form body and as a multipart body of the same size.
fn bodies(name_len: usize) -> [(&'static str, Vec<u8>); 2] {
    let value = json!(["x".repeat(name_len)]).to_string();
    let form = form_body(&[("subscriptions", json!(["x".repeat(name_len)]))]).into_bytes();
    let boundary = "weirboundary7MA4YWxkTrZu0gW";
    let multipart = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"subscriptions\"\r\n\r\n\
         {value}\r\n--{boundary}--\r\n"
    )
    .into_bytes();
    [
        ("application/x-www-form-urlencoded", form),
        (
            "multipart/form-data; boundary=weirboundary7MA4YWxkTrZu0gW",
            multipart,
        ),
    ]
}

#[tokio::test]
async fn multipart_and_form_bodies_share_one_limit_and_one_answer() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);
    for (name_len, status, msg) in [
        (
            3 << 20,
            400,
            "Channel name too long (limit: 60 characters).",
        ),
        (6 << 20, 413, "Request body too large (limit: 5 MiB)"),
    ] {
        for (content_type, body) in bodies(name_len) {
            let request = member
                .request(Method::DELETE, "/users/me/subscriptions")
                .header("Content-Type", content_type)
                .body(body);
            let r = member.send(request, content_type).await;
            assert_eq!(
                (r.status, r.json["msg"].as_str()),
                (status, Some(msg)),
                "{}",
                r.debug()
            );
        }
    }
}
