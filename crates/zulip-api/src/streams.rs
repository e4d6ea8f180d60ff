use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A group-based permission setting: a user group's id, or an anonymous group of
/// users and subgroups (Zulip's `GroupSettingValue`). Kept as JSON: Weir only passes it on.
pub type GroupSettingValue = Value;

/// A stream (channel) as `GET /streams` and `register`'s `never_subscribed` describe it.
///
/// Fields added in later Zulip versions default when a server does not send them, so
/// that the same type decodes older servers' answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stream {
    pub stream_id: i64,
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub rendered_description: String,
    pub invite_only: bool,
    #[serde(default)]
    pub is_web_public: bool,
    #[serde(default)]
    pub history_public_to_subscribers: bool,
    #[serde(default)]
    pub date_created: i64,
    #[serde(default)]
    pub creator_id: Option<i64>,
    #[serde(default = "default_post_policy")]
    pub stream_post_policy: i64,
    #[serde(default)]
    pub message_retention_days: Option<i64>,
    #[serde(default)]
    pub first_message_id: Option<i64>,
    #[serde(default)]
    pub is_announcement_only: bool,
    #[serde(default)]
    pub stream_weekly_traffic: Option<i64>,
    #[serde(default = "default_true")]
    pub is_recently_active: bool,
    #[serde(default)]
    pub is_archived: bool,
    #[serde(default)]
    pub can_add_subscribers_group: GroupSettingValue,
    #[serde(default)]
    pub can_remove_subscribers_group: GroupSettingValue,
    #[serde(default)]
    pub can_administer_channel_group: GroupSettingValue,
    #[serde(default)]
    pub can_send_message_group: GroupSettingValue,
    #[serde(default)]
    pub can_subscribe_group: GroupSettingValue,
    /// Subscriber lists (`register` with `include_subscribers`, subscriptions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribers: Option<Vec<i64>>,
    /// Zulip 11's subscriber count. Zulip 10 (what weir-server emulates) has none, so
    /// weir-server never sends it; newer servers do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscriber_count: Option<i64>,
}

fn default_post_policy() -> i64 {
    1
}

fn default_true() -> bool {
    true
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StreamsResponse {
    pub streams: Vec<Stream>,
}

/// A stream as seen through the caller's subscription: the stream's own fields plus the
/// caller's settings for it; `subscribers` only when asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subscription {
    #[serde(flatten)]
    pub stream: Stream,
    #[serde(default)]
    pub color: String,
    #[serde(default)]
    pub is_muted: bool,
    /// Deprecated inverse of `is_muted`, still sent by Zulip.
    #[serde(default = "default_true")]
    pub in_home_view: bool,
    #[serde(default)]
    pub pin_to_top: bool,
    /// Notification settings: `None` means "the user's global default".
    #[serde(default)]
    pub desktop_notifications: Option<bool>,
    #[serde(default)]
    pub email_notifications: Option<bool>,
    #[serde(default)]
    pub wildcard_mentions_notify: Option<bool>,
    #[serde(default)]
    pub push_notifications: Option<bool>,
    #[serde(default)]
    pub audible_notifications: Option<bool>,
}

impl std::ops::Deref for Subscription {
    type Target = Stream;

    fn deref(&self) -> &Stream {
        &self.stream
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscriptionsResponse {
    pub subscriptions: Vec<Subscription>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscribersResponse {
    pub subscribers: Vec<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StreamIdResponse {
    pub stream_id: i64,
}

/// `DELETE /users/me/subscriptions`: one stream name per (user, stream) pair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RemoveSubscriptionsResponse {
    pub removed: Vec<String>,
    pub not_removed: Vec<String>,
}

/// `POST /users/me/subscriptions`: stream names keyed by user id (as a string).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AddSubscriptionsResponse {
    pub subscribed: BTreeMap<String, Vec<String>>,
    pub already_subscribed: BTreeMap<String, Vec<String>>,
    /// With `authorization_errors_fatal=false`: the streams the caller may not access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unauthorized: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_from_servers_without_the_newer_fields_decode() {
        let body = r#"{"stream_id":1,"name":"a","description":"","rendered_description":"",
            "invite_only":false,"is_web_public":false,"history_public_to_subscribers":true}"#;
        let stream: Stream = serde_json::from_str(body).unwrap();
        assert!(stream.is_recently_active && stream.creator_id.is_none());
        let sub: Subscription = serde_json::from_str(body).unwrap();
        assert_eq!(sub.name, "a");
        assert!(sub.in_home_view && sub.subscribers.is_none());
    }
}
