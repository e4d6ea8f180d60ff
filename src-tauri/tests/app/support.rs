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

pub fn harness() -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::new());
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
/// each stream's `subscribers` (person indices) read back from its bitset and checked
/// against its `subscriberCount`, so that the suites can look at who is subscribed.
pub fn load_grid(harness: &Harness) -> Value {
    let body = invoke_raw(harness, "load_memberships", json!({})).unwrap();
    let InvokeResponseBody::Raw(bytes) = body else {
        panic!("the grid did not arrive as bytes");
    };
    assert_eq!(&bytes[..4], b"WGR1");
    let length = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    let mut grid: Value = serde_json::from_slice(&bytes[8..8 + length]).unwrap();
    let people = grid["people"].as_array().unwrap().len();
    let width = people.div_ceil(8);
    let bits = &bytes[8 + length..];
    let streams = grid["streams"].as_array_mut().unwrap();
    assert_eq!(bits.len(), width * streams.len());
    for (s, stream) in streams.iter_mut().enumerate() {
        let row = &bits[s * width..(s + 1) * width];
        let subscribers: Vec<usize> = (0..people)
            .filter(|p| row[p >> 3] & (1 << (p & 7)) != 0)
            .collect();
        assert_eq!(
            stream["subscriberCount"],
            json!(subscribers.len()),
            "{stream}"
        );
        stream["subscribers"] = json!(subscribers);
    }
    grid
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
