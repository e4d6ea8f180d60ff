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
        ..Default::default()
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
    assert_eq!(matrix.may_toggle(2, 10), Err(Denied::NotInRemoveGroup));
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
    assert_eq!(matrix.may_toggle(2, 10), Err(Denied::NotInRemoveGroup));
}

#[test]
fn the_viewer_must_be_in_the_snapshot() {
    let result = Matrix::build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 42,
        users: vec![user(1, "A", Role::Member)],
        streams: Vec::new(),
        ..Default::default()
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
        ..Default::default()
    });
    assert_eq!(matrix.people().len(), 1);
    assert_eq!(matrix.channels().len(), 1);
    assert_eq!(matrix.channels()[0].subscribers, [0]);
}

/// Viewer 1 is a member of `platform` (20) through its subgroup `backend` (21), which
/// channel 10 names as who can remove subscribers; 13 lets `platform` join (private, 1
/// not in it), 14 names 1 directly as its administrator, 15 is private with no group.
fn grouped(level: u32, role: Role) -> Matrix {
    use super::super::ChannelSettings;
    use super::super::GroupSetting::{Anonymous, Named};
    use super::groups::group;
    let with = |mut s: super::super::SnapshotStream, settings: ChannelSettings| {
        s.settings = settings;
        s
    };
    build(Snapshot {
        feature_level: level,
        me: 1,
        users: vec![
            user(1, "Viewer", role),
            user(2, "Other", Role::Member),
            user(3, "Third", Role::Member),
        ],
        streams: vec![
            with(
                stream(10, "platform-only", false, &[2, 3]),
                ChannelSettings {
                    can_remove_subscribers_group: Some(Named(20)),
                    ..ChannelSettings::default()
                },
            ),
            stream(11, "elsewhere", false, &[2, 3]),
            with(
                stream(13, "joinable", true, &[2]),
                ChannelSettings {
                    can_subscribe_group: Some(Named(20)),
                    ..ChannelSettings::default()
                },
            ),
            with(
                stream(14, "administered", false, &[3]),
                ChannelSettings {
                    can_administer_channel_group: Some(Anonymous {
                        direct_members: vec![1],
                        direct_subgroups: vec![],
                    }),
                    ..ChannelSettings::default()
                },
            ),
            stream(15, "hidden", true, &[2]),
        ],
        groups: vec![
            group(20, "platform", &[3], &[21]),
            group(21, "backend", &[1], &[]),
        ],
        ..Default::default()
    })
}

#[test]
fn a_channels_groups_decide_who_may_remove_others_there() {
    let matrix = grouped(DEFAULT_FEATURE_LEVEL, Role::Member);
    // In can_remove_subscribers_group of 10 through a subgroup: may uncheck Other there.
    assert_eq!(matrix.may_toggle(2, 10), Ok(Action::Unsubscribe));
    assert_eq!(matrix.may_toggle(2, 11), Err(Denied::NotInRemoveGroup));
    // An administrator of 14 (named directly in an anonymous group) removes others.
    assert_eq!(matrix.may_toggle(3, 14), Ok(Action::Unsubscribe));
    // Before the settings existed (or decided), the old rules.
    let old = grouped(141, Role::Member);
    assert_eq!(old.may_toggle(2, 10), Err(Denied::OnlyAdminsRemoveOthers));
    let before_admins = grouped(348, Role::Member);
    assert_eq!(
        before_admins.may_toggle(3, 14),
        Err(Denied::NotInRemoveGroup)
    );
    assert_eq!(before_admins.may_toggle(2, 10), Ok(Action::Unsubscribe));
}

#[test]
fn a_private_channel_the_groups_open_is_shown_and_may_be_joined() {
    let matrix = grouped(DEFAULT_FEATURE_LEVEL, Role::Member);
    let names: Vec<&str> = matrix.channels().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["platform-only", "elsewhere", "joinable", "administered"]
    );
    assert_eq!(matrix.may_toggle(1, 13), Ok(Action::Subscribe));
    // The others there stay out of reach: the group lets people join, not remove.
    assert_eq!(matrix.may_toggle(2, 13), Err(Denied::NotInRemoveGroup));
    // Before can_subscribe_group decided, the channel is shown but stays closed.
    let before = grouped(356, Role::Member);
    assert_eq!(
        before.may_toggle(1, 13),
        Err(Denied::PrivateChannelNotAccessible)
    );
    // A guest is never in these groups.
    let guest = grouped(DEFAULT_FEATURE_LEVEL, Role::Guest);
    assert_eq!(guest.may_toggle(3, 14), Err(Denied::NotInRemoveGroup));
}

#[test]
fn groups_given_after_the_build_decide_too() {
    let plain = build(Snapshot {
        feature_level: DEFAULT_FEATURE_LEVEL,
        me: 1,
        users: vec![
            user(1, "Viewer", Role::Member),
            user(2, "Other", Role::Member),
        ],
        streams: vec![{
            let mut s = stream(10, "platform-only", false, &[2]);
            s.settings.can_remove_subscribers_group = Some(super::super::GroupSetting::Named(20));
            s
        }],
        ..Default::default()
    });
    assert_eq!(plain.may_toggle(2, 10), Err(Denied::NotInRemoveGroup));
    let grouped = plain.with_groups(vec![super::groups::group(20, "platform", &[1], &[])]);
    assert_eq!(grouped.may_toggle(2, 10), Ok(Action::Unsubscribe));
}

#[test]
fn removals_as_channel_administrator_are_not_mixed_with_the_remove_groups() {
    use super::super::{Limits, plan};
    use super::unsubscribe;
    let matrix = grouped(DEFAULT_FEATURE_LEVEL, Role::Member);
    // Third is in 10 (the remove group names the viewer) and 14 (the viewer administers
    // it): Zulip refuses one request naming both, so they are two.
    let planned = plan(
        &matrix,
        &[unsubscribe(3, 10), unsubscribe(3, 14)],
        &Limits::default(),
    );
    assert!(planned.skipped.is_empty(), "{:?}", planned.skipped);
    let streams: Vec<Vec<i64>> = planned
        .requests
        .iter()
        .map(|r| r.streams.iter().map(|s| s.stream_id).collect())
        .collect();
    assert_eq!(streams, [vec![10], vec![14]]);
    // An organization administrator's removals share one request.
    let admin = grouped(DEFAULT_FEATURE_LEVEL, Role::Administrator);
    let planned = plan(
        &admin,
        &[unsubscribe(3, 10), unsubscribe(3, 14)],
        &Limits::default(),
    );
    assert_eq!(planned.requests.len(), 1);
}
