//! The groups page: who may change which cell, one request per group, apply and undo.

use std::sync::Mutex;

use serde_json::json;
use zulip_api::{DEFAULT_FEATURE_LEVEL, Role, User};

use super::super::{
    Cancel, GroupDenied, GroupMemberChange, GroupMembersApi, GroupRequest, Matrix, NOT_SENT,
    Snapshot, apply_group_members, plan_group_members,
};
use super::groups::group;
use super::{build, user};
use crate::client::{ClientError, UserGroup};

/// Viewer 1 (`role`), people 2..=5, 6 deactivated. Groups: 10 {2, 3} managed by group
/// 12; 11 a system group; 12 {1} (the viewer's team); 13 {4} where only user 5 may add
/// members; 14 from an old server (no settings).
pub(super) fn org(role: Role) -> Matrix {
    org_at(role, DEFAULT_FEATURE_LEVEL)
}

fn org_at(role: Role, feature_level: u32) -> Matrix {
    let mut users: Vec<User> = (1..=5)
        .map(|id| {
            user(
                id,
                &format!("P{id}"),
                if id == 1 { role } else { Role::Member },
            )
        })
        .collect();
    users.push(User {
        is_active: false,
        ..user(6, "Gone", Role::Member)
    });
    build(Snapshot {
        feature_level,
        me: 1,
        users,
        streams: vec![],
        ..Default::default()
    })
    .with_groups(vec![
        UserGroup {
            can_manage_group: Some(json!(12)),
            ..group(10, "team", &[2, 3], &[])
        },
        UserGroup {
            is_system_group: true,
            ..group(11, "role:members", &[1, 2, 3, 4, 5], &[])
        },
        UserGroup {
            can_manage_group: Some(json!({"direct_members": [], "direct_subgroups": []})),
            ..group(12, "leads", &[1], &[])
        },
        UserGroup {
            can_manage_group: Some(json!({"direct_members": [], "direct_subgroups": []})),
            can_add_members_group: Some(json!({"direct_members": [5], "direct_subgroups": []})),
            ..group(13, "closed", &[4], &[])
        },
        group(14, "legacy", &[], &[]),
    ])
}

pub(super) fn change(user_id: i64, group_id: i64, member: bool) -> GroupMemberChange {
    GroupMemberChange::person(user_id, group_id, member)
}

#[test]
fn rules_follow_the_group_settings_and_roles() {
    let member = org(Role::Member);
    assert_eq!(
        member.may_change_member(4, 10, true),
        Ok(()),
        "a manager through group 12"
    );
    assert_eq!(member.may_change_member(2, 10, false), Ok(()));
    assert_eq!(
        member.may_change_member(2, 11, false),
        Err(GroupDenied::SystemGroup)
    );
    assert_eq!(
        member.may_change_member(6, 10, true),
        Err(GroupDenied::Deactivated)
    );
    assert_eq!(
        member.may_change_member(2, 13, true),
        Err(GroupDenied::CannotAdd)
    );
    assert_eq!(
        member.may_change_member(4, 13, false),
        Err(GroupDenied::CannotRemove)
    );
    assert_eq!(
        member.may_change_member(2, 14, true),
        Ok(()),
        "no settings: old rules"
    );
    assert_eq!(
        member.may_change_member(99, 10, true),
        Err(GroupDenied::Unknown)
    );
    // Owners manage every group (Zulip 10's `can_manage_all_groups` default);
    // administrators need the group's settings like everyone else.
    let owner = org(Role::Owner);
    assert_eq!(owner.may_change_member(2, 13, true), Ok(()));
    assert_eq!(
        owner.may_change_member(2, 11, true),
        Err(GroupDenied::SystemGroup)
    );
    let admin = org(Role::Administrator);
    assert_eq!(
        admin.may_change_member(2, 13, true),
        Err(GroupDenied::CannotAdd)
    );
    assert_eq!(
        admin.may_change_member(2, 14, true),
        Ok(()),
        "no settings: old rules"
    );
    // Before `can_manage_all_groups` (level 299), administrators managed every group.
    assert_eq!(
        org_at(Role::Administrator, 298).may_change_member(2, 13, true),
        Ok(())
    );
    assert_eq!(
        org_at(Role::Member, 298).may_change_member(2, 13, true),
        Err(GroupDenied::CannotAdd)
    );
    let guest = org(Role::Guest);
    assert_eq!(
        guest.may_change_member(2, 14, true),
        Err(GroupDenied::Guest)
    );
}

