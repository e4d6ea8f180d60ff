//! Zulip's request parameters: a flat map of strings taken from the query string and a
//! form-encoded (or multipart) body, where non-string values are JSON inside the field.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::pin::Pin;

use axum::body::{Bytes, HttpBody};
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde_json::Value;

use crate::AppState;
use crate::error::ApiError;
use crate::http::auth::Caller;

/// Largest request body the server reads; Zulip's own limit for API bodies is similar.
pub const MAX_BODY_BYTES: usize = 5 * 1024 * 1024;

/// The parameters of one request. Handlers `take_*` what they know; whatever is left
/// is reported back as `ignored_parameters_unsupported`, as Zulip does.
#[derive(Debug, Default)]
pub struct Params {
    values: BTreeMap<String, String>,
    /// The share of the unauthenticated body budget this request's body took, given
    /// back when the parameters are dropped.
    budget_share: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Params {
    #[cfg(test)]
    pub fn from_pairs<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        Self {
            values: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            budget_share: None,
        }
    }

    pub fn from_query(query: &str) -> Self {
        let mut params = Self::default();
        params.merge_form(query.as_bytes());
        params
    }

    /// Adds form fields from `bytes` that the query string did not already give.
    pub fn merge_missing_form(&mut self, bytes: &[u8]) {
        for_each_form_pair(bytes, |key, value| {
            self.values
                .entry(key.into_owned())
                .or_insert_with(|| value.into_owned());
        });
    }

    fn merge_form(&mut self, bytes: &[u8]) {
        for_each_form_pair(bytes, |key, value| {
            self.values.insert(key.into_owned(), value.into_owned());
        });
    }

    /// Whether the request carries `name` (not yet taken).
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    pub fn take_str(&mut self, name: &str) -> Option<String> {
        self.values.remove(name)
    }

    pub fn require_str(&mut self, name: &str) -> Result<String, ApiError> {
        self.take_str(name)
            .ok_or_else(|| ApiError::missing_argument(name))
    }

    /// A JSON-encoded parameter, parsed but not yet checked for shape.
    pub fn take_json(&mut self, name: &str) -> Result<Option<Value>, ApiError> {
        self.take_str(name)
            .map(|raw| {
                serde_json::from_str(&raw)
                    .map_err(|_| ApiError::bad_request(format!("{name} is not valid JSON")))
            })
            .transpose()
    }

    pub fn require_json(&mut self, name: &str) -> Result<Value, ApiError> {
        self.take_json(name)?
            .ok_or_else(|| ApiError::missing_argument(name))
    }

    pub fn take_bool(&mut self, name: &str, default: bool) -> Result<bool, ApiError> {
        match self.take_json(name)? {
            None => Ok(default),
            Some(Value::Bool(value)) => Ok(value),
            Some(_) => Err(ApiError::bad_request(format!("{name} is not a boolean"))),
        }
    }

    pub fn take_int(&mut self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.take_json(name)? {
            None => Ok(None),
            Some(Value::Number(n)) if n.is_i64() => Ok(n.as_i64()),
            Some(_) => Err(ApiError::bad_request(format!("{name} is not an integer"))),
        }
    }

    /// A required JSON list of strings, with Zulip's messages for each wrong shape.
    pub fn require_string_list(&mut self, name: &str) -> Result<Vec<String>, ApiError> {
        let value = self.require_json(name)?;
        string_list(name, value)
    }

    pub fn take_string_list(&mut self, name: &str) -> Result<Option<Vec<String>>, ApiError> {
        self.take_json(name)?
            .map(|value| string_list(name, value))
            .transpose()
    }

    /// Names of the parameters no handler asked for, sorted.
    pub fn into_ignored(self) -> Vec<String> {
        self.values.into_keys().collect()
    }
}

pub fn as_list(name: &str, value: Value) -> Result<Vec<Value>, ApiError> {
    match value {
        Value::Array(items) => Ok(items),
        _ => Err(ApiError::bad_request(format!("{name} is not a list"))),
    }
}

