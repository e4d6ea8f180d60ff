//! The channel settings that name user groups: their values and defaults, who posts
//! (`can_send_message_group`), and the feature levels from which Zulip lets them decide
//! who subscribes and unsubscribes other people.

use std::collections::BTreeSet;
use std::sync::Arc;

use rusqlite::Connection;
use serde_json::{Value, json};

use crate::error::{ApiError, Error};
use crate::rules::group_graph::GroupGraph;
use crate::rules::groups::SettingValue;
use crate::store::{self, StreamRow, UserRow, system};

/// `can_remove_subscribers_group` decides who removes others (Zulip 6.0).
pub const CAN_REMOVE_SUBSCRIBERS_LEVEL: u32 = 142;
/// Channel administrators (`can_administer_channel_group`) may remove others too.
pub const CHANNEL_ADMINS_REMOVE_LEVEL: u32 = 349;
/// From this level `can_add_subscribers_group` opens private channels its members are
/// not in, for themselves and others. (It exists from 342, but Weir's organization lets
/// every member add others to the channels they reach, so before 349 it decides nothing.)
pub const ADD_SUBSCRIBERS_OPENS_LEVEL: u32 = 349;
/// `can_subscribe_group` opens private channels to its members likewise.
pub const CAN_SUBSCRIBE_LEVEL: u32 = 357;

/// Weir's defaults, Zulip's for a new channel: nobody adds by this setting (the realm's
/// rule for members applies), administrators remove, nobody joins private channels.
const DEFAULT_ADD: i64 = system::NOBODY;
const DEFAULT_REMOVE: i64 = system::ADMINISTRATORS;
const DEFAULT_SUBSCRIBE: i64 = system::NOBODY;
/// Everyone may post unless `can_send_message_group` says otherwise.
const DEFAULT_SEND: i64 = system::EVERYONE;

fn value(stored: Option<&String>, default: i64) -> SettingValue {
    stored.map_or(SettingValue::Group(default), |text| {
        SettingValue::from_stored(text)
    })
}

/// A setting as the API shows it: a group's id, or an anonymous group.
pub fn wire_value(stream: &StreamRow, name: &str) -> Value {
    match stored(stream, name) {
        Some(text) => serde_json::from_str(text).unwrap_or_else(|_| json!(system::NOBODY)),
        None => match setting_value(stream, name) {
            SettingValue::Group(id) => json!(id),
            SettingValue::Anonymous { members, subgroups } => {
                json!({"direct_members": members, "direct_subgroups": subgroups})
            }
        },
    }
}

/// From this level group-setting values leave deactivated users out.
pub const HIDE_DEACTIVATED_LEVEL: u32 = 303;

/// Leaves deactivated users out of the stream's anonymous group-setting values, as
/// Zulip shows them: `GET /streams` and `register` read anonymous groups through
/// `get_members_and_subgroups_of_groups` (zerver/lib/user_groups.py), which excludes
/// `user_profile__is_active=False`, and `get_group_setting_value_for_api` filters
/// `direct_members` on `is_active=True` likewise. Subgroups stay; so does a value that
/// names no one left (`{"direct_members": [], ...}`). From Zulip 10.0 (feature level
/// 303, the `GroupSettingValue` schema's note); before, they were listed. For listings
/// only: the stored values keep everyone, so a reactivated user is back in them.
pub fn hide_deactivated(stream: &mut StreamRow, deactivated: &BTreeSet<i64>, level: u32) {
    if deactivated.is_empty() || level < HIDE_DEACTIVATED_LEVEL {
        return;
    }
    let names = STREAM_GROUP_SETTINGS
        .into_iter()
        .chain(NEWER_GROUP_SETTINGS.into_iter().map(|(name, _)| name));
    for name in names {
        let mut value = wire_value(stream, name);
        let Some(members) = value
            .get_mut("direct_members")
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        let before = members.len();
        members.retain(|id| id.as_i64().is_none_or(|id| !deactivated.contains(&id)));
        if members.len() != before {
            stream.groups.set(name, Some(value.to_string()));
        }
    }
}

/// The five settings every level Weir emulates shows, in the order of
/// [`STREAM_GROUP_SETTINGS`].
pub fn wire_settings(stream: &StreamRow) -> [Value; 5] {
    STREAM_GROUP_SETTINGS.map(|name| wire_value(stream, name))
}

