//! HTTP basic authentication for the REST API, and the rate limit that follows it.

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use zulip_api::{BotType, ZulipErrorCode};

use crate::AppState;
use crate::error::{ApiError, Error};
use crate::http::auth_failures::{client_key, count_failure, refuse_if_over};
use crate::http::ratelimit::{Exceeded, Quota};
use crate::rules::keys::{has_api_key_format, keys_match};
use crate::store::UserRow;

/// The authenticated user of a request.
#[derive(Debug, Clone)]
pub struct Caller(pub Arc<UserRow>);

impl std::ops::Deref for Caller {
    type Target = UserRow;
    fn deref(&self) -> &UserRow {
        &self.0
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Caller>().cloned().ok_or_else(|| {
            ApiError::unauthorized("Not logged in: API authentication or user session required")
        })
    }
}

/// Splits `Authorization: Basic base64(email:key)` as Zulip does.
fn basic_credentials(headers: &HeaderMap) -> Result<(String, String), ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(ApiError::unauthorized(
            "Not logged in: API authentication or user session required",
        ));
    };
    let invalid = || ApiError::unauthorized("Invalid authorization header for basic auth");
    let text = value.to_str().map_err(|_| invalid())?;
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [scheme, encoded] = parts.as_slice() else {
        return Err(invalid());
    };
    if !scheme.eq_ignore_ascii_case("basic") {
        return Err(ApiError::bad_request(
            "This endpoint requires HTTP basic authentication.",
        ));
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| invalid())?;
    let decoded = String::from_utf8(decoded).map_err(|_| invalid())?;
    let fields: Vec<&str> = decoded.split(':').collect();
    match fields.as_slice() {
        [email, key] => Ok(((*email).to_owned(), (*key).to_owned())),
        _ => Err(invalid()),
    }
}

/// Checks an e-mail and API key; errors use the REST API's 401 texts.
pub async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<Arc<UserRow>, Error> {
    let (email, key) = basic_credentials(headers)?;
    let store = state.store();
    check_credentials(&email, &key, |key| store.cached_user_by_api_key(key)).await
}

