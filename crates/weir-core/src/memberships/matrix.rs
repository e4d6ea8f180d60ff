//! [`Matrix`]: who is subscribed to what, built from one `register` snapshot and kept
//! compact (one sorted `Vec<u32>` of person indices per stream: a 10,000 × 1,000
//! organization with ~50 streams per person is ~2 MB, not 10 million cells).

use std::collections::HashMap;

use serde::Serialize;
use zulip_api::{RegisterResponse, Role, User};

use super::groups::{GroupSetting, Groups};
use super::permissions::{Action, ChannelClass, Denied, Grants, PersonClass, Viewer, rule};
use crate::client::UserGroup;

/// The most people and streams a matrix accepts (far above any real organization; a
/// bound so that a hostile answer cannot make the app allocate without limit).
pub const MAX_PEOPLE: usize = 500_000;
pub const MAX_STREAMS: usize = 100_000;

/// What the matrix is built from: the caller, the server's feature level, the people
/// and the streams with their subscribers.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub feature_level: u32,
    /// The caller's user id.
    pub me: i64,
    pub users: Vec<User>,
    pub streams: Vec<SnapshotStream>,
    /// The organization's user groups (`GET /user_groups`; none when the account may
    /// not list them), which the channels' settings name.
    pub groups: Vec<UserGroup>,
    /// `register`'s `can_subscribe_other_users`; `None` when the server did not send it.
    pub can_subscribe_others: Option<bool>,
}

/// A stream as the snapshot sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotStream {
    pub stream_id: i64,
    pub name: String,
    pub invite_only: bool,
    pub subscribers: Vec<i64>,
    pub settings: ChannelSettings,
}

/// The channel settings that decide who may subscribe and unsubscribe people; `None`
/// when the server does not have (or did not send) the setting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChannelSettings {
    pub can_administer_channel_group: Option<GroupSetting>,
    pub can_add_subscribers_group: Option<GroupSetting>,
    pub can_remove_subscribers_group: Option<GroupSetting>,
    pub can_subscribe_group: Option<GroupSetting>,
}

impl ChannelSettings {
    /// From a stream as `register` or `GET /streams` gives it.
    pub fn of(stream: &zulip_api::Stream) -> Self {
        let read = |value: &serde_json::Value| {
            (!value.is_null())
                .then(|| GroupSetting::from_value(value))
                .flatten()
        };
        Self {
            can_administer_channel_group: read(&stream.can_administer_channel_group),
            can_add_subscribers_group: read(&stream.can_add_subscribers_group),
            can_remove_subscribers_group: read(&stream.can_remove_subscribers_group),
            can_subscribe_group: read(&stream.can_subscribe_group),
        }
    }
}

impl Snapshot {
    /// From `POST /register` (active and deactivated users; cross-realm system bots are
    /// left out: nobody manages their subscriptions) and the caller's user id.
    pub fn from_register(register: RegisterResponse, me: i64) -> Self {
        let can_subscribe_others = register.can_subscribe_other_users;
        let mut users = register.realm_users;
        users.extend(register.realm_non_active_users);
        let streams = register
            .subscriptions
            .into_iter()
            .chain(register.unsubscribed)
            .map(|subscription| subscription.stream)
            .chain(register.never_subscribed)
            .map(|stream| SnapshotStream {
                settings: ChannelSettings::of(&stream),
                stream_id: stream.stream_id,
                name: stream.name,
                invite_only: stream.invite_only,
                subscribers: stream.subscribers.unwrap_or_default(),
            })
            .collect();
        Self {
            feature_level: register.zulip_feature_level,
            me,
            users,
            streams,
            groups: Vec::new(),
            can_subscribe_others,
        }
    }
}

/// Why a snapshot cannot become a matrix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatrixError {
    #[error("the server's answer does not list the signed-in user ({0})")]
    ViewerMissing(i64),
    #[error("the organization is too large for the grid ({people} people, {streams} streams)")]
    TooLarge { people: usize, streams: usize },
}

/// One row of the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub user_id: i64,
    pub email: String,
    pub full_name: String,
    pub role: Role,
    pub is_bot: bool,
    pub bot_owner_id: Option<i64>,
    pub is_active: bool,
}

