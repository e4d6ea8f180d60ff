//! The behaviour suites, in process: each test opens the standard organization (or a seed
//! of its own) on a fresh data directory with weir-server's library and sends its
//! requests straight to the router (`TestServer::standard()`; see `weir_tests::in_process`).
//! The requests, the OpenAPI validation of every answer and the assertions are those of a
//! client on a socket; what only a process has (its command line, sockets, signals,
//! files) is tested in `tests/process/`.
//!
//! One module per topic. Run one with `cargo test -p weir-tests --test in_process --
//! unsubscribe::`, one test with its name after the `--`.

// Helpers unwrap and expect as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119): lifted here, once for the whole binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod access_rules;
mod auth;
mod bot_status;
mod bots;
mod channel_groups;
mod channel_permissions;
mod channel_settings;
mod feature_levels;
mod group_mentions;
mod group_nesting;
mod integrations;
mod limits;
mod markdown_corpus;
mod messages;
mod openapi;
mod rate_limit;
mod reads;
mod render;
mod render_as_actor;
mod render_rich;
mod robustness;
mod router;
mod send;
mod settings;
mod subscribe;
mod unsubscribe;
mod user_groups;
mod users;
mod visibility;
mod webhook_batches;
mod webhook_catalog;
mod webhook_events;
mod webhook_rendering;
mod webhooks;
mod zulip11;
