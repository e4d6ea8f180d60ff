//! Thin IPC adapters, one module per domain: parse, call the core, map the answer.
//! [`COMMANDS`] (from `list.rs`) is the one list of them.

// `weir_commands!` and `command_names!`, shared with `build.rs`.
include!("list.rs");

pub mod accounts;
pub mod bots;
pub mod local_server;
pub mod memberships;
pub mod organization;
pub mod system;
pub mod webhooks;

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
