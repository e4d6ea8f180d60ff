//! Bots: list, create, keys (reveal, copy, zuliprc, regenerate), deactivate/reactivate.

use serde::Deserialize;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;
use ts_rs::TS;
use weir_core::bots::OwnedBot;
use weir_core::organization::BotSummary;

use super::command;
use super::webhooks::RememberedWebhookUrl;
use crate::clipboard::copy_secret;
use crate::error::{AppError, AppResult};
use crate::state::Session;

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreateBotRequest {
    pub full_name: String,
    pub short_name: String,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BotIdRequest {
    #[ts(type = "number")]
    pub user_id: i64,
}

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
#[command]
pub async fn list_bots(session: State<'_, Session>) -> AppResult<Vec<BotSummary>> {
    let bots = session.bots().await?.list().await?;
    Ok(bots.into_iter().map(summary).collect())
}

/// Creates an incoming-webhook bot; its key goes straight to the keyring.
#[command]
pub async fn create_bot(
    session: State<'_, Session>,
    request: CreateBotRequest,
) -> AppResult<BotSummary> {
    let bots = session.bots().await?;
    Ok(summary(
        bots.create(&request.full_name, &request.short_name).await?,
    ))
}

/// The key itself, for an explicit Reveal.
#[command]
pub async fn reveal_bot_key(
    session: State<'_, Session>,
    request: BotIdRequest,
) -> AppResult<String> {
    let key = session.bots().await?.key(request.user_id).await?;
    Ok(key.expose().to_owned())
}

/// Copies the key; answers the seconds until the clipboard is cleared.
#[command]
pub async fn copy_bot_key<R: Runtime>(
    app: AppHandle<R>,
    session: State<'_, Session>,
    request: BotIdRequest,
) -> AppResult<Option<u64>> {
    let key = session.bots().await?.key(request.user_id).await?;
    copy_secret(&app, key)
}

/// Copies a zuliprc for the bot.
#[command]
pub async fn copy_bot_zuliprc<R: Runtime>(
    app: AppHandle<R>,
    session: State<'_, Session>,
    request: BotIdRequest,
) -> AppResult<Option<u64>> {
    let text = session.bots().await?.zuliprc(request.user_id).await?;
    copy_secret(&app, text)
}

/// Saves a zuliprc where the user chooses (the UI has warned that it is plaintext);
/// answers the path, or `None` when the dialog was cancelled.
#[command]
pub async fn save_bot_zuliprc<R: Runtime>(
    app: AppHandle<R>,
    session: State<'_, Session>,
    request: BotIdRequest,
) -> AppResult<Option<String>> {
    let text = session.bots().await?.zuliprc(request.user_id).await?;
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
#[command]
pub async fn regenerate_bot_key(
    session: State<'_, Session>,
    request: BotIdRequest,
) -> AppResult<Vec<RememberedWebhookUrl>> {
    let urls = session
        .bots()
        .await?
        .regenerate_key(request.user_id)
        .await?;
    Ok(urls.into_iter().map(Into::into).collect())
}

#[command]
pub async fn deactivate_bot(session: State<'_, Session>, request: BotIdRequest) -> AppResult<()> {
    Ok(session.bots().await?.deactivate(request.user_id).await?)
}

#[command]
pub async fn reactivate_bot(session: State<'_, Session>, request: BotIdRequest) -> AppResult<()> {
    Ok(session.bots().await?.reactivate(request.user_id).await?)
}
