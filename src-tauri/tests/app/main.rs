//! The app's tests through its public API and Tauri's mock runtime, as one test binary
//! (each binary links the whole app): `cargo test -p weir --test app [-- <module>::]`.

mod accounts;
mod bindings;
mod bots;
mod channels;
mod commands;
mod csp;
mod groups;
mod local_server;
mod memberships;
mod support;
