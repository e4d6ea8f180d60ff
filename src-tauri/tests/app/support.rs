//! The mock-runtime harness shared by the command suites: real commands and state (an
//! in-memory secret store instead of the OS keyring), the local server on loopback.
// The helpers unwrap as the tests do, but clippy's allow-unwrap-in-tests (clippy.toml)
// reaches only #[test] functions of an integration test, not its helpers
// (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody, InvokeResponseBody};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;
use weir_app::WeirState;
use weir_core::MemoryStore;

pub struct Harness {
    dir: tempfile::TempDir,
    _app: tauri::App<MockRuntime>,
    pub webview: tauri::WebviewWindow<MockRuntime>,
    /// The in-memory keyring the commands write to.
    #[allow(dead_code)] // Not every suite looks into the keyring.
    pub secrets: Arc<MemoryStore>,
}

impl Harness {
    /// The app's data dir (removed on drop).
    #[allow(dead_code)] // Not every suite writes files.
    pub fn data_dir(&self) -> &std::path::Path {
        self.dir.path()
    }
}

impl Harness {
    /// The app quit and started again on the same data dir and keyring: the local
    /// server stopped, every state dropped and opened afresh from the files.
    #[allow(dead_code)] // Only the suites about what survives a restart use it.
    pub fn restart(self) -> Harness {
        let Harness {
            dir,
            _app: app,
            webview,
            secrets,
        } = self;
        {
            use tauri::Manager;
            let session = app.state::<weir_app::state::Session>();
            tauri::async_runtime::block_on(session.local().stop());
        }
        drop(webview);
        drop(app);
        open(dir, secrets)
    }
}

pub fn harness() -> Harness {
    open(tempfile::tempdir().unwrap(), Arc::new(MemoryStore::new()))
}

fn open(dir: tempfile::TempDir, secrets: Arc<MemoryStore>) -> Harness {
    let state = WeirState::open(dir.path(), secrets.clone()).unwrap();
    tauri::async_runtime::block_on(state.start()).unwrap();
    // The real context, so that the real capabilities decide which commands may run.
    let app = weir_app::build_app(mock_builder())
        .build(tauri::generate_context!())
        .unwrap();
    state.manage(&app);
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    Harness {
        dir,
        _app: app,
        webview,
        secrets,
    }
}

pub fn invoke(harness: &Harness, cmd: &str, args: Value) -> Result<Value, Value> {
    invoke_raw(harness, cmd, args).map(|body| body.deserialize::<Value>().unwrap())
}

/// `load_memberships`'s binary answer (`memberships::wire`) as the JSON grid it carries,
/// each stream's `subscribers` (person indices) read back and checked against its
/// `subscriberCount`, so that the suites can look at who is subscribed.
pub fn load_grid(harness: &Harness) -> Value {
    let body = invoke_raw(harness, "load_memberships", json!({})).unwrap();
    let InvokeResponseBody::Raw(bytes) = body else {
        panic!("the grid did not arrive as bytes");
    };
    weir_app::memberships::wire::decode_json(&bytes).unwrap()
}

fn invoke_raw(harness: &Harness, cmd: &str, args: Value) -> Result<InvokeResponseBody, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(&harness.webview, request)
}
