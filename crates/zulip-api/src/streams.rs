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
    /// Named `can_remove_subscribers_group_id` before Zulip 8.0 (feature level 197).
    #[serde(default, alias = "can_remove_subscribers_group_id")]
    pub can_remove_subscribers_group: GroupSettingValue,
    #[serde(default)]
    pub can_administer_channel_group: GroupSettingValue,
    #[serde(default)]
    pub can_send_message_group: GroupSettingValue,
    #[serde(default)]
    pub can_subscribe_group: GroupSettingValue,
    /// Channel group settings of Zulip 11 and 12 (feature levels 396, 402, 407, 441):
    /// `None` from servers that predate them; weir-server (level 362) sends none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_move_messages_out_of_channel_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_move_messages_within_channel_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_resolve_topics_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_delete_any_message_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_delete_own_message_group: Option<GroupSettingValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_create_topic_group: Option<GroupSettingValue>,
    /// The channel's folder (Zulip 11, feature level 389); `None` when it has none or
    /// the server has no folders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder_id: Option<i64>,
    /// `inherit`, `allow_empty_topic`, `disable_empty_topic` or `empty_topic_only`
    /// (Zulip 11, feature levels 392 and 404). Kept as text: later values must not fail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics_policy: Option<String>,
    /// Subscriber lists (`register` with `include_subscribers`, subscriptions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribers: Option<Vec<i64>>,
    /// Zulip 11's subscriber count. Zulip 10 (what weir-server emulates) has none, so
    /// weir-server never sends it; newer servers do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscriber_count: Option<i64>,
    /// Zulip 11's `include_subscribers=partial` (feature level 412) may send this, a
    /// subset of the subscribers, instead of `subscribers`. Weir asks for full lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_subscribers: Option<Vec<i64>>,
}

impl Stream {
    /// The channel's group settings the server sent, by Zulip's name: the five every
    /// supported level has (when present) and the six of Zulip 11 and 12.
    pub fn group_settings(&self) -> Vec<(&'static str, &GroupSettingValue)> {
        let always = [
            ("can_add_subscribers_group", &self.can_add_subscribers_group),
            (
                "can_remove_subscribers_group",
                &self.can_remove_subscribers_group,
            ),
            (
                "can_administer_channel_group",
                &self.can_administer_channel_group,
            ),
            ("can_send_message_group", &self.can_send_message_group),
            ("can_subscribe_group", &self.can_subscribe_group),
        ];
        let later = [
            (
                "can_move_messages_out_of_channel_group",
                &self.can_move_messages_out_of_channel_group,
            ),
            (
                "can_move_messages_within_channel_group",
                &self.can_move_messages_within_channel_group,
            ),
            ("can_resolve_topics_group", &self.can_resolve_topics_group),
            (
                "can_delete_any_message_group",
                &self.can_delete_any_message_group,
            ),
            (
                "can_delete_own_message_group",
                &self.can_delete_own_message_group,
            ),
            ("can_create_topic_group", &self.can_create_topic_group),
        ];
        always
            .into_iter()
            .filter(|(_, value)| !value.is_null())
            .chain(
                later
                    .into_iter()
                    .filter_map(|(name, value)| value.as_ref().map(|value| (name, value))),
            )
            .collect()
    }
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

/// Channel objects as Zulip documents them at each level: the `GET /streams` example of
/// Zulip 10.2's OpenAPI document (`management`), with the keys the API changelog adds
/// (Zulip 11: 389 `folder_id`, 392 `topics_policy`, 394 `subscriber_count`, 396, 402 and
/// 407 group settings; Zulip 12: 441 `can_create_topic_group`) or renames (197).
#[cfg(test)]
mod zulip_versions {
    use serde_json::{Value, json};

    use super::*;

    /// Zulip 10.2's documented `management` channel.
    fn zulip_10() -> Value {
        json!({
            "can_add_subscribers_group": 10, "can_remove_subscribers_group": 10,
            "can_subscribe_group": 10, "creator_id": null, "date_created": 1691057093,
            "description": "A private channel", "first_message_id": 18,
            "is_recently_active": true, "history_public_to_subscribers": false,
            "invite_only": true, "is_announcement_only": false, "is_archived": false,
            "is_default": false, "is_web_public": false, "message_retention_days": null,
            "name": "management", "rendered_description": "<p>A private channel</p>",
            "stream_id": 2, "stream_post_policy": 1, "stream_weekly_traffic": null
        })
    }

    fn with(mut base: Value, extra: Value) -> Value {
        if let (Some(target), Value::Object(extra)) = (base.as_object_mut(), extra) {
            target.extend(extra);
        }
        base
    }

