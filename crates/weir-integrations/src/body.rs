//! How a webhook's body becomes the JSON its handler reads. Most of Zulip's views read
//! the raw body as JSON whatever the declared content type (`JsonBodyPayload`: Grafana
//! posts JSON declared as a form); a few read it otherwise, and those are named here.

use http::header::CONTENT_TYPE;
use serde_json::Value;

use crate::{HeaderMap, Integration, Rejection};

/// How one integration's view reads its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// The body is JSON, whatever the content type says.
    Json,
    /// The handler parses the body itself and gets it as one string: the JSON formatter
    /// prints the body's keys in the order they were sent, which `Value` does not keep.
    Text,
    /// Slack's convention: a JSON body declared `application/json`, or else the JSON in
    /// the form field `payload` (Zulip's `slack_incoming` view).
    SlackPayload,
}

/// The views that do not read a JSON body. A field of [`Integration`] would say this
/// better; kept here so that adding it did not change every integration at once.
fn reading(integration: &Integration) -> Reading {
    match integration.name {
        "json" => Reading::Text,
        "slack_incoming" => Reading::SlackPayload,
        _ => Reading::Json,
    }
}

/// The JSON the handler of `integration` is given for `body`.
pub(crate) fn read(
    integration: &Integration,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Value, Rejection> {
    match reading(integration) {
        Reading::Json => parse(body),
        Reading::Text => std::str::from_utf8(body)
            .map(|text| Value::String(text.to_owned()))
            .map_err(|_| Rejection::MalformedJson),
        Reading::SlackPayload => match content_type(headers).as_deref() {
            Some("application/json") => parse(body),
            // Django parses only form bodies into `request.POST`; Zulip then reads the
            // last `payload` field, as `QueryDict` does.
            Some("application/x-www-form-urlencoded") => form_urlencoded::parse(body)
                .filter(|(key, _)| key == "payload")
                .last()
                .ok_or_else(|| Rejection::MissingKey("payload".to_owned()))
                .and_then(|(_, json)| parse(json.as_bytes())),
            _ => Err(Rejection::MissingKey("payload".to_owned())),
        },
    }
}

fn parse(body: &[u8]) -> Result<Value, Rejection> {
    serde_json::from_slice(body).map_err(|_| Rejection::MalformedJson)
}

/// The media type without its parameters, lower case (Django's `request.content_type`).
fn content_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next().unwrap_or_default();
    Some(essence.trim().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn slack(content_type: Option<&str>, body: &str) -> Result<Value, Rejection> {
        let mut headers = HeaderMap::new();
        if let Some(value) = content_type {
            headers.insert(CONTENT_TYPE, value.parse().unwrap());
        }
        let integration = find("helloworld").unwrap();
        let slack = Integration {
            name: "slack_incoming",
            ..integration.clone()
        };
        read(&slack, &headers, body.as_bytes())
    }

    #[test]
    fn slack_reads_json_or_the_forms_last_payload() {
        let json = serde_json::json!({"text": "hi"});
        assert_eq!(
            slack(Some("Application/JSON; charset=utf-8"), r#"{"text":"hi"}"#),
            Ok(json.clone())
        );
        let form = "payload=%7B%7D&payload=%7B%22text%22%3A%22hi%22%7D";
        assert_eq!(
            slack(Some("application/x-www-form-urlencoded"), form),
            Ok(json)
        );
        let missing = Err(Rejection::MissingKey("payload".into()));
        // A JSON body not declared as JSON is read as a form, as Django does.
        assert_eq!(slack(None, r#"{"text":"hi"}"#), missing);
        assert_eq!(slack(Some("text/plain"), "payload=%7B%7D"), missing);
        assert_eq!(
            slack(Some("application/x-www-form-urlencoded"), "text=hi"),
            missing
        );
        assert_eq!(
            slack(Some("application/x-www-form-urlencoded"), "payload=nope"),
            Err(Rejection::MalformedJson)
        );
        assert_eq!(
            slack(Some("application/json"), "payload=%7B%7D"),
            Err(Rejection::MalformedJson)
        );
    }
}
