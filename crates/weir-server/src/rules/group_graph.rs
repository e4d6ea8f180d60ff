//! Who holds a group-valued permission, at a cost bounded by the size of the groups'
//! graph however deeply groups nest or however many a setting names.
//!
//! Asking "is this user in any of these groups" by walking down from each named group
//! costs the whole graph per group: an anonymous setting naming 1,000 nested groups took
//! 500,000 steps (410 ms) per request. Here the question is turned round: the groups a
//! user belongs to are found once, walking up from their direct groups with each group
//! visited at most once, and remembered for as long as the graph is current; each check
//! is then a lookup per group the setting names.

use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use super::groups::SettingValue;
use crate::store::Memberships;

/// How many users' groups one graph remembers; beyond that they are found again each
/// time (still in bounded time), so that memory stays bounded too: at most this many
/// sets of group ids (about 10 MB were each of them 1,000 groups).
const MAX_REMEMBERED_USERS: usize = 1_024;

/// The membership graph, indexed upwards, with the groups of the users asked about.
#[derive(Debug, Default)]
pub struct GroupGraph {
    memberships: Memberships,
    /// Each group's direct supergroups.
    supergroups: HashMap<i64, Vec<i64>>,
    /// Each active user's direct groups (their role's system group included).
    direct_groups: HashMap<i64, Vec<i64>>,
    remembered: Mutex<HashMap<i64, Arc<HashSet<i64>>>>,
}

impl Deref for GroupGraph {
    type Target = Memberships;

    fn deref(&self) -> &Memberships {
        &self.memberships
    }
}

impl From<Memberships> for GroupGraph {
    fn from(memberships: Memberships) -> Self {
        let mut supergroups: HashMap<i64, Vec<i64>> = HashMap::new();
        for (group, children) in &memberships.subgroups {
            for child in children {
                supergroups.entry(*child).or_default().push(*group);
            }
        }
        let mut direct_groups: HashMap<i64, Vec<i64>> = HashMap::new();
        for (group, members) in &memberships.members {
            for member in members {
                direct_groups.entry(*member).or_default().push(*group);
            }
        }
        Self {
            memberships,
            supergroups,
            direct_groups,
            remembered: Mutex::default(),
        }
    }
}

impl GroupGraph {
    /// Every group `user_id` is in, directly or through subgroups.
    pub fn groups_of(&self, user_id: i64) -> Arc<HashSet<i64>> {
        let mut remembered = self
            .remembered
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(groups) = remembered.get(&user_id) {
            return Arc::clone(groups);
        }
        let (groups, _) = self.walk_up(user_id);
        let groups = Arc::new(groups);
        if remembered.len() < MAX_REMEMBERED_USERS {
            remembered.insert(user_id, Arc::clone(&groups));
        }
        groups
    }

    /// Whether `user_id`'s groups are already known (asking costs no walk).
    pub fn knows(&self, user_id: i64) -> bool {
        self.remembered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(&user_id)
    }

    /// The groups above `user_id`'s direct ones, and how many groups the walk visited
    /// (each at most once: a stored cycle cannot loop).
    fn walk_up(&self, user_id: i64) -> (HashSet<i64>, usize) {
        let mut seen: HashSet<i64> = HashSet::new();
        let mut queue: VecDeque<i64> = self
            .direct_groups
            .get(&user_id)
            .map(|groups| groups.iter().copied().collect())
            .unwrap_or_default();
        let mut visits = 0;
        while let Some(group) = queue.pop_front() {
            if !seen.insert(group) {
                continue;
            }
            visits += 1;
            if let Some(parents) = self.supergroups.get(&group) {
                queue.extend(parents.iter().copied().filter(|p| !seen.contains(p)));
            }
        }
        (seen, visits)
    }

    /// Whether `user_id` (an active user) holds a permission whose value is `value`.
    pub fn holds(&self, value: &SettingValue, user_id: i64) -> bool {
        if !self.memberships.active.contains_key(&user_id) {
            return false;
        }
        match value {
            SettingValue::Group(group) => self.groups_of(user_id).contains(group),
            SettingValue::Anonymous { members, subgroups } => {
                members.contains(&user_id) || {
                    let groups = self.groups_of(user_id);
                    subgroups.iter().any(|group| groups.contains(group))
                }
            }
        }
    }

    /// Whether `user_id` is in `group`, directly or (unless `direct_only`) through
    /// its subgroups.
    pub fn is_member(&self, group: i64, user_id: i64, direct_only: bool) -> bool {
        if direct_only {
            return self.memberships.is_member(group, user_id, true);
        }
        self.groups_of(user_id).contains(&group)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use zulip_api::Role;

    /// Groups 1..=n, each the only subgroup of the next; user 1 directly in group 1.
    fn chain(n: i64) -> Memberships {
        Memberships {
            members: BTreeMap::from([(1, BTreeSet::from([1])), (n + 1, BTreeSet::from([2]))]),
            subgroups: (2..=n).map(|g| (g, BTreeSet::from([g - 1]))).collect(),
            active: BTreeMap::from([(1, Role::Member), (2, Role::Member)]),
        }
    }

    #[test]
    fn a_setting_naming_a_thousand_nested_groups_costs_one_walk() {
        let graph = GroupGraph::from(chain(1_000));
        let everything = SettingValue::Anonymous {
            members: BTreeSet::new(),
            subgroups: (1..=1_000).collect(),
        };
        let top_only = SettingValue::Group(1_000);
        // The walk visits each group once: 1,000 visits, not 1,000 walks of up to 1,000.
        let (groups, visits) = graph.walk_up(1);
        assert_eq!((groups.len(), visits), (1_000, 1_000));
        assert!(graph.holds(&everything, 1) && graph.holds(&top_only, 1));
        assert!(graph.knows(1));
        // User 2 is in group 1,001 alone, above none of them.
        assert!(!graph.holds(&everything, 2) && !graph.holds(&top_only, 2));
        assert_eq!(graph.walk_up(2).1, 1);
        assert!(graph.is_member(1_000, 1, false) && !graph.is_member(1_000, 1, true));
    }

    #[test]
    fn cycles_inactive_users_and_direct_members() {
        let mut memberships = chain(3);
        memberships.subgroups.insert(1, BTreeSet::from([3]));
        let graph = GroupGraph::from(memberships);
        assert_eq!(graph.walk_up(1), (HashSet::from([1, 2, 3]), 3));
        let named = SettingValue::Anonymous {
            members: BTreeSet::from([9]),
            subgroups: BTreeSet::new(),
        };
        // 9 is named but not an active user.
        assert!(!graph.holds(&named, 9));
        let with_two = SettingValue::Anonymous {
            members: BTreeSet::from([2]),
            subgroups: BTreeSet::new(),
        };
        assert!(graph.holds(&with_two, 2));
    }
}
