//! The planner: staged cell changes → the fewest Zulip calls. Pure: no I/O.
//!
//! Per direction, the cells are grouped two ways (streams sharing the same set of people;
//! people sharing the same set of streams) and the grouping that needs fewer requests
//! wins. Every request is an exact cross product `streams × people`, so it changes
//! nothing that was not staged. Groups larger than the server's limits are split.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::matrix::Matrix;
use super::permissions::{Action, Denied, PersonClass, rule};
use crate::client::FEATURE_LEVEL_INTEGER_PRINCIPALS;

/// One staged cell: make `user_id` subscribed (`subscribe`) or not to `stream_id`.
/// (`MembershipChange` in the UI, where the grid's cells are staged.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "MembershipChange")]
pub struct Change {
    pub user_id: i64,
    pub stream_id: i64,
    pub subscribe: bool,
}

impl Change {
    pub fn action(&self) -> Action {
        if self.subscribe {
            Action::Subscribe
        } else {
            Action::Unsubscribe
        }
    }

    /// The change that undoes this one.
    pub fn reversed(self) -> Self {
        Self {
            subscribe: !self.subscribe,
            ..self
        }
    }
}

/// How large one request may be. Requests over a limit are split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    pub max_streams_per_request: usize,
    pub max_principals_per_request: usize,
}

impl Default for Limits {
    /// Weir's server's limits on `subscriptions` and `principals` (real Zulip servers
    /// accept at least as many).
    fn default() -> Self {
        Self {
            max_streams_per_request: 1_000,
            max_principals_per_request: 1_000,
        }
    }
}

/// A stream named in a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamRef {
    pub stream_id: i64,
    pub name: String,
}

/// A person named in a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonRef {
    pub user_id: i64,
    pub email: String,
}

/// One Zulip call: `POST` (subscribe) or `DELETE` (unsubscribe) on
/// `/users/me/subscriptions` with every stream × every person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedRequest {
    pub action: Action,
    pub streams: Vec<StreamRef>,
    pub people: Vec<PersonRef>,
    /// The server is below feature level 9: principals go as e-mail addresses.
    pub principals_as_emails: bool,
    /// Cells in the cross product that were not staged: already subscribed, sent along
    /// so that one request covers them all (Zulip answers `already_subscribed`).
    #[serde(default)]
    pub padding: usize,
}

impl PlannedRequest {
    /// The staged cells this request changes (its cross product less the padding).
    pub fn cell_count(&self) -> usize {
        (self.streams.len() * self.people.len()).saturating_sub(self.padding)
    }

    /// The cells this request changes.
    pub fn changes(&self) -> impl Iterator<Item = Change> + '_ {
        let subscribe = self.action == Action::Subscribe;
        self.streams.iter().flat_map(move |stream| {
            self.people.iter().map(move |person| Change {
                user_id: person.user_id,
                stream_id: stream.stream_id,
                subscribe,
            })
        })
    }
}

/// Why a staged change is not in the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "denied")]
pub enum SkipReason {
    /// The cell is already in the asked state.
    NoOp,
    /// The account may not make this change.
    Denied(Denied),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    pub change: Change,
    pub reason: SkipReason,
}

/// The requests to send, in order (removals first), and what was left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub requests: Vec<PlannedRequest>,
    pub skipped: Vec<Skipped>,
}

impl Plan {
    pub fn cell_count(&self) -> usize {
        self.requests.iter().map(PlannedRequest::cell_count).sum()
    }
}

/// Plans `changes` against `matrix`. A cell staged twice keeps its last change.
pub fn plan(matrix: &Matrix, changes: &[Change], limits: &Limits) -> Plan {
    let mut last: HashMap<(i64, i64), Change> = HashMap::with_capacity(changes.len());
    for change in changes {
        last.insert((change.user_id, change.stream_id), *change);
    }
    let mut cells: BTreeSet<Change> = last.into_values().collect::<BTreeSet<_>>();
    let mut skipped = Vec::new();
    cells.retain(|change| {
        let reason = match matrix.is_subscribed(change.user_id, change.stream_id) {
            Some(now) if now == change.subscribe => Some(SkipReason::NoOp),
            _ => match matrix.may_toggle(change.user_id, change.stream_id) {
                Ok(_) => None,
                Err(denied) => Some(SkipReason::Denied(denied)),
            },
        };
        if let Some(reason) = reason {
            skipped.push(Skipped {
                change: *change,
                reason,
            });
        }
        reason.is_none()
    });

    let by_email = matrix.viewer().feature_level < FEATURE_LEVEL_INTEGER_PRINCIPALS;
    let mut requests = Vec::new();
    // Removals of others allowed only as a channel's administrator go in requests of
    // their own: Zulip's `bulk_can_remove_subscribers_from_streams` accepts a request
    // when the account administers every channel named, else only when it is in each
    // one's `can_remove_subscribers_group`.
    let by_admin_only = |change: &Change| {
        change.action() == Action::Unsubscribe && removes_only_as_channel_admin(matrix, change)
    };
    let kinds = [
        (Action::Unsubscribe, false),
        (Action::Unsubscribe, true),
        (Action::Subscribe, false),
    ];
    for (action, admin_only) in kinds {
        let pairs: Vec<(i64, i64)> = cells
            .iter()
            .filter(|change| change.action() == action && by_admin_only(change) == admin_only)
            .map(|change| (change.stream_id, change.user_id))
            .collect();
        if pairs.is_empty() {
            continue;
        }
        let mut groups = group(&pairs, limits);
        let mut padding = 0;
        if action == Action::Subscribe
            && let Some((union, padded)) = padded_union(matrix, &pairs, &groups, limits)
        {
            groups = vec![union];
            padding = padded;
        }
        for (streams, people) in groups {
            requests.push(PlannedRequest {
                action,
                streams: streams
                    .iter()
                    .filter_map(|id| matrix.channel(*id))
                    .map(|(_, channel)| StreamRef {
                        stream_id: channel.stream_id,
                        name: channel.name.clone(),
                    })
                    .collect(),
                people: people
                    .iter()
                    .filter_map(|id| matrix.person(*id))
                    .map(|(_, person)| PersonRef {
                        user_id: person.user_id,
                        email: person.email.clone(),
                    })
                    .collect(),
                principals_as_emails: by_email,
                padding,
            });
        }
    }
    Plan { requests, skipped }
}

