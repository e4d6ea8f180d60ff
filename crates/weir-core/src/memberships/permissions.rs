//! Who may change which cell, under Zulip's rules and the server's feature level (see
//! `docs/zulip-compatibility.md`). A cell's rule depends only on the class of its row,
//! the class of its column and the direction of the change, so the whole rule set is a
//! small table the UI can index without copying the rules (the shell's `PermissionTable`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use zulip_api::Role;

/// From this feature level a bot's owner may remove the bot from streams they can access.
pub const FEATURE_LEVEL_BOT_OWNERS_REMOVE_BOTS: u32 = 145;
/// From this level a channel's `can_remove_subscribers_group` (first
/// `can_remove_subscribers_group_id`) names who may remove others from it.
pub const FEATURE_LEVEL_CAN_REMOVE_SUBSCRIBERS: u32 = 142;
/// From this level a channel's administrators and `can_add_subscribers_group` may add
/// others to it whatever the organization's own rule for adding subscribers says.
pub const FEATURE_LEVEL_CAN_ADD_SUBSCRIBERS: u32 = 342;
/// From this level `can_add_subscribers_group` also opens a private channel to its
/// members (content access), and channel administrators may remove others.
pub const FEATURE_LEVEL_CHANNEL_GROUPS_GRANT_ACCESS: u32 = 349;
/// From this level `can_subscribe_group` lets its members join a private channel.
pub const FEATURE_LEVEL_CAN_SUBSCRIBE: u32 = 357;

/// The signed-in account, as the rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Viewer {
    pub user_id: i64,
    pub role: Role,
    pub feature_level: u32,
    /// The organization's own rule for adding others to channels the account can reach
    /// (`register`'s `can_subscribe_other_users`: `realm_can_add_subscribers_group`
    /// from level 341, `invite_to_stream_policy` before); true for non-guests when a
    /// server does not say.
    pub can_subscribe_others: bool,
}

/// What one channel's settings give the account: whether it is subscribed and whether
/// it is in each setting's group (subgroups included). Guests are never in
/// `administer`, `add_subscribers` or `subscribe` (Zulip's `allow_everyone_group` is
/// false for them), whatever the groups say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Grants {
    pub subscribed: bool,
    /// `can_administer_channel_group`.
    pub administer: bool,
    /// `can_add_subscribers_group`.
    pub add_subscribers: bool,
    /// `can_remove_subscribers_group`.
    pub remove_subscribers: bool,
    /// `can_subscribe_group`.
    pub subscribe: bool,
}

impl Grants {
    /// Whether any setting names the account (subscription aside).
    pub fn any_group(self) -> bool {
        self.administer || self.add_subscribers || self.remove_subscribers || self.subscribe
    }
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
    /// Private, and the viewer is not subscribed (administrators see these, and people
    /// whose groups a channel setting names).
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
        "Only organization administrators and the people this channel's settings allow \
         can remove other people from it."
    )]
    NotInRemoveGroup,
    #[error(
        "This organization lets only some people add others to channels; neither it nor \
         this channel's settings include you."
    )]
    CannotSubscribeOthers,
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

/// The rule for one cell class and direction, on a channel whose settings give the
/// account `grants`: Zulip's `filter_stream_authorization_for_adding_subscribers` and
/// `bulk_can_remove_subscribers_from_streams` (zerver/lib/streams.py), each setting
/// from the level where it began to decide. Organization administrators may do
/// anything (Weir's rule: also on private channels they are not in).
pub fn rule(
    viewer: &Viewer,
    person: PersonClass,
    channel: ChannelClass,
    grants: Grants,
    action: Action,
) -> Result<(), Denied> {
    if person == PersonClass::Deactivated {
        return Err(Denied::Deactivated);
    }
    if viewer.role.is_org_admin() {
        return Ok(());
    }
    let guest = viewer.role == Role::Guest;
    let grants = if guest {
        Grants {
            administer: false,
            add_subscribers: false,
            subscribe: false,
            ..grants
        }
    } else {
        grants
    };
    let level = viewer.feature_level;
    // Zulip's `user_has_content_access`: subscribed, a public channel (not for guests),
    // or a group that lets people in.
    let content_access = grants.subscribed
        || channel == ChannelClass::PrivateMember
        || (channel == ChannelClass::Public && !guest)
        || (level >= FEATURE_LEVEL_CHANNEL_GROUPS_GRANT_ACCESS && grants.add_subscribers)
        || (level >= FEATURE_LEVEL_CAN_SUBSCRIBE && grants.subscribe);
    match action {
        Action::Unsubscribe => match person {
            PersonClass::Me => Ok(()),
            PersonClass::OwnBot if level >= FEATURE_LEVEL_BOT_OWNERS_REMOVE_BOTS => {
                if channel == ChannelClass::PrivateOther && !content_access && !grants.administer {
                    Err(Denied::PrivateChannelNotAccessible)
                } else {
                    Ok(())
                }
            }
            PersonClass::OwnBot => remove_others(level, grants, content_access)
                .map_err(|_| Denied::BotOwnersNeedLevel145),
            PersonClass::Other | PersonClass::Deactivated => {
                remove_others(level, grants, content_access)
            }
        },
        Action::Subscribe => {
            if guest {
                Err(Denied::GuestsCannotSubscribe)
            } else if !content_access {
                Err(Denied::PrivateChannelNotAccessible)
            } else if person == PersonClass::Me
                || viewer.can_subscribe_others
                || (level >= FEATURE_LEVEL_CAN_ADD_SUBSCRIBERS
                    && (grants.add_subscribers || grants.administer))
            {
                Ok(())
            } else {
                Err(Denied::CannotSubscribeOthers)
            }
        }
    }
}

/// Removing someone else, for an account that is no organization administrator.
fn remove_others(level: u32, grants: Grants, content_access: bool) -> Result<(), Denied> {
    if level < FEATURE_LEVEL_CAN_REMOVE_SUBSCRIBERS {
        return Err(Denied::OnlyAdminsRemoveOthers);
    }
    if level >= FEATURE_LEVEL_CHANNEL_GROUPS_GRANT_ACCESS && grants.administer {
        return Ok(());
    }
    // Zulip's basic access first (content, or metadata through the channel's groups),
    // then the channel's group.
    let access = content_access || grants.administer || grants.add_subscribers || grants.subscribe;
    if access && grants.remove_subscribers {
        Ok(())
    } else {
        Err(Denied::NotInRemoveGroup)
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
mod tests;
