//! The `groups` of a seed file: named user groups with their members, subgroups (by
//! name, system groups included) and, optionally, who manages them.

use std::collections::{HashMap, HashSet};

use rusqlite::Connection;
use serde::Deserialize;
use serde_json::Value;

use super::groups::{GROUP_SETTINGS, NewGroup, add_members, add_subgroups, group_by_name};
use super::groups::{insert_group, memberships, system};
use super::seed::{SeedStream, entry_error, label_of};
use super::streams::StreamGroupSettings;
use crate::error::Result;
use crate::rules::groups::{SettingValue, check_group_description, check_group_name};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedGroup {
    #[serde(default)]
    group_id: Option<i64>,
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    members: Vec<i64>,
    #[serde(default)]
    subgroups: Vec<String>,
    /// A group-setting value; without it only those who manage all groups (owners)
    /// manage the group, as for groups Zulip imports without a creator.
    #[serde(default)]
    can_manage_group: Option<Value>,
}

/// Seeded groups' settings: nobody but `can_manage_group` adds or removes members.
fn settings(manage: &SettingValue) -> [String; 6] {
    GROUP_SETTINGS.map(|name| match name {
        "can_manage_group" => manage.to_stored(),
        "can_leave_group" | "can_mention_group" => system::EVERYONE.to_string(),
        _ => system::NOBODY.to_string(),
    })
}

/// Validates and inserts the groups, then their subgroups; refuses cycles.
pub fn load_groups(conn: &Connection, values: &[Value], users: &HashSet<i64>) -> Result<()> {
    let mut parsed = Vec::with_capacity(values.len());
    let mut names = HashSet::new();
    for (index, value) in values.iter().enumerate() {
        let label = label_of(value, "name");
        let fail = |problem: String| entry_error("groups", index, &label, problem);
        let group: SeedGroup =
            serde_json::from_value(value.clone()).map_err(|error| fail(error.to_string()))?;
        check_group_name(&group.name).map_err(|error| fail(error.msg))?;
        check_group_description(&group.description).map_err(|error| fail(error.msg))?;
        if !names.insert(group.name.to_lowercase()) {
            return Err(fail("duplicate group name".into()));
        }
        if let Some(id) = group.group_id.filter(|id| *id <= system::INTERNET) {
            return Err(fail(format!("group_id {id} is a system group's")));
        }
        if let Some(member) = group.members.iter().find(|id| !users.contains(id)) {
            return Err(fail(format!("member {member} is not a user of this seed")));
        }
        let manage = match &group.can_manage_group {
            Some(value) => {
                SettingValue::parse("can_manage_group", value).map_err(|error| fail(error.msg))?
            }
            None => SettingValue::Group(system::NOBODY),
        };
        if let Some(user) = manage.users().iter().find(|id| !users.contains(id)) {
            return Err(fail(format!(
                "can_manage_group: {user} is not a user of this seed"
            )));
        }
        parsed.push((index, label, group, manage));
    }
    let mut ids: HashMap<String, i64> = HashMap::new();
    for (index, label, group, manage) in &parsed {
        let settings = settings(manage);
        let new = NewGroup {
            group_id: group.group_id,
            name: &group.name,
            description: &group.description,
            creator_id: None,
            date_created: None,
            settings: &settings,
        };
        let id = insert_group(conn, &new)
            .map_err(|error| entry_error("groups", *index, label, error))?;
        add_members(conn, id, &group.members)?;
        ids.insert(group.name.to_lowercase(), id);
    }
    for (index, label, group, manage) in &parsed {
        let mut subgroups = Vec::with_capacity(group.subgroups.len());
        for name in &group.subgroups {
            let id = match group_by_name(conn, name)? {
                Some(found) => found.group_id,
                None => {
                    let problem = format!("subgroup {name:?} is not a group");
                    return Err(entry_error("groups", *index, label, problem));
                }
            };
            subgroups.push(id);
        }
        if let Some(missing) = manage
            .groups()
            .into_iter()
            .find(|id| !ids.values().any(|known| known == id) && *id > system::INTERNET)
        {
            let problem = format!("can_manage_group: group {missing} is not a group");
            return Err(entry_error("groups", *index, label, problem));
        }
        let id = ids
            .get(&group.name.to_lowercase())
            .copied()
            .unwrap_or_default();
        add_subgroups(conn, id, &subgroups)?;
    }
    let graph = memberships(conn)?;
    for (index, label, group, _) in &parsed {
        let id = ids
            .get(&group.name.to_lowercase())
            .copied()
            .unwrap_or_default();
        if graph
            .recursive_subgroups(&graph.direct_subgroups(id))
            .contains(&id)
        {
            let problem = "its subgroups contain it (a cycle)";
            return Err(entry_error("groups", *index, label, problem));
        }
    }
    Ok(())
}

