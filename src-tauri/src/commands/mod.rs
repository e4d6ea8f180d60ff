//! Thin IPC adapters, one module per domain: parse, call the state, map the answer.

pub mod accounts;
pub mod local_server;
pub mod organization;
pub mod system;