/// A stream's settings that name groups and that every level Weir emulates has
/// (`Stream.stream_permission_group_settings` of Zulip 10).
pub const STREAM_GROUP_SETTINGS: [&str; 5] = [
    "can_add_subscribers_group",
    "can_administer_channel_group",
    "can_send_message_group",
    "can_remove_subscribers_group",
    "can_subscribe_group",
];

/// Zulip 11's channel settings that name groups, with the feature level that added
/// each. All default to `role:nobody` and may name `role:everyone`; Weir stores and
/// shows them, and has no moving, resolving or deleting of messages for them to decide.
pub const NEWER_GROUP_SETTINGS: [(&str, u32); 5] = [
    ("can_move_messages_out_of_channel_group", 396),
    ("can_move_messages_within_channel_group", 396),
    ("can_resolve_topics_group", 402),
    ("can_delete_any_message_group", 407),
    ("can_delete_own_message_group", 407),
];

/// The newer settings a server at `level` has.
pub fn newer_settings_at(level: u32) -> impl Iterator<Item = &'static str> {
    NEWER_GROUP_SETTINGS
        .into_iter()
        .filter(move |(_, since)| level >= *since)
        .map(|(name, _)| name)
}

/// The stored value of a channel group setting (`None`: the default).
pub fn stored<'a>(stream: &'a StreamRow, name: &str) -> Option<&'a String> {
    stream.groups.get(name)
}

/// The value of one of [`STREAM_GROUP_SETTINGS`], its default when none is stored.
pub fn setting_value(stream: &StreamRow, name: &str) -> SettingValue {
    if let Some(text) = stored(stream, name) {
        return SettingValue::from_stored(text);
    }
    match name {
        "can_add_subscribers_group" => SettingValue::Group(DEFAULT_ADD),
        "can_administer_channel_group" => stream
            .creator_id
            .map_or(SettingValue::Group(system::NOBODY), SettingValue::only),
        "can_send_message_group" => SettingValue::Group(DEFAULT_SEND),
        "can_remove_subscribers_group" => SettingValue::Group(DEFAULT_REMOVE),
        _ => SettingValue::Group(DEFAULT_SUBSCRIBE),
    }
}

/// A stream's administrators (`can_administer_channel_group`; by default its creator,
/// when it was created through the API).
pub fn administrators(stream: &StreamRow) -> SettingValue {
    setting_value(stream, "can_administer_channel_group")
}

/// Whether `user` may post by `can_send_message_group` (Zulip's
/// `check_stream_access_based_on_can_send_message_group`; a bot may through its owner).
pub fn may_post(graph: &GroupGraph, user: &UserRow, stream: &StreamRow) -> bool {
    let value = setting_value(stream, "can_send_message_group");
    if value == SettingValue::Group(system::EVERYONE) {
        return true;
    }
    graph.holds(&value, user.user_id)
        || user
            .bot_owner_id
            .is_some_and(|owner| graph.holds(&value, owner))
}

/// Refuses a sender that `can_send_message_group` leaves out, in Zulip's words. Asks
/// `graph` for the groups only when the setting is not Zulip's default (everyone).
pub fn check_may_post(
    graph: impl FnOnce() -> Result<Arc<GroupGraph>, Error>,
    sender: &UserRow,
    stream: &StreamRow,
) -> Result<(), Error> {
    if setting_value(stream, "can_send_message_group") == SettingValue::Group(DEFAULT_SEND) {
        return Ok(());
    }
    if may_post(&*graph()?, sender, stream) {
        return Ok(());
    }
    Err(ApiError::bad_request("You do not have permission to post in this channel.").into())
}

/// [`check_may_post`] for a stream known by id (webhooks hold only its post target),
/// with the graph read from `conn`.
pub fn check_may_post_by_id(
    conn: &Connection,
    sender: &UserRow,
    stream_id: i64,
) -> Result<(), Error> {
    match store::stream_by_id(conn, stream_id)? {
        Some(stream) => check_may_post(
            || Ok(Arc::new(GroupGraph::from(store::memberships(conn)?))),
            sender,
            &stream,
        ),
        None => Ok(()),
    }
}

