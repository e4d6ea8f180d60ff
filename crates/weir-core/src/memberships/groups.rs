//! User groups on the memberships grid: each group's members with its subgroups expanded,
//! the tri-state of a group × channel cell, and the staged changes that a group row, a
//! sync of a channel with a group, or a copy of someone's channels stand for. Pure: the
//! planner turns these changes into the fewest requests like any other staged cells.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::matrix::Matrix;
use super::plan::Change;
use crate::client::UserGroup;

/// The most groups a grid accepts (a bound against a hostile answer).
pub const MAX_GROUPS: usize = 100_000;

/// One group as the grid holds it; member lists are indices into [`Matrix::people`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub group_id: i64,
    pub name: String,
    pub description: String,
    pub is_system_group: bool,
    /// The group's own members (what `POST /user_groups/{id}/members` edits), sorted.
    pub direct_members: Vec<u32>,
    pub direct_subgroup_ids: Vec<i64>,
    /// Direct members and every subgroup's members, recursively; sorted.
    pub members: Vec<u32>,
    /// Who may manage the group, add and remove members (`None`: the server predates
    /// the setting).
    #[serde(skip)]
    pub can_manage: Option<GroupSetting>,
    #[serde(skip)]
    pub can_add_members: Option<GroupSetting>,
    #[serde(skip)]
    pub can_remove_members: Option<GroupSetting>,
}

/// A group-setting value as Zulip sends it: a group's id, or an anonymous group of
/// users and subgroups. It crosses to the UI in the same shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum GroupSetting {
    Named(#[ts(type = "number")] i64),
    Anonymous {
        #[serde(default)]
        #[ts(type = "number[]")]
        direct_members: Vec<i64>,
        #[serde(default)]
        #[ts(type = "number[]")]
        direct_subgroups: Vec<i64>,
    },
}

impl GroupSetting {
    fn parse(value: Option<serde_json::Value>) -> Option<Self> {
        serde_json::from_value(value?).ok()
    }

    /// Reads either form, as servers send it by level (an integer only before Zulip 10,
    /// feature levels 258 for groups and 320 for channels); `None` for anything else.
    pub fn from_value(value: &serde_json::Value) -> Option<Self> {
        Self::deserialize(value).ok()
    }
}

/// The groups of one organization, by id.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    list: Vec<Group>,
    index: HashMap<i64, usize>,
}

impl Groups {
    /// Builds the groups, expanding subgroups (cycles and unknown ids are ignored: a
    /// server should prevent them, the app must not loop on them). Deactivated groups
    /// are left out; so are members the grid does not know.
    pub fn build(groups: Vec<UserGroup>, person: impl Fn(i64) -> Option<u32>) -> Self {
        let mut list: Vec<Group> = Vec::new();
        let mut index = HashMap::new();
        for group in groups.into_iter().take(MAX_GROUPS) {
            if group.deactivated || index.contains_key(&group.id) {
                continue;
            }
            let mut direct: Vec<u32> = group.members.iter().filter_map(|id| person(*id)).collect();
            direct.sort_unstable();
            direct.dedup();
            index.insert(group.id, list.len());
            list.push(Group {
                group_id: group.id,
                name: group.name,
                description: group.description,
                is_system_group: group.is_system_group,
                members: Vec::new(),
                direct_members: direct,
                direct_subgroup_ids: group.direct_subgroup_ids,
                can_manage: GroupSetting::parse(group.can_manage_group),
                can_add_members: GroupSetting::parse(group.can_add_members_group),
                can_remove_members: GroupSetting::parse(group.can_remove_members_group),
            });
        }
        let expanded: Vec<Vec<u32>> = (0..list.len())
            .map(|at| expand(&list, &index, at))
            .collect();
        for (group, members) in list.iter_mut().zip(expanded) {
            group.members = members;
        }
        Self { list, index }
    }

    pub fn list(&self) -> &[Group] {
        &self.list
    }

    pub fn get(&self, group_id: i64) -> Option<&Group> {
        self.list.get(*self.index.get(&group_id)?)
    }

    /// Whether the person (by index) is in the setting's set of users.
    pub fn setting_includes(&self, setting: &GroupSetting, user_id: i64, person: u32) -> bool {
        let in_group = |id: &i64| {
            self.get(*id)
                .is_some_and(|group| group.members.binary_search(&person).is_ok())
        };
        match setting {
            GroupSetting::Named(id) => in_group(id),
            GroupSetting::Anonymous {
                direct_members,
                direct_subgroups,
            } => direct_members.contains(&user_id) || direct_subgroups.iter().any(in_group),
        }
    }
}

/// The members of `list[at]` and of all its subgroups, visiting each group once.
fn expand(list: &[Group], index: &HashMap<i64, usize>, at: usize) -> Vec<u32> {
    let mut seen = vec![false; list.len()];
    let mut stack = vec![at];
    let mut members = Vec::new();
    while let Some(next) = stack.pop() {
        if std::mem::replace(&mut seen[next], true) {
            continue;
        }
        let Some(group) = list.get(next) else {
            continue;
        };
        members.extend_from_slice(&group.direct_members);
        stack.extend(
            group
                .direct_subgroup_ids
                .iter()
                .filter_map(|id| index.get(id).copied()),
        );
    }
    members.sort_unstable();
    members.dedup();
    members
}

/// How many of a group's members are subscribed to a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TriState {
    All,
    Some,
    None,
}

