//! User groups: named groups, their direct members and subgroups. The role-based system
//! groups (ids 1 to 8, created by the schema) store no members: theirs are derived from
//! the users' roles each time, so a role change never leaves a group stale.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::{Connection, OptionalExtension, Row, params};
use zulip_api::Role;

use super::streams::name_key;
use crate::error::Result;

/// Ids of Zulip's system groups, fixed in Weir (the schema creates them).
pub mod system {
    pub const NOBODY: i64 = 1;
    pub const OWNERS: i64 = 2;
    pub const ADMINISTRATORS: i64 = 3;
    pub const MODERATORS: i64 = 4;
    pub const FULL_MEMBERS: i64 = 5;
    pub const MEMBERS: i64 = 6;
    pub const EVERYONE: i64 = 7;
    pub const INTERNET: i64 = 8;
}

/// The permission settings of a group, in the order of [`GroupRow::settings`].
pub const GROUP_SETTINGS: [&str; 6] = [
    "can_add_members_group",
    "can_join_group",
    "can_leave_group",
    "can_manage_group",
    "can_mention_group",
    "can_remove_members_group",
];

/// A group as stored; settings are group-setting values as JSON text.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRow {
    pub group_id: i64,
    pub name: String,
    pub description: String,
    pub is_system: bool,
    pub deactivated: bool,
    pub creator_id: Option<i64>,
    pub date_created: Option<i64>,
    pub settings: [String; 6],
}

const COLUMNS: &str = "group_id, name, description, is_system, deactivated, creator_id, \
                       date_created, can_add_members_group, can_join_group, can_leave_group, \
                       can_manage_group, can_mention_group, can_remove_members_group";

fn from_row(row: &Row<'_>) -> rusqlite::Result<GroupRow> {
    Ok(GroupRow {
        group_id: row.get(0)?,
        name: row.get(1)?,
        description: row.get(2)?,
        is_system: row.get(3)?,
        deactivated: row.get(4)?,
        creator_id: row.get(5)?,
        date_created: row.get(6)?,
        settings: [
            row.get(7)?,
            row.get(8)?,
            row.get(9)?,
            row.get(10)?,
            row.get(11)?,
            row.get(12)?,
        ],
    })
}

pub fn all_groups(conn: &Connection) -> Result<Vec<GroupRow>> {
    let sql = format!("SELECT {COLUMNS} FROM user_groups ORDER BY group_id");
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn group_by_id(conn: &Connection, group_id: i64) -> Result<Option<GroupRow>> {
    let sql = format!("SELECT {COLUMNS} FROM user_groups WHERE group_id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([group_id], from_row)
        .optional()?)
}

pub fn group_by_name(conn: &Connection, name: &str) -> Result<Option<GroupRow>> {
    let sql = format!("SELECT {COLUMNS} FROM user_groups WHERE name_key = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([name_key(name)], from_row)
        .optional()?)
}

/// The membership graph of every group: direct members (active users only, as Zulip
/// shows them from feature level 303) and direct subgroups.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Memberships {
    pub members: BTreeMap<i64, BTreeSet<i64>>,
    pub subgroups: BTreeMap<i64, BTreeSet<i64>>,
    /// Every active user (system bots aside), with their role.
    pub active: BTreeMap<i64, Role>,
}

/// The system groups a role makes a direct member of, as Zulip's
/// `get_system_user_group_for_user`: one per role, and `role:fullmembers` too for members
/// (Weir's realm has no waiting period, so every member is a full member).
fn system_groups_of(role: Role) -> &'static [i64] {
    match role {
        Role::Owner => &[system::OWNERS],
        Role::Administrator => &[system::ADMINISTRATORS],
        Role::Moderator => &[system::MODERATORS],
        Role::Member => &[system::MEMBERS, system::FULL_MEMBERS],
        Role::Guest => &[system::EVERYONE],
    }
}

