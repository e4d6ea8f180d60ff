//! Weir's local Zulip-compatible server: the Zulip endpoints an admin client needs,
//! on SQLite, faithful to Zulip's behaviour (see `docs/zulip-compatibility.md`).
//!
//! [`router`] builds the whole API for an [`AppState`]; tests drive it in-process with
//! `oneshot`, and [`serve`] runs the same router on a socket. The modules, from the
//! socket inwards:
//!
//! - [`http`]: the plumbing before an endpoint (connection limits, `Host` check, request
//!   log, authentication, rate limit, Zulip's request parameters);
//! - `api`: the endpoints, one module per family;
//! - [`rules`]: Zulip's rules as pure functions (stream access, names, limits, API keys);
//! - `compose`: a message cut to Zulip's limits, rendered, and stored;
//! - [`webhook`]: an incoming webhook's step without I/O, and its dry run for the app;
//! - [`render`]: Zulip-flavoured Markdown to HTML (the `weir-render` crate);
//! - [`store`]: SQLite, all the SQL;
//! - [`embed`]: running the server inside a program ([`embed::local`], the desktop app)
//!   or as the `weir-server` command line (`embed::cli`, feature `cli`);
//! - [`error`] and `clock`, used throughout.

mod api;
mod clock;
mod compose;
pub mod embed;
pub mod error;
pub mod http;
/// Zulip-flavoured Markdown: the `weir-render` crate.
pub use weir_render as render;
pub mod rules;
pub mod store;
pub mod webhook;

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use tokio::net::TcpListener;

pub use crate::embed::demo::{DEMO_OWNER_EMAIL, demo_seed};
pub use crate::http::request_log::{RequestLog, RequestLogEntry};
use crate::http::{connection, host, ratelimit, request_log};
pub use error::{ApiError, Error};
pub use store::Store;
pub use store::seed::Seed;

/// How the server presents itself and which Zulip behaviours it emulates.
#[derive(Debug, Clone)]
pub struct Config {
    /// Behaviour tied to feature levels 9, 145 and 208 follows this value.
    pub feature_level: u32,
    /// Requests per 60 s per user; `None` turns rate limiting off (Weir's default).
    pub rate_limit: Option<u32>,
    /// Timeouts and the connection cap that [`serve`] applies.
    pub connection_limits: connection::Limits,
    /// `Host` values accepted besides the server's own address (see `--allowed-host`).
    pub allowed_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            feature_level: zulip_api::DEFAULT_FEATURE_LEVEL,
            rate_limit: None,
            connection_limits: connection::Limits::default(),
            allowed_hosts: Vec::new(),
        }
    }
}

/// Everything a request handler needs; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    store: Store,
    config: Config,
    limiter: Option<ratelimit::RateLimiter>,
    request_log: Option<RequestLog>,
    /// Failed authentications per client address (`http/auth_failures.rs`).
    auth_failures: Option<ratelimit::RateLimiter>,
    /// Memory for bodies read before authentication (`http/body_budget.rs`).
    unauthenticated_bodies: http::body_budget::BodyBudget,
}

impl AppState {
    pub fn new(store: Store, config: Config) -> Self {
        Self::build(store, config, None)
    }

    /// Like [`AppState::new`], recording every request in `log` (method and path only).
    pub fn with_request_log(store: Store, config: Config, log: RequestLog) -> Self {
        Self::build(store, config, Some(log))
    }

    fn build(store: Store, config: Config, request_log: Option<RequestLog>) -> Self {
        let limiter = config.rate_limit.map(ratelimit::RateLimiter::new);
        let auth_failures = config.rate_limit.map(ratelimit::RateLimiter::new);
        Self(Arc::new(Shared {
            store,
            config,
            limiter,
            request_log,
            auth_failures,
            unauthenticated_bodies: http::body_budget::BodyBudget::default(),
        }))
    }

    pub fn store(&self) -> &Store {
        &self.0.store
    }

    pub fn config(&self) -> &Config {
        &self.0.config
    }

    pub fn feature_level(&self) -> u32 {
        self.0.config.feature_level
    }

    pub(crate) fn limiter(&self) -> Option<&ratelimit::RateLimiter> {
        self.0.limiter.as_ref()
    }

    pub(crate) fn auth_failures(&self) -> Option<&ratelimit::RateLimiter> {
        self.0.auth_failures.as_ref()
    }

    pub(crate) fn unauthenticated_bodies(&self) -> &http::body_budget::BodyBudget {
        &self.0.unauthenticated_bodies
    }
}

/// The whole HTTP API.
pub fn router(state: AppState) -> Router {
    let log = state.0.request_log.clone();
    let routes = api::routes(state);
    match log {
        Some(log) => routes.layer(axum::middleware::from_fn_with_state(
            log,
            request_log::record,
        )),
        None => routes,
    }
}

/// Serves `router(state)` on `listener` until `shutdown` completes, then drains
/// requests in flight (see [`http::connection`] for the limits on clients). Requests must
/// name the server in `Host` (see `http/host.rs`).
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let allowed = host::AllowedHosts::new(listener.local_addr()?, &state.config().allowed_hosts);
    let limits = state.config().connection_limits.clone();
    connection::serve(listener, router(state), allowed, limits, shutdown).await
}
