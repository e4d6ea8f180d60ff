//! Groups on the grid: expansion, tri-state, group rows, sync and copy, and how many
//! requests the planner makes of them.

use zulip_api::{DEFAULT_FEATURE_LEVEL, Role, User};

use super::super::{Change, Limits, Matrix, Snapshot, SyncKeep, TriState, plan};
use super::{bot, build, stream, subscribe, unsubscribe, user};
use crate::client::UserGroup;

pub(super) fn group(id: i64, name: &str, members: &[i64], subgroups: &[i64]) -> UserGroup {
    UserGroup {
        id,
        name: name.to_string(),
        description: String::new(),
        members: members.to_vec(),
        direct_subgroup_ids: subgroups.to_vec(),
        is_system_group: false,
        deactivated: false,
        can_manage_group: None,
        can_add_members_group: None,
        can_remove_members_group: None,
    }
}

/// Viewer 1 (`role`); people 2..=6 members; 7 an administrator; 8 a bot of 2; 9
/// deactivated. Streams: 101 (2, 3, 7, 8 subscribed), 102 (2), 103 (none), 104 private
/// (1, 2). Groups: 10 = {2, 3} with subgroup 11 = {4}; 12 = {5, 6, 9}; 13 ⊂ 14 ⊂ 13.
fn org(role: Role) -> Matrix {
    let mut users: Vec<User> = (1..=6)
        .map(|id| {
            user(
                id,
                &format!("P{id}"),
                if id == 1 { role } else { Role::Member },
            )
        })
        .collect();
    users.push(user(7, "Admin", Role::Administrator));
    users.push(bot(8, 2));
    users.push(User {
        is_active: false,
        ..user(9, "Gone", Role::Member)
    });
    build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 1,
        users,
        streams: vec![
            stream(101, "general", false, &[2, 3, 7, 8]),
            stream(102, "design", false, &[2]),
            stream(103, "sales", false, &[]),
            stream(104, "secret", true, &[1, 2]),
        ],
        ..Default::default()
    })
    .with_groups(vec![
        group(10, "team", &[2, 3], &[11]),
        group(11, "sub", &[4], &[]),
        group(12, "ops", &[5, 6, 9, 999], &[]),
        group(13, "a", &[5], &[14]),
        group(14, "b", &[6], &[13, 404]),
        UserGroup {
            deactivated: true,
            ..group(15, "old", &[2], &[])
        },
    ])
}

fn user_ids(matrix: &Matrix, group_id: i64) -> Vec<i64> {
    let Some(group) = matrix.groups().get(group_id) else {
        panic!("no group {group_id}");
    };
    group
        .members
        .iter()
        .filter_map(|p| matrix.people().get(*p as usize))
        .map(|p| p.user_id)
        .collect()
}

fn sorted(mut changes: Vec<Change>) -> Vec<Change> {
    changes.sort();
    changes
}

#[test]
fn subgroups_are_expanded_cycles_and_unknown_ids_ignored() {
    let matrix = org(Role::Administrator);
    assert_eq!(user_ids(&matrix, 10), vec![2, 3, 4]);
    assert_eq!(user_ids(&matrix, 11), vec![4]);
    assert_eq!(user_ids(&matrix, 12), vec![5, 6, 9]);
    assert_eq!(user_ids(&matrix, 13), vec![5, 6]);
    assert_eq!(user_ids(&matrix, 14), vec![5, 6]);
    assert!(
        matrix.groups().get(15).is_none(),
        "deactivated groups are left out"
    );
    let direct: Vec<u32> = matrix
        .groups()
        .get(10)
        .map(|g| g.direct_members.clone())
        .unwrap_or_default();
    assert_eq!(direct.len(), 2, "direct members exclude the subgroup's");
}

#[test]
fn tri_state_counts_active_members() {
    let matrix = org(Role::Administrator);
    assert_eq!(matrix.group_state(10, 101), Ok(TriState::Some));
    assert_eq!(matrix.group_state(11, 101), Ok(TriState::None));
    assert_eq!(matrix.group_state(10, 103), Ok(TriState::None));
    let pair = matrix.with_groups(vec![group(20, "pair", &[2, 3, 9], &[])]);
    assert_eq!(
        pair.group_state(20, 101),
        Ok(TriState::All),
        "9 is deactivated"
    );
    assert!(pair.group_state(99, 101).is_err());
    assert!(pair.group_state(20, 999).is_err());
}

#[test]
fn a_group_row_on_three_channels_is_one_request() {
    let matrix = org(Role::Administrator);
    let changes = matrix
        .group_changes(12, &[101, 102, 103], true)
        .unwrap_or_default();
    // 5 and 6 on three channels; 9 is deactivated and left out.
    assert_eq!(changes.len(), 6);
    let planned = plan(&matrix, &changes, &Limits::default());
    assert_eq!(planned.requests.len(), 1);
    assert_eq!(planned.cell_count(), 6);
    assert!(planned.skipped.is_empty());
}

