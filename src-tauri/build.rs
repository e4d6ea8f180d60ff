//! Declares the app's commands so that capabilities must allow each one explicitly.

// `weir_commands!` and `command_names!`: the one list of commands (see the file).
include!("src/commands/list.rs");

/// Every IPC command; `capabilities/default.json` grants `allow-<name>` for each.
const COMMANDS: &[&str] = weir_commands!(command_names);

fn main() {
    println!("cargo:rerun-if-changed=src/commands/list.rs");
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .unwrap_or_else(|error| panic!("tauri-build failed: {error:#}"));
}
