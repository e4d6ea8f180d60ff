//! The suites that need a `weir-server` process: its command line, durability under
//! SIGKILL and SIGTERM, faults of its data directory, file permissions, what `serve` adds
//! around the router (the `Host` check, header and body timeouts, the connection cap),
//! load and concurrency over sockets, the official Python client, and the app end to end
//! (`e2e`, which needs a display and a keyring: see `tests/README.md`).
//!
//! Every test starts by taking a guard from `weir_tests::schedule`: `alone()` for a heavy
//! test (load, concurrency, faults, durability, slow clients, a busy server, abuse, end to
//! end), which then runs with no other test beside it, `shared()` for the others.
//!
//! One module per topic. Run one with `cargo test -p weir-tests --test process -- cli::`,
//! one test with its name after the `--`.

// Helpers unwrap and expect as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119): lifted here, once for the whole binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod abuse;
mod cli;
mod concurrency;
mod durability;
mod e2e;
mod faults;
mod feature_levels;
mod file_permissions;
mod host_header;
mod limits;
mod load;
mod python_client;
mod render_isolation;
mod slow_clients;