/// One column of the grid; `subscribers` are indices into [`Matrix::people`], sorted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Channel {
    pub stream_id: i64,
    pub name: String,
    pub invite_only: bool,
    pub subscribers: Vec<u32>,
    /// What the channel's settings give the signed-in account.
    #[serde(skip)]
    pub grants: Grants,
    #[serde(skip)]
    pub settings: ChannelSettings,
}

/// Person indices by user id for building the matrix, where every subscription is one
/// lookup (5 million at 100,000 people × 2,000 streams): a plain table when the ids are
/// dense enough, as one organization's ids usually are, else the hash map.
enum IdTable<'a> {
    Dense { first: i64, indices: Vec<u32> },
    Sparse(&'a HashMap<i64, u32>),
}

/// The table may have this many slots per person (and a few thousand more) before the
/// hash map is used instead.
const DENSE_SLOTS_PER_PERSON: usize = 16;
const DENSE_SLOTS_EXTRA: usize = 4_096;

impl<'a> IdTable<'a> {
    fn new(index: &'a HashMap<i64, u32>) -> Self {
        let first = index.keys().copied().min().unwrap_or(0);
        let last = index.keys().copied().max().unwrap_or(0);
        let limit = index
            .len()
            .saturating_mul(DENSE_SLOTS_PER_PERSON)
            .saturating_add(DENSE_SLOTS_EXTRA);
        let span = last
            .checked_sub(first)
            .and_then(|span| usize::try_from(span).ok())
            .and_then(|span| span.checked_add(1))
            .filter(|span| *span <= limit);
        let Some(span) = span else {
            return Self::Sparse(index);
        };
        let mut indices = vec![u32::MAX; span];
        for (id, at) in index {
            if let Some(slot) = usize::try_from(id - first)
                .ok()
                .and_then(|offset| indices.get_mut(offset))
            {
                *slot = *at;
            }
        }
        Self::Dense { first, indices }
    }

    fn get(&self, id: i64) -> Option<u32> {
        match self {
            Self::Dense { first, indices } => id
                .checked_sub(*first)
                .and_then(|offset| usize::try_from(offset).ok())
                .and_then(|offset| indices.get(offset).copied())
                .filter(|at| *at != u32::MAX),
            Self::Sparse(index) => index.get(&id).copied(),
        }
    }
}

/// The memberships of one organization as the signed-in account may see them.
#[derive(Debug, Clone)]
pub struct Matrix {
    viewer: Viewer,
    people: Vec<Person>,
    channels: Vec<Channel>,
    person_index: HashMap<i64, u32>,
    channel_index: HashMap<i64, u32>,
    groups: Groups,
}

