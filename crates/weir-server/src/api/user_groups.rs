//! `GET /user_groups`, `POST /user_groups/create`, `PATCH /user_groups/{id}` and
//! `POST /user_groups/{id}/deactivate`, with Zulip 10's rules and messages.

use axum::extract::{Path, State};
use rusqlite::Connection;
use serde_json::{Map, Value, json};
use zulip_api::ZulipErrorCode;

use super::group_access::{
    check_setting_value, check_subgroups, check_users, group_for_update, int_list, may_create,
    parse_group_id, require_member, setting,
};
use super::{ApiResult, success};
use crate::AppState;
use crate::clock::now_unix;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::group_graph::GroupGraph;
use crate::rules::groups::{SettingValue, check_group_description, check_group_name};
use crate::rules::limits::MAX_PRINCIPALS;
use crate::store::{self, GROUP_SETTINGS, GroupRow, Memberships, NewGroup, UserRow, system};

/// Feature level from which a deactivated group's settings and description may change.
const EDIT_DEACTIVATED_LEVEL: u32 = 340;
/// `PATCH /user_groups/{id}` takes `deactivated=false`, which reactivates (Zulip 11).
const REACTIVATE_LEVEL: u32 = 386;

/// Feature level from which subgroups may be given on creation and in the members
/// endpoint (`add_subgroups`, `delete_subgroups`).
pub const SUBGROUPS_IN_MEMBERS_LEVEL: u32 = 311;

/// Most subgroups one request may name.
pub const MAX_SUBGROUPS: usize = 1_000;

/// A group as `GET /user_groups` and `register` show it: direct members and subgroups.
pub fn group_json(group: &GroupRow, graph: &Memberships) -> Value {
    let mut fields = Map::new();
    fields.insert("id".into(), json!(group.group_id));
    fields.insert("name".into(), json!(group.name));
    fields.insert("description".into(), json!(group.description));
    fields.insert("creator_id".into(), json!(group.creator_id));
    fields.insert("date_created".into(), json!(group.date_created));
    fields.insert(
        "members".into(),
        json!(graph.direct_members(group.group_id)),
    );
    fields.insert(
        "direct_subgroup_ids".into(),
        json!(graph.direct_subgroups(group.group_id)),
    );
    fields.insert("is_system_group".into(), json!(group.is_system));
    for name in GROUP_SETTINGS {
        fields.insert(name.into(), setting(group, name).to_json(graph));
    }
    fields.insert("deactivated".into(), json!(group.deactivated));
    Value::Object(fields)
}

/// The fields of a group Zulip added after its first groups, with their levels: below
/// it a field is left out, as that server would.
const FIELD_LEVELS: &[(&str, u32)] = &[
    ("is_system_group", 93),
    ("direct_subgroup_ids", 131),
    ("can_mention_group", 191),
    ("can_manage_group", 283),
    ("deactivated", 290),
    ("creator_id", 292),
    ("date_created", 292),
    ("can_join_group", 301),
    ("can_add_members_group", 305),
    ("can_leave_group", 308),
    ("can_remove_members_group", 324),
];

/// Feature level from which `can_mention_group` has its current name.
const CAN_MENTION_GROUP_NAME_LEVEL: u32 = 198;

/// [`group_json`] as a server at `level` shows it.
fn group_json_at(group: &GroupRow, graph: &Memberships, level: u32) -> Value {
    let mut value = group_json(group, graph);
    if let Some(fields) = value.as_object_mut() {
        for (name, since) in FIELD_LEVELS {
            if level < *since {
                fields.remove(*name);
            }
        }
        if level < CAN_MENTION_GROUP_NAME_LEVEL
            && let Some(mention) = fields.remove("can_mention_group")
        {
            fields.insert("can_mention_group_id".into(), mention);
        }
    }
    value
}