#[test]
fn one_request_per_group_with_its_additions_and_removals() {
    let matrix = org(Role::Owner);
    let changes = [
        change(4, 10, true),
        change(2, 10, false),
        change(5, 10, true),
        change(3, 10, true), // already a member
        change(2, 13, true),
        change(2, 11, false), // system group
        change(5, 13, true),
        change(5, 13, false), // staged twice: the last wins, and 5 is not a member
    ];
    let plan = plan_group_members(&matrix, &changes);
    assert_eq!(plan.requests.len(), 2);
    assert_eq!(plan.requests[0].group_id, 10);
    assert_eq!(plan.requests[0].add, vec![4, 5]);
    assert_eq!(plan.requests[0].delete, vec![2]);
    assert_eq!(plan.requests[1].group_id, 13);
    assert_eq!(plan.requests[1].add, vec![2]);
    assert!(plan.requests[1].delete.is_empty());
    assert_eq!(plan.skipped.len(), 3);
    assert!(plan.skipped.contains(&(change(3, 10, true), None)));
    assert!(
        plan.skipped
            .contains(&(change(2, 11, false), Some(GroupDenied::SystemGroup)))
    );
}

/// Groups 20 ⊃ 21 ⊃ 22 (subgroups), 23 apart, 24 a system group; the viewer (1) is the
/// owner, people 2 and 3 members.
fn nested() -> Matrix {
    let users = (1..=3)
        .map(|id| {
            user(
                id,
                &format!("P{id}"),
                if id == 1 { Role::Owner } else { Role::Member },
            )
        })
        .collect();
    build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 1,
        users,
        streams: vec![],
        ..Default::default()
    })
    .with_groups(vec![
        group(20, "outer", &[2], &[21]),
        group(21, "inner", &[], &[22]),
        group(22, "leaf", &[3], &[]),
        group(23, "apart", &[], &[]),
        UserGroup {
            is_system_group: true,
            ..group(24, "role:members", &[1, 2, 3], &[])
        },
    ])
}

#[test]
fn subgroups_are_planned_apart_from_people_and_cycles_are_refused() {
    let matrix = nested();
    let sub = GroupMemberChange::subgroup;
    let plan = plan_group_members(
        &matrix,
        &[
            change(3, 20, true),
            sub(23, 20, true),
            sub(21, 20, false),
            sub(22, 21, true), // already a subgroup
            sub(20, 22, true), // 22 is inside 20: a cycle
            sub(20, 20, true), // itself
            sub(23, 24, true), // a system group's subgroups follow roles
            sub(99, 23, true),
        ],
    );
    assert_eq!(
        plan.requests,
        vec![
            GroupRequest {
                group_id: 20,
                add: vec![3],
                delete: vec![],
                subgroups: false,
            },
            GroupRequest {
                group_id: 20,
                add: vec![23],
                delete: vec![21],
                subgroups: true,
            },
        ]
    );
    assert!(plan.skipped.contains(&(sub(22, 21, true), None)));
    assert!(
        plan.skipped
            .contains(&(sub(20, 22, true), Some(GroupDenied::Cycle)))
    );
    assert!(
        plan.skipped
            .contains(&(sub(20, 20, true), Some(GroupDenied::Cycle)))
    );
    assert!(
        plan.skipped
            .contains(&(sub(23, 24, true), Some(GroupDenied::SystemGroup)))
    );
    assert!(
        plan.skipped
            .contains(&(sub(99, 23, true), Some(GroupDenied::Unknown)))
    );
    // Removing is never a cycle; adding the other way round is one only when nested.
    assert_eq!(matrix.may_change_subgroup(22, 20, false), Ok(()));
    assert_eq!(matrix.may_change_subgroup(23, 22, true), Ok(()));
    assert_eq!(
        matrix.may_change_subgroup(21, 22, true),
        Err(GroupDenied::Cycle)
    );
}

