//! [`ClientError`] and the decoding of Zulip's error responses.

use std::time::Duration;

use serde_json::{Map, Value};
use zulip_api::ZulipErrorCode;

use crate::site::InvalidSite;

/// Everything a call to a Zulip server can end with, other than success.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// HTTP 401: wrong e-mail or key, deactivated account, ...
    #[error("the server rejected the credentials: {msg}")]
    Unauthorized { msg: String },
    /// One or more channels named in the request do not exist (either Zulip's documented
    /// `STREAM_DOES_NOT_EXIST` or its `Channel(s) (a, b) do not exist` message).
    #[error("channel(s) do not exist: {}", .0.join(", "))]
    StreamsDoNotExist(Vec<String>),
    /// HTTP 429 that outlasted the client's retry budget.
    #[error("the server's rate limit was hit{}", retry_hint(*.retry_after))]
    RateLimited { retry_after: Option<Duration> },
    /// Any other Zulip error: `{"result":"error","code":...,"msg":...,...extra}`.
    #[error("{msg} (HTTP {status}, {code})")]
    Zulip {
        status: u16,
        code: String,
        msg: String,
        extra: Map<String, Value>,
    },
    /// An error status whose body is not a Zulip error (a proxy's HTML page, ...).
    #[error("HTTP {status} from the server: {body}")]
    Http { status: u16, body: String },
    /// The server answered with a redirect; API clients do not follow them (a POST would
    /// turn into a GET), so the site address should be corrected instead.
    #[error("the server redirected to {location}; use that address as the site")]
    Redirected { status: u16, location: String },
    #[error("the server did not answer within {} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// Connection refused, DNS failure, TLS failure, connection reset, ...
    #[error("cannot reach the server: {0}")]
    Network(String),
    /// A success response that does not have the expected shape.
    #[error("unexpected response from the server: {0}")]
    Decode(String),
    /// Principals given as user ids to a server below feature level 9.
    #[error(
        "this server (feature level {feature_level}) accepts principals only as e-mail \
         addresses; user ids need feature level 9 (Zulip 3.0)"
    )]
    PrincipalIdsUnsupported { feature_level: u32 },
    #[error(transparent)]
    InvalidSite(#[from] InvalidSite),
    /// The TLS options (certificate bundle, client certificate) could not be used.
    #[error("TLS configuration: {0}")]
    Tls(String),
}

fn retry_hint(retry_after: Option<Duration>) -> String {
    retry_after
        .map(|wait| format!("; retry after {:.1} s", wait.as_secs_f64()))
        .unwrap_or_default()
}

impl ClientError {
    /// The Zulip error code, when the server sent one.
    pub fn zulip_code(&self) -> Option<ZulipErrorCode> {
        match self {
            Self::Zulip { code, .. } => Some(parse_code(code)),
            Self::Unauthorized { .. } => Some(ZulipErrorCode::Unauthorized),
            Self::StreamsDoNotExist(_) => Some(ZulipErrorCode::StreamDoesNotExist),
            Self::RateLimited { .. } => Some(ZulipErrorCode::RateLimitHit),
            _ => None,
        }
    }

    /// The HTTP status, when the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Unauthorized { .. } => Some(401),
            Self::RateLimited { .. } => Some(429),
            Self::StreamsDoNotExist(_) => Some(400),
            Self::Zulip { status, .. } | Self::Http { status, .. } => Some(*status),
            Self::Redirected { status, .. } => Some(*status),
            _ => None,
        }
    }
}

fn parse_code(code: &str) -> ZulipErrorCode {
    serde_json::from_value(Value::String(code.to_string())).unwrap_or(ZulipErrorCode::Unknown)
}

/// Turns an error response into a [`ClientError`]. `retry_after` is the parsed
/// `Retry-After` header, if any.
pub(crate) fn decode_error(status: u16, retry_after: Option<Duration>, body: &[u8]) -> ClientError {
    let object = match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) if map.get("msg").is_some_and(Value::is_string) => Some(map),
        _ => None,
    };
    let Some(mut map) = object else {
        let excerpt = excerpt(body);
        return match status {
            401 => unauthorized(if excerpt.is_empty() {
                "HTTP 401".into()
            } else {
                excerpt
            }),
            429 => ClientError::RateLimited { retry_after },
            _ => ClientError::Http {
                status,
                body: excerpt,
            },
        };
    };
    let msg = take_string(&mut map, "msg").unwrap_or_default();
    let code = take_string(&mut map, "code").unwrap_or_else(|| "BAD_REQUEST".to_string());
    map.remove("result");

    if status == 401 {
        return unauthorized(msg);
    }
    if status == 429 || code == "RATE_LIMIT_HIT" {
        let from_body = map
            .get("retry-after")
            .and_then(Value::as_f64)
            .and_then(seconds);
        return ClientError::RateLimited {
            retry_after: retry_after.or(from_body),
        };
    }
    if code == "STREAM_DOES_NOT_EXIST" {
        let names = match map.get("stream").and_then(Value::as_str) {
            Some(name) => vec![name.to_string()],
            None => missing_streams_in_msg(&msg).unwrap_or_default(),
        };
        if !names.is_empty() {
            return ClientError::StreamsDoNotExist(names);
        }
    }
    if let Some(names) = missing_streams_in_msg(&msg) {
        return ClientError::StreamsDoNotExist(names);
    }
    ClientError::Zulip {
        status,
        code,
        msg,
        extra: map,
    }
}

