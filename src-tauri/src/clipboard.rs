//! Copying secrets (bot keys, zuliprc text, webhook URLs) to the system clipboard from
//! Rust, so that they never pass through the web view, and clearing the clipboard again
//! after [`CLEAR_AFTER`] if it still holds what Weir put there.

use std::time::Duration;

use tauri::{AppHandle, Runtime};
use tauri_plugin_clipboard_manager::ClipboardExt;
use weir_core::Secret;

use crate::error::{AppError, AppResult};

/// How long a copied secret stays on the clipboard.
pub const CLEAR_AFTER: Duration = Duration::from_secs(30);

/// Copies `secret`; answers how many seconds until Weir clears it.
pub fn copy_secret<R: Runtime>(app: &AppHandle<R>, secret: Secret) -> AppResult<Option<u64>> {
    app.clipboard()
        .write_text(secret.expose().to_owned())
        .map_err(|error| AppError::Internal(format!("cannot use the clipboard: {error}")))?;
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(CLEAR_AFTER).await;
        // Only our own text is cleared: something copied since then stays.
        let still_ours = app
            .clipboard()
            .read_text()
            .is_ok_and(|text| text == secret.expose());
        if still_ours && let Err(error) = app.clipboard().clear() {
            tracing::warn!(%error, "could not clear the clipboard");
        }
    });
    Ok(Some(CLEAR_AFTER.as_secs()))
}
