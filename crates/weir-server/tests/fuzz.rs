//! Fuzzing on stable Rust: property-based targets (proptest) for the server's inputs,
//! each input also held to a time budget that catches super-linear blow-ups.
//!
//! Targets (one module each under `fuzz/`): request parameters, principals and stream
//! lists through the whole router, webhooks and their event filters included
//! (`requests`), every integration's samples mutated through the router (`webhooks`),
//! group settings naming 1,000 nested groups against a model of who holds
//! them (`group_settings`), seed files (`seeds`) and Markdown rendering (`render`). The
//! integrations' own targets (bodies and headers per integration, event-filter patterns)
//! are in weir-integrations' `tests/fuzz.rs`, whose `support` module this one shares. Besides the generated cases, every file
//! in `fuzz/corpus/<target>/` runs as a fixed input (interesting and once-failing
//! inputs, the worst cases), and proptest records the seeds of failing cases in
//! `fuzz/regressions/`, replayed first on every run (commit them).
//!
//! `PROPTEST_CASES=N` changes the number of generated cases per target (default: a few
//! dozen, so that the whole binary takes well under a minute in a debug build).
// The helpers here unwrap as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

#[path = "fuzz/group_settings.rs"]
mod group_settings;
#[path = "fuzz/render.rs"]
mod render;
#[path = "fuzz/requests.rs"]
mod requests;
#[path = "fuzz/seeds.rs"]
mod seeds;
#[path = "../../weir-integrations/tests/fuzz/support.rs"]
mod support;
#[path = "fuzz/webhooks.rs"]
mod webhooks;
