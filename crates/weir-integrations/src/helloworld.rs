//! Zulip's Hello World integration, the template for writing new ones.

use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

pub fn integration() -> Integration {
    Integration {
        name: "helloworld",
        display_name: "Hello World",
        categories: &["misc"],
        view_name: "HelloWorld",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::None,
        event_types: &[],
        config_options: &[],
        url_options: &[],
        fixtures: &[
            Fixture {
                name: "hello",
                body: include_str!("fixtures/helloworld/hello.json"),
                headers: &[],
            },
            Fixture {
                name: "goodbye",
                body: include_str!("fixtures/helloworld/goodbye.json"),
                headers: &[],
            },
        ],
        handler,
    }
}

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let title = payload.str_at("/featured_title")?;
    let url = payload.str_at("/featured_url")?;
    Ok(HandlerOutput::one(WebhookMessage {
        topic: "Hello World".into(),
        content: format!(
            "Hello! I am happy to be here! :smile:\n\
             The Wikipedia featured article for today is **[{title}]({url})**"
        ),
    }))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use crate::HeaderMap;

    use super::*;

    fn run(json: serde_json::Value) -> Result<WebhookMessage, HandlerError> {
        let headers = HeaderMap::new();
        let options = BTreeMap::new();
        let output = handler(&Payload {
            method: &crate::Method::POST,
            json: &json,
            headers: &headers,
            event_type: None,
            options: &options,
            topic: None,
        })?;
        assert_eq!(output.event, None);
        let [message]: [WebhookMessage; 1] = output
            .messages
            .try_into()
            .unwrap_or_else(|messages| panic!("not one message: {messages:?}"));
        Ok(message)
    }

    #[test]
    fn builds_zulips_two_line_message() {
        let message = run(json!({"featured_title": "Tea", "featured_url": "https://x.test/tea"}));
        assert_eq!(
            message,
            Ok(WebhookMessage {
                topic: "Hello World".into(),
                content: "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article \
                          for today is **[Tea](https://x.test/tea)**"
                    .into(),
            })
        );
    }

    #[test]
    fn names_the_missing_key() {
        let error = run(json!({"featured_url": "https://x.test"}));
        assert_eq!(
            error,
            Err(HandlerError::MissingKey("featured_title".into()))
        );
    }
}
