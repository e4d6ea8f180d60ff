//! Zulip's rules for user groups as pure functions: names, group-setting values, the
//! expansion of subgroups (who holds a group-valued permission is `group_graph.rs`).

use std::collections::{BTreeSet, VecDeque};

use serde_json::{Value, json};

use crate::error::ApiError;
use crate::store::{Memberships, system};

/// Zulip's `NamedUserGroup.MAX_NAME_LENGTH`.
pub const MAX_GROUP_NAME_CHARS: usize = 100;

/// Weir's bound on a group description (Zulip's column is unbounded text): the same
/// as a channel's.
pub const MAX_GROUP_DESCRIPTION_CHARS: usize = 1_024;

/// Zulip's `NamedUserGroup.INVALID_NAME_PREFIXES`: names that mention syntax or system
/// groups would make ambiguous.
const INVALID_NAME_PREFIXES: [&str; 5] = ["@", "role:", "user:", "stream:", "channel:"];

/// Checks a new group name as Zulip's `check_user_group_name` does (no trimming).
pub fn check_group_name(name: &str) -> Result<&str, ApiError> {
    if name.trim().is_empty() {
        return Err(ApiError::bad_request("User group name can't be empty!"));
    }
    if name.chars().count() > MAX_GROUP_NAME_CHARS {
        return Err(ApiError::bad_request(format!(
            "User group name cannot exceed {MAX_GROUP_NAME_CHARS} characters."
        )));
    }
    if let Some(prefix) = INVALID_NAME_PREFIXES.iter().find(|p| name.starts_with(**p)) {
        return Err(ApiError::bad_request(format!(
            "User group name cannot start with '{prefix}'."
        )));
    }
    Ok(name)
}

pub fn check_group_description(description: &str) -> Result<(), ApiError> {
    if description.chars().count() > MAX_GROUP_DESCRIPTION_CHARS {
        return Err(ApiError::bad_request(format!(
            "description is too long (limit: {MAX_GROUP_DESCRIPTION_CHARS} characters)"
        )));
    }
    Ok(())
}

/// A group-setting value: a named group, or an anonymous collection of users and groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingValue {
    Group(i64),
    Anonymous {
        members: BTreeSet<i64>,
        subgroups: BTreeSet<i64>,
    },
}

/// Most users or groups one anonymous setting value may name.
pub const MAX_SETTING_ENTRIES: usize = 1_000;

impl SettingValue {
    /// Parses the API's form, canonicalizing `{direct_members: [], direct_subgroups: [g]}`
    /// to `g` as Zulip does. `name` is the setting, for messages.
    pub fn parse(name: &str, value: &Value) -> Result<Self, ApiError> {
        let invalid = || ApiError::bad_request(format!("Invalid {name}"));
        match value {
            Value::Number(number) => number.as_i64().map(Self::Group).ok_or_else(invalid),
            Value::Object(fields) => {
                if fields
                    .keys()
                    .any(|key| key != "direct_members" && key != "direct_subgroups")
                {
                    return Err(invalid());
                }
                let ids = |key: &str| -> Result<BTreeSet<i64>, ApiError> {
                    let Some(list) = fields.get(key) else {
                        return Err(invalid());
                    };
                    let items = list.as_array().ok_or_else(invalid)?;
                    if items.len() > MAX_SETTING_ENTRIES {
                        return Err(ApiError::bad_request(format!(
                            "{name} is too long (limit: {MAX_SETTING_ENTRIES} items)"
                        )));
                    }
                    items
                        .iter()
                        .map(|item| item.as_i64().ok_or_else(invalid))
                        .collect()
                };
                let members = ids("direct_members")?;
                let subgroups = ids("direct_subgroups")?;
                if members.is_empty() && subgroups.len() == 1 {
                    return Ok(Self::Group(subgroups.into_iter().next().unwrap_or(0)));
                }
                Ok(Self::Anonymous { members, subgroups })
            }
            _ => Err(invalid()),
        }
    }

    /// Reads a stored value; anything unreadable counts as nobody.
    pub fn from_stored(text: &str) -> Self {
        serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|value| Self::parse("setting", &value).ok())
            .unwrap_or(Self::Group(system::NOBODY))
    }

    /// The creator alone, Zulip's `GROUP_CREATOR` default.
    pub fn only(user_id: i64) -> Self {
        Self::Anonymous {
            members: BTreeSet::from([user_id]),
            subgroups: BTreeSet::new(),
        }
    }

    /// The stored and API form; `active` leaves out deactivated users (level 303).
    pub fn to_json(&self, graph: &Memberships) -> Value {
        match self {
            Self::Group(id) => json!(id),
            Self::Anonymous { members, subgroups } => json!({
                "direct_members": members
                    .iter()
                    .filter(|id| graph.active.contains_key(id))
                    .collect::<Vec<_>>(),
                "direct_subgroups": subgroups,
            }),
        }
    }

    pub fn to_stored(&self) -> String {
        match self {
            Self::Group(id) => id.to_string(),
            Self::Anonymous { members, subgroups } => {
                json!({"direct_members": members, "direct_subgroups": subgroups}).to_string()
            }
        }
    }

    /// Groups the value names directly.
    pub fn groups(&self) -> Vec<i64> {
        match self {
            Self::Group(id) => vec![*id],
            Self::Anonymous { subgroups, .. } => subgroups.iter().copied().collect(),
        }
    }

    /// Users the value names directly.
    pub fn users(&self) -> Vec<i64> {
        match self {
            Self::Group(_) => Vec::new(),
            Self::Anonymous { members, .. } => members.iter().copied().collect(),
        }
    }
}