fn unauthorized(msg: String) -> ClientError {
    ClientError::Unauthorized { msg }
}

fn take_string(map: &mut Map<String, Value>, key: &str) -> Option<String> {
    match map.remove(key) {
        Some(Value::String(text)) => Some(text),
        _ => None,
    }
}

/// Seconds as a `Duration`, for finite non-negative values only.
pub(crate) fn seconds(value: f64) -> Option<Duration> {
    (value.is_finite() && value >= 0.0).then(|| Duration::from_secs_f64(value.min(1e9)))
}

/// The names in Zulip's `Channel(s) (a, b) do not exist` (9.0+) or
/// `Stream(s) (a, b) do not exist` (older) message. Names are joined with `", "` by
/// the server, so a name that itself contains `", "` cannot be told apart.
fn missing_streams_in_msg(msg: &str) -> Option<Vec<String>> {
    let inner = ["Channel(s) (", "Stream(s) ("]
        .iter()
        .find_map(|prefix| msg.trim().strip_prefix(prefix))?
        .trim_end_matches('.')
        .strip_suffix(") do not exist")?;
    Some(inner.split(", ").map(str::to_string).collect())
}

/// The start of a non-JSON body, whitespace collapsed, for error messages.
fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut short: String = collapsed.chars().take(200).collect();
    if short.len() < collapsed.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(status: u16, body: &str) -> ClientError {
        decode_error(status, None, body.as_bytes())
    }

    #[test]
    fn documented_stream_does_not_exist_shape() {
        let body = r#"{"result":"error","code":"STREAM_DOES_NOT_EXIST","msg":"Channel 'x' does not exist","stream":"x"}"#;
        assert!(matches!(decode(400, body), ClientError::StreamsDoNotExist(n) if n == ["x"]));
    }

    #[test]
    fn zulip_code_path_shape_with_channels_and_streams() {
        let body =
            r#"{"result":"error","code":"BAD_REQUEST","msg":"Channel(s) (a, b c) do not exist"}"#;
        assert!(
            matches!(decode(400, body), ClientError::StreamsDoNotExist(n) if n == ["a", "b c"])
        );
        let body = r#"{"result":"error","msg":"Stream(s) (old) do not exist"}"#;
        assert!(matches!(decode(400, body), ClientError::StreamsDoNotExist(n) if n == ["old"]));
    }

    #[test]
    fn unauthorized_with_and_without_json() {
        let body = r#"{"result":"error","code":"UNAUTHORIZED","msg":"Invalid API key"}"#;
        assert!(
            matches!(decode(401, body), ClientError::Unauthorized { msg } if msg == "Invalid API key")
        );
        assert!(matches!(decode(401, "nope"), ClientError::Unauthorized { msg } if msg == "nope"));
    }

    #[test]
    fn other_zulip_errors_keep_code_msg_and_extras() {
        let body = r#"{"result":"error","code":"REQUEST_VARIABLE_MISSING","msg":"Missing 'x' argument","var_name":"x"}"#;
        let error = decode(400, body);
        assert_eq!(
            error.zulip_code(),
            Some(ZulipErrorCode::RequestVariableMissing)
        );
        match error {
            ClientError::Zulip {
                status,
                code,
                msg,
                extra,
            } => {
                assert_eq!(
                    (status, code.as_str(), msg.as_str()),
                    (400, "REQUEST_VARIABLE_MISSING", "Missing 'x' argument")
                );
                assert_eq!(extra.get("var_name"), Some(&Value::from("x")));
                assert!(!extra.contains_key("result"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn non_json_bodies_become_http_errors() {
        let error = decode(502, "<html>\n<body>Bad   Gateway</body></html>");
        assert!(
            matches!(&error, ClientError::Http { status: 502, body } if body == "<html> <body>Bad Gateway</body></html>"),
            "{error:?}"
        );
        assert!(matches!(
            decode(500, r#"{"detail":"x"}"#),
            ClientError::Http { status: 500, .. }
        ));
    }

    #[test]
    fn rate_limit_reads_the_body_field_when_no_header() {
        let body = r#"{"result":"error","code":"RATE_LIMIT_HIT","msg":"API usage exceeded rate limit","retry-after":1.5}"#;
        assert!(matches!(
            decode(429, body),
            ClientError::RateLimited { retry_after: Some(d) } if d == Duration::from_millis(1500)
        ));
        let header = Some(Duration::from_secs(3));
        assert!(matches!(
            decode_error(429, header, body.as_bytes()),
            ClientError::RateLimited { retry_after: Some(d) } if d == Duration::from_secs(3)
        ));
    }
}
