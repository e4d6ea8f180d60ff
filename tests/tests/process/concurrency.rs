//! Many clients at once: the final state equals the serial expectation, every request
//! succeeds (no 5xx, no "database is locked"), and racing requests on the same
//! (user, stream) pair report each change exactly once.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};
use weir_tests::*;

const TASKS: u64 = 16;
const OPS: u64 = 50;
const SUBS: &str = "/users/me/subscriptions";
const OWNER_ID: u64 = 900;
const OWNER_EMAIL: &str = "boss@conc.test";
const OWNER_KEY: &str = "kwXoIIXGvOoNZYW2mZp0zVZomHFwUbbY";
const TARGETS: [u64; 4] = [2001, 2002, 2003, 2004];

fn member_id(task: u64) -> u64 {
    1001 + task
}

fn member_email(task: u64) -> String {
    format!("worker{task}@conc.test")
}

fn member_key(task: u64) -> String {
    format!("Worker{task:026}")
}

fn stream_name(n: u64) -> String {
    format!("Stream {n:02}")
}

fn seed() -> Value {
    let mut users = vec![
        json!({"user_id": OWNER_ID, "email": OWNER_EMAIL, "full_name": "Boss",
                                "role": "owner", "api_key": OWNER_KEY}),
    ];
    for t in 0..TASKS {
        users.push(json!({"user_id": member_id(t), "email": member_email(t),
                          "full_name": format!("Worker {t}"), "role": "member",
                          "api_key": member_key(t)}));
    }
    for id in TARGETS {
        users.push(
            json!({"user_id": id, "email": format!("target{id}@conc.test"),
                          "full_name": format!("Target {id}"), "role": "member"}),
        );
    }
    let streams: Vec<Value> = (1..=10)
        .map(|n| {
            let subscribers: Vec<u64> = if n <= 5 { TARGETS.to_vec() } else { vec![] };
            json!({"stream_id": n, "name": stream_name(n), "description": "",
                   "invite_only": false, "subscribers": subscribers})
        })
        .collect();
    json!({"realm": {"name": "Conc", "url": "http://conc.localhost", "bot_domain": "conc.test"},
           "users": users, "streams": streams})
}

/// What one task saw of the shared pairs.
#[derive(Default)]
struct Tally {
    /// stream name -> number of `removed` entries for the targets.
    removed: BTreeMap<String, usize>,
    /// (target id, stream name) -> number of times it was reported `subscribed`.
    subscribed: BTreeMap<(u64, String), usize>,
}

