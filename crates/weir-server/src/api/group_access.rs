//! Who may read and change which user group, at Zulip 10's defaults: the realm's
//! `can_create_groups` is `role:members` and `can_manage_all_groups` is `role:owners`;
//! a group's own settings grant the rest.

use rusqlite::Connection;
use serde_json::Value;

use crate::error::{ApiError, Error};
use crate::http::params::as_list;
use crate::rules::group_graph::GroupGraph;
use crate::rules::groups::SettingValue;
use crate::store::{self, GROUP_SETTINGS, GroupRow, Memberships, UserRow, system};

/// The realm's `can_create_groups` at Zulip 10's default.
pub const CAN_CREATE_GROUPS: i64 = system::MEMBERS;
/// The realm's `can_manage_all_groups` at Zulip 10's default.
pub const CAN_MANAGE_ALL_GROUPS: i64 = system::OWNERS;

/// Zulip's `require_member_or_admin`: every groups endpoint refuses guests and bots.
pub fn require_member(caller: &UserRow) -> Result<(), ApiError> {
    if caller.is_guest() {
        return Err(ApiError::bad_request("Not allowed for guest users"));
    }
    if caller.bot_type.is_some() {
        return Err(ApiError::bad_request(
            "This endpoint does not accept bot requests.",
        ));
    }
    Ok(())
}

/// A group id from the path; anything else names no group.
pub fn parse_group_id(text: &str) -> Result<i64, ApiError> {
    text.parse()
        .map_err(|_| ApiError::bad_request("Invalid user group"))
}

fn insufficient() -> Error {
    ApiError::bad_request("Insufficient permission").into()
}

/// The group, if it exists and (unless allowed) is not deactivated.
pub fn group_for_read(
    conn: &Connection,
    group_id: i64,
    allow_deactivated: bool,
) -> Result<GroupRow, Error> {
    let group = store::group_by_id(conn, group_id)?
        .ok_or_else(|| ApiError::bad_request("Invalid user group"))?;
    if group.deactivated && !allow_deactivated {
        return Err(ApiError::bad_request("User group is deactivated.").into());
    }
    Ok(group)
}

/// The value of one of a group's settings by name.
pub fn setting(group: &GroupRow, name: &str) -> SettingValue {
    GROUP_SETTINGS
        .iter()
        .position(|known| *known == name)
        .and_then(|index| group.settings.get(index))
        .map_or(SettingValue::Group(system::NOBODY), |text| {
            SettingValue::from_stored(text)
        })
}

/// Zulip's `access_user_group_for_update`: system groups are nobody's to change; those
/// who may manage all groups or this one may do anything; otherwise `permission` decides.
pub fn group_for_update(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    group_id: i64,
    permission: &str,
    allow_deactivated: bool,
) -> Result<GroupRow, Error> {
    let group = group_for_read(conn, group_id, allow_deactivated)?;
    if group.is_system {
        return Err(insufficient());
    }
    if may_manage(graph, caller, &group) {
        return Ok(group);
    }
    if permission != "can_manage_group" && graph.holds(&setting(&group, permission), caller.user_id)
    {
        return Ok(group);
    }
    Err(insufficient())
}

/// Whether the caller may manage the group (and so do anything to it).
pub fn may_manage(graph: &GroupGraph, caller: &UserRow, group: &GroupRow) -> bool {
    !group.is_system
        && (graph.holds(&SettingValue::Group(CAN_MANAGE_ALL_GROUPS), caller.user_id)
            || graph.holds(&setting(group, "can_manage_group"), caller.user_id))
}

pub fn may_create(graph: &GroupGraph, caller: &UserRow) -> Result<(), Error> {
    if graph.holds(&SettingValue::Group(CAN_CREATE_GROUPS), caller.user_id) {
        return Ok(());
    }
    Err(insufficient())
}

/// Zulip's `user_ids_to_users` for group members: each id an active user of the realm.
pub fn check_users(graph: &Memberships, user_ids: &[i64]) -> Result<(), ApiError> {
    match user_ids.iter().find(|id| !graph.active.contains_key(id)) {
        Some(id) => Err(ApiError::bad_request(format!("Invalid user ID: {id}"))),
        None => Ok(()),
    }
}

/// Groups that may become subgroups: existing and active.
pub fn check_subgroups(conn: &Connection, group_ids: &[i64]) -> Result<(), Error> {
    for id in group_ids {
        match store::group_by_id(conn, *id)? {
            None => {
                return Err(ApiError::bad_request(format!("Invalid user group ID: {id}")).into());
            }
            Some(group) if group.deactivated => {
                return Err(ApiError::bad_request("User group is deactivated.").into());
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Checks a setting's new value as Zulip's `access_user_group_for_setting` does: the
/// groups it names exist and are active, its users are active, and the system groups
/// the setting refuses are not used.
pub fn check_setting_value(
    conn: &Connection,
    graph: &Memberships,
    name: &str,
    value: &SettingValue,
) -> Result<(), Error> {
    check_users(graph, &value.users())?;
    for id in value.groups() {
        let group = match store::group_by_id(conn, id)? {
            Some(group) if !group.deactivated => group,
            Some(_) => return Err(ApiError::bad_request("User group is deactivated.").into()),
            None => {
                return Err(ApiError::bad_request(format!("Invalid user group ID: {id}")).into());
            }
        };
        let refused = group.group_id == system::INTERNET
            || (name == "can_manage_group" && group.group_id == system::EVERYONE);
        if refused && matches!(value, SettingValue::Group(_)) {
            return Err(ApiError::bad_request(format!(
                "'{name}' setting cannot be set to '{}' group.",
                group.name
            ))
            .into());
        }
    }
    Ok(())
}

/// A JSON list of integers, bounded, with Zulip's messages for wrong shapes.
pub fn int_list(name: &str, value: Option<Value>, max: usize) -> Result<Vec<i64>, ApiError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items = as_list(name, value)?;
    crate::rules::limits::check_list_len(name, items.len(), max)?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            item.as_i64()
                .ok_or_else(|| ApiError::bad_request(format!("{name}[{index}] is not an integer")))
        })
        .collect()
}
