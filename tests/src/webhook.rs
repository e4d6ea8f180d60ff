//! Incoming webhooks: posting to `/api/v1/external/<integration>` the way a third-party
//! service does (no basic auth; the key in the query string or the body), and what the
//! suites check the server sent in answer.

use serde_json::{Value, json};

use crate::api::{Method, Resp};
use crate::mailbox::dm_people;
use crate::seed::Account;
use crate::server::TestServer;

/// The cross-realm bot that tells a bot's owner about failed deliveries.
pub const NOTIFICATION_BOT_EMAIL: &str = "notification-bot@zulip.com";
pub const NOTIFICATION_BOT_NAME: &str = "Notification Bot";
pub const JSON_TYPE: &str = "application/json";
pub const FORM_TYPE: &str = "application/x-www-form-urlencoded";

/// `POST /api/v1/external/<integration>` with `query` in the query string, these headers
/// and a raw body, without credentials of its own.
pub async fn post_webhook<K: AsRef<str>, V: AsRef<str>>(
    server: &TestServer,
    integration: &str,
    query: &[(&str, &str)],
    headers: &[(K, V)],
    body: &str,
) -> Resp {
    let api = server.anon();
    let path = format!("/external/{integration}");
    let mut rb = api
        .request_unauthenticated(Method::POST, &path)
        .query(query)
        .body(body.to_string());
    let mut shown = Vec::new();
    for (k, v) in headers {
        rb = rb.header(k.as_ref(), v.as_ref());
        shown.push((k.as_ref(), v.as_ref()));
    }
    let describe = format!(
        "POST {path} query={query:?} headers={shown:?} body={}",
        preview(body)
    );
    api.send(rb, &describe).await
}

/// The first 200 characters of a body, for failure messages.
fn preview(body: &str) -> String {
    let count = body.chars().count();
    if count > 200 {
        let head: String = body.chars().take(200).collect();
        format!("{head}... ({count} chars)")
    } else {
        body.to_string()
    }
}

/// Asserts the plain webhook success, exactly `{"result":"success","msg":""}`.
#[track_caller]
pub fn assert_webhook_success(r: &Resp) {
    r.ok();
    assert_eq!(
        r.json,
        json!({"result": "success", "msg": ""}),
        "{}",
        r.debug()
    );
}

/// Asserts `m` is Notification Bot's direct message to `owner` with exactly `text`.
#[track_caller]
pub fn assert_notification(m: &Value, owner: &Account, text: &str) {
    assert_eq!(m["type"], "private", "{m:#}");
    assert_eq!(m["sender_email"], NOTIFICATION_BOT_EMAIL, "{m:#}");
    assert_eq!(m["sender_full_name"], NOTIFICATION_BOT_NAME, "{m:#}");
    assert!(
        dm_people(m).contains(&owner.id),
        "not addressed to {}: {m:#}",
        owner.email
    );
    assert_eq!(m["content"], text, "{m:#}");
}