/// Whether a caller who is no organization administrator may remove others from a
/// stream they can see.
pub fn may_remove_others(
    graph: &GroupGraph,
    caller: &UserRow,
    stream: &StreamRow,
    level: u32,
) -> bool {
    let remove = value(
        stream.groups.can_remove_subscribers_group.as_ref(),
        DEFAULT_REMOVE,
    );
    (level >= CAN_REMOVE_SUBSCRIBERS_LEVEL && graph.holds(&remove, caller.user_id))
        || (level >= CHANNEL_ADMINS_REMOVE_LEVEL
            && graph.holds(&administrators(stream), caller.user_id))
}

/// Whether the stream's groups open it to a caller who is neither subscribed nor may
/// see it otherwise (Zulip's `is_user_in_groups_granting_content_access`): from level
/// 349 `can_add_subscribers_group`, from 357 `can_subscribe_group`. Such a caller may
/// then subscribe themself, and others by the organization's rule (members may).
pub fn opens_to(graph: &GroupGraph, caller: &UserRow, stream: &StreamRow, level: u32) -> bool {
    if caller.is_guest() {
        return false;
    }
    let add = value(
        stream.groups.can_add_subscribers_group.as_ref(),
        DEFAULT_ADD,
    );
    let subscribe = value(
        stream.groups.can_subscribe_group.as_ref(),
        DEFAULT_SUBSCRIBE,
    );
    (level >= ADD_SUBSCRIBERS_OPENS_LEVEL && graph.holds(&add, caller.user_id))
        || (level >= CAN_SUBSCRIBE_LEVEL && graph.holds(&subscribe, caller.user_id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StreamGroupSettings;
    use std::collections::{BTreeMap, BTreeSet};
    use zulip_api::Role;

    fn stream(groups: StreamGroupSettings, creator_id: Option<i64>) -> StreamRow {
        StreamRow {
            stream_id: 1,
            name: "s".into(),
            description: String::new(),
            invite_only: true,
            date_created: 0,
            creator_id,
            history_public_to_subscribers: false,
            message_retention_days: None,
            topics_policy: None,
            folder_id: None,
            groups,
        }
    }

    fn member(user_id: i64) -> UserRow {
        UserRow {
            user_id,
            email: format!("{user_id}@x.test"),
            full_name: "X".into(),
            role: Role::Member,
            bot_type: None,
            bot_owner_id: None,
            api_key: String::new(),
            is_active: true,
            is_system_bot: false,
            date_joined: String::new(),
            timezone: String::new(),
        }
    }

    #[test]
    fn group_settings_take_effect_from_their_levels() {
        // Group 20 holds user 5; user 6 created the stream.
        let graph = GroupGraph::from(crate::store::Memberships {
            members: BTreeMap::from([(20, BTreeSet::from([5]))]),
            subgroups: BTreeMap::new(),
            active: BTreeMap::from([(5, Role::Member), (6, Role::Member)]),
        });
        let settings = StreamGroupSettings {
            can_add_subscribers_group: Some("20".into()),
            can_remove_subscribers_group: Some("20".into()),
            can_subscribe_group: Some("20".into()),
            ..StreamGroupSettings::default()
        };
        let s = stream(settings, Some(6));
        let (five, six) = (member(5), member(6));
        assert!(may_remove_others(&graph, &five, &s, 142));
        assert!(!may_remove_others(&graph, &five, &s, 141));
        assert!(may_remove_others(&graph, &six, &s, 349));
        assert!(!may_remove_others(&graph, &six, &s, 348));
        assert!(opens_to(&graph, &five, &s, 349));
        assert!(!opens_to(&graph, &five, &s, 348));
        let join_only = stream(
            StreamGroupSettings {
                can_subscribe_group: Some("20".into()),
                ..StreamGroupSettings::default()
            },
            None,
        );
        assert!(opens_to(&graph, &five, &join_only, 357));
        assert!(!opens_to(&graph, &five, &join_only, 356));
        assert!(!opens_to(&graph, &six, &s, 362));
        assert_eq!(wire_settings(&s)[0], json!(20));
        let defaults = stream(StreamGroupSettings::default(), None);
        assert_eq!(
            wire_settings(&defaults),
            [json!(1), json!(1), json!(7), json!(3), json!(1)]
        );
        let created = stream(StreamGroupSettings::default(), Some(6));
        assert_eq!(
            wire_settings(&created)[1],
            json!({"direct_members": [6], "direct_subgroups": []})
        );
        assert!(!may_remove_others(&graph, &six, &defaults, 362));
    }
}
