//! Who may change which cell, under Zulip's rules and the server's feature level (see
//! `docs/zulip-compatibility.md`). A cell's rule depends only on the class of its row,
//! the class of its column and the direction of the change, so the whole rule set is a
//! small table the UI can index without copying the rules (the shell's `PermissionTable`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use zulip_api::Role;

/// From this feature level a bot's owner may remove the bot from streams they can access.
pub const FEATURE_LEVEL_BOT_OWNERS_REMOVE_BOTS: u32 = 145;

/// The signed-in account, as the rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Viewer {
    pub user_id: i64,
    pub role: Role,
    pub feature_level: u32,
}

/// Subscribe or unsubscribe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Subscribe,
    Unsubscribe,
}

impl Action {
    pub fn reverse(self) -> Self {
        match self {
            Self::Subscribe => Self::Unsubscribe,
            Self::Unsubscribe => Self::Subscribe,
        }
    }
}

/// A row, relative to the viewer (the grid's `kind` of a person in the UI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PersonClass {
    Me,
    /// A bot whose owner is the viewer.
    OwnBot,
    Other,
    Deactivated,
}

/// A column, relative to the viewer (the grid's `kind` of a stream in the UI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChannelClass {
    Public,
    /// Private, and the viewer is subscribed.
    PrivateMember,
    /// Private, and the viewer is not subscribed (only administrators see these).
    PrivateOther,
}

/// Why a cell may not be changed; [`Denied::reason`] is the text shown on hover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum Denied {
    #[error("Deactivated users cannot be subscribed or unsubscribed.")]
    Deactivated,
    #[error("Guests cannot subscribe anyone to channels.")]
    GuestsCannotSubscribe,
    #[error("Only organization administrators can remove other people from channels.")]
    OnlyAdminsRemoveOthers,
    #[error(
        "This server lets bot owners remove their bots from channels only from feature \
         level 145 (Zulip 7.0); ask an organization administrator."
    )]
    BotOwnersNeedLevel145,
    #[error(
        "Only subscribers and organization administrators can add people to this private channel."
    )]
    PrivateChannelNotAccessible,
    #[error("This person is not in the organization's list.")]
    UnknownPerson,
    #[error("This channel is not in the organization's list.")]
    UnknownStream,
}

impl Denied {
    pub fn reason(self) -> String {
        self.to_string()
    }
}

/// The rule for one cell class and direction.
pub fn rule(
    viewer: &Viewer,
    person: PersonClass,
    channel: ChannelClass,
    action: Action,
) -> Result<(), Denied> {
    if person == PersonClass::Deactivated {
        return Err(Denied::Deactivated);
    }
    let admin = viewer.role.is_org_admin();
    match action {
        Action::Unsubscribe => match person {
            _ if admin => Ok(()),
            PersonClass::Me => Ok(()),
            PersonClass::OwnBot if viewer.feature_level >= FEATURE_LEVEL_BOT_OWNERS_REMOVE_BOTS => {
                if channel == ChannelClass::PrivateOther {
                    Err(Denied::PrivateChannelNotAccessible)
                } else {
                    Ok(())
                }
            }
            PersonClass::OwnBot => Err(Denied::BotOwnersNeedLevel145),
            PersonClass::Other | PersonClass::Deactivated => Err(Denied::OnlyAdminsRemoveOthers),
        },
        Action::Subscribe => {
            if viewer.role == Role::Guest {
                Err(Denied::GuestsCannotSubscribe)
            } else if admin || channel != ChannelClass::PrivateOther {
                Ok(())
            } else {
                Err(Denied::PrivateChannelNotAccessible)
            }
        }
    }
}

/// Every channel class and action, in a fixed order.
pub const CHANNEL_CLASSES: [ChannelClass; 3] = [
    ChannelClass::Public,
    ChannelClass::PrivateMember,
    ChannelClass::PrivateOther,
];
pub const ACTIONS: [Action; 2] = [Action::Subscribe, Action::Unsubscribe];

#[cfg(test)]
mod tests {
    use super::*;

    fn viewer(role: Role, feature_level: u32) -> Viewer {
        Viewer {
            user_id: 1,
            role,
            feature_level,
        }
    }

    const LEVEL: u32 = 362;

    #[test]
    fn administrators_may_change_anyone_anywhere() {
        for role in [Role::Owner, Role::Administrator] {
            let admin = viewer(role, LEVEL);
            for person in [PersonClass::Me, PersonClass::OwnBot, PersonClass::Other] {
                for channel in CHANNEL_CLASSES {
                    for action in ACTIONS {
                        assert_eq!(rule(&admin, person, channel, action), Ok(()));
                    }
                }
            }
        }
    }

    #[test]
    fn nobody_changes_deactivated_users() {
        for role in [Role::Owner, Role::Member, Role::Guest] {
            for action in ACTIONS {
                assert_eq!(
                    rule(
                        &viewer(role, LEVEL),
                        PersonClass::Deactivated,
                        ChannelClass::Public,
                        action
                    ),
                    Err(Denied::Deactivated)
                );
            }
        }
    }

    #[test]
    fn members_and_moderators_remove_only_themselves() {
        for role in [Role::Moderator, Role::Member] {
            let member = viewer(role, LEVEL);
            let unsubscribe = |person, channel| rule(&member, person, channel, Action::Unsubscribe);
            assert_eq!(unsubscribe(PersonClass::Me, ChannelClass::Public), Ok(()));
            assert_eq!(
                unsubscribe(PersonClass::Me, ChannelClass::PrivateMember),
                Ok(())
            );
            assert_eq!(
                unsubscribe(PersonClass::Other, ChannelClass::Public),
                Err(Denied::OnlyAdminsRemoveOthers)
            );
            assert_eq!(
                unsubscribe(PersonClass::Other, ChannelClass::PrivateMember),
                Err(Denied::OnlyAdminsRemoveOthers)
            );
        }
    }

    #[test]
    fn members_subscribe_others_to_streams_they_can_access() {
        let member = viewer(Role::Member, LEVEL);
        let subscribe = |person, channel| rule(&member, person, channel, Action::Subscribe);
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
    fn bot_owners_remove_their_bots_from_level_145() {
        let before = viewer(Role::Member, 144);
        let from = viewer(Role::Member, 145);
        assert_eq!(
            rule(
                &before,
                PersonClass::OwnBot,
                ChannelClass::Public,
                Action::Unsubscribe
            ),
            Err(Denied::BotOwnersNeedLevel145)
        );
        for channel in [ChannelClass::Public, ChannelClass::PrivateMember] {
            assert_eq!(
                rule(&from, PersonClass::OwnBot, channel, Action::Unsubscribe),
                Ok(())
            );
        }
        assert_eq!(
            rule(
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
            rule(
                &guest,
                PersonClass::Me,
                ChannelClass::Public,
                Action::Subscribe
            ),
            Err(Denied::GuestsCannotSubscribe)
        );
        assert_eq!(
            rule(
                &guest,
                PersonClass::Me,
                ChannelClass::PrivateMember,
                Action::Unsubscribe
            ),
            Ok(())
        );
        assert_eq!(
            rule(
                &guest,
                PersonClass::Other,
                ChannelClass::Public,
                Action::Unsubscribe
            ),
            Err(Denied::OnlyAdminsRemoveOthers)
        );
    }
}
