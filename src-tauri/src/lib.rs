//! Weir's desktop shell: Tauri wiring over `weir-core` and the local server (`weir-server`).
//! Commands are thin; the logic lives in the crates, tested without Tauri.

pub mod bindings;
pub mod channels;
pub mod clipboard;
pub mod commands;
pub mod error;
pub mod local_server;
mod logging;
pub mod memberships;
pub mod rendering;
pub mod state;
pub mod workbench;

use tauri::{Manager, Runtime};

pub use local_server::LocalServer;
pub use state::WeirState;

/// Registers plugins and commands; tests pass `tauri::test::mock_builder()`.
pub fn build_app<R: Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_clipboard_manager::init())
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(commands::handler())
}

/// Runs the app: state in the platform data dir, demo server when there is no account.
pub fn run() {
    logging::init();
    let app = build_app(tauri::Builder::default())
        .setup(|app| {
            // Tauri calls this on the main thread once the window is built, before the
            // event loop runs: anything slow here holds up the page, so the local server
            // and the keyring probe start in the background.
            tracing::info!("window built, setting up");
            if let Some(window) = app.get_webview_window("main") {
                rendering::apply(&window);
            }
            let data_dir = app.path().app_data_dir()?;
            let state = WeirState::open_default(&data_dir)?;
            state.start_in_background()?;
            state.manage(app);
            tracing::info!("set up; the local server and the keyring probe run in the background");
            Ok(())
        })
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|handle, event| {
            if let tauri::RunEvent::Exit = event
                && let Some(local) = handle.try_state::<LocalServer>()
            {
                tauri::async_runtime::block_on(local.stop());
            }
        }),
        Err(error) => {
            eprintln!("weir: cannot start: {error}");
            std::process::exit(1);
        }
    }
}
