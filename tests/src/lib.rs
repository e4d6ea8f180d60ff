//! Harness for Weir's black-box suites.
//!
//! Everything here talks to the server exactly as a Zulip client would, either to
//! weir-server's router in this process or to the real `weir-server` binary over loopback
//! HTTP: the suites under `tests/` are written from Zulip's documented behaviour
//! (summarised in `docs/zulip-compatibility.md`) and the server's command-line contract,
//! never from the server's code.
//!
//! * [`server`]: [`TestServer`] holds one seeded organization on a fresh data directory.
//!   [`TestServer::standard`] and [`TestServer::start`] run it in process (the behaviour
//!   suites, `tests/in_process/`); [`TestServer::spawn`] and [`TestServer::launch`] start
//!   a process on a free loopback port and kill it when dropped (`tests/process/`);
//!   [`server_binary`] finds the binary (`WEIR_SERVER_BIN`) or builds it once per
//!   process; [`run_server_to_exit`] runs command lines that must fail.
//! * [`in_process`]: opening the organization with weir-server's library and handing
//!   requests to its router (`oneshot`).
//! * [`api`]: [`Api`] sends Zulip-style requests (query string for GET, form bodies whose
//!   non-string values are JSON-encoded for the other methods, HTTP basic auth) over its
//!   [`Transport`] and returns a [`Resp`] with status, headers and the JSON body.
//! * [`assert`]: [`Resp`]'s assertions (`ok`, `err`, `bad_request`, ...) that print the
//!   request and the whole response when they fail, and helpers to compare ids and names.
//! * [`mailbox`]: snapshots of what the seeded humans can read, to prove what a request
//!   sent; [`webhook`] and [`helloworld`]: posting to incoming webhooks; [`html`]: proving
//!   rendered HTML harmless.
//! * [`openapi`]: every response is validated against Zulip's own OpenAPI document.
//! * [`seed`]: the standard organization every suite shares.
//! * [`schedule`]: heavy process-level tests run alone ([`alone`], [`shared`]).
//! * [`load`]: the mixed load with its serial replay (`process/load.rs`,
//!   `process/faults.rs`, `weir-bench load`).
//! * [`driver`]: `tauri-driver` with hermetic XDG homes for the app, stopped with
//!   everything it started (`process/e2e.rs`, `weir-bench grid`).
//!
//! Every module's public items are re-exported here, so suites `use weir_tests::*;`
//! (except [`helloworld`], which only the webhook suites use, [`load`] and [`driver`]).

// This crate is the harness, not test code: clippy's `allow-unwrap-in-tests` and
// `allow-expect-in-tests` (clippy.toml) do not reach a library, so the workspace's deny
// is lifted here. A failed `expect` in the harness is a failed test, which is its job.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod api;
pub mod assert;
pub mod driver;
pub mod helloworld;
pub mod html;
pub mod in_process;
pub mod load;
pub mod mailbox;
pub mod openapi;
pub mod schedule;
pub mod seed;
pub mod server;
pub mod webhook;

pub use api::*;
pub use assert::*;
pub use html::*;
pub use mailbox::*;
pub use schedule::*;
pub use seed::*;
pub use serde_json::json;
pub use server::*;
pub use webhook::*;
