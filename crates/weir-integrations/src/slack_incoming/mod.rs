//! Zulip's Slack-compatible incoming webhook: what a Slack app posts to a Slack webhook
//! (`text`, `blocks`, `attachments`, `channel`), as JSON or as the form field `payload`
//! (`body.rs`), rendered as Zulip renders it.

mod blocks;
mod format;

use serde_json::Value;

use self::blocks::truthy_field;
use self::blocks::{as_str, join, missing, object, py_strip, render_attachment, render_block};
use self::format::{convert_slack_formatting, replace_links};
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

const JSON: &[(&str, &str)] = &[("Content-Type", "application/json")];

pub fn integration() -> Integration {
    Integration {
        name: "slack_incoming",
        display_name: "Slack-compatible webhook",
        categories: &["communication", "meta-integration"],
        view_name: "SlackIncoming",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::None,
        event_types: &[],
        config_options: &[],
        url_options: &[],
        fixtures: &[
            Fixture {
                name: "text",
                body: include_str!("../fixtures/slack_incoming/text.json"),
                headers: JSON,
            },
            Fixture {
                name: "blocks",
                body: include_str!("../fixtures/slack_incoming/blocks.json"),
                headers: JSON,
            },
            Fixture {
                name: "attachment",
                body: include_str!("../fixtures/slack_incoming/attachment.json"),
                headers: JSON,
            },
        ],
        handler,
    }
}

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let message = object(payload.json, "payload")?;
    // The URL's `topic` wins (process.rs); then the Slack channel, without its `#` or
    // `@`; then no topic, which Zulip stores as the empty topic.
    let topic = match message.get("channel").filter(|_| payload.topic.is_none()) {
        Some(channel) => {
            let channel = as_str(channel, "channel")?;
            channel
                .strip_prefix(['#', '@'])
                .unwrap_or(channel)
                .to_owned()
        }
        None => String::new(),
    };
    let target = edited(message)?.unwrap_or(message);
    let mut pieces = Vec::new();
    if let Some(blocks) = truthy_field(target, "blocks") {
        for block in blocks.as_array().ok_or_else(|| missing("blocks"))? {
            pieces.push(render_block(block)?);
        }
    }
    if let Some(attachments) = truthy_field(target, "attachments") {
        for attachment in attachments
            .as_array()
            .ok_or_else(|| missing("attachments"))?
        {
            pieces.push(render_attachment(attachment)?);
        }
    }
    let mut body = join(&pieces, "\n\n");
    if body.is_empty()
        && let Some(text) = truthy_field(target, "text")
    {
        if let Some(emoji) = truthy_field(target, "icon_emoji") {
            body = format!("{} ", as_str(emoji, "icon_emoji")?);
        }
        body.push_str(as_str(text, "text")?);
        body = py_strip(&body).to_owned();
    }
    if body.is_empty() {
        return Err(HandlerError::Ignored);
    }
    let content = convert_slack_formatting(py_strip(&replace_links(&body)));
    Ok(HandlerOutput::one(WebhookMessage { topic, content }))
}

/// The edited message of a `message_changed` event, at the top or under `event`.
fn edited(
    message: &serde_json::Map<String, Value>,
) -> Result<Option<&serde_json::Map<String, Value>>, HandlerError> {
    let changed = |event: &serde_json::Map<String, Value>| -> Result<bool, HandlerError> {
        Ok(match event.get("subtype") {
            Some(subtype) => {
                as_str(subtype, "subtype")? == "message_changed" && event.contains_key("message")
            }
            None => false,
        })
    };
    if changed(message)? {
        return object(&message["message"], "message").map(Some);
    }
    if let Some(event) = message.get("event").and_then(Value::as_object)
        && changed(event)?
    {
        return object(&event["message"], "message").map(Some);
    }
    Ok(None)
}

#[cfg(test)]
mod tests {

    use serde_json::json;

    use super::*;

    fn run(json: Value) -> Result<HandlerOutput, HandlerError> {
        crate::run_handler(handler, &json, None, &[], None)
    }

    fn one(json: Value) -> (String, String) {
        let output = run(json).unwrap();
        let message = output.messages.into_iter().next().unwrap();
        (message.topic, message.content)
    }

    #[test]
    fn text_with_its_emoji_under_the_channel() {
        assert_eq!(
            one(
                json!({"channel": "@ops", "icon_emoji": ":ship:", "text": "*Deployed* <https://a.io|it>\n "})
            ),
            (
                "ops".into(),
                ":ship: **Deployed** [it](https://a.io)".into()
            )
        );
    }

    #[test]
    fn blocks_win_over_text() {
        let (_, content) = one(json!({
            "text": "ignored",
            "blocks": [{"type": "divider"}, {"type": "actions", "elements": []}],
        }));
        assert_eq!(content, "----");
        // Blocks that render nothing leave the text.
        let (_, content) = one(json!({"text": "shown", "blocks": [{"type": "actions"}]}));
        assert_eq!(content, "shown");
    }

    #[test]
    fn nothing_to_show_sends_nothing() {
        assert_eq!(run(json!({"text": null})), Err(HandlerError::Ignored));
        assert_eq!(run(json!({})), Err(HandlerError::Ignored));
    }

    #[test]
    fn refuses_what_zulip_cannot_read() {
        assert_eq!(run(json!([])), Err(missing("payload")));
        assert_eq!(run(json!({"channel": 5})), Err(missing("channel")));
        assert_eq!(
            run(json!({"blocks": [{"type": "unknown"}]})),
            Err(missing("type"))
        );
        assert_eq!(
            run(json!({"blocks": [{"type": "image", "image_url": "nope", "alt_text": "a"}]})),
            Err(missing("image_url"))
        );
        assert_eq!(
            run(json!({"attachments": [{"ts": 1.5}]})),
            Err(missing("ts"))
        );
    }

    #[test]
    fn attachment_times_from_numbers_or_strings() {
        let (_, content) = one(json!({"attachments": [{"ts": "1655945306.9"}]}));
        assert_eq!(content, "<time:2022-06-23T00:48:26+00:00>");
    }
}
