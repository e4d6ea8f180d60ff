//! The HTTP plumbing between the socket and the endpoints, in the order a request meets
//! it: the connection loop and its limits ([`connection`], with hyper's own refusals
//! made Zulip-shaped by `protocol_errors`), the `Host` check (`host`), the request log
//! ([`request_log`]), authentication and the rate limit (`auth`, `ratelimit`), and
//! Zulip's request parameters (`params`).

pub(crate) mod auth;
pub(crate) mod auth_failures;
pub(crate) mod body_budget;
pub mod connection;
pub(crate) mod head_timer;
pub(crate) mod host;
pub(crate) mod params;
pub(crate) mod protocol_errors;
pub(crate) mod ratelimit;
pub mod request_log;
