//! The channel settings that name user groups, and the feature levels from which Zulip
//! lets them decide who subscribes and unsubscribes other people.

use serde_json::{Value, json};

use crate::rules::group_graph::GroupGraph;
use crate::rules::groups::SettingValue;
use crate::store::{StreamRow, UserRow, system};

/// `can_remove_subscribers_group` decides who removes others (Zulip 6.0).
pub const CAN_REMOVE_SUBSCRIBERS_LEVEL: u32 = 142;
/// Channel administrators (`can_administer_channel_group`) may remove others too.
pub const CHANNEL_ADMINS_REMOVE_LEVEL: u32 = 349;
/// `can_add_subscribers_group` lets its members add others, even to private channels
/// they are not in.
pub const CAN_ADD_SUBSCRIBERS_LEVEL: u32 = 342;
/// `can_subscribe_group` lets its members join private channels by themselves.
pub const CAN_SUBSCRIBE_LEVEL: u32 = 357;

/// Weir's defaults, Zulip's for a new channel: nobody adds by this setting (the realm's
/// rule for members applies), administrators remove, nobody joins private channels.
const DEFAULT_ADD: i64 = system::NOBODY;
const DEFAULT_REMOVE: i64 = system::ADMINISTRATORS;
const DEFAULT_SUBSCRIBE: i64 = system::NOBODY;

fn value(stored: Option<&String>, default: i64) -> SettingValue {
    stored.map_or(SettingValue::Group(default), |text| {
        SettingValue::from_stored(text)
    })
}

fn wire(stored: Option<&String>, default: i64) -> Value {
    stored
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_else(|| json!(default))
}

/// The three settings as the API shows them.
pub fn wire_settings(stream: &StreamRow) -> [Value; 3] {
    let groups = &stream.groups;
    [
        wire(groups.can_add_subscribers_group.as_ref(), DEFAULT_ADD),
        wire(groups.can_remove_subscribers_group.as_ref(), DEFAULT_REMOVE),
        wire(groups.can_subscribe_group.as_ref(), DEFAULT_SUBSCRIBE),
    ]
}

/// A stream's administrators: its creator, when it was created through the API.
pub fn administrators(stream: &StreamRow) -> SettingValue {
    stream
        .creator_id
        .map_or(SettingValue::Group(system::NOBODY), SettingValue::only)
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

/// Whether a caller may subscribe others to a stream they cannot otherwise access.
pub fn may_add_others_anyway(
    graph: &GroupGraph,
    caller: &UserRow,
    stream: &StreamRow,
    level: u32,
) -> bool {
    let add = value(
        stream.groups.can_add_subscribers_group.as_ref(),
        DEFAULT_ADD,
    );
    level >= CAN_ADD_SUBSCRIBERS_LEVEL && graph.holds(&add, caller.user_id)
}

/// Whether a caller may subscribe themself to a stream they cannot otherwise access.
pub fn may_join_anyway(
    graph: &GroupGraph,
    caller: &UserRow,
    stream: &StreamRow,
    level: u32,
) -> bool {
    let subscribe = value(
        stream.groups.can_subscribe_group.as_ref(),
        DEFAULT_SUBSCRIBE,
    );
    level >= CAN_SUBSCRIBE_LEVEL && graph.holds(&subscribe, caller.user_id)
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
        };
        let s = stream(settings, Some(6));
        let (five, six) = (member(5), member(6));
        assert!(may_remove_others(&graph, &five, &s, 142));
        assert!(!may_remove_others(&graph, &five, &s, 141));
        assert!(may_remove_others(&graph, &six, &s, 349));
        assert!(!may_remove_others(&graph, &six, &s, 348));
        assert!(may_add_others_anyway(&graph, &five, &s, 342));
        assert!(!may_add_others_anyway(&graph, &five, &s, 341));
        assert!(may_join_anyway(&graph, &five, &s, 357));
        assert!(!may_join_anyway(&graph, &five, &s, 356));
        assert!(!may_join_anyway(&graph, &six, &s, 362));
        assert_eq!(wire_settings(&s)[0], json!(20));
        let defaults = stream(StreamGroupSettings::default(), None);
        assert_eq!(wire_settings(&defaults), [json!(1), json!(3), json!(1)]);
        assert!(!may_remove_others(&graph, &six, &defaults, 362));
    }
}