#[tokio::test]
async fn subgroup_requests_go_to_the_subgroups_endpoint_and_undo_by_group() {
    let matrix = nested();
    let sub = GroupMemberChange::subgroup;
    let plan = plan_group_members(&matrix, &[change(3, 20, true), sub(23, 20, true)]);
    let api = FakeApi::default();
    let report = apply_group_members(&api, &plan, &Cancel::new(), |_, _| {}).await;
    assert_eq!(report.requests_sent, 2);
    let calls = api.calls.lock().map(|c| c.clone()).unwrap_or_default();
    assert_eq!(calls, vec![(20, vec![3], vec![])]);
    let subgroup_calls = api
        .subgroup_calls
        .lock()
        .map(|c| c.clone())
        .unwrap_or_default();
    assert_eq!(subgroup_calls, vec![(20, vec![23], vec![])]);
    let mut reverse = report.reverse();
    reverse.sort();
    assert_eq!(reverse, vec![sub(23, 20, false), change(3, 20, false)]);
    // The journal keeps subgroup changes apart from people's, and reads old entries.
    let json = serde_json::to_string(&reverse).unwrap_or_default();
    let read: Vec<GroupMemberChange> = serde_json::from_str(&json).unwrap_or_default();
    assert_eq!(read, reverse);
    let old: GroupMemberChange =
        serde_json::from_str(r#"{"userId":3,"groupId":20,"member":true}"#).unwrap();
    assert_eq!(old, change(3, 20, true));
}

/// One recorded call: group, add, delete.
type Call = (i64, Vec<i64>, Vec<i64>);

/// Records calls; fails group 13's.
#[derive(Default)]
struct FakeApi {
    calls: Mutex<Vec<Call>>,
    subgroup_calls: Mutex<Vec<Call>>,
}

impl GroupMembersApi for FakeApi {
    async fn update_members(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push((group_id, add.to_vec(), delete.to_vec()));
        }
        if group_id == 13 {
            Err(ClientError::Zulip {
                status: 400,
                code: "BAD_REQUEST".into(),
                msg: "Insufficient permission".into(),
                extra: serde_json::Map::new(),
            })
        } else {
            Ok(())
        }
    }

    async fn update_subgroups(
        &self,
        group_id: i64,
        add: &[i64],
        delete: &[i64],
    ) -> Result<(), ClientError> {
        if let Ok(mut calls) = self.subgroup_calls.lock() {
            calls.push((group_id, add.to_vec(), delete.to_vec()));
        }
        Ok(())
    }
}

#[tokio::test]
async fn apply_sends_the_plan_and_undo_reverses_what_succeeded() {
    let matrix = org(Role::Owner);
    let plan = plan_group_members(
        &matrix,
        &[
            change(4, 10, true),
            change(2, 10, false),
            change(2, 13, true),
        ],
    );
    let api = FakeApi::default();
    let mut progress = Vec::new();
    let report = apply_group_members(&api, &plan, &Cancel::new(), |done, total| {
        progress.push((done, total));
    })
    .await;
    assert_eq!(progress, vec![(1, 2), (2, 2)]);
    assert_eq!(report.requests_sent, 2);
    let calls = api.calls.lock().map(|c| c.clone()).unwrap_or_default();
    assert_eq!(calls, vec![(10, vec![4], vec![2]), (13, vec![2], vec![])]);
    assert!(
        report
            .cells
            .iter()
            .any(|c| c.change == change(2, 13, true) && c.error.is_some())
    );
    let mut reverse = report.reverse();
    reverse.sort();
    assert_eq!(reverse, vec![change(2, 10, true), change(4, 10, false)]);
}

#[tokio::test]
async fn a_cancelled_group_apply_sends_nothing_more_and_undoes_nothing() {
    let matrix = org(Role::Owner);
    let plan = plan_group_members(&matrix, &[change(4, 10, true), change(2, 13, true)]);
    let cancel = Cancel::new();
    cancel.cancel();
    let api = FakeApi::default();
    let report = apply_group_members(&api, &plan, &cancel, |_, _| {}).await;
    assert!(report.cancelled());
    assert_eq!(report.requests_sent, 0);
    assert!(api.calls.lock().map(|c| c.is_empty()).unwrap_or(false));
    assert!(
        report
            .cells
            .iter()
            .all(|c| c.error.as_deref() == Some(NOT_SENT))
    );
    assert!(report.reverse().is_empty());
}
