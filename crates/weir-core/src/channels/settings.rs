//! The channel settings that name groups: which a server has, how each is labelled, from
//! which level Zulip's `PATCH /streams/{id}` changes it, and which groups it may name.

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::Value;

use crate::memberships::GroupSetting;

/// A setting Weir knows: Zulip's parameter name, the column's label, the level from
/// which channels carry it and the level from which `PATCH /streams/{id}` changes it in
/// the `{"new", "old"}` form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownSetting {
    pub name: &'static str,
    pub label: &'static str,
    pub shown_since: u32,
    pub changed_since: u32,
    /// Whether the server refuses a change by someone without access to the channel's
    /// content (Zulip's `stream_permission_group_settings_requiring_content_access`).
    pub needs_content_access: bool,
}

/// Zulip 10's five, in the columns' order, then those of Zulip 11 and 12.
pub const KNOWN_SETTINGS: [KnownSetting; 11] = [
    known("can_send_message_group", "Who can post", 333, 333, false),
    known(
        "can_add_subscribers_group",
        "Who can add subscribers",
        342,
        342,
        true,
    ),
    known(
        "can_remove_subscribers_group",
        "Who can remove subscribers",
        142,
        320,
        false,
    ),
    known("can_subscribe_group", "Who can join", 357, 357, true),
    known(
        "can_administer_channel_group",
        "Who administers the channel",
        325,
        325,
        false,
    ),
    known(
        "can_move_messages_out_of_channel_group",
        "Who can move messages out",
        396,
        396,
        false,
    ),
    known(
        "can_move_messages_within_channel_group",
        "Who can move messages within",
        396,
        396,
        false,
    ),
    known(
        "can_resolve_topics_group",
        "Who can resolve topics",
        402,
        402,
        false,
    ),
    known(
        "can_delete_any_message_group",
        "Who can delete any message",
        407,
        407,
        false,
    ),
    known(
        "can_delete_own_message_group",
        "Who can delete their own messages",
        407,
        407,
        false,
    ),
    known(
        "can_create_topic_group",
        "Who can start topics",
        441,
        441,
        false,
    ),
];

/// Zulip 10's settings: what a server without `server_supported_permission_settings`
/// may have, by level.
pub const ZULIP_10_SETTINGS: [&str; 5] = [
    "can_administer_channel_group",
    "can_add_subscribers_group",
    "can_remove_subscribers_group",
    "can_send_message_group",
    "can_subscribe_group",
];

const fn known(
    name: &'static str,
    label: &'static str,
    shown_since: u32,
    changed_since: u32,
    needs_content_access: bool,
) -> KnownSetting {
    KnownSetting {
        name,
        label,
        shown_since,
        changed_since,
        needs_content_access,
    }
}

/// The setting Weir knows by this name.
pub fn known_setting(name: &str) -> Option<&'static KnownSetting> {
    KNOWN_SETTINGS.iter().find(|setting| setting.name == name)
}

/// Which groups a setting may name (Zulip's `GroupPermissionSetting`); what a server
/// omits takes the value Zulip 10 gives most channel settings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SettingRules {
    #[serde(default)]
    pub require_system_group: bool,
    #[serde(default)]
    pub allow_internet_group: bool,
    #[serde(default = "yes")]
    pub allow_nobody_group: bool,
    #[serde(default)]
    pub allow_everyone_group: bool,
    #[serde(default)]
    pub allowed_system_groups: Vec<String>,
}

fn yes() -> bool {
    true
}

impl SettingRules {
    /// Zulip 10's rules for a setting, for servers that do not describe them.
    pub fn zulip_10(name: &str) -> Self {
        Self {
            require_system_group: false,
            allow_internet_group: false,
            allow_nobody_group: true,
            allow_everyone_group: matches!(
                name,
                "can_send_message_group" | "can_remove_subscribers_group"
            ),
            allowed_system_groups: Vec::new(),
        }
    }

    /// Whether a group (by its name and kind) may be this setting's value.
    pub fn allows(&self, name: &str, is_system_group: bool) -> bool {
        if !is_system_group {
            return !self.require_system_group;
        }
        match name {
            "role:internet" => self.allow_internet_group,
            "role:nobody" => self.allow_nobody_group,
            "role:everyone" => self.allow_everyone_group,
            _ => {
                self.allowed_system_groups.is_empty()
                    || self
                        .allowed_system_groups
                        .iter()
                        .any(|allowed| allowed == name)
            }
        }
    }
}

