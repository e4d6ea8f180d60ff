//! The app's local server: lifecycle over `weir_server::embed::local` (start, reset, stop)
//! and the app's data dir kept private (issue 11, finding 8).
// The helpers unwrap as the tests do; clippy's allow-unwrap-in-tests reaches only the
// #[test] functions of an integration test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use weir_app::WeirState;
use weir_core::MemoryStore;

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn starts_resets_and_stops_on_a_private_data_dir() {
    let root = tempfile::tempdir().unwrap();
    let data_dir = root.path().join("app");
    #[cfg(unix)]
    {
        // An app data dir left readable by an older version is tightened.
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir(&data_dir).unwrap();
        std::fs::set_permissions(&data_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let state = WeirState::open(&data_dir, Arc::new(MemoryStore::new())).unwrap();
    tauri::async_runtime::block_on(async {
        state.start().await.unwrap();
        let first = state.session().local().url().await.unwrap();
        assert!(first.starts_with("http://127.0.0.1:"), "{first}");
        let client = state.session().client().await.unwrap();
        let before = client.get_own_user().await.unwrap().user_id;

        state.session().local().reset().await.unwrap();
        let status = state.session().local().status().await;
        assert!(status.running);
        assert!(status.requests.is_empty(), "the log starts over");
        let client = state.session().client().await.unwrap();
        assert_eq!(client.get_own_user().await.unwrap().user_id, before);

        state.session().local().stop().await;
        assert!(state.session().local().url().await.is_none());
    });
    #[cfg(unix)]
    {
        let server_dir = state.session().local().data_dir();
        assert_eq!(mode(&data_dir), 0o700);
        assert_eq!(mode(server_dir), 0o700);
        for entry in std::fs::read_dir(server_dir).unwrap() {
            let path = entry.unwrap().path();
            assert_eq!(mode(&path), 0o600, "{}", path.display());
        }
    }
}

#[test]
fn a_start_in_the_background_is_waited_for_by_the_first_status() {
    let root = tempfile::tempdir().unwrap();
    let state = WeirState::open(root.path(), Arc::new(MemoryStore::new())).unwrap();
    // Returns before the server listens; the status asked for right after waits for it.
    state.start_in_background().unwrap();
    tauri::async_runtime::block_on(async {
        let status = state.session().local().status().await;
        assert!(status.running, "the status did not wait for the start");
        let url = status.url.unwrap();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        let client = state.session().client().await.unwrap();
        assert_eq!(
            client.get_own_user().await.unwrap().email,
            weir_server::DEMO_OWNER_EMAIL
        );
        state.session().local().stop().await;
    });
}