fn string_list(name: &str, value: Value) -> Result<Vec<String>, ApiError> {
    as_list(name, value)?
        .into_iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(text) => Ok(text),
            _ => Err(ApiError::bad_request(format!(
                "{name}[{index}] is not a string"
            ))),
        })
        .collect()
}

/// How much of an oversized body is read and dropped before the 413 goes out. A client
/// still sending when the server answers and closes gets a broken pipe instead of the
/// answer; like nginx's lingering close, the server lets it finish, up to this much.
const MAX_DISCARDED_BYTES: usize = 64 * 1024 * 1024;

/// Reads a body up to [`MAX_BODY_BYTES`], answering a Zulip-shaped 413 beyond it.
pub async fn read_body(body: axum::body::Body) -> Result<Bytes, ApiError> {
    read_body_limited(body, MAX_BODY_BYTES, 0).await
}

/// Reads a body up to `limit` bytes (room for `expected` reserved at once), answering a
/// 413 beyond it; what comes beyond the limit is read and dropped, never kept.
pub(crate) async fn read_body_limited(
    mut body: axum::body::Body,
    limit: usize,
    expected: usize,
) -> Result<Bytes, ApiError> {
    let mut kept = Vec::with_capacity(expected.min(limit));
    let mut total = 0usize;
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(crate::http::connection::body_error)?;
        let Ok(data) = frame.into_data() else {
            continue; // trailers
        };
        total = total.saturating_add(data.len());
        if total <= limit {
            kept.extend_from_slice(&data);
        } else if total > limit + MAX_DISCARDED_BYTES {
            break;
        } else if !kept.is_empty() {
            kept = Vec::new();
        }
    }
    if total > limit {
        return Err(too_large(limit));
    }
    Ok(Bytes::from(kept))
}

/// Reads and drops a body that will be refused (see [`MAX_DISCARDED_BYTES`]).
pub(crate) async fn drain_body(mut body: axum::body::Body) {
    let mut total = 0usize;
    while let Some(Ok(frame)) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
    {
        total = total.saturating_add(frame.data_ref().map_or(0, Bytes::len));
        if total > MAX_DISCARDED_BYTES {
            break;
        }
    }
}

/// Zulip-shaped 413 for a body over `limit` bytes.
pub(crate) fn too_large(limit: usize) -> ApiError {
    let limit = if limit >= 1024 * 1024 {
        format!("{} MiB", limit / (1024 * 1024))
    } else {
        format!("{} KiB", limit / 1024)
    };
    ApiError::bad_request(format!("Request body too large (limit: {limit})"))
        .status(StatusCode::PAYLOAD_TOO_LARGE)
}

impl FromRequest<AppState> for Params {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let mut params = Params::default();
        if let Some(query) = request.uri().query() {
            params.merge_form(query.as_bytes());
        }
        let content_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let authenticated = request.extensions().get::<Caller>().is_some();
        if content_type.starts_with("multipart/form-data") {
            // Read like any other body first: one limit, one 413, for every encoding.
            let (parts, body) = request.into_parts();
            let body = if authenticated {
                read_body(body).await?
            } else {
                let budgeted = state
                    .unauthenticated_bodies()
                    .read(&parts.headers, body)
                    .await?;
                params.budget_share = budgeted.share;
                budgeted.bytes
            };
            let request = Request::from_parts(parts, axum::body::Body::from(body));
            let mut multipart = axum::extract::Multipart::from_request(request, state)
                .await
                .map_err(|_| ApiError::bad_request("Malformed multipart body"))?;
            while let Some(field) = multipart
                .next_field()
                .await
                .map_err(|_| ApiError::bad_request("Malformed multipart body"))?
            {
                let name = field.name().unwrap_or_default().to_owned();
                let text = field
                    .text()
                    .await
                    .map_err(|_| ApiError::bad_request("Malformed multipart body"))?;
                params.values.insert(name, text);
            }
        } else if authenticated {
            let body = read_body(request.into_body()).await?;
            params.merge_form(&body);
        } else {
            // Nobody is authenticated: the body comes out of the shared budget.
            let (parts, body) = request.into_parts();
            let body = state
                .unauthenticated_bodies()
                .read(&parts.headers, body)
                .await?;
            params.merge_form(&body.bytes);
            params.budget_share = body.share;
        }
        Ok(params)
    }
}

