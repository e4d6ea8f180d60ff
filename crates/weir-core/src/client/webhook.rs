//! Posting to an incoming-webhook URL as a third-party service would: the key is in the
//! URL, not in an authorization header, and the answer is shown as it came.

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::{ClientError, ZulipClient};
use crate::secret::Secret;

/// How much of a webhook's answer is kept for display.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// What the server answered, verbatim (cut at [`MAX_RESPONSE_BYTES`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookResponse {
    pub status: u16,
    pub body: String,
}

impl ZulipClient {
    /// POSTs `body` with `headers` to `url`, which must be on this client's site: the
    /// workbench sends to the account's server, never anywhere else. Never retried (a
    /// webhook is not idempotent); transport errors leave the URL, and so the key, out.
    pub async fn post_webhook(
        &self,
        url: &Secret,
        headers: &[(String, String)],
        body: Vec<u8>,
    ) -> Result<WebhookResponse, ClientError> {
        let prefix = format!("{}/api/v1/external/", self.site());
        if !url.expose().starts_with(&prefix) {
            return Err(ClientError::Network(format!(
                "a webhook URL must start with {prefix}"
            )));
        }
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            let name = HeaderName::from_bytes(name.trim().as_bytes())
                .map_err(|_| ClientError::Network(format!("invalid header name '{name}'")))?;
            let value = HeaderValue::from_str(value.trim())
                .map_err(|_| ClientError::Network(format!("invalid value for header {name}")))?;
            map.append(name, value);
        }
        let answer = self
            .inner
            .http
            .post(url.expose())
            .headers(map)
            .body(body)
            .send()
            .await
            .map_err(|error| transport_error(&error, self.config().timeout))?;
        let status = answer.status().as_u16();
        let bytes = answer
            .bytes()
            .await
            .map_err(|error| transport_error(&error, self.config().timeout))?;
        let kept = &bytes[..bytes.len().min(MAX_RESPONSE_BYTES)];
        Ok(WebhookResponse {
            status,
            body: String::from_utf8_lossy(kept).into_owned(),
        })
    }
}

fn transport_error(error: &reqwest::Error, timeout: std::time::Duration) -> ClientError {
    if error.is_timeout() {
        return ClientError::Timeout(timeout);
    }
    // reqwest's message names the URL, which holds the key.
    let mut text = String::from("could not post to the webhook URL");
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    ClientError::Network(text)
}
