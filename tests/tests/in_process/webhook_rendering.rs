//! Names and tables in webhook messages (issue 38): `@**name**`, silent `@_**name**`,
//! `@*group*`, `#**channel**` and `#**channel>topic**` render as Zulip renders them in
//! any message, the bot being the sender, and tables keep their column alignment. Proven
//! on what is stored (read back with `GET /messages`) and against the server's preview of
//! the same Markdown (`POST /messages/render`, as the bot's owner, who sees the same
//! public names). Zulip's corpus (`markdown_test_cases.json`) has only an unaligned
//! table (`tables`, replayed in `markdown_corpus.rs`); the aligned one is
//! Python-Markdown's `tables` extension output, as Zulip stores it.

use serde_json::Value;
use weir_tests::helloworld::{bot_to, hello, hello_markdown, payload};
use weir_tests::*;

use super::user_groups::{BACKEND, seed_with_groups};

const URL: &str = "https://x.test/a";

/// A Hello World title that closes the integration's bold link, puts `middle` in a
/// paragraph of its own, and reopens a link for the integration's own closing.
fn title_around(middle: &str) -> String {
    format!("x](https://x.test/b)**\n\n{middle}\n\n**[y")
}

/// The one message the bot sent with this request, as the owner reads it: its rendered
/// HTML and its Markdown.
async fn send_and_read(server: &TestServer, query: &[(&str, &str)], middle: &str) -> Value {
    let before = everything(server).await;
    hello(server, query, &payload(&title_around(middle), URL))
        .await
        .ok();
    let sent = only_one(&new_since(server, &before).await, "the bot's message");
    let owner = server.as_user(&MEMBER);
    let html = read_all(&owner, json!([]), true).await;
    let markdown = read_all(&owner, json!([]), false).await;
    let id = &sent["id"];
    let find = |all: &[Value]| {
        all.iter()
            .find(|m| &m["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("message {id} not readable by the owner"))
    };
    let (rendered, raw) = (find(&html), find(&markdown));
    assert_eq!(rendered["sender_id"], json!(WEBHOOK_BOT.id), "{rendered:#}");
    json!({"html": rendered["content"], "markdown": raw["content"]})
}

/// The paragraph of the mentions, in a stored message built by [`title_around`].
fn middle_paragraph(html: &str) -> &str {
    html.lines()
        .find(|line| line.contains("Mark Member"))
        .unwrap_or_else(|| panic!("no middle paragraph in {html}"))
}

fn mentions_html() -> String {
    let (mark, verona) = (MEMBER.id, VERONA.id);
    format!(
        "<p><span class=\"user-mention\" data-user-id=\"{mark}\">@Mark Member</span> \
         <span class=\"user-mention silent\" data-user-id=\"{mark}\">Mark Member</span> \
         <span class=\"user-group-mention\" data-user-group-id=\"{BACKEND}\">@backend</span> \
         <a class=\"stream\" data-stream-id=\"{verona}\" href=\"/#narrow/channel/{verona}-Verona\">\
         #Verona</a> \
         <a class=\"stream-topic\" data-stream-id=\"{verona}\" \
         href=\"/#narrow/channel/{verona}-Verona/topic/party\">#Verona &gt; party</a></p>"
    )
}

const MENTIONS: &str =
    "@**Mark Member** @_**Mark Member** @*backend* #**Verona** #**Verona>party**";

#[tokio::test]
async fn mentions_and_channel_links_in_a_webhook_message_render_as_zulips() {
    let server = TestServer::start(seed_with_groups(), &[]);
    let stored = send_and_read(&server, &bot_to(ENGINEERING.name), MENTIONS).await;
    let html = stored["html"].as_str().unwrap_or_default();
    assert_eq!(middle_paragraph(html), mentions_html(), "{html}");
    // The Markdown is stored as the integration wrote it.
    assert_eq!(
        stored["markdown"],
        json!(hello_markdown(&title_around(MENTIONS), URL))
    );
}

#[tokio::test]
async fn a_webhook_message_to_the_owner_resolves_names_too() {
    let server = TestServer::start(seed_with_groups(), &[]);
    let stored = send_and_read(&server, &[("api_key", WEBHOOK_BOT.key)], MENTIONS).await;
    let html = stored["html"].as_str().unwrap_or_default();
    assert_eq!(middle_paragraph(html), mentions_html(), "{html}");
}

#[tokio::test]
async fn the_stored_webhook_message_is_what_the_servers_preview_renders() {
    let server = TestServer::start(seed_with_groups(), &[]);
    let stored = send_and_read(&server, &bot_to(VERONA.name), MENTIONS).await;
    let preview = server
        .as_user(&MEMBER)
        .post(
            "/messages/render",
            &[("content", stored["markdown"].clone())],
        )
        .await;
    assert_eq!(preview.ok()["rendered"], stored["html"]);
}

const ALIGNED: &str = "| Tea | Origin | Grams |\n| :-- | :-: | --: |\n| Sencha | Japan | 3 |";

fn aligned_html() -> &'static str {
    "<table>\n<thead>\n<tr>\n<th style=\"text-align: left;\">Tea</th>\n\
     <th style=\"text-align: center;\">Origin</th>\n\
     <th style=\"text-align: right;\">Grams</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n\
     <td style=\"text-align: left;\">Sencha</td>\n\
     <td style=\"text-align: center;\">Japan</td>\n\
     <td style=\"text-align: right;\">3</td>\n</tr>\n</tbody>\n</table>"
}

#[tokio::test]
async fn tables_keep_their_alignment_when_stored_and_previewed() {
    let server = TestServer::standard();
    let stored = send_and_read(&server, &bot_to(VERONA.name), ALIGNED).await;
    let html = stored["html"].as_str().unwrap_or_default();
    assert!(html.contains(aligned_html()), "{html}");
    let preview = server
        .as_user(&OWNER)
        .post("/messages/render", &[("content", json!(ALIGNED))])
        .await;
    assert_eq!(preview.ok()["rendered"], json!(aligned_html()));
}
