//! Sending one API call: parameters, authentication, retries and rate limits.

use std::error::Error as _;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, LOCATION, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::{decode_error, seconds};
use super::{ClientError, ZulipClient};

/// Request parameters as Zulip expects them: strings as they are, every other value
/// JSON-encoded inside the field (`subscriptions=["a","b"]`, `include_all=true`).
/// GET sends them in the query string; POST, PATCH and DELETE in a form-encoded body.
#[derive(Debug, Default, Clone)]
pub(crate) struct Params(Vec<(&'static str, String)>);

impl Params {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// A string parameter, sent as is.
    pub(crate) fn text(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.0.push((name, value.into()));
        self
    }

    /// Any other parameter, JSON-encoded.
    pub(crate) fn json(mut self, name: &'static str, value: impl Into<Value>) -> Self {
        self.0.push((name, value.into().to_string()));
        self
    }

    #[cfg(test)]
    pub(crate) fn pairs(&self) -> &[(&'static str, String)] {
        &self.0
    }
}

/// A successful answer's JSON; `context` names the call in the error.
fn decode<T: DeserializeOwned>(context: &str, body: &[u8]) -> Result<T, ClientError> {
    serde_json::from_slice(body).map_err(|error| ClientError::Decode(format!("{context}: {error}")))
}

impl ZulipClient {
    /// An authenticated call.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        params: Params,
    ) -> Result<T, ClientError> {
        self.execute(method, path, params, true).await
    }

    /// An authenticated call whose answer may be tens of megabytes (`register` with every
    /// subscriber list): decoded on a blocking thread, not on an async worker.
    pub(crate) async fn call_large<T: DeserializeOwned + Send + 'static>(
        &self,
        method: Method,
        path: &str,
        params: Params,
    ) -> Result<T, ClientError> {
        let body = self.fetch(method.clone(), path, params, true).await?;
        let context = format!("{} {path}", method.as_str());
        let stopped = format!("{context}: decoding stopped");
        tokio::task::spawn_blocking(move || decode(&context, &body))
            .await
            .map_err(|_| ClientError::Decode(stopped))?
    }

    /// Sends a request under the client's policies and decodes the answer:
    /// - 429 is waited out (`Retry-After` header, else the body's `retry-after`, else the
    ///   backoff delay), at most `max_rate_limit_retries` times and `max_rate_limit_wait`
    ///   in total, for every method (the server did not act on the request);
    /// - a GET is retried with exponential backoff after a 5xx or a transport error;
    ///   writes are never retried after a 5xx, only when the connection could not even
    ///   be established (so nothing was sent);
    /// - a timeout is not retried.
    pub(crate) async fn execute<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        params: Params,
        authenticated: bool,
    ) -> Result<T, ClientError> {
        let context = format!("{} {path}", method.as_str());
        let body = self.fetch(method, path, params, authenticated).await?;
        decode(&context, &body)
    }

    /// [`Self::execute`] up to the successful answer's body, undecoded.
    async fn fetch(
        &self,
        method: Method,
        path: &str,
        params: Params,
        authenticated: bool,
    ) -> Result<bytes::Bytes, ClientError> {
        let config = &self.inner.config;
        let url =
            self.inner.api_base.join(path).map_err(|error| {
                ClientError::Network(format!("bad request path {path}: {error}"))
            })?;
        let idempotent = method == Method::GET;
        let mut retries = 0u32;
        let mut rate_limit_retries = 0u32;
        let mut rate_limit_waited = Duration::ZERO;

        loop {
            self.wait_for_rate_limit_window().await;
            let mut request = self.inner.http.request(method.clone(), url.clone());
            if authenticated {
                request = request.basic_auth(&self.inner.email, Some(self.inner.key.expose()));
            }
            request = if idempotent {
                request.query(&params.0)
            } else {
                request.form(&params.0)
            };

            let outcome = match request.send().await {
                Ok(response) => {
                    let status = response.status();
                    let headers = response.headers().clone();
                    response.bytes().await.map(|body| (status, headers, body))
                }
                Err(error) => Err(error),
            };
            let (status, headers, body) = match outcome {
                Ok(answer) => answer,
                Err(error) if error.is_timeout() => {
                    return Err(ClientError::Timeout(config.timeout));
                }
                Err(error) => {
                    if (idempotent || error.is_connect()) && retries < config.max_retries {
                        tokio::time::sleep(self.backoff(retries)).await;
                        retries += 1;
                        continue;
                    }
                    return Err(ClientError::Network(describe(&error)));
                }
            };
            self.note_rate_limit_headers(&headers);

            if status.is_success() {
                return Ok(body);
            }
            if status == StatusCode::TOO_MANY_REQUESTS {
                let retry_after = retry_after_header(&headers).or_else(|| retry_after_body(&body));
                let wait = retry_after.unwrap_or_else(|| self.backoff(rate_limit_retries));
                if rate_limit_retries < config.max_rate_limit_retries
                    && rate_limit_waited + wait <= config.max_rate_limit_wait
                {
                    tracing::debug!(?wait, path, "rate limited; waiting before retrying");
                    tokio::time::sleep(wait).await;
                    rate_limit_waited += wait;
                    rate_limit_retries += 1;
                    continue;
                }
                return Err(ClientError::RateLimited { retry_after });
            }
            if status.is_server_error() && idempotent && retries < config.max_retries {
                tracing::debug!(%status, path, retries, "server error; retrying");
                tokio::time::sleep(self.backoff(retries)).await;
                retries += 1;
                continue;
            }
            if status.is_redirection() {
                let location = headers
                    .get(LOCATION)
                    .and_then(|value| value.to_str().ok())
                    .unwrap_or("(no Location header)")
                    .to_string();
                return Err(ClientError::Redirected {
                    status: status.as_u16(),
                    location,
                });
            }
            return Err(decode_error(
                status.as_u16(),
                retry_after_header(&headers),
                &body,
            ));
        }
    }

    /// `retry_base_delay * 2^attempt`, capped at `max_retry_delay`.
    fn backoff(&self, attempt: u32) -> Duration {
        let config = &self.inner.config;
        let factor = 1u32 << attempt.min(16);
        config
            .retry_base_delay
            .saturating_mul(factor)
            .min(config.max_retry_delay)
    }

    /// Honours a previous `X-RateLimit-Remaining: 0`: waits until the announced reset,
    /// but never longer than `max_rate_limit_wait` (clocks may disagree; a 429 would
    /// still be handled).
    async fn wait_for_rate_limit_window(&self) {
        let until = self
            .inner
            .pause_until
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(until) = until {
            let wait = until.saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                tokio::time::sleep(wait.min(self.inner.config.max_rate_limit_wait)).await;
            }
        }
    }

    fn note_rate_limit_headers(&self, headers: &HeaderMap) {
        let now = crate::clock::since_epoch().as_secs_f64();
        if let Some(wait) = pause_from_headers(headers, now) {
            *self
                .inner
                .pause_until
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now() + wait);
        }
    }
}