/// Whether the account may make this removal of someone else only because it
/// administers the channel (not through `can_remove_subscribers_group`).
fn removes_only_as_channel_admin(matrix: &Matrix, change: &Change) -> bool {
    let viewer = matrix.viewer();
    if viewer.role.is_org_admin() {
        return false;
    }
    let other = matrix
        .person(change.user_id)
        .is_some_and(|(_, person)| matrix.person_class(person) == PersonClass::Other);
    let grants = matrix
        .channel(change.stream_id)
        .map(|(_, channel)| channel.grants);
    other && grants.is_some_and(|grants| grants.administer && !grants.remove_subscribers)
}

/// `(streams, people)` of one request.
type CrossProduct = (Vec<i64>, Vec<i64>);

/// Subscriptions that need several requests as exact cross products may fit one when
/// cells already subscribed are sent along: a group row on three channels where some
/// members already are in some of them is still one request. Only when the union fits
/// the limits, every padded cell may be subscribed by the account, and the padding is no
/// larger than the staged cells. Returns the union and how many cells pad it.
fn padded_union(
    matrix: &Matrix,
    pairs: &[(i64, i64)],
    groups: &[CrossProduct],
    limits: &Limits,
) -> Option<(CrossProduct, usize)> {
    if groups.len() < 2 {
        return None;
    }
    let streams: BTreeSet<i64> = pairs.iter().map(|(stream, _)| *stream).collect();
    let people: BTreeSet<i64> = pairs.iter().map(|(_, person)| *person).collect();
    let product = streams.len().checked_mul(people.len())?;
    if streams.len() > limits.max_streams_per_request
        || people.len() > limits.max_principals_per_request
        || product - pairs.len() > pairs.len()
    {
        return None;
    }
    let staged: HashSet<(i64, i64)> = pairs.iter().copied().collect();
    for &stream_id in &streams {
        for &user_id in &people {
            if staged.contains(&(stream_id, user_id)) {
                continue;
            }
            let (person_at, person) = matrix.person(user_id)?;
            let (channel_at, channel) = matrix.channel(stream_id)?;
            let allowed = matrix.is_subscribed_at(person_at, channel_at)
                && rule(
                    matrix.viewer(),
                    matrix.person_class(person),
                    matrix.channel_class(channel),
                    channel.grants,
                    Action::Subscribe,
                )
                .is_ok();
            if !allowed {
                return None;
            }
        }
    }
    let padding = product - pairs.len();
    Some((
        (streams.into_iter().collect(), people.into_iter().collect()),
        padding,
    ))
}

/// `(stream, person)` pairs → `(streams, people)` cross products, split by the limits.
fn group(pairs: &[(i64, i64)], limits: &Limits) -> Vec<(Vec<i64>, Vec<i64>)> {
    let by_stream = group_one_way(pairs.iter().copied());
    let by_person: Vec<(Vec<i64>, Vec<i64>)> =
        group_one_way(pairs.iter().map(|(stream, person)| (*person, *stream)))
            .into_iter()
            .map(|(people, streams)| (streams, people))
            .collect();
    let count = |groups: &[(Vec<i64>, Vec<i64>)]| -> usize {
        groups
            .iter()
            .map(|(streams, people)| {
                streams
                    .len()
                    .div_ceil(limits.max_streams_per_request.max(1))
                    * people
                        .len()
                        .div_ceil(limits.max_principals_per_request.max(1))
            })
            .sum()
    };
    let groups = if count(&by_person) < count(&by_stream) {
        by_person
    } else {
        by_stream
    };
    let mut split = Vec::new();
    for (streams, people) in groups {
        for stream_chunk in streams.chunks(limits.max_streams_per_request.max(1)) {
            for people_chunk in people.chunks(limits.max_principals_per_request.max(1)) {
                split.push((stream_chunk.to_vec(), people_chunk.to_vec()));
            }
        }
    }
    split
}

/// Groups `(key, member)` pairs: keys with the same member set share one group.
/// Returns `(keys, members)` with both sorted, groups ordered by their first key.
fn group_one_way(pairs: impl Iterator<Item = (i64, i64)>) -> Vec<(Vec<i64>, Vec<i64>)> {
    let mut members: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (key, member) in pairs {
        members.entry(key).or_default().push(member);
    }
    let mut by_set: BTreeMap<Vec<i64>, Vec<i64>> = BTreeMap::new();
    for (key, mut set) in members {
        set.sort_unstable();
        set.dedup();
        by_set.entry(set).or_default().push(key);
    }
    let mut groups: Vec<(Vec<i64>, Vec<i64>)> =
        by_set.into_iter().map(|(set, keys)| (keys, set)).collect();
    groups.sort_by_key(|(keys, _)| keys.first().copied());
    groups
}
