//! The groups page: people × groups. Staged membership changes become one
//! `POST /user_groups/{id}/members` per group (its `add` and `delete` together), and
//! staged subgroup changes one `POST /user_groups/{id}/subgroups` per group, applied in
//! order with progress; who may change which cell follows the group's settings, and a
//! subgroup that would make a group contain itself is refused as Zulip refuses it.

use std::collections::BTreeMap;
use std::future::Future;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use zulip_api::Role;

use super::apply::Cancel;
use super::matrix::Matrix;
use crate::client::{ClientError, ZulipClient};

/// One staged cell of the groups page: make `user_id` a direct member of `group_id`
/// (`member`) or not; or, with `subgroup_id`, make that group a direct subgroup of it.
/// A group's members are people and groups: one change type keeps them in one staging,
/// plan, apply and journal (entries written before subgroups read as people's changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupMemberChange {
    /// The person; 0 for a subgroup change.
    #[ts(type = "number")]
    pub user_id: i64,
    #[ts(type = "number")]
    pub group_id: i64,
    pub member: bool,
    /// Set: the change is to this direct subgroup, not to a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub subgroup_id: Option<i64>,
}

impl GroupMemberChange {
    /// `user_id` in or out of `group_id`.
    pub fn person(user_id: i64, group_id: i64, member: bool) -> Self {
        Self {
            user_id,
            group_id,
            member,
            subgroup_id: None,
        }
    }

    /// `subgroup_id` in or out of `group_id`'s direct subgroups.
    pub fn subgroup(subgroup_id: i64, group_id: i64, member: bool) -> Self {
        Self {
            user_id: 0,
            group_id,
            member,
            subgroup_id: Some(subgroup_id),
        }
    }
}

/// Why a groups-page cell may not be changed; the text is shown on the disabled cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum GroupDenied {
    #[error("System groups follow roles: change the person's role instead.")]
    SystemGroup,
    #[error("Deactivated users cannot be added to or removed from groups.")]
    Deactivated,
    #[error("Guests cannot change groups.")]
    Guest,
    #[error("Only the group's managers and those who manage all groups can add members.")]
    CannotAdd,
    #[error("Only the group's managers and those who manage all groups can remove members.")]
    CannotRemove,
    #[error("This person or group is not in the organization's list.")]
    Unknown,
    #[error("A group cannot contain itself: this group is already a subgroup of that one.")]
    Cycle,
}

/// One call: a group's additions and removals of people (`POST
/// /user_groups/{id}/members`), or, when `subgroups`, of direct subgroups (`POST
/// /user_groups/{id}/subgroups`, which every server with subgroups takes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupRequest {
    #[ts(type = "number")]
    pub group_id: i64,
    #[ts(type = "number[]")]
    pub add: Vec<i64>,
    #[ts(type = "number[]")]
    pub delete: Vec<i64>,
    /// `add` and `delete` are group ids.
    #[serde(default)]
    pub subgroups: bool,
}

/// The calls to make, one per group, and the changes left out with the reason (`None`:
/// the cell already is in that state).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupPlan {
    pub requests: Vec<GroupRequest>,
    pub skipped: Vec<(GroupMemberChange, Option<GroupDenied>)>,
}

impl Matrix {
    /// Whether the user is a direct member of the group; `None` when either is unknown.
    pub fn is_direct_member(&self, user_id: i64, group_id: i64) -> Option<bool> {
        let (person, _) = self.person(user_id)?;
        let group = self.groups().get(group_id)?;
        Some(group.direct_members.binary_search(&person).is_ok())
    }

    /// Whether `subgroup_id` is a direct subgroup of the group; `None` when either is
    /// unknown.
    pub fn is_direct_subgroup(&self, subgroup_id: i64, group_id: i64) -> Option<bool> {
        self.groups().get(subgroup_id)?;
        let group = self.groups().get(group_id)?;
        Some(group.direct_subgroup_ids.contains(&subgroup_id))
    }

    /// Whether `inner` is `outer` or one of its subgroups, at any depth.
    pub fn contains_group(&self, outer: i64, inner: i64) -> bool {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![outer];
        while let Some(id) = stack.pop() {
            if id == inner {
                return true;
            }
            if seen.insert(id)
                && let Some(group) = self.groups().get(id)
            {
                stack.extend(&group.direct_subgroup_ids);
            }
        }
        false
    }

