//! Who may change which grid cell, as the UI looks it up: a table by the person's and
//! the channel's class (12 cells of rules for the whole grid), and for a channel whose
//! settings name the account, that channel's own rules (weir-core's `rule` decides both).

use serde::Serialize;
use ts_rs::TS;
use weir_core::memberships::permissions::{
    Action, ChannelClass, Grants, PersonClass, Viewer, rule,
};

/// Every rule for the viewer, by [`PersonClass`] (the fields are its names): the grid
/// carries 12 cells of rules instead of one per person and stream.
#[derive(Debug, Clone, Serialize, TS)]
pub struct PermissionTable {
    pub me: StreamRules,
    pub own_bot: StreamRules,
    pub other: StreamRules,
    pub deactivated: StreamRules,
}

/// The rules for one kind of person, by [`ChannelClass`] (the fields are its names).
#[derive(Debug, Clone, Serialize, TS)]
pub struct StreamRules {
    pub public: CellRules,
    pub private_member: CellRules,
    pub private_other: CellRules,
}

/// Why each direction of a change is refused; `null`: allowed.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct CellRules {
    pub subscribe: Option<String>,
    pub unsubscribe: Option<String>,
}

impl PermissionTable {
    pub fn new(viewer: &Viewer) -> Self {
        let rules = |person| StreamRules::new(viewer, person);
        Self {
            me: rules(PersonClass::Me),
            own_bot: rules(PersonClass::OwnBot),
            other: rules(PersonClass::Other),
            deactivated: rules(PersonClass::Deactivated),
        }
    }
}

impl StreamRules {
    fn new(viewer: &Viewer, person: PersonClass) -> Self {
        let cell = |channel| CellRules::new(viewer, person, channel, Grants::default());
        Self {
            public: cell(ChannelClass::Public),
            private_member: cell(ChannelClass::PrivateMember),
            private_other: cell(ChannelClass::PrivateOther),
        }
    }
}

impl CellRules {
    fn new(viewer: &Viewer, person: PersonClass, channel: ChannelClass, grants: Grants) -> Self {
        let reason = |action| {
            rule(viewer, person, channel, grants, action)
                .err()
                .map(|d| d.reason())
        };
        Self {
            subscribe: reason(Action::Subscribe),
            unsubscribe: reason(Action::Unsubscribe),
        }
    }
}

impl PersonRules {
    /// A channel's rules when they differ from the table's for its class.
    pub(crate) fn for_channel(
        viewer: &Viewer,
        channel: ChannelClass,
        grants: Grants,
    ) -> Option<Self> {
        let cell = |person| CellRules::new(viewer, person, channel, grants);
        let own = Self {
            me: cell(PersonClass::Me),
            own_bot: cell(PersonClass::OwnBot),
            other: cell(PersonClass::Other),
            deactivated: cell(PersonClass::Deactivated),
        };
        let table = |person| CellRules::new(viewer, person, channel, Grants::default());
        let plain = Self {
            me: table(PersonClass::Me),
            own_bot: table(PersonClass::OwnBot),
            other: table(PersonClass::Other),
            deactivated: table(PersonClass::Deactivated),
        };
        (own != plain).then_some(own)
    }
}

/// One channel's rules, by [`PersonClass`] (the fields are its names).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct PersonRules {
    pub me: CellRules,
    pub own_bot: CellRules,
    pub other: CellRules,
    pub deactivated: CellRules,
}

#[cfg(test)]
mod tests {
    use zulip_api::Role;

    use super::*;

    fn member() -> Viewer {
        Viewer {
            user_id: 1,
            role: Role::Member,
            feature_level: 362,
            can_subscribe_others: true,
        }
    }

    #[test]
    fn a_channel_carries_its_own_rules_only_when_they_differ_from_the_table() {
        let plain = PersonRules::for_channel(&member(), ChannelClass::Public, Grants::default());
        assert_eq!(plain, None);
        let remove = Grants {
            remove_subscribers: true,
            ..Grants::default()
        };
        let own = PersonRules::for_channel(&member(), ChannelClass::Public, remove);
        let own = own.expect("the remove group changes the rules");
        assert_eq!(own.other.unsubscribe, None);
        assert!(own.deactivated.unsubscribe.is_some());
        let table = PermissionTable::new(&member());
        assert!(table.other.public.unsubscribe.is_some());
        // An administrator's rules never change.
        let admin = Viewer {
            role: Role::Administrator,
            ..member()
        };
        assert_eq!(
            PersonRules::for_channel(&admin, ChannelClass::PrivateOther, remove),
            None
        );
    }
}