/// Every group, by id; deactivated ones only when asked for.
pub fn groups_json(
    conn: &Connection,
    include_deactivated: bool,
    level: u32,
) -> Result<Vec<Value>, Error> {
    let graph = store::memberships(conn)?;
    Ok(store::all_groups(conn)?
        .iter()
        .filter(|group| include_deactivated || !group.deactivated)
        .map(|group| group_json_at(group, &graph, level))
        .collect())
}

pub async fn list(State(state): State<AppState>, caller: Caller, mut params: Params) -> ApiResult {
    require_member(&caller)?;
    let include_deactivated = params.take_bool("include_deactivated_groups", false)?;
    let level = state.feature_level();
    let groups = state
        .store()
        .read(move |conn| groups_json(conn, include_deactivated, level))
        .await?;
    success(json!({ "user_groups": groups }), params.into_ignored())
}

struct NewGroupRequest {
    name: String,
    description: String,
    members: Vec<i64>,
    subgroups: Vec<i64>,
    settings: Vec<(&'static str, SettingValue)>,
}

pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let name = params.require_str("name")?;
    let description = params.require_str("description")?;
    let members = int_list(
        "members",
        Some(params.require_json("members")?),
        MAX_PRINCIPALS,
    )?;
    // Before level 311 Zulip took no `subgroups` here: it is then ignored, and reported.
    let subgroups = if state.feature_level() >= SUBGROUPS_IN_MEMBERS_LEVEL {
        int_list("subgroups", params.take_json("subgroups")?, MAX_SUBGROUPS)?
    } else {
        Vec::new()
    };
    let mut settings = Vec::new();
    for name in GROUP_SETTINGS {
        if let Some(value) = params.take_json(name)? {
            settings.push((name, SettingValue::parse(name, &value)?));
        }
    }
    check_group_description(&description)?;
    let request = NewGroupRequest {
        name,
        description,
        members,
        subgroups,
        settings,
    };
    let group_id = state
        .store()
        .write_with_groups(caller.user_id, false, move |conn, graph| {
            create_group(conn, graph, &caller, &request)
        })
        .await?;
    // Zulip added `group_id` at level 317; it is sent at every level, since the API
    // document requires it and older clients ignore it.
    success(json!({ "group_id": group_id }), params.into_ignored())
}

/// Zulip's defaults for a new group: its creator manages it and adds members; nobody
/// joins by themself; everyone may leave and mention it.
fn default_setting(name: &str, creator: i64) -> SettingValue {
    match name {
        "can_add_members_group" | "can_manage_group" => SettingValue::only(creator),
        "can_leave_group" | "can_mention_group" => SettingValue::Group(system::EVERYONE),
        _ => SettingValue::Group(system::NOBODY),
    }
}

fn name_taken(name: &str) -> Error {
    ApiError::bad_request(format!("User group '{name}' already exists.")).into()
}

fn create_group(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    request: &NewGroupRequest,
) -> Result<i64, Error> {
    may_create(graph, caller)?;
    check_users(graph, &request.members)?;
    let name = check_group_name(&request.name)?;
    for (setting_name, value) in &request.settings {
        check_setting_value(conn, graph, setting_name, value)?;
    }
    if store::group_by_name(conn, name)?.is_some() {
        return Err(name_taken(name));
    }
    check_subgroups(conn, &request.subgroups)?;
    let settings: [String; 6] = GROUP_SETTINGS.map(|setting_name| {
        request
            .settings
            .iter()
            .find(|(given, _)| *given == setting_name)
            .map_or_else(
                || default_setting(setting_name, caller.user_id),
                |(_, value)| value.clone(),
            )
            .to_stored()
    });
    let group_id = store::insert_group(
        conn,
        &NewGroup {
            group_id: None,
            name,
            description: &request.description,
            creator_id: Some(caller.user_id),
            date_created: Some(now_unix()),
            settings: &settings,
        },
    )?;
    store::add_members(conn, group_id, &request.members)?;
    store::add_subgroups(conn, group_id, &request.subgroups)?;
    Ok(group_id)
}

