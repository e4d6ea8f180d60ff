//! Members and subgroups of a user group: `POST/GET /user_groups/{id}/members`,
//! `GET /user_groups/{id}/members/{user_id}` and `POST/GET /user_groups/{id}/subgroups`.
//! A request's changes are applied all or nothing, checked in Zulip's order.

use axum::extract::{Path, State};
use rusqlite::Connection;
use serde_json::{Value, json};

use super::group_access::{
    check_subgroups, check_users, group_for_read, group_for_update, int_list, parse_group_id,
    require_member,
};
use super::user_groups::{MAX_SUBGROUPS, SUBGROUPS_IN_MEMBERS_LEVEL};
use super::{ApiResult, success};
use crate::AppState;
use crate::compose::{Notice, deliver_notices};
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::group_graph::GroupGraph;
use crate::rules::limits::MAX_PRINCIPALS;
use crate::store::{self, GroupRow, Memberships, UserRow};

/// One request's changes to a group.
#[derive(Debug, Default)]
struct Changes {
    add: Vec<i64>,
    delete: Vec<i64>,
    add_subgroups: Vec<i64>,
    delete_subgroups: Vec<i64>,
    /// Whether a deactivated group's members and subgroups may change (Zulip 11).
    deactivated_allowed: bool,
}

/// From this level a deactivated group's members and subgroups may change (Zulip 11).
const EDIT_DEACTIVATED_MEMBERS_LEVEL: u32 = 391;

impl Changes {
    fn is_empty(&self) -> bool {
        self.add.is_empty()
            && self.delete.is_empty()
            && self.add_subgroups.is_empty()
            && self.delete_subgroups.is_empty()
    }
}