/// The channel settings a server has, with their rules, in the columns' order: those
/// its `server_supported_permission_settings` lists under `stream` (and Weir knows),
/// else Zulip 10's five by the level at which channels carry each.
pub fn supported_settings(
    supported: Option<&Value>,
    feature_level: u32,
) -> Vec<(&'static KnownSetting, SettingRules)> {
    let described = supported
        .and_then(|value| value.get("stream"))
        .and_then(Value::as_object);
    KNOWN_SETTINGS
        .iter()
        .filter_map(|setting| match described {
            Some(stream) => {
                let rules = stream.get(setting.name)?;
                let rules = SettingRules::deserialize(rules)
                    .unwrap_or_else(|_| SettingRules::zulip_10(setting.name));
                Some((setting, rules))
            }
            None => (ZULIP_10_SETTINGS.contains(&setting.name)
                && feature_level >= setting.shown_since)
                .then(|| (setting, SettingRules::zulip_10(setting.name))),
        })
        .collect()
}

/// A value as Zulip stores it: an anonymous group of one subgroup and no one else is
/// that subgroup (Zulip's `parse_group_setting_value`); lists sorted without repeats.
pub fn normalized(value: &GroupSetting) -> GroupSetting {
    match value {
        GroupSetting::Named(id) => GroupSetting::Named(*id),
        GroupSetting::Anonymous {
            direct_members,
            direct_subgroups,
        } => {
            let members: BTreeSet<i64> = direct_members.iter().copied().collect();
            let subgroups: BTreeSet<i64> = direct_subgroups.iter().copied().collect();
            match (members.is_empty(), subgroups.len(), subgroups.first()) {
                (true, 1, Some(only)) => GroupSetting::Named(*only),
                _ => GroupSetting::Anonymous {
                    direct_members: members.into_iter().collect(),
                    direct_subgroups: subgroups.into_iter().collect(),
                },
            }
        }
    }
}

/// Whether two values name the same set (Zulip's `are_both_group_setting_values_equal`).
pub fn same_value(a: &GroupSetting, b: &GroupSetting) -> bool {
    normalized(a) == normalized(b)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn without_a_description_the_zulip_10_settings_follow_the_level() {
        let names = |level| -> Vec<&str> {
            supported_settings(None, level)
                .iter()
                .map(|(setting, _)| setting.name)
                .collect()
        };
        assert_eq!(names(200), ["can_remove_subscribers_group"]);
        assert_eq!(names(362).len(), 5);
        assert_eq!(names(362)[0], "can_send_message_group");
    }

    #[test]
    fn a_description_decides_the_settings_and_their_rules() {
        let supported = json!({"stream": {
            "can_subscribe_group": {"allow_everyone_group": false, "allow_internet_group": false,
                "allow_nobody_group": true, "require_system_group": false,
                "allowed_system_groups": [], "default_group_name": "role:nobody"},
            "can_send_message_group": {"allow_everyone_group": true},
            "some_future_setting": {}
        }});
        let settings = supported_settings(Some(&supported), 100);
        let names: Vec<&str> = settings.iter().map(|(s, _)| s.name).collect();
        assert_eq!(names, ["can_send_message_group", "can_subscribe_group"]);
        assert!(settings[0].1.allows("role:everyone", true));
        assert!(!settings[1].1.allows("role:everyone", true));
        assert!(!settings[1].1.allows("role:internet", true));
        assert!(settings[1].1.allows("role:nobody", true));
        assert!(settings[1].1.allows("Platform team", false));
    }

    #[test]
    fn system_only_and_listed_system_groups_are_honoured() {
        let rules = SettingRules {
            require_system_group: true,
            allowed_system_groups: vec!["role:administrators".into()],
            ..SettingRules::zulip_10("can_subscribe_group")
        };
        assert!(!rules.allows("team", false));
        assert!(rules.allows("role:administrators", true));
        assert!(!rules.allows("role:members", true));
    }

    #[test]
    fn one_subgroup_and_no_one_else_is_that_group() {
        let anonymous = |members: Vec<i64>, subgroups: Vec<i64>| GroupSetting::Anonymous {
            direct_members: members,
            direct_subgroups: subgroups,
        };
        assert_eq!(
            normalized(&anonymous(vec![], vec![7])),
            GroupSetting::Named(7)
        );
        assert!(same_value(
            &anonymous(vec![3, 1, 3], vec![]),
            &anonymous(vec![1, 3], vec![])
        ));
        assert!(!same_value(
            &anonymous(vec![1], vec![7]),
            &GroupSetting::Named(7)
        ));
        assert!(!same_value(
            &GroupSetting::Named(7),
            &GroupSetting::Named(8)
        ));
    }
}