/// Who a sync of a channel with a group leaves subscribed although not in the group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncKeep {
    /// Bots stay.
    pub bots: bool,
    /// Organization owners and administrators stay.
    pub admins: bool,
    /// Everyone stays: the sync only adds the group's missing members.
    pub others: bool,
}

/// Why a group operation cannot be planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GroupError {
    #[error("no user group with id {0}")]
    UnknownGroup(i64),
    #[error("no channel with id {0}")]
    UnknownStream(i64),
    #[error("no person with id {0}")]
    UnknownPerson(i64),
}

impl Matrix {
    /// Tri-state of a group row's cell, over the group's active members (deactivated
    /// people cannot be subscribed). A group without active members is `None`.
    pub fn group_state(&self, group_id: i64, stream_id: i64) -> Result<TriState, GroupError> {
        let group = self
            .groups()
            .get(group_id)
            .ok_or(GroupError::UnknownGroup(group_id))?;
        let (channel, _) = self
            .channel(stream_id)
            .ok_or(GroupError::UnknownStream(stream_id))?;
        let (mut active, mut subscribed) = (0usize, 0usize);
        for &person in &group.members {
            if self
                .people()
                .get(person as usize)
                .is_some_and(|p| p.is_active)
            {
                active += 1;
                if self.is_subscribed_at(person, channel) {
                    subscribed += 1;
                }
            }
        }
        Ok(match subscribed {
            0 => TriState::None,
            n if n == active => TriState::All,
            _ => TriState::Some,
        })
    }

    /// The cells a group row stages: every member × channel not already `subscribe`d
    /// (or not), that the account may change. Denied cells are left out, as the grid
    /// leaves them unstaged.
    pub fn group_changes(
        &self,
        group_id: i64,
        stream_ids: &[i64],
        subscribe: bool,
    ) -> Result<Vec<Change>, GroupError> {
        let group = self
            .groups()
            .get(group_id)
            .ok_or(GroupError::UnknownGroup(group_id))?;
        let mut changes = Vec::new();
        for &stream_id in stream_ids {
            self.channel(stream_id)
                .ok_or(GroupError::UnknownStream(stream_id))?;
            for &person in &group.members {
                let Some(user_id) = self.people().get(person as usize).map(|p| p.user_id) else {
                    continue;
                };
                self.push_if_allowed(&mut changes, user_id, stream_id, subscribe);
            }
        }
        Ok(changes)
    }

    /// The changes that make a channel's subscribers the group's members: the missing
    /// members added, everyone else removed unless `keep` keeps them. Cells the account
    /// may not change are left out.
    pub fn sync_changes(
        &self,
        stream_id: i64,
        group_id: i64,
        keep: SyncKeep,
    ) -> Result<Vec<Change>, GroupError> {
        let group = self
            .groups()
            .get(group_id)
            .ok_or(GroupError::UnknownGroup(group_id))?;
        let (_, channel) = self
            .channel(stream_id)
            .ok_or(GroupError::UnknownStream(stream_id))?;
        let mut changes = Vec::new();
        if !keep.others {
            for &person in &channel.subscribers {
                if group.members.binary_search(&person).is_ok() {
                    continue;
                }
                let Some(p) = self.people().get(person as usize) else {
                    continue;
                };
                if (keep.bots && p.is_bot) || (keep.admins && p.role.is_org_admin()) {
                    continue;
                }
                self.push_if_allowed(&mut changes, p.user_id, stream_id, false);
            }
        }
        for &person in &group.members {
            if let Some(p) = self.people().get(person as usize) {
                self.push_if_allowed(&mut changes, p.user_id, stream_id, true);
            }
        }
        Ok(changes)
    }

    /// The changes that subscribe each of `to` to every channel `from` is subscribed to
    /// (a template person for new hires). Nobody is removed from anything.
    pub fn copy_changes(&self, from: i64, to: &[i64]) -> Result<Vec<Change>, GroupError> {
        let (template, _) = self.person(from).ok_or(GroupError::UnknownPerson(from))?;
        let streams: Vec<i64> = self
            .channels()
            .iter()
            .filter(|channel| channel.subscribers.binary_search(&template).is_ok())
            .map(|channel| channel.stream_id)
            .collect();
        self.subscribe_all(to, &streams)
    }

    /// The changes that subscribe each of `to` to every public channel.
    pub fn public_channels_changes(&self, to: &[i64]) -> Result<Vec<Change>, GroupError> {
        let streams: Vec<i64> = self
            .channels()
            .iter()
            .filter(|channel| !channel.invite_only)
            .map(|channel| channel.stream_id)
            .collect();
        self.subscribe_all(to, &streams)
    }

    fn subscribe_all(&self, to: &[i64], streams: &[i64]) -> Result<Vec<Change>, GroupError> {
        let mut changes = Vec::new();
        for &user_id in to {
            self.person(user_id)
                .ok_or(GroupError::UnknownPerson(user_id))?;
            for &stream_id in streams {
                self.push_if_allowed(&mut changes, user_id, stream_id, true);
            }
        }
        Ok(changes)
    }

    /// Adds the change when the cell is not already in that state and may be changed.
    fn push_if_allowed(
        &self,
        changes: &mut Vec<Change>,
        user_id: i64,
        stream_id: i64,
        subscribe: bool,
    ) {
        if self.is_subscribed(user_id, stream_id) == Some(!subscribe)
            && self.may_toggle(user_id, stream_id).is_ok()
        {
            changes.push(Change {
                user_id,
                stream_id,
                subscribe,
            });
        }
    }
}
