//! Channel settings: the snapshot the Channels page reads and Zulip's
//! `PATCH /streams/{stream_id}` for the settings that name groups.

use reqwest::Method;
use serde_json::{Value, json};
use zulip_api::RegisterResponse;

use super::transport::Params;
use super::{ClientError, ZulipClient};

/// One group setting to change: Zulip's parameter name, the value to set and the value
/// the client saw (the server refuses the change when it is no longer so).
#[derive(Debug, Clone, PartialEq)]
pub struct SettingUpdate {
    pub name: &'static str,
    pub new: Value,
    pub old: Option<Value>,
}

impl ZulipClient {
    /// `POST /register` for the channels with their settings (`subscription`), the
    /// people the anonymous groups name (`realm_user`) and the rules of each setting
    /// (`realm`: `server_supported_permission_settings`), without subscriber lists.
    /// The event queue is deleted at once, as for the grid's snapshot.
    pub async fn register_channel_settings(&self) -> Result<RegisterResponse, ClientError> {
        let types = vec!["realm", "realm_user", "subscription"];
        let params = Params::new()
            .json("fetch_event_types", types.clone())
            .json("event_types", types)
            .json("include_subscribers", false)
            .json("client_gravatar", true);
        let snapshot: RegisterResponse = self.call_large(Method::POST, "register", params).await?;
        self.delete_queue_later(snapshot.queue_id.clone());
        Ok(snapshot)
    }

    /// `PATCH /streams/{stream_id}` with each setting as Zulip 10's group-setting change,
    /// `{"new": ..., "old": ...}` (`old` left out when not known).
    pub async fn update_channel_group_settings(
        &self,
        stream_id: i64,
        updates: &[SettingUpdate],
    ) -> Result<(), ClientError> {
        let mut params = Params::new();
        for update in updates {
            let value = match &update.old {
                Some(old) => json!({"new": update.new, "old": old}),
                None => json!({"new": update.new}),
            };
            params = params.json(update.name, value);
        }
        let _: Value = self
            .call(Method::PATCH, &format!("streams/{stream_id}"), params)
            .await?;
        Ok(())
    }
}