struct Update {
    name: Option<String>,
    description: Option<String>,
    /// Each setting's new value and, when given, the value the client expects now.
    settings: Vec<(&'static str, SettingValue, Option<SettingValue>)>,
    /// `deactivated=false` (Zulip 11): reactivate the group if it is deactivated.
    reactivate: bool,
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(group_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    let name = params.take_str("name");
    let description = params.take_str("description");
    if let Some(description) = &description {
        check_group_description(description)?;
    }
    let mut settings = Vec::new();
    for setting_name in GROUP_SETTINGS {
        let Some(value) = params.take_json(setting_name)? else {
            continue;
        };
        let fields = value.as_object();
        let new = fields
            .and_then(|fields| fields.get("new"))
            .ok_or_else(|| ApiError::bad_request(format!("Invalid {setting_name}")))?;
        let new = SettingValue::parse(setting_name, new)?;
        let old = match fields.and_then(|fields| fields.get("old")) {
            Some(old) => Some(SettingValue::parse(setting_name, old)?),
            None => None,
        };
        settings.push((setting_name, new, old));
    }
    let level = state.feature_level();
    let deactivated = if level >= REACTIVATE_LEVEL && params.has("deactivated") {
        Some(params.take_bool("deactivated", true)?)
    } else {
        None
    };
    if name.is_none() && description.is_none() && settings.is_empty() && deactivated.is_none() {
        return Err(ApiError::bad_request("No new data supplied").into());
    }
    let request = Update {
        name,
        description,
        settings,
        reactivate: deactivated == Some(false),
    };
    state
        .store()
        .write_with_groups(caller.user_id, false, move |conn, graph| {
            update_group(conn, graph, &caller, group_id, &request, level)
        })
        .await?;
    success(Value::Null, params.into_ignored())
}

fn update_group(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    group_id: i64,
    request: &Update,
    level: u32,
) -> Result<(), Error> {
    // Renaming a deactivated group was always allowed; the rest from level 340.
    let only_name =
        request.description.is_none() && request.settings.is_empty() && !request.reactivate;
    let allow_deactivated = only_name || level >= EDIT_DEACTIVATED_LEVEL;
    let group = group_for_update(
        conn,
        graph,
        caller,
        group_id,
        "can_manage_group",
        allow_deactivated,
    )?;
    if let Some(name) = request.name.as_deref().filter(|name| *name != group.name) {
        let name = check_group_name(name)?;
        if store::group_by_name(conn, name)?.is_some_and(|other| other.group_id != group_id) {
            return Err(name_taken(name));
        }
        store::rename_group(conn, group_id, name)?;
    }
    if let Some(description) = &request.description {
        store::set_description(conn, group_id, description)?;
    }
    // `deactivated=true` changes nothing here, as in Zulip: deactivating has its endpoint.
    if request.reactivate && group.deactivated {
        store::set_deactivated(conn, group_id, false)?;
    }
    for (setting_name, new, old) in &request.settings {
        let current = setting(&group, setting_name);
        if let Some(old) = old
            && !same_value(old, &current, graph)
        {
            return Err(
                ApiError::bad_request("'old' value does not match the expected value.")
                    .code(ZulipErrorCode::ExpectationMismatch)
                    .into(),
            );
        }
        if *new == current {
            continue;
        }
        check_setting_value(conn, graph, setting_name, new)?;
        store::set_setting(conn, group_id, setting_name, &new.to_stored())?;
    }
    Ok(())
}

/// Values compared as the API shows them (deactivated users left out).
fn same_value(a: &SettingValue, b: &SettingValue, graph: &Memberships) -> bool {
    a.to_json(graph) == b.to_json(graph)
}

pub async fn deactivate(
    State(state): State<AppState>,
    caller: Caller,
    Path(group_id): Path<String>,
    params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    state
        .store()
        .write_with_groups(caller.user_id, false, move |conn, graph| {
            deactivate_group(conn, graph, &caller, group_id)
        })
        .await?;
    success(Value::Null, params.into_ignored())
}

fn deactivate_group(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    group_id: i64,
) -> Result<(), Error> {
    group_for_update(conn, graph, caller, group_id, "can_manage_group", false)?;
    let objections = objections(conn, graph, group_id)?;
    if !objections.is_empty() {
        return Err(
            ApiError::bad_request("Cannot deactivate user group in use.")
                .code(ZulipErrorCode::CannotDeactivateGroupInUse)
                .with("objections", objections)
                .into(),
        );
    }
    store::set_deactivated(conn, group_id, true)?;
    Ok(())
}

/// Where an active group or a stream uses this one: as a subgroup, or in a setting, in
/// Zulip's order (subgroups, channels, groups). Realm settings in Weir name system
/// groups only, which cannot be deactivated.
fn objections(conn: &Connection, graph: &Memberships, group_id: i64) -> Result<Vec<Value>, Error> {
    let active: Vec<GroupRow> = store::all_groups(conn)?
        .into_iter()
        .filter(|group| !group.deactivated && group.group_id != group_id)
        .collect();
    let mut objections = Vec::new();
    let supergroups: Vec<i64> = active
        .iter()
        .filter(|group| {
            graph
                .subgroups
                .get(&group.group_id)
                .is_some_and(|subgroups| subgroups.contains(&group_id))
        })
        .map(|group| group.group_id)
        .collect();
    if !supergroups.is_empty() {
        objections.push(json!({"type": "subgroup", "supergroup_ids": supergroups}));
    }
    for stream in store::all_streams(conn)? {
        let settings: Vec<&str> = super::channel_groups::STREAM_GROUP_SETTINGS
            .into_iter()
            .filter(|name| {
                super::channel_groups::setting_value(&stream, name)
                    .groups()
                    .contains(&group_id)
            })
            .collect();
        if !settings.is_empty() {
            objections.push(json!({
                "type": "channel", "channel_id": stream.stream_id, "settings": settings,
            }));
        }
    }
    for group in &active {
        let settings: Vec<&str> = GROUP_SETTINGS
            .into_iter()
            .filter(|name| setting(group, name).groups().contains(&group_id))
            .collect();
        if !settings.is_empty() {
            objections.push(json!({
                "type": "user_group", "group_id": group.group_id, "settings": settings,
            }));
        }
    }
    Ok(objections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_newer_than_the_level_are_left_out() {
        let group = GroupRow {
            group_id: 9,
            name: "g".into(),
            description: String::new(),
            is_system: false,
            deactivated: false,
            creator_id: None,
            date_created: None,
            settings: std::array::from_fn(|_| "1".to_owned()),
        };
        let graph = Memberships::default();
        let keys = |level: u32| -> Vec<String> {
            let value = group_json_at(&group, &graph, level);
            let mut keys: Vec<String> = value
                .as_object()
                .map(|fields| fields.keys().cloned().collect())
                .unwrap_or_default();
            keys.sort();
            keys
        };
        assert_eq!(keys(362).len(), 15);
        assert!(!keys(300).contains(&"can_join_group".to_owned()));
        assert!(keys(300).contains(&"deactivated".to_owned()));
        assert!(keys(195).contains(&"can_mention_group_id".to_owned()));
        assert_eq!(keys(90), ["description", "id", "members", "name"]);
    }

    #[test]
    fn new_groups_default_to_their_creator_managing_them() {
        assert_eq!(
            default_setting("can_manage_group", 5),
            SettingValue::only(5)
        );
        assert_eq!(
            default_setting("can_add_members_group", 5),
            SettingValue::only(5)
        );
        assert_eq!(
            default_setting("can_join_group", 5),
            SettingValue::Group(system::NOBODY)
        );
        assert_eq!(
            default_setting("can_leave_group", 5),
            SettingValue::Group(system::EVERYONE)
        );
        assert_eq!(
            default_setting("can_remove_members_group", 5),
            SettingValue::Group(system::NOBODY)
        );
    }
}
