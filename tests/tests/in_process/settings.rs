//! `PATCH /api/v1/settings`: Weir keeps `translate_emoticons`, and a user's messages (and
//! their `POST /messages/render` previews) are rendered with it, as in Zulip.

use serde_json::Value;
use weir_tests::*;

const SMILE: &str = "<span aria-label=\"smile\" class=\"emoji emoji-1f642\" role=\"img\" \
                     title=\"smile\">:smile:</span>";

async fn set_translate(api: &Api, on: bool) -> Resp {
    api.patch("/settings", &[("translate_emoticons", json!(on))])
        .await
}

/// The HTML `api` stores for a stream message with this content.
async fn stored_rendering(api: &Api, content: &str) -> Value {
    let r = api
        .post(
            "/messages",
            &[
                ("type", json!("stream")),
                ("to", json!("Verona")),
                ("topic", json!("emoticons")),
                ("content", json!(content)),
            ],
        )
        .await;
    let id = r.ok()["id"].clone();
    let read = api
        .get(
            "/messages",
            &[
                ("anchor", json!(id)),
                ("num_before", json!(0)),
                ("num_after", json!(0)),
            ],
        )
        .await;
    read.ok()["messages"][0]["content"].clone()
}

async fn preview(api: &Api, content: &str) -> Value {
    let r = api
        .post("/messages/render", &[("content", json!(content))])
        .await;
    r.ok()["rendered"].clone()
}

#[tokio::test]
async fn translate_emoticons_is_accepted_with_nothing_ignored() {
    let server = TestServer::standard();
    let r = set_translate(&server.as_user(&MEMBER), true).await;
    assert!(
        r.ok().get("ignored_parameters_unsupported").is_none(),
        "{}",
        r.debug()
    );
    set_translate(&server.as_user(&MEMBER), false).await.ok();
}

#[tokio::test]
async fn a_setting_that_is_not_a_boolean_is_refused() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    mark.patch("/settings", &[("translate_emoticons", json!(1))])
        .await
        .bad_request("translate_emoticons is not a boolean");
    mark.patch("/settings", &[("translate_emoticons", json!("yes"))])
        .await
        .bad_request("translate_emoticons is not valid JSON");
}

#[tokio::test]
async fn settings_weir_does_not_keep_are_reported_as_ignored() {
    let server = TestServer::standard();
    let r = server
        .as_user(&MEMBER)
        .patch(
            "/settings",
            &[
                ("twenty_four_hour_time", json!(true)),
                ("emojiset", json!("google")),
            ],
        )
        .await;
    assert_eq!(
        r.ok()["ignored_parameters_unsupported"],
        json!(["emojiset", "twenty_four_hour_time"]),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn emoticons_become_emoji_only_for_senders_who_turned_translation_on() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let nina = server.as_user(&MEMBER2);
    assert_eq!(stored_rendering(&mark, "hi :)").await, "<p>hi :)</p>");
    assert_eq!(preview(&mark, "hi :)").await, "<p>hi :)</p>");

    set_translate(&mark, true).await.ok();
    assert_eq!(
        stored_rendering(&mark, "hi :)").await,
        format!("<p>hi {SMILE}</p>")
    );
    assert_eq!(preview(&mark, "hi :)").await, format!("<p>hi {SMILE}</p>"));
    assert_eq!(
        stored_rendering(&mark, "`:)` a:)").await,
        "<p><code>:)</code> a:)</p>"
    );
    // Another sender's setting is their own.
    assert_eq!(stored_rendering(&nina, "hi :)").await, "<p>hi :)</p>");

    set_translate(&mark, false).await.ok();
    assert_eq!(stored_rendering(&mark, "hi :)").await, "<p>hi :)</p>");
}
