//! weir-integrations' tests as one binary (`[[test]]` in Cargo.toml; files added under
//! `tests/` join it as modules here): the fuzz targets (`fuzz`) and the replays of Zulip's
//! own webhook tests (`zulip`, one module per integration). Run one with `cargo test -p weir-integrations --test
//! integrations -- fuzz::`.

// Helpers unwrap and expect as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119): lifted here, once for the whole binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fuzz;
#[path = "fuzz/support.rs"]
mod support;
mod zulip;
