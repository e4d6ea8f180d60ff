use zulip_api::{DEFAULT_FEATURE_LEVEL, Role};

use super::super::{Action, Denied, Matrix, MatrixError, Snapshot};
use super::{bot, build, stream, user};

fn org(viewer_role: Role, level: u32) -> Matrix {
    let mut deactivated = user(5, "Gone", Role::Member);
    deactivated.is_active = false;
    build(Snapshot {
        feature_level: level,
        me: 1,
        users: vec![
            user(1, "Viewer", viewer_role),
            user(2, "Other", Role::Member),
            bot(3, 1),
            bot(4, 2),
            deactivated,
        ],
        streams: vec![
            stream(10, "public", false, &[2, 3]),
            stream(11, "mine", true, &[1, 3]),
            stream(12, "secret", true, &[2]),
        ],
    })
}

#[test]
fn a_member_never_sees_private_streams_they_are_not_in() {
    let member = org(Role::Member, DEFAULT_FEATURE_LEVEL);
    let names: Vec<&str> = member.channels().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["public", "mine"]);
    let admin = org(Role::Administrator, DEFAULT_FEATURE_LEVEL);
    assert_eq!(admin.channels().len(), 3);
}

#[test]
fn subscriptions_are_looked_up_by_id() {
    let matrix = org(Role::Owner, DEFAULT_FEATURE_LEVEL);
    assert_eq!(matrix.is_subscribed(2, 10), Some(true));
    assert_eq!(matrix.is_subscribed(1, 10), Some(false));
    assert_eq!(matrix.is_subscribed(99, 10), None);
    assert_eq!(matrix.subscription_count(), 5);
    assert_eq!(
        matrix.channel_named(" PUBLIC ").map(|c| c.stream_id),
        Some(10)
    );
}

#[test]
fn cells_follow_the_rules_for_a_member() {
    let matrix = org(Role::Member, DEFAULT_FEATURE_LEVEL);
    assert_eq!(matrix.may_toggle(1, 10), Ok(Action::Subscribe));
    assert_eq!(matrix.may_toggle(1, 11), Ok(Action::Unsubscribe));
    assert_eq!(
        matrix.may_toggle(2, 10),
        Err(Denied::OnlyAdminsRemoveOthers)
    );
    assert_eq!(matrix.may_toggle(2, 11), Ok(Action::Subscribe));
    assert_eq!(matrix.may_toggle(3, 10), Ok(Action::Unsubscribe));
    assert_eq!(matrix.may_toggle(4, 10), Ok(Action::Subscribe));
    assert_eq!(matrix.may_toggle(5, 10), Err(Denied::Deactivated));
    assert_eq!(matrix.may_toggle(1, 12), Err(Denied::UnknownStream));
}

#[test]
fn own_bots_follow_the_feature_level() {
    let old = org(Role::Member, 144);
    assert_eq!(old.may_toggle(3, 10), Err(Denied::BotOwnersNeedLevel145));
    let new = org(Role::Member, 145);
    assert_eq!(new.may_toggle(3, 11), Ok(Action::Unsubscribe));
}

#[test]
fn a_guest_may_only_leave() {
    let matrix = org(Role::Guest, DEFAULT_FEATURE_LEVEL);
    assert_eq!(matrix.may_toggle(1, 11), Ok(Action::Unsubscribe));
    assert_eq!(matrix.may_toggle(1, 10), Err(Denied::GuestsCannotSubscribe));
    assert_eq!(
        matrix.may_toggle(2, 10),
        Err(Denied::OnlyAdminsRemoveOthers)
    );
}

#[test]
fn the_viewer_must_be_in_the_snapshot() {
    let result = Matrix::build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 42,
        users: vec![user(1, "A", Role::Member)],
        streams: Vec::new(),
    });
    assert!(matches!(result, Err(MatrixError::ViewerMissing(42))));
}

#[test]
fn duplicates_and_unknown_subscribers_are_ignored() {
    let matrix = build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 1,
        users: vec![user(1, "A", Role::Owner), user(1, "A again", Role::Member)],
        streams: vec![
            stream(10, "a", false, &[1, 1, 77]),
            stream(10, "a", false, &[]),
        ],
    });
    assert_eq!(matrix.people().len(), 1);
    assert_eq!(matrix.channels().len(), 1);
    assert_eq!(matrix.channels()[0].subscribers, [0]);
}
