//! Zulip's Hello World integration, the simplest webhook: its shipped fixture, the
//! Markdown it builds, Zulip's rendering of that Markdown, and a sender for it.

use serde_json::{Value, json};

use crate::api::Resp;
use crate::mailbox::{everything, new_since, only_one};
use crate::seed::{Account, Stream, WEBHOOK_BOT};
use crate::server::TestServer;
use crate::webhook::{JSON_TYPE, assert_webhook_success, post_webhook};

/// The fixture Zulip ships for Hello World.
pub const ADA: &str = include_str!("../fixtures/webhooks/helloworld/ada_lovelace.json");
pub const ADA_TITLE: &str = "Ada Lovelace";
pub const ADA_URL: &str = "https://en.wikipedia.org/wiki/Ada_Lovelace";
/// The client name Hello World's messages carry.
pub const HELLO_CLIENT: &str = "ZulipHelloWorldWebhook";

/// The Markdown Hello World builds.
pub fn hello_markdown(title: &str, url: &str) -> String {
    format!(
        "Hello! I am happy to be here! :smile:\n\
         The Wikipedia featured article for today is **[{title}]({url})**"
    )
}

/// Zulip's rendering of [`hello_markdown`] for a plain title and URL.
pub fn hello_html(title: &str, url: &str) -> String {
    format!(
        "<p>Hello! I am happy to be here! <span aria-label=\"smile\" class=\"emoji emoji-1f642\" \
         role=\"img\" title=\"smile\">:smile:</span><br>\n\
         The Wikipedia featured article for today is <strong><a href=\"{url}\">{title}</a></strong></p>"
    )
}

/// A Hello World payload with this title and URL.
pub fn payload(title: &str, url: &str) -> String {
    json!({"featured_title": title, "featured_url": url}).to_string()
}

/// Hello World with a JSON body declared as JSON.
pub async fn hello(server: &TestServer, query: &[(&str, &str)], body: &str) -> Resp {
    post_webhook(
        server,
        "helloworld",
        query,
        &[("Content-Type", JSON_TYPE)],
        body,
    )
    .await
}

/// The incoming-webhook bot's key and a `stream`, as a query.
pub fn bot_to(stream: &str) -> [(&str, &str); 2] {
    [("api_key", WEBHOOK_BOT.key), ("stream", stream)]
}

/// Sends Hello World, asserts the plain webhook success, and returns the one message the
/// request sent (proven against a snapshot of every readable message taken before).
pub async fn hello_one(
    server: &TestServer,
    query: &[(&str, &str)],
    body: &str,
    what: &str,
) -> Value {
    let before = everything(server).await;
    assert_webhook_success(&hello(server, query, body).await);
    only_one(&new_since(server, &before).await, what)
}

/// Asserts `m` is the webhook bot's Hello World message about [`ADA`] in `stream`.
#[track_caller]
pub fn assert_ada_in(m: &Value, stream: Stream) {
    let markdown = hello_markdown(ADA_TITLE, ADA_URL);
    assert_stream_message(m, &WEBHOOK_BOT, stream, "Hello World", &markdown);
}

/// Asserts `m` is a Hello World stream message from `sender` in `stream` with this topic
/// and content.
#[track_caller]
pub fn assert_stream_message(
    m: &Value,
    sender: &Account,
    stream: Stream,
    topic: &str,
    content: &str,
) {
    assert_eq!(m["type"], "stream", "{m:#}");
    assert_eq!(m["sender_id"], sender.id, "{m:#}");
    assert_eq!(m["sender_email"], sender.email, "{m:#}");
    assert_eq!(m["sender_full_name"], sender.full_name, "{m:#}");
    assert_eq!(m["stream_id"], stream.id, "{m:#}");
    assert_eq!(m["display_recipient"], stream.name, "{m:#}");
    assert_eq!(m["subject"], topic, "{m:#}");
    assert_eq!(m["content"], content, "{m:#}");
    assert_eq!(m["client"], HELLO_CLIENT, "{m:#}");
}