#[test]
fn a_group_row_stages_only_what_differs_and_is_allowed() {
    let member = org(Role::Member);
    // A member may not remove others: only their own... 1 is not in group 10.
    assert_eq!(member.group_changes(10, &[101], false), Ok(vec![]));
    // Subscribing others to a public channel is allowed; 2 and 3 already are.
    assert_eq!(
        sorted(member.group_changes(10, &[101], true).unwrap_or_default()),
        vec![subscribe(4, 101)]
    );
    let admin = org(Role::Administrator);
    assert_eq!(
        sorted(admin.group_changes(10, &[101], false).unwrap_or_default()),
        vec![unsubscribe(2, 101), unsubscribe(3, 101)]
    );
}

#[test]
fn sync_stages_exactly_the_difference_in_at_most_two_requests() {
    let matrix = org(Role::Administrator);
    let changes = sorted(
        matrix
            .sync_changes(101, 10, SyncKeep::default())
            .unwrap_or_default(),
    );
    assert_eq!(
        changes,
        vec![subscribe(4, 101), unsubscribe(7, 101), unsubscribe(8, 101)]
    );
    let planned = plan(&matrix, &changes, &Limits::default());
    assert_eq!(planned.requests.len(), 2);
    assert_eq!(planned.cell_count(), changes.len());
}

#[test]
fn sync_keeps_bots_admins_or_everyone_when_asked() {
    let matrix = org(Role::Administrator);
    let keep = |keep| sorted(matrix.sync_changes(101, 10, keep).unwrap_or_default());
    let bots = SyncKeep {
        bots: true,
        ..SyncKeep::default()
    };
    assert_eq!(keep(bots), vec![subscribe(4, 101), unsubscribe(7, 101)]);
    let admins = SyncKeep {
        admins: true,
        ..SyncKeep::default()
    };
    assert_eq!(keep(admins), vec![subscribe(4, 101), unsubscribe(8, 101)]);
    let others = SyncKeep {
        others: true,
        ..SyncKeep::default()
    };
    assert_eq!(keep(others), vec![subscribe(4, 101)]);
    assert!(matrix.sync_changes(101, 99, SyncKeep::default()).is_err());
}

#[test]
fn sync_as_a_member_adds_but_cannot_remove_others() {
    let matrix = org(Role::Member);
    let changes = matrix
        .sync_changes(101, 10, SyncKeep::default())
        .unwrap_or_default();
    assert_eq!(changes, vec![subscribe(4, 101)]);
}

#[test]
fn copy_stages_the_template_channels_for_each_person() {
    let matrix = org(Role::Administrator);
    // Person 2 is in 101, 102 and private 104; 3 is in 101 already.
    let changes = sorted(matrix.copy_changes(2, &[3, 5]).unwrap_or_default());
    assert_eq!(
        changes,
        vec![
            subscribe(3, 102),
            subscribe(3, 104),
            subscribe(5, 101),
            subscribe(5, 102),
            subscribe(5, 104),
        ]
    );
    // Deactivated people cannot be subscribed; unknown people are an error.
    assert_eq!(matrix.copy_changes(2, &[9]), Ok(vec![]));
    assert!(matrix.copy_changes(2, &[999]).is_err());
    assert!(matrix.copy_changes(999, &[3]).is_err());
}

#[test]
fn all_public_channels_for_the_selected_people() {
    let matrix = org(Role::Administrator);
    let changes = sorted(matrix.public_channels_changes(&[4]).unwrap_or_default());
    assert_eq!(
        changes,
        vec![subscribe(4, 101), subscribe(4, 102), subscribe(4, 103)]
    );
    let planned = plan(&matrix, &changes, &Limits::default());
    assert_eq!(planned.requests.len(), 1);
}

#[test]
fn a_group_row_partly_subscribed_is_still_one_request() {
    let matrix = org(Role::Administrator);
    // Group 10 = {2, 3, 4}: 2 is in 101 and 102, 3 in 101; nobody in 103.
    let changes = matrix
        .group_changes(10, &[101, 102, 103], true)
        .unwrap_or_default();
    assert_eq!(changes.len(), 6);
    let planned = plan(&matrix, &changes, &Limits::default());
    assert_eq!(planned.requests.len(), 1);
    assert_eq!(planned.requests[0].padding, 3);
    assert_eq!(
        planned.cell_count(),
        6,
        "the promised count is the staged cells"
    );
}

#[test]
fn padding_never_covers_a_cell_the_account_may_not_subscribe() {
    let matrix = org(Role::Member);
    // 104 is private and the viewer (a member) is in it; 4 and 5 are not. Stage 4 on
    // 101 and 104, and 5 on 101 only: the union would subscribe 5 to 104, which is not
    // staged and not already subscribed, so two requests.
    let changes = [subscribe(4, 101), subscribe(4, 104), subscribe(5, 101)];
    let planned = plan(&matrix, &changes, &Limits::default());
    assert_eq!(planned.requests.len(), 2);
    assert!(planned.requests.iter().all(|r| r.padding == 0));
}