pub fn memberships(conn: &Connection) -> Result<Memberships> {
    let mut graph = Memberships::default();
    let mut statement = conn.prepare_cached(
        "SELECT user_id, role FROM users WHERE is_active = 1 AND is_system_bot = 0",
    )?;
    let rows = statement.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, u16>(1)?)))?;
    for row in rows {
        let (user_id, code) = row?;
        let role = Role::from_code(code).unwrap_or(Role::Member);
        graph.active.insert(user_id, role);
        for group in system_groups_of(role) {
            graph.members.entry(*group).or_default().insert(user_id);
        }
    }
    let mut statement = conn.prepare_cached("SELECT group_id, user_id FROM user_group_members")?;
    let rows = statement.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)))?;
    for row in rows {
        let (group_id, user_id) = row?;
        if graph.active.contains_key(&user_id) {
            graph.members.entry(group_id).or_default().insert(user_id);
        }
    }
    let mut statement =
        conn.prepare_cached("SELECT group_id, subgroup_id FROM user_group_subgroups")?;
    let rows = statement.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)))?;
    for row in rows {
        let (group_id, subgroup_id) = row?;
        graph
            .subgroups
            .entry(group_id)
            .or_default()
            .insert(subgroup_id);
    }
    Ok(graph)
}

/// A group to insert; `group_id: None` lets SQLite choose.
#[derive(Debug, Clone)]
pub struct NewGroup<'a> {
    pub group_id: Option<i64>,
    pub name: &'a str,
    pub description: &'a str,
    pub creator_id: Option<i64>,
    pub date_created: Option<i64>,
    pub settings: &'a [String; 6],
}

