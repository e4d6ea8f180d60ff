use super::*;

fn viewer(role: Role, feature_level: u32) -> Viewer {
    Viewer {
        user_id: 1,
        role,
        feature_level,
        can_subscribe_others: role != Role::Guest,
    }
}

const LEVEL: u32 = 362;
const NONE: Grants = Grants {
    subscribed: false,
    administer: false,
    add_subscribers: false,
    remove_subscribers: false,
    subscribe: false,
};
const REMOVE: Grants = Grants {
    remove_subscribers: true,
    ..NONE
};
const ADMINISTER: Grants = Grants {
    administer: true,
    ..NONE
};
const ADD: Grants = Grants {
    add_subscribers: true,
    ..NONE
};
const JOIN: Grants = Grants {
    subscribe: true,
    ..NONE
};

/// The rule without any channel setting naming the account.
fn plain(
    v: &Viewer,
    person: PersonClass,
    channel: ChannelClass,
    action: Action,
) -> Result<(), Denied> {
    rule(v, person, channel, NONE, action)
}

#[test]
fn administrators_may_change_anyone_anywhere() {
    for role in [Role::Owner, Role::Administrator] {
        for level in [100, LEVEL] {
            let admin = viewer(role, level);
            for person in [PersonClass::Me, PersonClass::OwnBot, PersonClass::Other] {
                for channel in CHANNEL_CLASSES {
                    for action in ACTIONS {
                        assert_eq!(plain(&admin, person, channel, action), Ok(()));
                    }
                }
            }
        }
    }
}

#[test]
fn nobody_changes_deactivated_users() {
    for role in [Role::Owner, Role::Member, Role::Guest] {
        for action in ACTIONS {
            for grants in [NONE, REMOVE, ADMINISTER] {
                assert_eq!(
                    rule(
                        &viewer(role, LEVEL),
                        PersonClass::Deactivated,
                        ChannelClass::Public,
                        grants,
                        action
                    ),
                    Err(Denied::Deactivated)
                );
            }
        }
    }
}

#[test]
fn members_and_moderators_remove_only_themselves_without_a_group() {
    for role in [Role::Moderator, Role::Member] {
        let member = viewer(role, LEVEL);
        let unsubscribe = |person, channel| plain(&member, person, channel, Action::Unsubscribe);
        assert_eq!(unsubscribe(PersonClass::Me, ChannelClass::Public), Ok(()));
        assert_eq!(
            unsubscribe(PersonClass::Me, ChannelClass::PrivateMember),
            Ok(())
        );
        for channel in [ChannelClass::Public, ChannelClass::PrivateMember] {
            assert_eq!(
                unsubscribe(PersonClass::Other, channel),
                Err(Denied::NotInRemoveGroup)
            );
        }
        // Before the channel setting existed only administrators could.
        assert_eq!(
            plain(
                &viewer(role, 141),
                PersonClass::Other,
                ChannelClass::Public,
                Action::Unsubscribe
            ),
            Err(Denied::OnlyAdminsRemoveOthers)
        );
    }
}

#[test]
fn can_remove_subscribers_group_lets_its_members_remove_others_from_level_142() {
    let remove = |level, channel, grants| {
        rule(
            &viewer(Role::Member, level),
            PersonClass::Other,
            channel,
            grants,
            Action::Unsubscribe,
        )
    };
    for level in [142, LEVEL] {
        assert_eq!(remove(level, ChannelClass::Public, REMOVE), Ok(()));
        assert_eq!(remove(level, ChannelClass::PrivateMember, REMOVE), Ok(()));
        // Not on a private channel the account cannot reach at all.
        assert_eq!(
            remove(level, ChannelClass::PrivateOther, REMOVE),
            Err(Denied::NotInRemoveGroup)
        );
    }
    assert_eq!(
        remove(141, ChannelClass::Public, REMOVE),
        Err(Denied::OnlyAdminsRemoveOthers)
    );
    // Reaching the channel through another of its groups is enough (metadata access).
    let reach = Grants {
        subscribe: true,
        ..REMOVE
    };
    assert_eq!(remove(LEVEL, ChannelClass::PrivateOther, reach), Ok(()));
}

#[test]
fn channel_administrators_remove_others_from_level_349() {
    let remove = |level, channel| {
        rule(
            &viewer(Role::Member, level),
            PersonClass::Other,
            channel,
            ADMINISTER,
            Action::Unsubscribe,
        )
    };
    for channel in CHANNEL_CLASSES {
        assert_eq!(remove(349, channel), Ok(()));
        assert_eq!(remove(348, channel), Err(Denied::NotInRemoveGroup));
    }
}

#[test]
fn guests_in_the_remove_group_remove_others_only_where_subscribed() {
    let guest = viewer(Role::Guest, LEVEL);
    let remove = |grants| {
        rule(
            &guest,
            PersonClass::Other,
            ChannelClass::Public,
            grants,
            Action::Unsubscribe,
        )
    };
    assert_eq!(remove(REMOVE), Err(Denied::NotInRemoveGroup));
    assert_eq!(
        remove(Grants {
            subscribed: true,
            ..REMOVE
        }),
        Ok(())
    );
    // Guests are never channel administrators, whatever the groups say.
    assert_eq!(remove(ADMINISTER), Err(Denied::NotInRemoveGroup));
}