/// A seeded stream's group settings, checked once the groups exist.
fn stream_setting(
    conn: &Connection,
    name: &str,
    value: Option<&Value>,
    users: &HashSet<i64>,
) -> std::result::Result<Option<String>, String> {
    let Some(value) = value else {
        return Ok(None);
    };
    let setting = SettingValue::parse(name, value).map_err(|error| error.msg)?;
    if let Some(user) = setting.users().iter().find(|id| !users.contains(id)) {
        return Err(format!("{name}: {user} is not a user of this seed"));
    }
    for id in setting.groups() {
        if super::groups::group_by_id(conn, id)
            .map_err(|error| error.to_string())?
            .is_none()
        {
            return Err(format!("{name}: group {id} is not a group"));
        }
    }
    Ok(Some(setting.to_stored()))
}

pub fn set_stream_groups(
    conn: &Connection,
    streams: &[(usize, String, i64, SeedStream)],
    users: &HashSet<i64>,
) -> Result<()> {
    for (index, label, stream_id, stream) in streams {
        let fail = |problem: String| entry_error("streams", *index, label, problem);
        let setting = |name: &str, value: Option<&Value>| {
            stream_setting(conn, name, value, users).map_err(fail)
        };
        let groups = StreamGroupSettings {
            can_add_subscribers_group: setting(
                "can_add_subscribers_group",
                stream.can_add_subscribers_group.as_ref(),
            )?,
            can_remove_subscribers_group: setting(
                "can_remove_subscribers_group",
                stream.can_remove_subscribers_group.as_ref(),
            )?,
            can_subscribe_group: setting(
                "can_subscribe_group",
                stream.can_subscribe_group.as_ref(),
            )?,
            ..StreamGroupSettings::default()
        };
        if groups != StreamGroupSettings::default() {
            super::streams::set_stream_groups(conn, *stream_id, &groups)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::store::seed::{Seed, load_seed};
    use crate::store::{memberships, schema};

    fn load(groups: Value) -> Result<rusqlite::Connection, String> {
        load_with_streams(groups, json!([]))
    }

    fn load_with_streams(groups: Value, streams: Value) -> Result<rusqlite::Connection, String> {
        let mut conn = rusqlite::Connection::open_in_memory().map_err(|e| e.to_string())?;
        schema::migrate(&mut conn).map_err(|e| e.to_string())?;
        let seed: Seed = serde_json::from_value(json!({
            "realm": {"name": "G", "url": "http://g.localhost"},
            "users": [
                {"user_id": 1, "email": "a@g.test", "full_name": "Ann", "role": "owner"},
                {"user_id": 2, "email": "b@g.test", "full_name": "Bob", "role": "member"}
            ],
            "groups": groups,
            "streams": streams,
        }))
        .map_err(|e| e.to_string())?;
        load_seed(&conn, &seed).map_err(|e| e.to_string())?;
        Ok(conn)
    }

    #[test]
    fn groups_load_with_members_and_subgroups_by_name() {
        let conn = load(json!([
            {"group_id": 20, "name": "backend", "members": [2]},
            {"name": "engineering", "members": [1], "subgroups": ["backend", "role:owners"]}
        ]))
        .unwrap();
        let graph = memberships(&conn).unwrap();
        assert_eq!(
            graph.recursive_members(20).into_iter().collect::<Vec<_>>(),
            [2]
        );
        let engineering = crate::store::group_by_name(&conn, "Engineering")
            .unwrap()
            .unwrap();
        assert_eq!(graph.direct_subgroups(engineering.group_id), [2, 20]);
    }

    #[test]
    fn bad_groups_are_refused_by_entry() {
        let error = |groups: Value| load(groups).err().unwrap_or_default();
        assert!(error(json!([{"name": "x", "members": [9]}])).contains("member 9 is not a user"));
        assert!(error(json!([{"name": "role:x"}])).contains("cannot start with 'role:'"));
        assert!(error(json!([{"name": "a", "subgroups": ["zzz"]}])).contains("not a group"));
        assert!(error(json!([{"name": "a"}, {"name": "A"}])).contains("duplicate group name"));
        assert!(error(json!([{"group_id": 3, "name": "a"}])).contains("system group"));
        assert!(
            error(json!([
                {"name": "a", "subgroups": ["b"]},
                {"name": "b", "subgroups": ["a"]}
            ]))
            .contains("cycle")
        );
    }

    #[test]
    fn streams_name_groups_in_their_settings_once_the_groups_exist() {
        let groups = json!([{"group_id": 20, "name": "backend", "members": [2]}]);
        let conn = load_with_streams(
            groups.clone(),
            json!([{"stream_id": 5, "name": "ops", "invite_only": true,
                    "can_subscribe_group": 20,
                    "can_add_subscribers_group": {"direct_members": [1], "direct_subgroups": [20]}}]),
        )
        .unwrap();
        let stream = crate::store::stream_by_id(&conn, 5).unwrap().unwrap();
        assert_eq!(stream.groups.can_subscribe_group.as_deref(), Some("20"));
        assert_eq!(stream.groups.can_remove_subscribers_group, None);
        assert!(stream.groups.can_add_subscribers_group.is_some());
        let error = load_with_streams(
            groups,
            json!([{"name": "ops", "can_remove_subscribers_group": 99}]),
        )
        .err()
        .unwrap_or_default();
        assert!(
            error.contains("streams[0] (ops): can_remove_subscribers_group: group 99"),
            "{error}"
        );
    }
}