/// `Retry-After` in seconds (Zulip sends a float). HTTP dates are not used by Zulip and
/// are ignored.
pub(crate) fn retry_after_header(headers: &HeaderMap) -> Option<Duration> {
    header_f64(headers, RETRY_AFTER.as_str()).and_then(seconds)
}

/// The `retry-after` field of a 429's JSON body.
fn retry_after_body(body: &[u8]) -> Option<Duration> {
    serde_json::from_slice::<Value>(body)
        .ok()?
        .get("retry-after")
        .and_then(Value::as_f64)
        .and_then(seconds)
}

/// With `X-RateLimit-Remaining: 0`, how long until `X-RateLimit-Reset` (unix seconds).
pub(crate) fn pause_from_headers(headers: &HeaderMap, now_unix: f64) -> Option<Duration> {
    let remaining = header_f64(headers, "x-ratelimit-remaining")?;
    if remaining > 0.0 {
        return None;
    }
    let reset = header_f64(headers, "x-ratelimit-reset")?;
    seconds(reset - now_unix).filter(|wait| !wait.is_zero())
}

fn header_f64(headers: &HeaderMap, name: &str) -> Option<f64> {
    headers.get(name)?.to_str().ok()?.trim().parse().ok()
}

/// A transport error with its causes ("connection refused" is usually in a source).
fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn params_json_encode_non_strings() {
        let params = Params::new()
            .text("content", "hi")
            .json("subscriptions", vec!["Verona", "Denmark"])
            .json("principals", vec![1_i64, 2])
            .json("include_all", true)
            .json("num_before", 5);
        let pairs: Vec<(&str, &str)> = params
            .pairs()
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("content", "hi"),
                ("subscriptions", r#"["Verona","Denmark"]"#),
                ("principals", "[1,2]"),
                ("include_all", "true"),
                ("num_before", "5"),
            ]
        );
    }

    #[test]
    fn retry_after_header_accepts_floats_and_ignores_junk() {
        assert_eq!(
            retry_after_header(&headers(&[("retry-after", "0.25")])),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            retry_after_header(&headers(&[("retry-after", "2")])),
            Some(Duration::from_secs(2))
        );
        assert_eq!(retry_after_header(&headers(&[("retry-after", "-1")])), None);
        assert_eq!(
            retry_after_header(&headers(&[(
                "retry-after",
                "Wed, 21 Oct 2015 07:28:00 GMT"
            )])),
            None
        );
        assert_eq!(retry_after_header(&HeaderMap::new()), None);
    }

    #[test]
    fn a_pause_is_computed_only_when_nothing_remains() {
        let exhausted = headers(&[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "1002"),
        ]);
        assert_eq!(
            pause_from_headers(&exhausted, 1000.0),
            Some(Duration::from_secs(2))
        );
        assert_eq!(pause_from_headers(&exhausted, 1005.0), None);
        let left = headers(&[
            ("x-ratelimit-remaining", "3"),
            ("x-ratelimit-reset", "1002"),
        ]);
        assert_eq!(pause_from_headers(&left, 1000.0), None);
    }
}
