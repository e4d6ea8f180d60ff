use std::collections::BTreeSet;

use zulip_api::{DEFAULT_FEATURE_LEVEL, Role};

use super::super::{Action, Denied, Limits, SkipReason, plan};
use super::{organization, subscribe, unsubscribe};
use crate::memberships::Plan;

fn cells(plan: &Plan) -> BTreeSet<(i64, i64, bool)> {
    plan.requests
        .iter()
        .flat_map(|request| request.changes())
        .map(|change| (change.user_id, change.stream_id, change.subscribe))
        .collect()
}

#[test]
fn removing_13_people_from_the_same_12_streams_is_one_request() {
    let matrix = organization(Role::Administrator, 20, 15, true, DEFAULT_FEATURE_LEVEL);
    let changes: Vec<_> = (2..=14)
        .flat_map(|user| (101..=112).map(move |stream| unsubscribe(user, stream)))
        .collect();
    let plan = plan(&matrix, &changes, &Limits::default());
    assert_eq!(plan.requests.len(), 1);
    let request = &plan.requests[0];
    assert_eq!(request.action, Action::Unsubscribe);
    assert_eq!(request.streams.len(), 12);
    assert_eq!(request.people.len(), 13);
    assert!(!request.principals_as_emails);
    assert!(plan.skipped.is_empty());
}

#[test]
fn streams_sharing_a_set_of_people_share_a_request() {
    let matrix = organization(Role::Administrator, 5, 4, true, DEFAULT_FEATURE_LEVEL);
    // Streams 101 and 102 lose people 2 and 3; stream 103 loses person 2 only.
    let changes = [
        unsubscribe(2, 101),
        unsubscribe(3, 101),
        unsubscribe(2, 102),
        unsubscribe(3, 102),
        unsubscribe(2, 103),
    ];
    let plan = plan(&matrix, &changes, &Limits::default());
    assert_eq!(plan.requests.len(), 2);
    assert_eq!(
        cells(&plan),
        changes
            .iter()
            .map(|c| (c.user_id, c.stream_id, false))
            .collect()
    );
}

#[test]
fn people_sharing_a_set_of_streams_share_a_request_when_that_is_fewer() {
    let matrix = organization(Role::Administrator, 5, 4, false, DEFAULT_FEATURE_LEVEL);
    // By stream this is three sets ({2}, {3}, {2, 3}); by person two ({101, 103}, {102, 103}).
    let changes = [
        subscribe(2, 101),
        subscribe(3, 102),
        subscribe(2, 103),
        subscribe(3, 103),
    ];
    let plan = plan(&matrix, &changes, &Limits::default());
    assert_eq!(plan.requests.len(), 2);
    assert!(
        plan.requests
            .iter()
            .all(|r| r.people.len() == 1 && r.streams.len() == 2)
    );
    assert_eq!(cells(&plan).len(), 4);
}

#[test]
fn removals_go_before_subscriptions_and_never_share_a_request() {
    let matrix = organization(Role::Administrator, 4, 2, false, DEFAULT_FEATURE_LEVEL);
    let plan_sub = plan(&matrix, &[subscribe(2, 101)], &Limits::default());
    assert_eq!(plan_sub.requests[0].action, Action::Subscribe);
    // A mixed grid: 101 full, 102 empty.
    let mixed = super::build(super::super::Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 1,
        users: (1..=3)
            .map(|id| super::user(id, "P", if id == 1 { Role::Owner } else { Role::Member }))
            .collect(),
        streams: vec![
            super::stream(101, "a", false, &[1, 2, 3]),
            super::stream(102, "b", false, &[]),
        ],
        ..Default::default()
    });
    let plan = plan(
        &mixed,
        &[subscribe(2, 102), unsubscribe(2, 101)],
        &Limits::default(),
    );
    let actions: Vec<Action> = plan.requests.iter().map(|r| r.action).collect();
    assert_eq!(actions, [Action::Unsubscribe, Action::Subscribe]);
}

#[test]
fn requests_over_the_server_limits_are_split() {
    let matrix = organization(Role::Administrator, 6, 3, true, DEFAULT_FEATURE_LEVEL);
    let changes: Vec<_> = (2..=6)
        .flat_map(|user| (101..=103).map(move |stream| unsubscribe(user, stream)))
        .collect();
    let limits = Limits {
        max_streams_per_request: 2,
        max_principals_per_request: 2,
    };
    let plan = plan(&matrix, &changes, &limits);
    // 3 streams → 2 chunks; 5 people → 3 chunks.
    assert_eq!(plan.requests.len(), 6);
    assert!(
        plan.requests
            .iter()
            .all(|r| r.streams.len() <= 2 && r.people.len() <= 2)
    );
    assert_eq!(cells(&plan).len(), 15);
    assert_eq!(plan.cell_count(), 15);
}

#[test]
fn principals_are_emails_below_feature_level_9() {
    for (level, emails) in [(8, true), (9, false), (DEFAULT_FEATURE_LEVEL, false)] {
        let matrix = organization(Role::Administrator, 3, 1, true, level);
        let plan = plan(&matrix, &[unsubscribe(2, 101)], &Limits::default());
        assert_eq!(
            plan.requests[0].principals_as_emails, emails,
            "level {level}"
        );
        assert_eq!(plan.requests[0].people[0].email, "user2@example.com");
    }
}

#[test]
fn no_ops_and_denied_changes_are_left_out_with_a_reason() {
    let matrix = organization(Role::Member, 3, 2, true, DEFAULT_FEATURE_LEVEL);
    let changes = [
        subscribe(2, 101),   // already subscribed
        unsubscribe(2, 102), // a member removing someone else
        unsubscribe(1, 102), // themselves: fine
        unsubscribe(9, 102), // nobody
    ];
    let plan = plan(&matrix, &changes, &Limits::default());
    assert_eq!(cells(&plan), BTreeSet::from([(1, 102, false)]));
    let reasons: Vec<_> = plan.skipped.iter().map(|s| (s.change, s.reason)).collect();
    assert!(reasons.contains(&(subscribe(2, 101), SkipReason::NoOp)));
    assert!(reasons.contains(&(
        unsubscribe(2, 102),
        SkipReason::Denied(Denied::NotInRemoveGroup)
    )));
    assert!(reasons.contains(&(
        unsubscribe(9, 102),
        SkipReason::Denied(Denied::UnknownPerson)
    )));
}

#[test]
fn a_cell_staged_twice_keeps_its_last_change() {
    let matrix = organization(Role::Administrator, 3, 1, true, DEFAULT_FEATURE_LEVEL);
    let plan = plan(
        &matrix,
        &[unsubscribe(2, 101), subscribe(2, 101)],
        &Limits::default(),
    );
    assert!(plan.requests.is_empty());
    assert_eq!(plan.skipped.len(), 1);
    assert_eq!(plan.skipped[0].reason, SkipReason::NoOp);
}

#[test]
fn an_empty_stage_plans_nothing() {
    let matrix = organization(Role::Administrator, 3, 1, true, DEFAULT_FEATURE_LEVEL);
    assert_eq!(plan(&matrix, &[], &Limits::default()), Plan::default());
}