    /// Whether the account may make `subgroup_id` a direct subgroup of `group_id`
    /// (`member`) or not: the group's add or remove rule, as for people (Zulip checks
    /// `can_add_members_group`/`can_remove_members_group` for both), and no addition that
    /// would make the group contain itself (Zulip refuses those).
    pub fn may_change_subgroup(
        &self,
        subgroup_id: i64,
        group_id: i64,
        member: bool,
    ) -> Result<(), GroupDenied> {
        self.groups().get(subgroup_id).ok_or(GroupDenied::Unknown)?;
        self.group_rule(group_id, member)?;
        if member && self.contains_group(subgroup_id, group_id) {
            return Err(GroupDenied::Cycle);
        }
        Ok(())
    }

    /// Whether the account may make `user_id` a member of `group_id` (`member`) or not,
    /// at Zulip 10's rules: system groups follow roles; those who manage all groups may
    /// change any other group; others need the group's `can_manage_group` or the
    /// add/remove setting (servers before those settings let members edit groups).
    pub fn may_change_member(
        &self,
        user_id: i64,
        group_id: i64,
        member: bool,
    ) -> Result<(), GroupDenied> {
        let (_, person) = self.person(user_id).ok_or(GroupDenied::Unknown)?;
        let group = self.groups().get(group_id).ok_or(GroupDenied::Unknown)?;
        if group.is_system_group {
            return Err(GroupDenied::SystemGroup);
        }
        if !person.is_active {
            return Err(GroupDenied::Deactivated);
        }
        self.group_rule(group_id, member)
    }

    /// The rule for changing any active person's membership of the group in one
    /// direction: it depends on the group and the direction only, so the UI gets two
    /// reasons per group instead of one per cell.
    pub fn group_rule(&self, group_id: i64, member: bool) -> Result<(), GroupDenied> {
        let group = self.groups().get(group_id).ok_or(GroupDenied::Unknown)?;
        if group.is_system_group {
            return Err(GroupDenied::SystemGroup);
        }
        let viewer = self.viewer();
        if viewer.role == Role::Guest {
            return Err(GroupDenied::Guest);
        }
        if manages_all_groups(viewer.role, viewer.feature_level) {
            return Ok(());
        }
        let Some((me, _)) = self.person(viewer.user_id) else {
            return Err(GroupDenied::Unknown);
        };
        let includes = |setting: &Option<super::groups::GroupSetting>| {
            setting
                .as_ref()
                .is_some_and(|s| self.groups().setting_includes(s, viewer.user_id, me))
        };
        let specific = if member {
            &group.can_add_members
        } else {
            &group.can_remove_members
        };
        let legacy = group.can_manage.is_none() && specific.is_none();
        if legacy || includes(&group.can_manage) || includes(specific) {
            Ok(())
        } else if member {
            Err(GroupDenied::CannotAdd)
        } else {
            Err(GroupDenied::CannotRemove)
        }
    }
}

/// The feature level of the realm's `can_manage_all_groups` (Zulip 10).
const MANAGE_ALL_GROUPS_LEVEL: u32 = 299;

/// Whether the role manages every group: from [`MANAGE_ALL_GROUPS_LEVEL`], the realm's
/// `can_manage_all_groups` at its default, owners (the setting itself is not read); before
/// it, organization administrators.
fn manages_all_groups(role: Role, feature_level: u32) -> bool {
    if feature_level >= MANAGE_ALL_GROUPS_LEVEL {
        role == Role::Owner
    } else {
        role.is_org_admin()
    }
}

