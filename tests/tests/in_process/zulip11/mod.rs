//! Zulip 11.0's changes (feature levels 363–421) in Weir's areas, each at the level it
//! appeared and one below (`docs/zulip-compatibility.md`: Versions and feature levels).

mod channels;
mod folders;
mod groups;
mod register;
mod topics;

use serde_json::{Value, json};
use weir_tests::*;

const SUBS: &str = "/users/me/subscriptions";

fn at_level(level: u32) -> TestServer {
    TestServer::standard_with(&["--feature-level", &level.to_string()])
}

async fn register(api: &Api, types: Value) -> Value {
    api.post("/register", &[("fetch_event_types", types)])
        .await
        .ok()
        .clone()
}

/// A stream as the owner's `GET /streams` lists it.
async fn listed(server: &TestServer, stream_id: u64) -> Value {
    let r = server
        .as_user(&OWNER)
        .get("/streams", &[("include_all", json!(true))])
        .await;
    r.ok()["streams"]
        .as_array()
        .and_then(|streams| streams.iter().find(|s| s["stream_id"] == stream_id))
        .cloned()
        .unwrap_or_else(|| panic!("stream {stream_id} not listed\n{}", r.debug()))
}

fn ignored(r: &Resp) -> Value {
    r.ok()["ignored_parameters_unsupported"].clone()
}