pub async fn update_members(
    State(state): State<AppState>,
    caller: Caller,
    Path(group_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    let mut changes = Changes {
        add: int_list("add", params.take_json("add")?, MAX_PRINCIPALS)?,
        delete: int_list("delete", params.take_json("delete")?, MAX_PRINCIPALS)?,
        deactivated_allowed: state.feature_level() >= EDIT_DEACTIVATED_MEMBERS_LEVEL,
        ..Changes::default()
    };
    // Before level 311 Zulip took no subgroups here: they are then ignored, and reported.
    let with_subgroups = state.feature_level() >= SUBGROUPS_IN_MEMBERS_LEVEL;
    if with_subgroups {
        changes.add_subgroups = int_list(
            "add_subgroups",
            params.take_json("add_subgroups")?,
            MAX_SUBGROUPS,
        )?;
        changes.delete_subgroups = int_list(
            "delete_subgroups",
            params.take_json("delete_subgroups")?,
            MAX_SUBGROUPS,
        )?;
    }
    if changes.is_empty() {
        return Err(ApiError::bad_request(if with_subgroups {
            "Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \
             \"delete_subgroups\"."
        } else {
            "Nothing to do. Specify at least one of \"add\" or \"delete\"."
        })
        .into());
    }
    let heavy = changes.add.len() + changes.delete.len() > 100;
    let notices = state
        .store()
        .write_with_groups(caller.user_id, heavy, move |conn, graph| {
            apply(conn, graph, &caller, group_id, &changes)
        })
        .await?;
    // Rendered off the writer, after it, and stored by a write of their own.
    deliver_notices(state.store(), notices).await?;
    success(Value::Null, params.into_ignored())
}

pub async fn update_subgroups(
    State(state): State<AppState>,
    caller: Caller,
    Path(group_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    let changes = Changes {
        add_subgroups: int_list("add", params.take_json("add")?, MAX_SUBGROUPS)?,
        delete_subgroups: int_list("delete", params.take_json("delete")?, MAX_SUBGROUPS)?,
        deactivated_allowed: state.feature_level() >= EDIT_DEACTIVATED_MEMBERS_LEVEL,
        ..Changes::default()
    };
    if changes.is_empty() {
        return Err(ApiError::bad_request(
            "Nothing to do. Specify at least one of \"add\" or \"delete\".",
        )
        .into());
    }
    let notices = state
        .store()
        .write_with_groups(caller.user_id, false, move |conn, graph| {
            apply(conn, graph, &caller, group_id, &changes)
        })
        .await?;
    deliver_notices(state.store(), notices).await?;
    success(Value::Null, params.into_ignored())
}

/// Zulip's check of a member change: acting on oneself alone is joining or leaving
/// (`own`), and whoever may add or remove anyone (`others`) may do that too; acting on
/// others is `others` alone. Returns the group.
fn group_for_member_change(
    target: &Target<'_>,
    ids: &[i64],
    own: &'static str,
    others: &'static str,
) -> Result<GroupRow, Error> {
    let check = |permission| {
        group_for_update(
            target.conn,
            target.graph,
            target.caller,
            target.group_id,
            permission,
            target.deactivated_allowed,
        )
    };
    if ids == [target.caller.user_id] {
        check(own).or_else(|_| check(others))
    } else {
        check(others)
    }
}

/// Applies the changes; Notification Bot's notices to the people added or removed.
fn apply(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    group_id: i64,
    changes: &Changes,
) -> Result<Vec<Notice>, Error> {
    let target = Target {
        conn,
        graph,
        caller,
        group_id,
        deactivated_allowed: changes.deactivated_allowed,
    };
    let mut name = None;
    if !changes.add.is_empty() {
        name = Some(target.change_members(&changes.add, true, &[])?);
    }
    if !changes.delete.is_empty() {
        // Members the same request added count as members.
        name = Some(target.change_members(&changes.delete, false, &changes.add)?);
    }
    if !changes.add_subgroups.is_empty() {
        target.change_subgroups(&changes.add_subgroups, true, &[])?;
    }
    if !changes.delete_subgroups.is_empty() {
        target.change_subgroups(&changes.delete_subgroups, false, &changes.add_subgroups)?;
    }
    let mut notices = Vec::new();
    if let Some(name) = name {
        notices.extend(tell(conn, caller, &name, &changes.add, "added you to")?);
        notices.extend(tell(
            conn,
            caller,
            &name,
            &changes.delete,
            "removed you from",
        )?);
    }
    Ok(notices)
}

/// Zulip's error for the first id `refused`, if any.
fn refuse_first(
    ids: &[i64],
    refused: impl Fn(i64) -> bool,
    message: impl Fn(i64) -> String,
) -> Result<(), Error> {
    match ids.iter().find(|id| refused(**id)) {
        Some(id) => Err(ApiError::bad_request(message(*id)).into()),
        None => Ok(()),
    }
}

/// The group a request changes, and who changes it.
struct Target<'a> {
    conn: &'a Connection,
    graph: &'a GroupGraph,
    caller: &'a UserRow,
    group_id: i64,
    deactivated_allowed: bool,
}

impl Target<'_> {
    /// Adds (`add`) or removes members, checked in Zulip's order: permission, users, then
    /// membership (`added`: members this request already added). Returns the group's name.
    fn change_members(&self, ids: &[i64], add: bool, added: &[i64]) -> Result<String, Error> {
        let Self {
            conn,
            graph,
            group_id,
            ..
        } = *self;
        let name = if add {
            group_for_member_change(self, ids, "can_join_group", "can_add_members_group")
        } else {
            group_for_member_change(self, ids, "can_leave_group", "can_remove_members_group")
        }?
        .name;
        check_users(graph, ids)?;
        let member = |id: i64| graph.is_member(group_id, id, true) || added.contains(&id);
        if add {
            refuse_first(ids, member, |id| {
                format!("User {id} is already a member of this group")
            })?;
            store::add_members(conn, group_id, ids)?;
        } else {
            refuse_first(
                ids,
                |id| !member(id),
                |id| format!("There is no member '{id}' in this user group"),
            )?;
            store::remove_members(conn, group_id, ids)?;
        }
        Ok(name)
    }

    /// Adds (`add`) or removes direct subgroups, checked in Zulip's order (`added`:
    /// subgroups this request already added); an addition may not make a cycle.
    fn change_subgroups(&self, ids: &[i64], add: bool, added: &[i64]) -> Result<(), Error> {
        let Self {
            conn,
            graph,
            caller,
            group_id,
            deactivated_allowed,
        } = *self;
        let permission = if add {
            "can_add_members_group"
        } else {
            "can_remove_members_group"
        };
        group_for_update(
            conn,
            graph,
            caller,
            group_id,
            permission,
            deactivated_allowed,
        )?;
        check_subgroups(conn, ids)?;
        let direct = graph.subgroups.get(&group_id);
        let subgroup =
            |id: i64| direct.is_some_and(|direct| direct.contains(&id)) || added.contains(&id);
        if !add {
            refuse_first(
                ids,
                |id| !subgroup(id),
                |id| format!("User group {id} is not a subgroup of this group."),
            )?;
            return store::remove_subgroups(conn, group_id, ids);
        }
        refuse_first(ids, subgroup, |id| {
            format!("User group {id} is already a subgroup of this group.")
        })?;
        if graph.recursive_subgroups(ids).contains(&group_id) {
            return Err(ApiError::bad_request(format!(
                "User group {group_id} is already a subgroup of one of the passed subgroups."
            ))
            .into());
        }
        store::add_subgroups(conn, group_id, ids)
    }
}

