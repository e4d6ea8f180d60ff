//! What the seeded humans can read, as snapshots: take one before a request and compare
//! after, so "sent nothing" and "sent exactly one message" are proven, not assumed.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::api::Api;
use crate::seed::{ADMIN, GUEST, MEMBER, MEMBER2, MODERATOR, OWNER};
use crate::server::TestServer;

/// Every message `api`'s user can read in `narrow`, oldest first, rendered or as
/// Markdown source.
pub async fn read_all(api: &Api, narrow: Value, apply_markdown: bool) -> Vec<Value> {
    let r = api
        .get(
            "/messages",
            &[
                ("anchor", json!("oldest")),
                ("num_before", json!(0)),
                ("num_after", json!(5000)),
                ("narrow", narrow),
                ("apply_markdown", json!(apply_markdown)),
            ],
        )
        .await;
    r.ok()["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("no `messages` list\n{}", r.debug()))
        .clone()
}

/// Every message any active seeded human can read (Markdown source), by id: what they
/// received (no narrow) and the history of public streams (`channels:public`).
pub async fn everything(server: &TestServer) -> BTreeMap<u64, Value> {
    let public = json!([{"operator": "channels", "operand": "public"}]);
    let mut all = BTreeMap::new();
    for who in [OWNER, ADMIN, MODERATOR, MEMBER, MEMBER2, GUEST] {
        for narrow in [json!([]), public.clone()] {
            for m in read_all(&server.as_user(&who), narrow, false).await {
                all.insert(message_id(&m), m);
            }
        }
    }
    all
}

/// A message's `id`.
#[track_caller]
pub fn message_id(m: &Value) -> u64 {
    m["id"]
        .as_u64()
        .unwrap_or_else(|| panic!("message without an id: {m:#}"))
}

/// Messages that appeared since the snapshot `before`, oldest first.
pub async fn new_since(server: &TestServer, before: &BTreeMap<u64, Value>) -> Vec<Value> {
    everything(server)
        .await
        .into_iter()
        .filter(|(id, _)| !before.contains_key(id))
        .map(|(_, m)| m)
        .collect()
}

/// Asserts that `new` (from [`new_since`]) is empty.
#[track_caller]
pub fn assert_nothing_new(new: &[Value], what: &str) {
    assert!(
        new.is_empty(),
        "{what}: expected no new message, got {new:#?}"
    );
}

/// Asserts that `new` (from [`new_since`]) holds exactly one message, and returns it.
#[track_caller]
pub fn only_one(new: &[Value], what: &str) -> Value {
    assert_eq!(
        new.len(),
        1,
        "{what}: expected exactly one new message, got {new:#?}"
    );
    new[0].clone()
}

/// The user ids in a direct message's `display_recipient` list, sorted.
#[track_caller]
pub fn dm_people(m: &Value) -> Vec<u64> {
    let mut people: Vec<u64> = m["display_recipient"]
        .as_array()
        .unwrap_or_else(|| panic!("display_recipient is not a list: {m:#}"))
        .iter()
        .map(|p| {
            p["id"]
                .as_u64()
                .unwrap_or_else(|| panic!("recipient without id: {m:#}"))
        })
        .collect();
    people.sort();
    people
}
