//! Zulip's JSON formatter: any JSON object, printed as Python's `json.dumps(indent=2)`
//! prints it (keys in the order sent, non-ASCII as `\uXXXX`) in a `json` code block.

use crate::limits::MAX_CONTENT_CHARS;
use crate::python::{Json, dumps_indented};
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

pub fn integration() -> Integration {
    Integration {
        name: "json",
        display_name: "JSON formatter",
        categories: &["misc"],
        view_name: "JSON",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::None,
        event_types: &[],
        config_options: &[],
        url_options: &[],
        fixtures: &[
            Fixture {
                name: "deploy",
                body: include_str!("fixtures/json/deploy.json"),
                headers: &[],
            },
            Fixture {
                name: "backup",
                body: include_str!("fixtures/json/backup.json"),
                headers: &[],
            },
        ],
        handler,
    }
}

/// The body comes as text (`body.rs`): a parsed `Value` would have lost the keys' order.
fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let text = payload.json.as_str().ok_or(HandlerError::MalformedJson)?;
    let json: Json = serde_json::from_str(text).map_err(|_| HandlerError::MalformedJson)?;
    if !matches!(json, Json::Dict(_)) {
        // Zulip's `JsonBodyPayload[dict[str, Any]]`, whose errors name the body `request`.
        return Err(HandlerError::Invalid("request is not a dict".to_owned()));
    }
    // Printing stops past what a message can hold: the server cuts the rest, exactly
    // where it would cut the whole text.
    let pretty = dumps_indented(&json, MAX_CONTENT_CHARS);
    Ok(HandlerOutput::one(WebhookMessage {
        topic: "JSON".to_owned(),
        content: format!("```json\n{pretty}\n```"),
    }))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::Value;

    use crate::HeaderMap;
    use crate::limits::truncate_content;

    use super::*;

    fn run(body: &str) -> Result<HandlerOutput, HandlerError> {
        let (headers, options) = (HeaderMap::new(), BTreeMap::new());
        handler(&Payload {
            method: &crate::Method::POST,
            json: &Value::String(body.to_owned()),
            headers: &headers,
            event_type: None,
            options: &options,
            topic: None,
        })
    }

    #[test]
    fn prints_the_object_in_a_json_block() {
        let output = run(r#"{"z": 1, "a": [true]}"#).unwrap();
        assert_eq!(
            output.messages,
            [WebhookMessage {
                topic: "JSON".into(),
                content: "```json\n{\n  \"z\": 1,\n  \"a\": [\n    true\n  ]\n}\n```".into(),
            }]
        );
    }

    #[test]
    fn refuses_what_is_not_an_object() {
        assert_eq!(
            run("[1]"),
            Err(HandlerError::Invalid("request is not a dict".into()))
        );
        assert_eq!(run("{"), Err(HandlerError::MalformedJson));
    }

    #[test]
    fn a_huge_body_is_cut_as_the_whole_text_would_be() {
        let items: Vec<String> = (0..5_000).map(|n| format!("\"item {n}\"")).collect();
        let body = format!("{{\"list\": [{}]}}", items.join(","));
        let content = &run(&body).unwrap().messages[0].content;
        assert!(content.len() < 2 * MAX_CONTENT_CHARS);
        let whole = format!(
            "```json\n{}\n```",
            dumps_indented(&serde_json::from_str(&body).unwrap(), usize::MAX)
        );
        assert_eq!(truncate_content(content), truncate_content(&whole));
    }
}
