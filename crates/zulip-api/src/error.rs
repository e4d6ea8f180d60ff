use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Zulip's machine-readable error codes that Weir produces or branches on. Named for
/// Zulip so that it is never mistaken for the app's own IPC error codes (weir-core).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ZulipErrorCode {
    BadRequest,
    RequestVariableMissing,
    Unauthorized,
    UnauthorizedPrincipal,
    InvalidApiKey,
    UserDeactivated,
    StreamDoesNotExist,
    RateLimitHit,
    MissingHttpEventHeader,
    UnsupportedWebhookEventType,
    /// A webhook payload the service would not send (Zulip's
    /// `AnomalousWebhookPayloadError`, with `webhook_name`).
    AnomalousWebhookPayload,
    RealmDeactivated,
    BadEventQueueId,
    /// A group-setting update whose `old` value is not the current one.
    ExpectationMismatch,
    CannotDeactivateGroupInUse,
    /// Any code this version does not know; kept so that decoding never fails.
    #[serde(other)]
    Unknown,
}

impl ZulipErrorCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BadRequest => "BAD_REQUEST",
            Self::RequestVariableMissing => "REQUEST_VARIABLE_MISSING",
            Self::Unauthorized => "UNAUTHORIZED",
            Self::UnauthorizedPrincipal => "UNAUTHORIZED_PRINCIPAL",
            Self::InvalidApiKey => "INVALID_API_KEY",
            Self::UserDeactivated => "USER_DEACTIVATED",
            Self::StreamDoesNotExist => "STREAM_DOES_NOT_EXIST",
            Self::RateLimitHit => "RATE_LIMIT_HIT",
            Self::MissingHttpEventHeader => "MISSING_HTTP_EVENT_HEADER",
            Self::UnsupportedWebhookEventType => "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
            Self::AnomalousWebhookPayload => "ANOMALOUS_WEBHOOK_PAYLOAD",
            Self::RealmDeactivated => "REALM_DEACTIVATED",
            Self::BadEventQueueId => "BAD_EVENT_QUEUE_ID",
            Self::ExpectationMismatch => "EXPECTATION_MISMATCH",
            Self::CannotDeactivateGroupInUse => "CANNOT_DEACTIVATE_GROUP_IN_USE",
            Self::Unknown => "UNKNOWN",
        }
    }
}

/// `{"result":"error","msg":..., "code":..., ...extra}` as Zulip sends it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorResponse {
    pub result: String,
    pub msg: String,
    pub code: ZulipErrorCode,
    /// Fields some errors add, such as `var_name`, `stream` or `retry-after`.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_codes_decode_instead_of_failing() {
        let body = r#"{"result":"error","msg":"x","code":"SOMETHING_NEW"}"#;
        let decoded: ErrorResponse = serde_json::from_str(body).unwrap();
        assert_eq!(decoded.code, ZulipErrorCode::Unknown);
    }

    #[test]
    fn extra_fields_are_kept() {
        let body = r#"{"result":"error","msg":"m","code":"STREAM_DOES_NOT_EXIST","stream":"x"}"#;
        let decoded: ErrorResponse = serde_json::from_str(body).unwrap();
        assert_eq!(decoded.code, ZulipErrorCode::StreamDoesNotExist);
        assert_eq!(decoded.extra.get("stream"), Some(&Value::from("x")));
    }
}
