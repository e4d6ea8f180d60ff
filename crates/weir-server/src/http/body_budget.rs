//! Memory for request bodies read before anyone is authenticated: a webhook whose key is
//! in its form body, and the unauthenticated endpoints. Anyone can send those, so each
//! is capped ([`MAX_UNAUTHENTICATED_BODY_BYTES`]) and all of them together share a fixed
//! budget ([`UNAUTHENTICATED_IN_FLIGHT_BYTES`]): forty parallel uploads wait their turn
//! in the kernel's socket buffers instead of growing the server by hundreds of MiB.
//! Authenticated bodies keep the general limit (`params::MAX_BODY_BYTES`).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, header};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;
use crate::http::params::{drain_body, read_body_limited, too_large};

/// The largest body read before a key is known. A webhook sending more puts its
/// `api_key` in the URL, as Zulip's integration docs build it.
pub const MAX_UNAUTHENTICATED_BODY_BYTES: usize = 1024 * 1024;

/// Bytes of unauthenticated bodies held at once, over all requests.
pub const UNAUTHENTICATED_IN_FLIGHT_BYTES: usize = 16 * 1024 * 1024;

/// The budget's unit.
const PERMIT_BYTES: usize = 1024;

/// How long a body waits for its share before the request is answered 503.
const MAX_WAIT: Duration = Duration::from_secs(10);

/// The shared budget; cheap to clone.
#[derive(Debug, Clone)]
pub struct BodyBudget(Arc<Semaphore>);

impl Default for BodyBudget {
    fn default() -> Self {
        Self(Arc::new(Semaphore::new(
            UNAUTHENTICATED_IN_FLIGHT_BYTES / PERMIT_BYTES,
        )))
    }
}

/// A body read within the budget; its share is given back when this is dropped, so
/// keep it while the bytes (or what was parsed from them) are in use.
#[derive(Debug)]
pub struct BudgetedBody {
    pub bytes: Bytes,
    pub share: Option<OwnedSemaphorePermit>,
}

impl BodyBudget {
    /// Reads an unauthenticated body: a declared length over the cap is refused
    /// without keeping a byte; otherwise twice the declared length (or of the whole cap,
    /// for a body of unknown length) is reserved first, then the body is read.
    pub async fn read(&self, headers: &HeaderMap, body: Body) -> Result<BudgetedBody, ApiError> {
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<usize>().ok());
        if let Some(0) = declared {
            return Ok(BudgetedBody {
                bytes: Bytes::new(),
                share: None,
            });
        }
        if declared.is_some_and(|length| length > MAX_UNAUTHENTICATED_BODY_BYTES) {
            drain_body(body).await;
            return Err(too_large(MAX_UNAUTHENTICATED_BODY_BYTES));
        }
        let reserved = declared.unwrap_or(MAX_UNAUTHENTICATED_BODY_BYTES);
        // Twice the body: the bytes, and the parameters parsed from them.
        let permits = u32::try_from(2 * reserved.div_ceil(PERMIT_BYTES)).unwrap_or(u32::MAX);
        let share = tokio::time::timeout(MAX_WAIT, Arc::clone(&self.0).acquire_many_owned(permits))
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(busy)?;
        let bytes = read_body_limited(body, MAX_UNAUTHENTICATED_BODY_BYTES, reserved).await?;
        Ok(BudgetedBody {
            bytes,
            share: Some(share),
        })
    }

    /// Bytes of the budget not in use (for tests).
    #[cfg(test)]
    fn available(&self) -> usize {
        self.0.available_permits() * PERMIT_BYTES
    }
}

fn busy() -> ApiError {
    ApiError::bad_request("Server is busy; try again later").status(StatusCode::SERVICE_UNAVAILABLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(bytes: usize) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_LENGTH, bytes.into());
        headers
    }

    #[tokio::test]
    async fn a_body_holds_its_share_until_dropped() {
        let budget = BodyBudget::default();
        let body = budget
            .read(&length(5000), Body::from(vec![b'a'; 5000]))
            .await
            .unwrap();
        assert_eq!(body.bytes.len(), 5000);
        assert_eq!(
            budget.available(),
            UNAUTHENTICATED_IN_FLIGHT_BYTES - 2 * 5 * 1024
        );
        drop(body);
        assert_eq!(budget.available(), UNAUTHENTICATED_IN_FLIGHT_BYTES);
    }

    #[tokio::test]
    async fn a_declared_length_over_the_cap_is_refused_unread() {
        let budget = BodyBudget::default();
        let big = MAX_UNAUTHENTICATED_BODY_BYTES + 1;
        let error = budget
            .read(&length(big), Body::from(vec![b'a'; big]))
            .await
            .unwrap_err();
        assert_eq!(error.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(budget.available(), UNAUTHENTICATED_IN_FLIGHT_BYTES);
    }
}