#[test]
fn members_subscribe_others_to_streams_they_can_access() {
    let member = viewer(Role::Member, LEVEL);
    let subscribe = |person, channel| plain(&member, person, channel, Action::Subscribe);
    assert_eq!(subscribe(PersonClass::Other, ChannelClass::Public), Ok(()));
    assert_eq!(
        subscribe(PersonClass::Other, ChannelClass::PrivateMember),
        Ok(())
    );
    assert_eq!(
        subscribe(PersonClass::Me, ChannelClass::PrivateOther),
        Err(Denied::PrivateChannelNotAccessible)
    );
}

#[test]
fn the_organizations_rule_for_adding_others_yields_to_the_channels_groups() {
    let restricted = Viewer {
        can_subscribe_others: false,
        ..viewer(Role::Member, LEVEL)
    };
    let subscribe = |person, grants| {
        rule(
            &restricted,
            person,
            ChannelClass::Public,
            grants,
            Action::Subscribe,
        )
    };
    assert_eq!(subscribe(PersonClass::Me, NONE), Ok(()));
    for person in [PersonClass::Other, PersonClass::OwnBot] {
        assert_eq!(subscribe(person, NONE), Err(Denied::CannotSubscribeOthers));
        assert_eq!(subscribe(person, ADD), Ok(()));
        assert_eq!(subscribe(person, ADMINISTER), Ok(()));
    }
    // Before level 342 no channel setting could.
    let old = Viewer {
        feature_level: 341,
        ..restricted
    };
    assert_eq!(
        rule(
            &old,
            PersonClass::Other,
            ChannelClass::Public,
            ADD,
            Action::Subscribe
        ),
        Err(Denied::CannotSubscribeOthers)
    );
}

#[test]
fn groups_open_private_channels_from_their_levels() {
    let at = |level, person, grants| {
        rule(
            &viewer(Role::Member, level),
            person,
            ChannelClass::PrivateOther,
            grants,
            Action::Subscribe,
        )
    };
    // can_add_subscribers_group: yourself or others, from 349.
    for person in [PersonClass::Me, PersonClass::Other] {
        assert_eq!(at(349, person, ADD), Ok(()));
        assert_eq!(
            at(348, person, ADD),
            Err(Denied::PrivateChannelNotAccessible)
        );
    }
    // can_subscribe_group: from 357 (others too, by the organization's rule).
    assert_eq!(at(357, PersonClass::Me, JOIN), Ok(()));
    assert_eq!(at(357, PersonClass::Other, JOIN), Ok(()));
    assert_eq!(
        at(356, PersonClass::Me, JOIN),
        Err(Denied::PrivateChannelNotAccessible)
    );
    // Administering a channel does not open it.
    assert_eq!(
        at(LEVEL, PersonClass::Me, ADMINISTER),
        Err(Denied::PrivateChannelNotAccessible)
    );
    // Guests never.
    assert_eq!(
        rule(
            &viewer(Role::Guest, LEVEL),
            PersonClass::Me,
            ChannelClass::PrivateOther,
            JOIN,
            Action::Subscribe
        ),
        Err(Denied::GuestsCannotSubscribe)
    );
}

#[test]
fn bot_owners_remove_their_bots_from_level_145() {
    let before = viewer(Role::Member, 144);
    let from = viewer(Role::Member, 145);
    assert_eq!(
        plain(
            &before,
            PersonClass::OwnBot,
            ChannelClass::Public,
            Action::Unsubscribe
        ),
        Err(Denied::BotOwnersNeedLevel145)
    );
    // ...unless the channel's group lets them remove anyone.
    assert_eq!(
        rule(
            &before,
            PersonClass::OwnBot,
            ChannelClass::Public,
            REMOVE,
            Action::Unsubscribe
        ),
        Ok(())
    );
    for channel in [ChannelClass::Public, ChannelClass::PrivateMember] {
        assert_eq!(
            plain(&from, PersonClass::OwnBot, channel, Action::Unsubscribe),
            Ok(())
        );
    }
    assert_eq!(
        plain(
            &from,
            PersonClass::OwnBot,
            ChannelClass::PrivateOther,
            Action::Unsubscribe
        ),
        Err(Denied::PrivateChannelNotAccessible)
    );
}

#[test]
fn guests_subscribe_nobody_but_may_leave() {
    let guest = viewer(Role::Guest, LEVEL);
    assert_eq!(
        plain(
            &guest,
            PersonClass::Me,
            ChannelClass::Public,
            Action::Subscribe
        ),
        Err(Denied::GuestsCannotSubscribe)
    );
    assert_eq!(
        plain(
            &guest,
            PersonClass::Me,
            ChannelClass::PrivateMember,
            Action::Unsubscribe
        ),
        Ok(())
    );
    assert_eq!(
        plain(
            &guest,
            PersonClass::Other,
            ChannelClass::Public,
            Action::Unsubscribe
        ),
        Err(Denied::NotInRemoveGroup)
    );
}