async fn worker(task: u64, me: Api, owner: Api) -> Tally {
    let mut tally = Tally::default();
    let uid = member_id(task);
    for j in 0..OPS {
        if j < 40 {
            // Own pairs: nobody else touches (uid, stream), so every answer is known.
            let n = j % 10 + 1;
            let name = stream_name(n);
            let phase = j / 10;
            let unsubscribe = phase == 1 || (phase == 3 && n & 1 == 0);
            if unsubscribe {
                let r = me.delete(SUBS, &[("subscriptions", json!([name]))]).await;
                assert_unsubscribed(&r, &[&name], &[]);
            } else {
                let r = me
                    .post(SUBS, &[("subscriptions", json!([{"name": name}]))])
                    .await;
                let body = r.ok();
                let (fresh, already) = (
                    by_user(&body["subscribed"]),
                    by_user(&body["already_subscribed"]),
                );
                if phase == 3 {
                    assert!(fresh.is_empty(), "{}", r.debug());
                    assert_eq!(already, user_map(&[(uid, &[&name])]), "{}", r.debug());
                } else {
                    assert_eq!(fresh, user_map(&[(uid, &[&name])]), "{}", r.debug());
                    assert!(already.is_empty(), "{}", r.debug());
                }
            }
        } else if task & 1 == 0 {
            // Shared pairs: the owner removes the targets from streams 1-5, racing others.
            let name = stream_name((j - 40) % 5 + 1);
            let r = owner
                .delete(
                    SUBS,
                    &[
                        ("subscriptions", json!([name])),
                        ("principals", json!(TARGETS)),
                    ],
                )
                .await;
            let body = r.ok();
            let removed = multiset(&body["removed"]);
            let not_removed = multiset(&body["not_removed"]);
            let total = removed.get(&name).copied().unwrap_or(0)
                + not_removed.get(&name).copied().unwrap_or(0);
            assert_eq!(total, TARGETS.len(), "one entry per target\n{}", r.debug());
            *tally.removed.entry(name).or_default() += removed.values().sum::<usize>();
        } else {
            // Shared pairs: a member subscribes the targets to streams 6-10, racing others.
            let name = stream_name((j - 40) % 5 + 6);
            let r = me
                .post(
                    SUBS,
                    &[
                        ("subscriptions", json!([{"name": name}])),
                        ("principals", json!(TARGETS)),
                    ],
                )
                .await;
            let body = r.ok();
            let fresh = by_user(&body["subscribed"]);
            let already = by_user(&body["already_subscribed"]);
            for t in TARGETS {
                let f = fresh
                    .get(&t)
                    .map_or(0, |v| v.iter().filter(|s| **s == name).count());
                let a = already
                    .get(&t)
                    .map_or(0, |v| v.iter().filter(|s| **s == name).count());
                assert_eq!(f + a, 1, "target {t} must be reported once\n{}", r.debug());
                *tally.subscribed.entry((t, name.clone())).or_default() += f;
            }
        }
        if j % 5 == 4 {
            // Reads interleaved with the writes.
            me.get("/streams", &[]).await.ok();
            me.get(SUBS, &[("include_subscribers", json!(true))])
                .await
                .ok();
        }
    }
    tally
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_subscribe_and_unsubscribe_match_the_serial_result() {
    let _alone = alone();
    let server = TestServer::spawn(seed(), &[]);
    let owner = server.with_key(OWNER_EMAIL, OWNER_KEY);

    let handles: Vec<_> = (0..TASKS)
        .map(|t| {
            let me = server.with_key(&member_email(t), &member_key(t));
            tokio::spawn(worker(t, me, owner.clone()))
        })
        .collect();
    let mut removed: BTreeMap<String, usize> = BTreeMap::new();
    let mut subscribed: BTreeMap<(u64, String), usize> = BTreeMap::new();
    for h in handles {
        let tally = h.await.expect("a client task failed");
        for (k, v) in tally.removed {
            *removed.entry(k).or_default() += v;
        }
        for (k, v) in tally.subscribed {
            *subscribed.entry(k).or_default() += v;
        }
    }

    // Each target left each of streams 1-5 exactly once, whoever raced.
    for n in 1..=5 {
        assert_eq!(
            removed.get(&stream_name(n)).copied(),
            Some(TARGETS.len()),
            "{}",
            stream_name(n)
        );
    }
    // Each target joined each of streams 6-10 exactly once.
    for n in 6..=10 {
        for t in TARGETS {
            assert_eq!(
                subscribed.get(&(t, stream_name(n))).copied(),
                Some(1),
                "{t} {}",
                stream_name(n)
            );
        }
    }
    // Final state: workers are in the odd streams; targets only in streams 6-10.
    let workers_in_odd: BTreeSet<u64> = (0..TASKS).map(member_id).collect();
    for n in 1..=10u64 {
        let r = owner.get(&format!("/streams/{n}/members"), &[]).await;
        let mut want: BTreeSet<u64> = if n % 2 == 1 {
            workers_in_odd.clone()
        } else {
            BTreeSet::new()
        };
        if n > 5 {
            want.extend(TARGETS);
        }
        assert_eq!(ids(&r.ok()["subscribers"]), want, "{}", stream_name(n));
    }
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_bot_creations_with_one_short_name_create_exactly_one_bot() {
    let _alone = alone();
    let server = TestServer::spawn(seed(), &[]);

    let handles: Vec<_> = (0..TASKS)
        .map(|t| {
            let me = server.with_key(&member_email(t), &member_key(t));
            tokio::spawn(async move {
                me.post(
                    "/bots",
                    &[
                        ("full_name", json!(format!("Racer {t}"))),
                        ("short_name", json!("racer")),
                    ],
                )
                .await
            })
        })
        .collect();
    let mut created = 0;
    for h in handles {
        let r = h.await.unwrap();
        if r.status == 200 {
            r.ok();
            created += 1;
        } else {
            r.bad_request("Username already in use");
        }
    }

    assert_eq!(created, 1, "exactly one `racer-bot` may be created");
    let users = server
        .with_key(OWNER_EMAIL, OWNER_KEY)
        .get("/users", &[])
        .await;
    let racers = users.ok()["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["email"] == "racer-bot@conc.test")
        .count();
    assert_eq!(racers, 1, "{}", users.debug());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_concurrent_readers_never_see_a_server_error() {
    let _alone = alone();
    let server = TestServer::spawn(seed(), &[]);

    let handles: Vec<_> = (0..TASKS)
        .map(|t| {
            let me = server.with_key(&member_email(t), &member_key(t));
            tokio::spawn(async move {
                for _ in 0..OPS {
                    me.get("/users", &[]).await.ok();
                    me.post(
                        "/register",
                        &[
                            ("fetch_event_types", json!(["realm_user", "subscription"])),
                            ("include_subscribers", json!(true)),
                        ],
                    )
                    .await
                    .ok();
                }
            })
        })
        .collect();
    for h in handles {
        h.await.expect("a reader failed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_creations_of_one_new_stream_create_it_once() {
    let _alone = alone();
    let server = TestServer::spawn(seed(), &[]);
    let spellings = ["Race Track", "race track", "RACE TRACK", " Race Track "];

    let handles: Vec<_> = (0..TASKS)
        .map(|t| {
            let me = server.with_key(&member_email(t), &member_key(t));
            let name = spellings[(t % 4) as usize];
            tokio::spawn(async move {
                let r = me
                    .post(SUBS, &[("subscriptions", json!([{"name": name}]))])
                    .await;
                (t, r)
            })
        })
        .collect();
    let mut stored_names = BTreeSet::new();
    for h in handles {
        let (t, r) = h.await.unwrap();
        let body = r.ok();
        let fresh = by_user(&body["subscribed"]);
        let names = fresh
            .get(&member_id(t))
            .unwrap_or_else(|| panic!("{}", r.debug()));
        assert_eq!(names.len(), 1, "{}", r.debug());
        stored_names.insert(names[0].clone());
    }

    assert_eq!(
        stored_names.len(),
        1,
        "one stored spelling for everyone: {stored_names:?}"
    );
    let owner = server.with_key(OWNER_EMAIL, OWNER_KEY);
    let streams = owner.get("/streams", &[("include_all", json!(true))]).await;
    let matching: Vec<Value> = streams.ok()["streams"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| {
            s["name"]
                .as_str()
                .unwrap()
                .eq_ignore_ascii_case("race track")
        })
        .cloned()
        .collect();
    assert_eq!(matching.len(), 1, "{}", streams.debug());
    let id = matching[0]["stream_id"].as_u64().unwrap();
    let members = owner.get(&format!("/streams/{id}/members"), &[]).await;
    let want: BTreeSet<u64> = (0..TASKS).map(member_id).collect();
    assert_eq!(ids(&members.ok()["subscribers"]), want);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_key_regenerations_leave_exactly_one_working_key() {
    let _alone = alone();
    let server = TestServer::spawn(seed(), &[]);
    let (email, key) = (member_email(0), member_key(0));

    let handles: Vec<_> = (0..8)
        .map(|_| {
            let me = server.with_key(&email, &key);
            tokio::spawn(async move { me.post("/users/me/api_key/regenerate", &[]).await })
        })
        .collect();
    let mut issued = Vec::new();
    for h in handles {
        let r = h.await.unwrap();
        if r.status == 200 {
            issued.push(r.ok()["api_key"].as_str().unwrap().to_string());
        } else {
            r.unauthorized("Invalid API key");
        }
    }

    assert!(!issued.is_empty());
    let mut working = 0;
    for k in &issued {
        if server
            .with_key(&email, k)
            .get("/users/me", &[])
            .await
            .status
            == 200
        {
            working += 1;
        }
    }
    assert_eq!(
        working, 1,
        "exactly the last issued key may work; issued {issued:?}"
    );
    server
        .with_key(&email, &key)
        .get("/users/me", &[])
        .await
        .unauthorized("Invalid API key");
}