impl Matrix {
    /// Builds the matrix. A viewer who is not an organization administrator never gets a
    /// private stream they are not subscribed to, even if a server sent one.
    pub fn build(snapshot: Snapshot) -> Result<Self, MatrixError> {
        let Snapshot {
            feature_level,
            me,
            users,
            streams,
            groups,
            can_subscribe_others,
        } = snapshot;
        if users.len() > MAX_PEOPLE || streams.len() > MAX_STREAMS {
            return Err(MatrixError::TooLarge {
                people: users.len(),
                streams: streams.len(),
            });
        }
        let mut people: Vec<Person> = Vec::with_capacity(users.len());
        let mut person_index = HashMap::with_capacity(users.len());
        for user in users {
            if person_index.contains_key(&user.user_id) {
                continue;
            }
            let index = u32::try_from(people.len()).unwrap_or(u32::MAX);
            person_index.insert(user.user_id, index);
            people.push(Person {
                user_id: user.user_id,
                email: user.email,
                full_name: user.full_name,
                role: user.role,
                is_bot: user.is_bot,
                bot_owner_id: user.bot_owner_id,
                is_active: user.is_active,
            });
        }
        let viewer_role = person_index
            .get(&me)
            .and_then(|index| people.get(*index as usize))
            .map(|person| person.role)
            .ok_or(MatrixError::ViewerMissing(me))?;
        let viewer = Viewer {
            user_id: me,
            role: viewer_role,
            feature_level,
            can_subscribe_others: can_subscribe_others
                .unwrap_or(viewer_role != zulip_api::Role::Guest),
        };
        let groups = Groups::build(groups, |user_id| person_index.get(&user_id).copied());
        let viewer_at = person_index.get(&me).copied();

        let lookup = IdTable::new(&person_index);
        let mut channels: Vec<Channel> = Vec::with_capacity(streams.len());
        let mut channel_index = HashMap::with_capacity(streams.len());
        for stream in streams {
            if channel_index.contains_key(&stream.stream_id) {
                continue;
            }
            let mut subscribers: Vec<u32> = stream
                .subscribers
                .iter()
                .filter_map(|id| lookup.get(*id))
                .collect();
            subscribers.sort_unstable();
            subscribers.dedup();
            let viewer_in =
                viewer_at.is_some_and(|index| subscribers.binary_search(&index).is_ok());
            let grants = grants_of(&groups, &viewer, viewer_at, &stream.settings, viewer_in);
            if stream.invite_only
                && !viewer.role.is_org_admin()
                && !viewer_in
                && !grants.any_group()
            {
                continue;
            }
            let index = u32::try_from(channels.len()).unwrap_or(u32::MAX);
            channel_index.insert(stream.stream_id, index);
            channels.push(Channel {
                stream_id: stream.stream_id,
                name: stream.name,
                invite_only: stream.invite_only,
                subscribers,
                grants,
                settings: stream.settings,
            });
        }
        Ok(Self {
            viewer,
            people,
            channels,
            person_index,
            channel_index,
            groups,
        })
    }

    /// The organization's user groups (`GET /user_groups`), members expanded, and what
    /// the channels' settings give the account through them. Private channels that only
    /// the groups open are kept only when the groups come with the snapshot
    /// ([`Snapshot::groups`]).
    pub fn with_groups(mut self, groups: Vec<UserGroup>) -> Self {
        let index = &self.person_index;
        self.groups = Groups::build(groups, |user_id| index.get(&user_id).copied());
        let viewer_at = self.person_index.get(&self.viewer.user_id).copied();
        for channel in &mut self.channels {
            let viewer_in =
                viewer_at.is_some_and(|index| channel.subscribers.binary_search(&index).is_ok());
            channel.grants = grants_of(
                &self.groups,
                &self.viewer,
                viewer_at,
                &channel.settings,
                viewer_in,
            );
        }
        self
    }

    pub fn groups(&self) -> &Groups {
        &self.groups
    }

    pub fn viewer(&self) -> &Viewer {
        &self.viewer
    }

    pub fn people(&self) -> &[Person] {
        &self.people
    }

    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    pub fn person(&self, user_id: i64) -> Option<(u32, &Person)> {
        let index = *self.person_index.get(&user_id)?;
        Some((index, self.people.get(index as usize)?))
    }

    pub fn channel(&self, stream_id: i64) -> Option<(u32, &Channel)> {
        let index = *self.channel_index.get(&stream_id)?;
        Some((index, self.channels.get(index as usize)?))
    }

    /// A stream by name, case-insensitively (Zulip's names are unique that way).
    pub fn channel_named(&self, name: &str) -> Option<&Channel> {
        let wanted = name.trim().to_lowercase();
        self.channels
            .iter()
            .find(|channel| channel.name.to_lowercase() == wanted)
    }

    /// Whether the person (by index) is subscribed to the channel (by index).
    pub fn is_subscribed_at(&self, person: u32, channel: u32) -> bool {
        self.channels
            .get(channel as usize)
            .is_some_and(|channel| channel.subscribers.binary_search(&person).is_ok())
    }

    /// Whether the user is subscribed to the stream; `None` when either is unknown.
    pub fn is_subscribed(&self, user_id: i64, stream_id: i64) -> Option<bool> {
        let (person, _) = self.person(user_id)?;
        let (channel, _) = self.channel(stream_id)?;
        Some(self.is_subscribed_at(person, channel))
    }

