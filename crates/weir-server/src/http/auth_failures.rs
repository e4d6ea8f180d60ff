//! Failed authentications, limited per client address while rate limiting is on: the
//! guard against guessing API keys. Zulip limits unauthenticated requests per IP address
//! (its `api_by_ip` domain) before their credentials are looked at; weir-server counts
//! the failures of each address against the same per-minute limit as users, and once an
//! address is over it, its requests are answered 429 before any key is checked, until
//! the window moves.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::Extensions;
use axum::response::Response;

use crate::AppState;
use crate::http::auth::rate_limited;

/// The limiter key of the request's client address (one shared key when the transport
/// has none, as for in-process requests).
pub fn client_key(extensions: &Extensions) -> i64 {
    peer_key(
        extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| peer),
    )
}

/// [`client_key`] of a peer address (its IP: every port of a host counts as one client).
fn peer_key(peer: Option<&SocketAddr>) -> i64 {
    let Some(peer) = peer else {
        return 0;
    };
    let mut hasher = DefaultHasher::new();
    peer.ip().hash(&mut hasher);
    hasher.finish() as i64
}

/// The 429 for an address over its failure budget, before its credentials are read.
pub fn refuse_if_over(state: &AppState, client: i64) -> Option<Response> {
    let exceeded = state.auth_failures()?.exceeded(client)?;
    Some(rate_limited(exceeded))
}

/// Counts one failed authentication of this address.
pub fn count_failure(state: &AppState, client: i64) {
    if let Some(limiter) = state.auth_failures() {
        let _ = limiter.check(client);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Failures are keyed by the request's `ConnectInfo`, or by a peer address at hand:
    /// both must count against the same address.
    #[test]
    fn a_peer_has_one_key_whichever_way_it_is_looked_up() {
        let peer: SocketAddr = "192.0.2.7:4321".parse().unwrap();
        let mut extensions = Extensions::new();
        extensions.insert(ConnectInfo(peer));
        assert_eq!(client_key(&extensions), peer_key(Some(&peer)));
        let other_port: SocketAddr = "192.0.2.7:1".parse().unwrap();
        assert_eq!(peer_key(Some(&other_port)), peer_key(Some(&peer)));
        assert_ne!(peer_key(Some(&peer)), 0);
        assert_eq!(client_key(&Extensions::new()), peer_key(None));
    }
}
