use tauri::{AppHandle, Runtime};
use tauri_plugin_opener::OpenerExt;

use super::command;
use crate::error::{AppError, AppResult};

/// Opens an `https` link in the system browser; nothing else may be opened.
#[command]
pub async fn open_external<R: Runtime>(app: AppHandle<R>, url: String) -> AppResult<()> {
    if !url.starts_with("https://") {
        return Err(AppError::InvalidInput(
            "only https links can be opened".into(),
        ));
    }
    app.opener()
        .open_url(url, None::<&str>)
        .map_err(|error| AppError::Internal(format!("cannot open the link: {error}")))
}