/// Zulip's `access_user_by_api_key`: the key is looked up first and the e-mail then
/// compared with its owner's, so that a known and an unknown e-mail take the same path
/// (one lookup, by key) and the time taken reveals nothing about which e-mails exist.
async fn check_credentials<'k, F, L>(
    email: &str,
    key: &'k str,
    lookup: F,
) -> Result<Arc<UserRow>, Error>
where
    F: FnOnce(&'k str) -> L,
    L: Future<Output = crate::error::Result<Option<Arc<UserRow>>>>,
{
    if !has_api_key_format(key) {
        return Err(ApiError::unauthorized("Malformed API key").into());
    }
    let user = lookup(key)
        .await?
        .filter(|user| {
            !user.is_system_bot
                && keys_match(key, &user.api_key)
                && user.email.to_lowercase() == email.trim().to_lowercase()
        })
        .ok_or_else(|| ApiError::unauthorized("Invalid API key"))?;
    if !user.is_active {
        // Zulip's `UserDeactivatedError`: 401 with its own code.
        return Err(ApiError::unauthorized("Account is deactivated")
            .code(ZulipErrorCode::UserDeactivated)
            .into());
    }
    Ok(user)
}

/// Incoming-webhook bots may only send messages, as in Zulip.
fn open_to_webhook_bots(method: &Method, path: &str) -> bool {
    method == Method::POST && path == "/api/v1/messages"
}

/// Middleware for every authenticated REST route.
pub async fn require_auth(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let client = client_key(request.extensions());
    if let Some(refused) = refuse_if_over(&state, client) {
        return refused;
    }
    let user = match authenticate(&state, request.headers()).await {
        Ok(user) => user,
        Err(error) => {
            count_failure(&state, client);
            return error.into_response();
        }
    };
    if user.bot_type == Some(BotType::IncomingWebhook)
        && !open_to_webhook_bots(request.method(), request.uri().path())
    {
        return ApiError::unauthorized("This API is not available to incoming webhook bots.")
            .into_response();
    }
    let quota = match state.limiter().map(|limiter| limiter.check(user.user_id)) {
        None => None,
        Some(Ok(quota)) => Some(quota),
        Some(Err(exceeded)) => return rate_limited(exceeded),
    };
    request.extensions_mut().insert(Caller(user));
    let mut response = next.run(request).await;
    if let Some(quota) = quota {
        add_quota_headers(response.headers_mut(), quota);
    }
    response
}

pub fn add_quota_headers(headers: &mut HeaderMap, quota: Quota) {
    headers.insert("X-RateLimit-Limit", HeaderValue::from(quota.limit));
    headers.insert("X-RateLimit-Remaining", HeaderValue::from(quota.remaining));
    headers.insert("X-RateLimit-Reset", HeaderValue::from(quota.reset_unix));
}

/// Zulip's 429: `retry-after` in the body and the header, in seconds as a float.
pub fn rate_limited(exceeded: Exceeded) -> Response {
    let retry_after = (exceeded.retry_after * 1000.0).ceil() / 1000.0;
    let mut response = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        ZulipErrorCode::RateLimitHit,
        "API usage exceeded rate limit",
    )
    .with("retry-after", retry_after)
    .into_response();
    add_quota_headers(response.headers_mut(), exceeded.quota);
    if let Ok(value) = HeaderValue::from_str(&retry_after.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(value) = HeaderValue::from_str(value) {
            headers.insert(header::AUTHORIZATION, value);
        }
        headers
    }

    fn message(value: &str) -> String {
        basic_credentials(&headers(value))
            .err()
            .map(|error| error.msg)
            .unwrap_or_default()
    }

    #[test]
    fn broken_headers_get_zulips_texts() {
        assert_eq!(
            message("Basic"),
            "Invalid authorization header for basic auth"
        );
        assert_eq!(
            message("Basic !!!"),
            "Invalid authorization header for basic auth"
        );
        assert_eq!(
            message("Bearer abc"),
            "This endpoint requires HTTP basic authentication."
        );
        let no_colon = base64::engine::general_purpose::STANDARD.encode("nocolon");
        assert_eq!(
            message(&format!("Basic {no_colon}")),
            "Invalid authorization header for basic auth"
        );
        assert_eq!(
            basic_credentials(&HeaderMap::new())
                .err()
                .map(|e| e.msg)
                .unwrap_or_default(),
            "Not logged in: API authentication or user session required"
        );
    }

    fn user(email: &str, key: &str) -> Arc<UserRow> {
        Arc::new(UserRow {
            user_id: 8,
            email: email.to_owned(),
            full_name: "Ada Okafor".to_owned(),
            role: zulip_api::Role::Member,
            bot_type: None,
            bot_owner_id: None,
            api_key: key.to_owned(),
            is_active: true,
            is_system_bot: false,
            date_joined: String::new(),
            timezone: String::new(),
        })
    }

    /// Runs `check_credentials` against an organization of one, recording each lookup.
    fn check(email: &str, key: &str) -> (Result<i64, String>, Vec<String>) {
        let known = user("ada@globex.test", &"K".repeat(32));
        let lookups = std::cell::RefCell::new(Vec::new());
        let lookup = |key: &str| {
            lookups.borrow_mut().push(format!("key {key}"));
            let found = (key == known.api_key).then(|| Arc::clone(&known));
            std::future::ready(Ok(found))
        };
        let outcome = block_on_ready(check_credentials(email, key, lookup));
        let outcome = outcome
            .map(|user| user.user_id)
            .map_err(|error| error.to_string());
        (outcome, lookups.into_inner())
    }

    /// Polls a future that never waits (the lookups here are ready at once).
    fn block_on_ready<F: Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
                return output;
            }
        }
    }

    #[test]
    fn known_and_unknown_emails_take_the_same_path() {
        let wrong = "W".repeat(32);
        let right = "K".repeat(32);
        let known = check("ada@globex.test", &wrong);
        let unknown = check("nobody@globex.test", &wrong);
        assert_eq!(known.0, Err("Invalid API key".to_owned()));
        assert_eq!(known, unknown, "same answer and the same lookups");
        assert_eq!(known.1, vec![format!("key {wrong}")]);
        // Someone else's e-mail with a valid key is refused after the same one lookup.
        let (outcome, lookups) = check("nobody@globex.test", &right);
        assert_eq!(outcome, Err("Invalid API key".to_owned()));
        assert_eq!(lookups, vec![format!("key {right}")]);
        assert_eq!(check(" ADA@globex.test", &right).0, Ok(8));
    }

    #[test]
    fn credentials_are_split_at_the_colon() {
        let encoded = base64::engine::general_purpose::STANDARD.encode("a@b.test:KEY");
        let parsed = basic_credentials(&headers(&format!("Basic {encoded}"))).ok();
        assert_eq!(parsed, Some(("a@b.test".to_owned(), "KEY".to_owned())));
    }
}
