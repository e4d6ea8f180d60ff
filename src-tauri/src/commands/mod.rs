//! Thin IPC adapters, one module per domain: parse, call the core, map the answer.
//! [`COMMANDS`] (from `list.rs`) is the one list of them. Each is marked `#[command]`
//! (crate `weir-macros`), which registers it with Tauri and describes its signature for
//! the generated TypeScript (`crate::bindings`).

// `weir_commands!` and `command_names!`, shared with `build.rs`.
include!("list.rs");

pub mod accounts;
pub mod bots;
pub mod channels;
pub mod group_csv;
pub mod groups;
pub mod local_server;
pub mod memberships;
pub mod organization;
pub mod startup;
pub mod system;
pub mod webhooks;

pub use weir_macros::command;

use serde::Deserialize;
use ts_rs::TS;

use crate::bindings::{Signature, Types};

/// A file the user chose (a zuliprc to delete, a CSV to import).
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PathRequest {
    pub path: String,
}

/// Every command's name, in the order of `list.rs`.
pub const COMMANDS: &[&str] = weir_commands!(command_names);

/// `tauri::generate_handler!` over every command of the list.
macro_rules! handler_of {
    ($($module:ident::$name:ident),* $(,)?) => {
        tauri::generate_handler![$($module::$name),*]
    };
}

/// The invoke handler with every command of `list.rs` registered.
pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static
{
    weir_commands!(handler_of)
}

/// The signature describers `#[command]` put beside each command of the list.
macro_rules! signatures_of {
    ($($module:ident::$name:ident),* $(,)?) => {
        vec![$($module::$name::signature as fn(&mut Types) -> Signature),*]
    };
}

/// Every command's signature describer, in the order of `list.rs`.
pub fn signatures() -> Vec<fn(&mut Types) -> Signature> {
    weir_commands!(signatures_of)
}
