//! weir-core through its public API, as one test binary (each binary links the crate and
//! its dependencies): `cargo test -p weir-core --test integration [-- <module>::]`.
//! `real_keyring` needs a Secret Service (`scripts/with-keyring.sh`) and fails, saying
//! how to provide one, without it.

mod accounts;
mod bots;
mod channels;
mod client;
mod compat;
mod pipeline;
mod real_keyring;
mod support;