    /// Zulip 11.0 (level 421): the 10.2 object plus what 389–418 add, a group setting in
    /// the anonymous-group form (levels 320+), `stream_post_policy` gone (deprecated at 333).
    fn zulip_11() -> Value {
        let mut stream = with(
            zulip_10(),
            json!({
                "folder_id": 1, "topics_policy": "disable_empty_topic", "subscriber_count": 5,
                "can_move_messages_out_of_channel_group": 11,
                "can_move_messages_within_channel_group":
                    {"direct_members": [10], "direct_subgroups": [11]},
                "can_resolve_topics_group": 11,
                "can_delete_any_message_group": 11, "can_delete_own_message_group": 11,
                "can_administer_channel_group": {"direct_members": [12], "direct_subgroups": []},
                "can_send_message_group": 9
            }),
        );
        if let Some(object) = stream.as_object_mut() {
            object.remove("stream_post_policy");
        }
        stream
    }

    /// Zulip 12.x (level 500): Zulip 11's object plus `can_create_topic_group` (441), a
    /// `topics_policy` value of 404, and a key no Weir knows yet.
    fn zulip_12() -> Value {
        with(
            zulip_11(),
            json!({
                "can_create_topic_group": 9, "topics_policy": "empty_topic_only",
                "default_push_notifications": null, "folder_id": null
            }),
        )
    }

    #[test]
    fn zulip_10_channels_decode_with_integer_group_settings() -> Result<(), serde_json::Error> {
        let stream: Stream = serde_json::from_value(zulip_10())?;
        assert_eq!((stream.stream_id, stream.name.as_str()), (2, "management"));
        let names: Vec<&str> = stream.group_settings().iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "can_add_subscribers_group",
                "can_remove_subscribers_group",
                "can_subscribe_group"
            ]
        );
        assert_eq!(stream.can_remove_subscribers_group, json!(10));
        assert!(stream.folder_id.is_none() && stream.topics_policy.is_none());
        Ok(())
    }

    #[test]
    fn zulip_11_channels_carry_folders_topics_policy_and_new_group_settings()
    -> Result<(), serde_json::Error> {
        let stream: Stream = serde_json::from_value(zulip_11())?;
        assert_eq!(stream.folder_id, Some(1));
        assert_eq!(stream.topics_policy.as_deref(), Some("disable_empty_topic"));
        assert_eq!(stream.subscriber_count, Some(5));
        assert_eq!(stream.stream_post_policy, 1, "absent: Zulip's default");
        assert_eq!(
            stream.can_move_messages_within_channel_group,
            Some(json!({"direct_members": [10], "direct_subgroups": [11]}))
        );
        assert_eq!(stream.group_settings().len(), 10);
        // The same channel seen through a subscription (flattened) reads the same.
        let subscription: Subscription =
            serde_json::from_value(with(zulip_11(), json!({"color": "#e79ab5"})))?;
        assert_eq!(subscription.stream, stream);
        Ok(())
    }

    #[test]
    fn zulip_12_channels_carry_can_create_topic_group_and_ignore_unknown_keys()
    -> Result<(), serde_json::Error> {
        let stream: Stream = serde_json::from_value(zulip_12())?;
        assert_eq!(stream.can_create_topic_group, Some(json!(9)));
        assert_eq!(stream.topics_policy.as_deref(), Some("empty_topic_only"));
        assert_eq!(stream.folder_id, None);
        assert_eq!(stream.group_settings().len(), 11);
        Ok(())
    }

    /// Zulip 6 and 7 (levels 142–196) spell the setting `can_remove_subscribers_group_id`.
    #[test]
    fn the_pre_8_0_spelling_of_can_remove_subscribers_group_is_read()
    -> Result<(), serde_json::Error> {
        let mut old = zulip_10();
        if let Some(object) = old.as_object_mut() {
            object.remove("can_remove_subscribers_group");
            object.remove("can_add_subscribers_group");
            object.remove("can_subscribe_group");
            object.insert("can_remove_subscribers_group_id".into(), json!(7));
        }
        let stream: Stream = serde_json::from_value(old)?;
        assert_eq!(stream.can_remove_subscribers_group, json!(7));
        Ok(())
    }

    /// What weir-server sends (level 362) is unchanged: none of the newer keys.
    #[test]
    fn streams_without_the_newer_fields_serialize_without_them() -> Result<(), serde_json::Error> {
        let stream: Stream = serde_json::from_value(zulip_10())?;
        let sent = serde_json::to_value(&stream)?;
        for key in [
            "folder_id",
            "topics_policy",
            "can_create_topic_group",
            "subscriber_count",
        ] {
            assert!(sent.get(key).is_none(), "{key} sent");
        }
        Ok(())
    }
}