pub fn insert_group(conn: &Connection, group: &NewGroup<'_>) -> Result<i64> {
    let [add, join, leave, manage, mention, remove] = group.settings;
    conn.execute(
        "INSERT INTO user_groups (group_id, name, name_key, description, creator_id,
             date_created, can_add_members_group, can_join_group, can_leave_group,
             can_manage_group, can_mention_group, can_remove_members_group)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            group.group_id,
            group.name,
            name_key(group.name),
            group.description,
            group.creator_id,
            group.date_created,
            add,
            join,
            leave,
            manage,
            mention,
            remove
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

pub fn add_members(conn: &Connection, group_id: i64, user_ids: &[i64]) -> Result<()> {
    let mut statement = conn.prepare_cached(
        "INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?1, ?2)",
    )?;
    for user_id in user_ids {
        statement.execute([group_id, *user_id])?;
    }
    Ok(())
}

pub fn remove_members(conn: &Connection, group_id: i64, user_ids: &[i64]) -> Result<()> {
    let mut statement =
        conn.prepare_cached("DELETE FROM user_group_members WHERE group_id = ?1 AND user_id = ?2")?;
    for user_id in user_ids {
        statement.execute([group_id, *user_id])?;
    }
    Ok(())
}

pub fn add_subgroups(conn: &Connection, group_id: i64, subgroup_ids: &[i64]) -> Result<()> {
    let mut statement = conn.prepare_cached(
        "INSERT OR IGNORE INTO user_group_subgroups (group_id, subgroup_id) VALUES (?1, ?2)",
    )?;
    for subgroup_id in subgroup_ids {
        statement.execute([group_id, *subgroup_id])?;
    }
    Ok(())
}

pub fn remove_subgroups(conn: &Connection, group_id: i64, subgroup_ids: &[i64]) -> Result<()> {
    let mut statement = conn.prepare_cached(
        "DELETE FROM user_group_subgroups WHERE group_id = ?1 AND subgroup_id = ?2",
    )?;
    for subgroup_id in subgroup_ids {
        statement.execute([group_id, *subgroup_id])?;
    }
    Ok(())
}

pub fn rename_group(conn: &Connection, group_id: i64, name: &str) -> Result<()> {
    conn.execute(
        "UPDATE user_groups SET name = ?2, name_key = ?3 WHERE group_id = ?1",
        params![group_id, name, name_key(name)],
    )?;
    Ok(())
}

pub fn set_description(conn: &Connection, group_id: i64, description: &str) -> Result<()> {
    conn.execute(
        "UPDATE user_groups SET description = ?2 WHERE group_id = ?1",
        params![group_id, description],
    )?;
    Ok(())
}

/// Sets one of [`GROUP_SETTINGS`]; any other name changes nothing.
pub fn set_setting(conn: &Connection, group_id: i64, setting: &str, value: &str) -> Result<()> {
    if !GROUP_SETTINGS.contains(&setting) {
        return Ok(());
    }
    // The column name comes from the fixed list above, never from the request.
    let sql = format!("UPDATE user_groups SET {setting} = ?2 WHERE group_id = ?1");
    conn.execute(&sql, params![group_id, value])?;
    Ok(())
}

pub fn set_deactivated(conn: &Connection, group_id: i64, deactivated: bool) -> Result<()> {
    conn.execute(
        "UPDATE user_groups SET deactivated = ?2 WHERE group_id = ?1",
        params![group_id, deactivated],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::schema::migrate;

    fn database() -> Result<Connection> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn)?;
        conn.execute_batch(
            "INSERT INTO users (user_id, email, email_key, full_name, role, api_key, date_joined)
                 VALUES (1, 'o@x.test', 'o@x.test', 'O', 100, 'k1', '2026-01-01'),
                        (2, 'g@x.test', 'g@x.test', 'G', 600, 'k2', '2026-01-01'),
                        (3, 'm@x.test', 'm@x.test', 'M', 400, 'k3', '2026-01-01');
             UPDATE users SET is_active = 0 WHERE user_id = 3;",
        )?;
        Ok(conn)
    }

    #[test]
    fn system_groups_exist_and_take_members_from_roles() -> Result<()> {
        let conn = database()?;
        let names: Vec<String> = all_groups(&conn)?.into_iter().map(|g| g.name).collect();
        assert_eq!(names.len(), 8);
        assert!(names.contains(&"role:fullmembers".to_owned()));
        let graph = memberships(&conn)?;
        assert_eq!(
            graph.members.get(&system::OWNERS),
            Some(&BTreeSet::from([1]))
        );
        assert_eq!(
            graph.members.get(&system::EVERYONE),
            Some(&BTreeSet::from([2]))
        );
        // A deactivated member is in no group.
        assert_eq!(graph.members.get(&system::FULL_MEMBERS), None);
        assert_eq!(graph.members.get(&system::MEMBERS), None);
        assert_eq!(
            graph.subgroups.get(&system::ADMINISTRATORS),
            Some(&BTreeSet::from([system::OWNERS]))
        );
        Ok(())
    }

    #[test]
    fn stored_members_of_deactivated_users_are_left_out_and_names_are_case_blind() -> Result<()> {
        let conn = database()?;
        let settings: [String; 6] = std::array::from_fn(|_| "1".to_owned());
        let id = insert_group(
            &conn,
            &NewGroup {
                group_id: None,
                name: "Backend",
                description: "",
                creator_id: Some(1),
                date_created: Some(5),
                settings: &settings,
            },
        )?;
        assert!(id > system::INTERNET);
        add_members(&conn, id, &[1, 3])?;
        assert_eq!(
            memberships(&conn)?.members.get(&id),
            Some(&BTreeSet::from([1]))
        );
        assert_eq!(
            group_by_name(&conn, "BACKEND")?.map(|g| g.group_id),
            Some(id)
        );
        set_setting(&conn, id, "can_join_group", "7")?;
        set_setting(&conn, id, "name; DROP TABLE users", "7")?;
        let row = group_by_id(&conn, id)?;
        assert_eq!(row.map(|g| g.settings[1].clone()), Some("7".to_owned()));
        Ok(())
    }
}
