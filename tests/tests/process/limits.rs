//! Requests that ask for too much, on a process: the largest accepted request never
//! holds up the others on a server with one worker thread, and SIGTERM stops a busy
//! server promptly (issue 11, findings 1 and 6). The list limits themselves are in
//! `in_process/limits.rs`.
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

// ------------------------------------------------- findings 1 and 6: a busy server

/// Before the limits, de-duplicating names was quadratic and ran on the async worker:
/// 20,000 names held every other request for tens of seconds.
#[tokio::test]
async fn an_oversized_list_never_holds_up_other_requests() {
    let _alone = alone();
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
    let _alone = alone();
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
    let _alone = alone();
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