/// Plans staged groups-page changes: one request per group for its people and one for
/// its subgroups, groups in id order, a cell staged twice keeping its last change.
pub fn plan_group_members(matrix: &Matrix, changes: &[GroupMemberChange]) -> GroupPlan {
    // (group, is a subgroup, member id) → wanted.
    let mut last: BTreeMap<(i64, bool, i64), bool> = BTreeMap::new();
    for change in changes {
        let key = match change.subgroup_id {
            Some(subgroup) => (change.group_id, true, subgroup),
            None => (change.group_id, false, change.user_id),
        };
        last.insert(key, change.member);
    }
    let mut per_group: BTreeMap<(i64, bool), GroupRequest> = BTreeMap::new();
    let mut skipped = Vec::new();
    for ((group_id, subgroups, id), member) in last {
        let (change, current, allowed) = if subgroups {
            (
                GroupMemberChange::subgroup(id, group_id, member),
                matrix.is_direct_subgroup(id, group_id),
                matrix.may_change_subgroup(id, group_id, member),
            )
        } else {
            (
                GroupMemberChange::person(id, group_id, member),
                matrix.is_direct_member(id, group_id),
                matrix.may_change_member(id, group_id, member),
            )
        };
        if current == Some(member) {
            skipped.push((change, None));
            continue;
        }
        if let Err(denied) = allowed {
            skipped.push((change, Some(denied)));
            continue;
        }
        let request = per_group
            .entry((group_id, subgroups))
            .or_insert_with(|| GroupRequest {
                group_id,
                add: Vec::new(),
                delete: Vec::new(),
                subgroups,
            });
        if member {
            request.add.push(id);
        } else {
            request.delete.push(id);
        }
    }
    GroupPlan {
        requests: per_group.into_values().collect(),
        skipped,
    }
}

/// The call the groups applier makes; [`ZulipClient`] is the real one.
pub trait GroupMembersApi {
    fn update_members(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> impl Future<Output = Result<(), ClientError>> + Send;

    fn update_subgroups(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> impl Future<Output = Result<(), ClientError>> + Send;
}

impl GroupMembersApi for ZulipClient {
    async fn update_members(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        self.update_user_group_members(group_id, add, delete).await
    }

    async fn update_subgroups(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        self.update_user_group_subgroups(group_id, add, delete)
            .await
    }
}

/// What happened to one staged cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupCellResult {
    pub change: GroupMemberChange,
    /// The server's message when the group's request failed; `null`: done.
    pub error: Option<String>,
}

/// The outcome of applying a groups plan.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GroupApplyReport {
    pub requests_total: usize,
    pub requests_sent: usize,
    /// Per cell; a cell whose request was not sent (the apply was cancelled) says so in
    /// its `error`.
    pub cells: Vec<GroupCellResult>,
}

/// A cell's message when the apply was cancelled before its group's request.
pub const NOT_SENT: &str = "Not sent: the apply was cancelled.";

impl GroupApplyReport {
    /// The changes that undo this apply: every cell it changed, reversed.
    pub fn reverse(&self) -> Vec<GroupMemberChange> {
        reverse_group_cells(&self.cells)
    }

    pub fn failed_count(&self) -> usize {
        self.cells
            .iter()
            .filter(|cell| cell.error.is_some())
            .count()
    }

    /// Whether the apply stopped before its last request.
    pub fn cancelled(&self) -> bool {
        self.requests_sent < self.requests_total
    }
}

/// The changes that undo the cells an apply changed.
pub fn reverse_group_cells(cells: &[GroupCellResult]) -> Vec<GroupMemberChange> {
    cells
        .iter()
        .filter(|cell| cell.error.is_none())
        .map(|cell| GroupMemberChange {
            member: !cell.change.member,
            ..cell.change
        })
        .collect()
}

/// Sends the plan's requests in order, reporting `(done, total)` after each; once
/// `cancel` is set, the rest are not sent (their cells say so).
pub async fn apply_group_members<A: GroupMembersApi>(
    api: &A,
    plan: &GroupPlan,
    cancel: &Cancel,
    mut on_progress: impl FnMut(usize, usize),
) -> GroupApplyReport {
    let total = plan.requests.len();
    let mut report = GroupApplyReport {
        requests_total: total,
        ..GroupApplyReport::default()
    };
    for (done, request) in plan.requests.iter().enumerate() {
        let error = if cancel.is_cancelled() {
            Some(NOT_SENT.to_owned())
        } else {
            let outcome = if request.subgroups {
                api.update_subgroups(request.group_id, &request.add, &request.delete)
                    .await
            } else {
                api.update_members(request.group_id, &request.add, &request.delete)
                    .await
            };
            report.requests_sent += 1;
            on_progress(done + 1, total);
            outcome.err().map(|error| error.to_string())
        };
        let cells = request
            .add
            .iter()
            .map(|id| (*id, true))
            .chain(request.delete.iter().map(|id| (*id, false)));
        for (id, member) in cells {
            let change = if request.subgroups {
                GroupMemberChange::subgroup(id, request.group_id, member)
            } else {
                GroupMemberChange::person(id, request.group_id, member)
            };
            report.cells.push(GroupCellResult {
                change,
                error: error.clone(),
            });
        }
    }
    report
}
