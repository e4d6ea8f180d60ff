//! The Channels page without Tauri: channels × the settings that name groups (who can
//! post, add or remove subscribers, join, administer), who may change which cell, and
//! how staged changes reach the server (one `PATCH /streams/{id}` per channel).
//!
//! - [`load_channels`]: the table, from one `register` snapshot and `GET /user_groups`.
//! - [`plan_channel_settings`]: staged [`ChannelSettingChange`]s → [`ChannelPlan`] (pure).
//! - [`apply_channel_settings`]: runs a plan with progress and cancellation.

mod apply;
mod plan;
pub mod settings;
mod table;

#[cfg(test)]
mod tests;

pub use apply::{
    ChannelApplyReport, ChannelCellResult, ChannelSettingsApi, apply_channel_settings,
    reverse_channel_cells,
};
pub use plan::{
    ChannelPlan, ChannelRequest, ChannelSettingChange, ChannelSkip, PlannedSetting,
    plan_channel_settings,
};
pub use table::{
    ChannelCell, ChannelDenied, ChannelRow, ChannelTable, ChannelViewer, GroupOption,
    LoadedChannels, PermissionSetting, Privacy, system_label,
};

use crate::client::ZulipClient;
use crate::error::CoreError;

/// Loads the table in three concurrent requests (`register`, `users/me` and
/// `user_groups`); an account that may not list groups sees ids instead of names.
pub async fn load_channels(client: &ZulipClient) -> Result<LoadedChannels, CoreError> {
    let (register, me, groups) = tokio::join!(
        client.register_channel_settings(),
        client.get_own_user(),
        client.get_user_groups()
    );
    let me = me?;
    let groups = crate::memberships::groups_or_none(groups)?;
    let register = register?;
    tokio::task::spawn_blocking(move || {
        LoadedChannels::build(register, me.user_id, me.role, groups)
    })
    .await
    .map_err(|error| CoreError::Internal(format!("building the channel table: {error}")))
}