/// Zulip's direct message from Notification Bot to the people someone else added to or
/// removed from a group (not to the actor, bots or deactivated users), rendered once for
/// all as the actor sees channels: a group named `ops #**vault** team` links `vault`
/// only for an actor who can see it.
fn tell(
    conn: &Connection,
    caller: &UserRow,
    group_name: &str,
    user_ids: &[i64],
    what: &str,
) -> Result<Option<Notice>, Error> {
    let mut recipients = Vec::new();
    for id in user_ids.iter().filter(|id| **id != caller.user_id) {
        if let Some(user) = store::user_by_id(conn, *id)?
            && user.is_active
            && user.bot_type.is_none()
        {
            recipients.push(user.user_id);
        }
    }
    if recipients.is_empty() {
        return Ok(None);
    }
    let text = format!(
        "@_**{}|{}** {what} the group @_*{group_name}*.",
        caller.full_name, caller.user_id
    );
    Ok(Some(Notice {
        recipients,
        text,
        seen_by: Some(caller.clone()),
    }))
}

/// `GET /user_groups/{id}/members`: user ids, through subgroups unless
/// `direct_member_only`.
pub async fn members(
    State(state): State<AppState>,
    caller: Caller,
    Path(group_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    let direct_only = params.take_bool("direct_member_only", false)?;
    let members = state
        .store()
        .read(move |conn| {
            group_for_read(conn, group_id, false)?;
            let graph = store::memberships(conn)?;
            Ok::<_, Error>(member_ids(&graph, group_id, direct_only))
        })
        .await?;
    success(json!({ "members": members }), params.into_ignored())
}

fn member_ids(graph: &Memberships, group_id: i64, direct_only: bool) -> Vec<i64> {
    if direct_only {
        graph.direct_members(group_id)
    } else {
        graph.recursive_members(group_id).into_iter().collect()
    }
}

/// `GET /user_groups/{id}/members/{user_id}`.
pub async fn is_member(
    State(state): State<AppState>,
    caller: Caller,
    Path((group_id, user_id)): Path<(String, String)>,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    let user_id: Option<i64> = user_id.parse().ok();
    let direct_only = params.take_bool("direct_member_only", false)?;
    let answer = state
        .store()
        .read(move |conn| {
            group_for_read(conn, group_id, false)?;
            // Zulip's `access_user_by_id` without bots or deactivated users.
            let user = match user_id {
                Some(id) => store::user_by_id(conn, id)?,
                None => None,
            }
            .filter(|user| user.bot_type.is_none() && !user.is_system_bot)
            .ok_or_else(|| ApiError::bad_request("No such user"))?;
            if !user.is_active {
                return Err(ApiError::bad_request("User is deactivated").into());
            }
            let graph = store::memberships(conn)?;
            Ok::<_, Error>(graph.is_member(group_id, user.user_id, direct_only))
        })
        .await?;
    success(
        json!({ "is_user_group_member": answer }),
        params.into_ignored(),
    )
}

/// `GET /user_groups/{id}/subgroups`: group ids, nested ones too unless
/// `direct_subgroup_only`.
pub async fn subgroups(
    State(state): State<AppState>,
    caller: Caller,
    Path(group_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    require_member(&caller)?;
    let group_id = parse_group_id(&group_id)?;
    let direct_only = params.take_bool("direct_subgroup_only", false)?;
    let subgroups = state
        .store()
        .read(move |conn| {
            group_for_read(conn, group_id, false)?;
            let graph = store::memberships(conn)?;
            let ids: Vec<i64> = if direct_only {
                graph.direct_subgroups(group_id)
            } else {
                let mut all = graph.recursive_subgroups(&graph.direct_subgroups(group_id));
                all.remove(&group_id);
                all.into_iter().collect()
            };
            Ok::<_, Error>(ids)
        })
        .await?;
    success(json!({ "subgroups": subgroups }), params.into_ignored())
}
