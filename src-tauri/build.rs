//! Declares the app's commands so that capabilities must allow each one explicitly.

/// Every IPC command; `capabilities/default.json` grants `allow-<name>` for each.
const COMMANDS: &[&str] = &[
    "app_status",
    "list_accounts",
    "add_account",
    "import_zuliprc",
    "delete_zuliprc",
    "switch_account",
    "remove_account",
    "organization_overview",
    "list_bots",
    "local_server_status",
    "reset_demo_data",
    "start_local_server",
    "open_external",
];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .unwrap_or_else(|error| panic!("tauri-build failed: {error:#}"));
}