    /// Number of (person, stream) subscriptions in the matrix.
    pub fn subscription_count(&self) -> usize {
        self.channels.iter().map(|c| c.subscribers.len()).sum()
    }

    /// The class of a row for the permission rules.
    pub fn person_class(&self, person: &Person) -> PersonClass {
        if !person.is_active {
            PersonClass::Deactivated
        } else if person.user_id == self.viewer.user_id {
            PersonClass::Me
        } else if person.is_bot && person.bot_owner_id == Some(self.viewer.user_id) {
            PersonClass::OwnBot
        } else {
            PersonClass::Other
        }
    }

    /// The class of a column for the permission rules.
    pub fn channel_class(&self, channel: &Channel) -> ChannelClass {
        if !channel.invite_only {
            return ChannelClass::Public;
        }
        let viewer_in = self
            .person_index
            .get(&self.viewer.user_id)
            .is_some_and(|index| channel.subscribers.binary_search(index).is_ok());
        if viewer_in {
            ChannelClass::PrivateMember
        } else {
            ChannelClass::PrivateOther
        }
    }

    /// Whether the account may flip this cell from its current state on the server.
    pub fn may_toggle(&self, user_id: i64, stream_id: i64) -> Result<Action, Denied> {
        let (person_at, person) = self.person(user_id).ok_or(Denied::UnknownPerson)?;
        let (channel_at, channel) = self.channel(stream_id).ok_or(Denied::UnknownStream)?;
        let action = if self.is_subscribed_at(person_at, channel_at) {
            Action::Unsubscribe
        } else {
            Action::Subscribe
        };
        rule(
            &self.viewer,
            self.person_class(person),
            self.channel_class(channel),
            channel.grants,
            action,
        )?;
        Ok(action)
    }
}

/// What a channel's settings give the viewer (by person index, when listed): whether
/// each setting's value holds them, subgroups included.
fn grants_of(
    groups: &Groups,
    viewer: &Viewer,
    viewer_at: Option<u32>,
    settings: &ChannelSettings,
    subscribed: bool,
) -> Grants {
    let holds = |setting: &Option<GroupSetting>| match (setting, viewer_at) {
        (Some(value), Some(at)) => groups.setting_includes(value, viewer.user_id, at),
        _ => false,
    };
    Grants {
        subscribed,
        administer: holds(&settings.can_administer_channel_group),
        add_subscribers: holds(&settings.can_add_subscribers_group),
        remove_subscribers: holds(&settings.can_remove_subscribers_group),
        subscribe: holds(&settings.can_subscribe_group),
    }
}

#[cfg(test)]
mod id_table_tests {
    use super::*;

    fn index(ids: &[i64]) -> HashMap<i64, u32> {
        ids.iter()
            .enumerate()
            .map(|(at, id)| (*id, at as u32))
            .collect()
    }

    #[test]
    fn dense_and_sparse_ids_answer_alike() {
        let dense = index(&[9, 5, 7]);
        let sparse = index(&[9, 5, 7, 10_000_000]);
        let (a, b) = (IdTable::new(&dense), IdTable::new(&sparse));
        assert!(matches!(a, IdTable::Dense { first: 5, .. }));
        assert!(matches!(b, IdTable::Sparse(_)));
        for table in [&a, &b] {
            assert_eq!(table.get(9), Some(0));
            assert_eq!(table.get(5), Some(1));
            assert_eq!(table.get(7), Some(2));
            for unknown in [4, 6, 8, 10, -1, i64::MIN, i64::MAX] {
                assert_eq!(table.get(unknown), None, "{unknown}");
            }
        }
        assert_eq!(b.get(10_000_000), Some(3));
    }

    #[test]
    fn extreme_ids_fall_back_to_the_map() {
        let extreme = index(&[i64::MIN, i64::MAX]);
        let table = IdTable::new(&extreme);
        assert!(matches!(table, IdTable::Sparse(_)));
        assert_eq!(table.get(i64::MAX), Some(1));
        assert!(matches!(
            IdTable::new(&HashMap::new()),
            IdTable::Dense { .. }
        ));
        assert_eq!(IdTable::new(&HashMap::new()).get(0), None);
    }
}
