//! Bots: list, create, keys (reveal, copy, zuliprc, regenerate), deactivate/reactivate.

use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;
use weir_core::bots::OwnedBot;

use crate::clipboard::copy_secret;
use crate::dto::{BotIdRequest, BotSummary, CreateBotRequest, RememberedWebhookUrl};
use crate::error::{AppError, AppResult};
use crate::state::WeirState;

fn summary(bot: OwnedBot) -> BotSummary {
    BotSummary {
        user_id: bot.user_id,
        full_name: bot.full_name,
        email: bot.email,
        bot_type: bot.bot_type.into(),
        is_active: bot.is_active,
    }
}

/// The active account's bots; keys the server offers are stored in the keyring.
#[tauri::command]
pub async fn list_bots(state: State<'_, WeirState>) -> AppResult<Vec<BotSummary>> {
    let bots = state.bots().await?.list().await?;
    Ok(bots.into_iter().map(summary).collect())
}

/// Creates an incoming-webhook bot; its key goes straight to the keyring.
#[tauri::command]
pub async fn create_bot(
    state: State<'_, WeirState>,
    request: CreateBotRequest,
) -> AppResult<BotSummary> {
    let bots = state.bots().await?;
    Ok(summary(
        bots.create(&request.full_name, &request.short_name).await?,
    ))
}

/// The key itself, for an explicit Reveal.
#[tauri::command]
pub async fn reveal_bot_key(
    state: State<'_, WeirState>,
    request: BotIdRequest,
) -> AppResult<String> {
    let key = state.bots().await?.key(request.user_id).await?;
    Ok(key.expose().to_owned())
}

/// Copies the key; answers the seconds until the clipboard is cleared.
#[tauri::command]
pub async fn copy_bot_key<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, WeirState>,
    request: BotIdRequest,
) -> AppResult<Option<u64>> {
    let key = state.bots().await?.key(request.user_id).await?;
    copy_secret(&app, key)
}

/// Copies a zuliprc for the bot.
#[tauri::command]
pub async fn copy_bot_zuliprc<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, WeirState>,
    request: BotIdRequest,
) -> AppResult<Option<u64>> {
    let text = state.bots().await?.zuliprc(request.user_id).await?;
    copy_secret(&app, text)
}

/// Saves a zuliprc where the user chooses (the UI has warned that it is plaintext);
/// answers the path, or `None` when the dialog was cancelled.
#[tauri::command]
pub async fn save_bot_zuliprc<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, WeirState>,
    request: BotIdRequest,
) -> AppResult<Option<String>> {
    let text = state.bots().await?.zuliprc(request.user_id).await?;
    let chosen = tauri::async_runtime::spawn_blocking(move || {
        app.dialog()
            .file()
            .set_title("Save the bot's zuliprc (it holds the key in plain text)")
            .set_file_name("zuliprc")
            .blocking_save_file()
    })
    .await
    .map_err(|error| AppError::Internal(format!("save dialog failed: {error}")))?;
    let Some(path) = chosen.and_then(|path| path.into_path().ok()) else {
        return Ok(None);
    };
    write_private(&path, text.expose())?;
    Ok(Some(path.display().to_string()))
}

/// Writes a file only its owner can read (where the platform has such modes).
fn write_private(path: &std::path::Path, text: &str) -> AppResult<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let write = options
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()));
    write.map_err(AppError::io(format!("cannot write {}", path.display())))
}

/// Regenerates the key after the UI's confirmation; answers the URLs to paste again.
#[tauri::command]
pub async fn regenerate_bot_key(
    state: State<'_, WeirState>,
    request: BotIdRequest,
) -> AppResult<Vec<RememberedWebhookUrl>> {
    let urls = state.bots().await?.regenerate_key(request.user_id).await?;
    Ok(urls.into_iter().map(Into::into).collect())
}

#[tauri::command]
pub async fn deactivate_bot(state: State<'_, WeirState>, request: BotIdRequest) -> AppResult<()> {
    Ok(state.bots().await?.deactivate(request.user_id).await?)
}

#[tauri::command]
pub async fn reactivate_bot(state: State<'_, WeirState>, request: BotIdRequest) -> AppResult<()> {
    Ok(state.bots().await?.reactivate(request.user_id).await?)
}
