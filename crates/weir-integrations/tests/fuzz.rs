//! Fuzzing on stable Rust: property-based targets (proptest) for what a webhook URL and
//! request may carry, each input also held to a time budget that catches super-linear
//! blow-ups: `only_events`/`exclude_events` patterns (`filters`), request bodies and
//! headers per integration (`webhooks`), and the largest pushes and batches the services
//! send (`batches`). weir-server's `tests/fuzz.rs` has the targets
//! that need the server (requests through the router, seeds, rendering).
//!
//! Besides the generated cases, every file in `fuzz/corpus/<target>/` runs as a fixed
//! input, and proptest records the seeds of failing cases in `fuzz/regressions/`,
//! replayed first on every run (commit them). `PROPTEST_CASES=N` changes the number of
//! generated cases per target.
//!
//! The targets share `fuzz/support.rs` (the binary's `crate::support`, and weir-server's).

mod batches;
mod filters;
mod webhooks;