/// The pairs `form_urlencoded::parse` gives, in order. Input without `+` or `%` (every
/// webhook URL's `api_key=…&stream=…`) decodes to itself, so it is split here without
/// the crate's byte-by-byte decoding passes; anything else goes through the crate.
fn for_each_form_pair(bytes: &[u8], mut pair: impl FnMut(Cow<'_, str>, Cow<'_, str>)) {
    if memchr::memchr2(b'+', b'%', bytes).is_some() {
        for (key, value) in form_urlencoded::parse(bytes) {
            pair(key, value);
        }
        return;
    }
    for field in bytes
        .split(|&b| b == b'&')
        .filter(|field| !field.is_empty())
    {
        let (key, value) = match memchr::memchr(b'=', field) {
            Some(at) => (&field[..at], &field[at + 1..]),
            None => (field, &[][..]),
        };
        pair(String::from_utf8_lossy(key), String::from_utf8_lossy(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Params::from_pairs(pairs.iter().copied())
    }

    /// The shortcut splits exactly as `form_urlencoded::parse` does.
    #[test]
    fn form_pairs_match_form_urlencoded() {
        for input in [
            "",
            "&",
            "a",
            "a=",
            "=b",
            "a=b&c=d",
            "a=b&&c=d&",
            "a=b=c",
            "api_key=abc123&stream=bench",
            "k=%C3%A9&x=a+b",
            "a=\u{e9}&b=\u{1f600}",
        ]
        .iter()
        .map(|input| input.as_bytes().to_vec())
        .chain([b"a=\xff\xfe&\x80=x".to_vec()])
        {
            let mut ours = Vec::new();
            for_each_form_pair(&input, |key, value| {
                ours.push((key.into_owned(), value.into_owned()));
            });
            let theirs: Vec<(String, String)> = form_urlencoded::parse(&input)
                .map(|(key, value)| (key.into_owned(), value.into_owned()))
                .collect();
            assert_eq!(ours, theirs, "{input:?}");
        }
    }

    #[test]
    fn string_lists_report_the_first_wrong_element() {
        let mut p = params(&[("subscriptions", r#"["a", 3]"#)]);
        let error = p.require_string_list("subscriptions").err().map(|e| e.msg);
        assert_eq!(error.as_deref(), Some("subscriptions[1] is not a string"));
    }

    #[test]
    fn invalid_json_and_non_lists_are_named() {
        let mut p = params(&[("a", "[oops"), ("b", r#"{"x":1}"#)]);
        assert_eq!(
            p.require_string_list("a").err().map(|e| e.msg).as_deref(),
            Some("a is not valid JSON")
        );
        assert_eq!(
            p.require_string_list("b").err().map(|e| e.msg).as_deref(),
            Some("b is not a list")
        );
    }

    #[test]
    fn missing_required_parameter_names_it() {
        let error = params(&[]).require_string_list("subscriptions").err();
        let error = error.map(|e| (e.code, e.extra.get("var_name").cloned()));
        assert_eq!(
            error,
            Some((
                zulip_api::ZulipErrorCode::RequestVariableMissing,
                Some(Value::from("subscriptions"))
            ))
        );
    }

    #[test]
    fn untaken_parameters_are_reported_sorted() {
        let mut p = params(&[("zeta", "1"), ("alpha", "2"), ("known", "3")]);
        let _ = p.take_str("known");
        assert_eq!(
            p.into_ignored(),
            vec!["alpha".to_owned(), "zeta".to_owned()]
        );
    }
}