impl Memberships {
    /// `roots` and every group below them. Stops at groups already seen, so that even a
    /// stored cycle cannot loop.
    pub fn recursive_subgroups(&self, roots: &[i64]) -> BTreeSet<i64> {
        let mut seen: BTreeSet<i64> = BTreeSet::new();
        let mut queue: VecDeque<i64> = roots.iter().copied().collect();
        while let Some(group) = queue.pop_front() {
            if !seen.insert(group) {
                continue;
            }
            if let Some(children) = self.subgroups.get(&group) {
                queue.extend(children.iter().copied().filter(|c| !seen.contains(c)));
            }
        }
        seen
    }

    /// Every member of the group, through its subgroups too.
    pub fn recursive_members(&self, group: i64) -> BTreeSet<i64> {
        self.recursive_subgroups(&[group])
            .iter()
            .filter_map(|id| self.members.get(id))
            .flatten()
            .copied()
            .collect()
    }

    pub fn direct_members(&self, group: i64) -> Vec<i64> {
        self.members
            .get(&group)
            .map(|members| members.iter().copied().collect())
            .unwrap_or_default()
    }

    pub fn direct_subgroups(&self, group: i64) -> Vec<i64> {
        self.subgroups
            .get(&group)
            .map(|subgroups| subgroups.iter().copied().collect())
            .unwrap_or_default()
    }

    pub fn is_member(&self, group: i64, user_id: i64, direct_only: bool) -> bool {
        if direct_only {
            return self
                .members
                .get(&group)
                .is_some_and(|members| members.contains(&user_id));
        }
        self.recursive_subgroups(&[group]).iter().any(|id| {
            self.members
                .get(id)
                .is_some_and(|members| members.contains(&user_id))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use zulip_api::Role;

    fn graph() -> Memberships {
        // 10 ⊃ 11 ⊃ 12; users 1 (in 12), 2 (in 10), 3 (nowhere).
        Memberships {
            members: BTreeMap::from([(10, BTreeSet::from([2])), (12, BTreeSet::from([1]))]),
            subgroups: BTreeMap::from([(10, BTreeSet::from([11])), (11, BTreeSet::from([12]))]),
            active: BTreeMap::from([(1, Role::Member), (2, Role::Member), (3, Role::Member)]),
        }
    }

    #[test]
    fn membership_reaches_through_nested_subgroups_unless_direct_only() {
        let graph = graph();
        assert_eq!(graph.recursive_members(10), BTreeSet::from([1, 2]));
        assert!(graph.is_member(10, 1, false));
        assert!(!graph.is_member(10, 1, true));
        assert_eq!(graph.recursive_subgroups(&[11]), BTreeSet::from([11, 12]));
    }

    #[test]
    fn a_stored_cycle_does_not_loop() {
        let mut graph = graph();
        graph.subgroups.insert(12, BTreeSet::from([10]));
        assert_eq!(
            graph.recursive_subgroups(&[10]),
            BTreeSet::from([10, 11, 12])
        );
    }

    #[test]
    fn setting_values_parse_canonicalize_and_grant() {
        let graph = graph();
        let single = SettingValue::parse(
            "s",
            &json!({"direct_members": [], "direct_subgroups": [11]}),
        );
        assert_eq!(single, Ok(SettingValue::Group(11)));
        let mixed = SettingValue::parse(
            "s",
            &json!({"direct_members": [3], "direct_subgroups": [12]}),
        )
        .unwrap();
        let graph = crate::rules::group_graph::GroupGraph::from(graph);
        assert!(graph.holds(&mixed, 3) && graph.holds(&mixed, 1) && !graph.holds(&mixed, 2));
        assert_eq!(SettingValue::from_stored(&mixed.to_stored()), mixed);
        assert!(SettingValue::parse("s", &json!("7")).is_err());
        assert!(SettingValue::parse("s", &json!({"direct_members": [1]})).is_err());
        assert_eq!(
            SettingValue::from_stored("garbage"),
            SettingValue::Group(system::NOBODY)
        );
    }

    #[test]
    fn names_follow_zulips_rules() {
        assert!(check_group_name("backend").is_ok());
        let msg = |name: &str| check_group_name(name).err().map(|e| e.msg);
        assert_eq!(msg("  "), Some("User group name can't be empty!".into()));
        assert_eq!(
            msg("role:managers"),
            Some("User group name cannot start with 'role:'.".into())
        );
        assert_eq!(
            msg("@team"),
            Some("User group name cannot start with '@'.".into())
        );
        assert_eq!(
            msg(&"x".repeat(101)),
            Some("User group name cannot exceed 100 characters.".into())
        );
    }
}
