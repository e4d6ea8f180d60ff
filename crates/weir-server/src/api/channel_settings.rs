//! `PATCH /streams/{stream_id}`: a channel's name, description, privacy, message
//! retention and the settings that name groups, with Zulip 10's permission rules and
//! messages (Zulip's `update_stream_backend`).

use axum::extract::{Path, State};
use rusqlite::Connection;
use serde_json::Value;
use zulip_api::ZulipErrorCode;

use super::channel_groups::{administrators, setting_value};
use super::group_access::check_setting_value;
use super::topics_policy::{self, TOPICS_POLICY_LEVEL};
use super::{ApiResult, success};
use crate::AppState;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::access::has_content_access;
use crate::rules::group_graph::GroupGraph;
use crate::rules::groups::SettingValue;
use crate::rules::names::{MAX_STREAM_DESCRIPTION_CHARS, check_stream_name};
use crate::store::{self, StreamGroupSettings, StreamRow, UserRow, system};
use zulip_api::Role;

/// Levels at which Zulip's parameters appeared; below its level a parameter is ignored
/// (and listed in `ignored_parameters_unsupported`), as that server would.
const RETENTION_LEVEL: u32 = 17;
const WEB_PUBLIC_LEVEL: u32 = 98;
/// Before this level `history_public_to_subscribers` counted only beside `is_private`
/// or `is_web_public`.
const HISTORY_ALONE_LEVEL: u32 = 136;
/// `is_archived=false` unarchives a channel (Zulip 11).
const UNARCHIVE_LEVEL: u32 = 388;
/// The level of each group setting in its current `{"new", "old"}` form; the checks
/// run in this order (Zulip 11's model lists the newer settings among the older ones).
const SETTING_LEVELS: [(&str, u32); 10] = [
    ("can_add_subscribers_group", 342),
    ("can_administer_channel_group", 325),
    ("can_delete_any_message_group", 407),
    ("can_delete_own_message_group", 407),
    ("can_move_messages_out_of_channel_group", 396),
    ("can_move_messages_within_channel_group", 396),
    ("can_send_message_group", 333),
    ("can_remove_subscribers_group", 320),
    ("can_resolve_topics_group", 402),
    ("can_subscribe_group", 357),
];

/// Settings that only someone with content access may change
/// (`stream_permission_group_settings_requiring_content_access`).
const NEED_CONTENT_ACCESS: [&str; 2] = ["can_add_subscribers_group", "can_subscribe_group"];

/// Settings that may not name `role:everyone` (`allow_everyone_group=False`).
const NO_EVERYONE: [&str; 3] = [
    "can_add_subscribers_group",
    "can_administer_channel_group",
    "can_subscribe_group",
];

struct Request {
    new_name: Option<String>,
    description: Option<String>,
    is_private: Option<bool>,
    is_web_public: Option<bool>,
    history_public_to_subscribers: Option<bool>,
    /// As sent: checked only once the caller is known to be an owner, as Zulip does.
    retention: Option<Value>,
    /// `is_archived=false`: Weir's channels are never archived, so always refused.
    unarchive: bool,
    topics_policy: Option<&'static str>,
    /// `folder_id` (Zulip 11): `Some(None)` takes the channel out of its folder.
    folder: Option<Option<i64>>,
    /// Each setting's new value and, when given, the value the client expects now.
    settings: Vec<(&'static str, SettingValue, Option<SettingValue>)>,
}

pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(stream_id): Path<String>,
    mut params: Params,
) -> ApiResult {
    let stream_id: i64 = stream_id.parse().map_err(|_| ApiError::not_found())?;
    let level = state.feature_level();
    let request = parse(&mut params, level)?;
    // The groups' graph from the cache (read on a reader when it changed), not read
    // again in the writer for every change.
    state
        .store()
        .write_with_groups(caller.user_id, false, move |conn, graph| {
            apply(conn, graph, &caller, stream_id, &request)
        })
        .await?;
    success(Value::Null, params.into_ignored())
}

fn optional_bool(params: &mut Params, name: &str) -> Result<Option<bool>, ApiError> {
    if params.has(name) {
        Ok(Some(params.take_bool(name, false)?))
    } else {
        Ok(None)
    }
}

fn parse(params: &mut Params, level: u32) -> Result<Request, ApiError> {
    let description = params.take_str("description");
    if let Some(text) = &description
        && text.chars().count() > MAX_STREAM_DESCRIPTION_CHARS
    {
        return Err(ApiError::bad_request(format!(
            "description is too long (limit: {MAX_STREAM_DESCRIPTION_CHARS} characters)"
        )));
    }
    let is_private = optional_bool(params, "is_private")?;
    let is_web_public = if level >= WEB_PUBLIC_LEVEL {
        optional_bool(params, "is_web_public")?
    } else {
        None
    };
    let history_counts =
        level >= HISTORY_ALONE_LEVEL || is_private.is_some() || is_web_public.is_some();
    let history_public_to_subscribers = if history_counts {
        optional_bool(params, "history_public_to_subscribers")?
    } else {
        None
    };
    // JSON (`"unlimited"`, `30`) as Zulip's own clients send it; a bare word is taken too,
    // as the API document shows it without JSON encoding.
    let retention = if level >= RETENTION_LEVEL {
        params
            .take_str("message_retention_days")
            .map(|raw| serde_json::from_str(&raw).unwrap_or(Value::String(raw)))
    } else {
        None
    };
    let unarchive =
        level >= UNARCHIVE_LEVEL && optional_bool(params, "is_archived")? == Some(false);
    // A plain string here, unlike subscribe's JSON (Zulip's `update_stream_backend`).
    let topics_policy = match level >= TOPICS_POLICY_LEVEL {
        true => params
            .take_str("topics_policy")
            .map(|raw| topics_policy::parse(&raw, level))
            .transpose()?,
        false => None,
    };
    let folder = if level >= super::channel_folders::FOLDERS_LEVEL {
        match params.take_json("folder_id")? {
            None => None,
            Some(Value::Null) => Some(None),
            Some(Value::Number(id)) if id.is_i64() => Some(id.as_i64()),
            Some(_) => return Err(ApiError::bad_request("folder_id is not an integer")),
        }
    } else {
        None
    };
    let mut settings = Vec::new();
    for (name, since) in SETTING_LEVELS {
        if level < since {
            continue;
        }
        let Some(value) = params.take_json(name)? else {
            continue;
        };
        let invalid = || ApiError::bad_request(format!("Invalid {name}"));
        let fields = value.as_object().ok_or_else(invalid)?;
        let new = SettingValue::parse(name, fields.get("new").ok_or_else(invalid)?)?;
        let old = match fields.get("old") {
            Some(old) => Some(SettingValue::parse(name, old)?),
            None => None,
        };
        settings.push((name, new, old));
    }
    Ok(Request {
        new_name: params.take_str("new_name"),
        description,
        is_private,
        is_web_public,
        history_public_to_subscribers,
        retention,
        unarchive,
        topics_policy,
        folder,
        settings,
    })
}

/// The group settings `POST /users/me/subscriptions` gives the channels it creates
/// (Zulip's `add_subscriptions_backend`: plain group-setting values), each from its level.
pub fn take_creation_settings(
    params: &mut Params,
    level: u32,
) -> Result<Vec<(&'static str, SettingValue)>, ApiError> {
    let mut settings = Vec::new();
    for (name, since) in SETTING_LEVELS {
        if level < since {
            continue;
        }
        if let Some(value) = params.take_json(name)? {
            settings.push((name, SettingValue::parse(name, &value)?));
        }
    }
    Ok(settings)
}

/// The stored settings of a channel created with `settings`, checked as Zulip checks
/// them before creating anything.
pub fn creation_groups(
    conn: &Connection,
    graph: &GroupGraph,
    settings: &[(&'static str, SettingValue)],
) -> Result<StreamGroupSettings, Error> {
    let mut groups = StreamGroupSettings::default();
    for (name, _) in SETTING_LEVELS {
        if let Some((_, value)) = settings.iter().find(|(given, _)| *given == name) {
            check_group_value(conn, graph, name, value)?;
            store_value(&mut groups, name, value);
        }
    }
    Ok(groups)
}

/// Zulip's `access_user_group_for_setting` for a channel setting.
fn check_group_value(
    conn: &Connection,
    graph: &GroupGraph,
    name: &str,
    value: &SettingValue,
) -> Result<(), Error> {
    check_setting_value(conn, graph, name, value)?;
    if NO_EVERYONE.contains(&name) && *value == SettingValue::Group(system::EVERYONE) {
        return Err(ApiError::bad_request(format!(
            "'{name}' setting cannot be set to 'role:everyone' group."
        ))
        .into());
    }
    Ok(())
}

fn store_value(groups: &mut StreamGroupSettings, name: &str, value: &SettingValue) {
    groups.set(name, Some(value.to_stored()));
}

fn invalid_parameters() -> Error {
    ApiError::bad_request("Invalid parameters").into()
}

fn content_required() -> Error {
    ApiError::bad_request("Channel content access is required.").into()
}

/// Zulip's `user_has_content_access`: subscribers, anyone but a guest on a public
/// channel, and the members of the settings that let people in without subscribing.
fn content_access(
    graph: &GroupGraph,
    user: &UserRow,
    stream: &StreamRow,
    subscribed: bool,
) -> bool {
    if has_content_access(user, stream, subscribed) {
        return true;
    }
    !user.is_guest()
        && NEED_CONTENT_ACCESS
            .iter()
            .any(|name| graph.holds(&setting_value(stream, name), user.user_id))
}

/// Zulip's `can_administer_accessible_channel`: members of `can_administer_channel_group`
/// (never guests, whom the setting may not name).
pub fn may_administer(graph: &GroupGraph, user: &UserRow, stream: &StreamRow) -> bool {
    user.is_org_admin() || (!user.is_guest() && graph.holds(&administrators(stream), user.user_id))
}

/// Zulip's `access_stream_for_delete_or_update_requiring_metadata_access`: a channel the
/// caller may not administer is "Invalid channel ID" unless they could read it.
fn stream_for_update(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    stream_id: i64,
) -> Result<(StreamRow, bool), Error> {
    let invalid = || ApiError::bad_request("Invalid channel ID");
    let stream = store::stream_by_id(conn, stream_id)?.ok_or_else(invalid)?;
    let subscribed = store::is_subscribed(conn, caller.user_id, stream_id)?;
    if may_administer(graph, caller, &stream) {
        return Ok((stream, subscribed));
    }
    if content_access(graph, caller, &stream, subscribed) {
        return Err(ApiError::bad_request(
            "You do not have permission to administer this channel.",
        )
        .into());
    }
    Err(invalid().into())
}

fn apply(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    stream_id: i64,
    request: &Request,
) -> Result<(), Error> {
    let (mut stream, subscribed) = stream_for_update(conn, graph, caller, stream_id)?;
    change_privacy(graph, caller, &mut stream, subscribed, request)?;
    if let Some(raw) = &request.retention {
        if caller.role != Role::Owner {
            return Err(ApiError::bad_request("Must be an organization owner")
                .code(ZulipErrorCode::UnauthorizedPrincipal)
                .into());
        }
        stream.message_retention_days = parse_retention(raw)?;
    }
    if request.unarchive {
        return Err(ApiError::bad_request("Channel is not currently deactivated").into());
    }
    if let Some(policy) = request.topics_policy {
        topics_policy::check_may_set(caller)?;
        if policy == "empty_topic_only" {
            topics_policy::check_may_become_empty_only(conn, stream_id)?;
        }
        stream.topics_policy = (policy != "inherit").then(|| policy.to_owned());
    }
    if let Some(description) = &request.description {
        // Zulip keeps descriptions on one line.
        stream.description = description.replace('\n', " ");
    }
    if let Some(raw) = &request.new_name {
        let name = raw.trim();
        if name == stream.name {
            return Err(ApiError::bad_request("Channel already has that name.").into());
        }
        if name.to_lowercase() != stream.name.to_lowercase() {
            let name = check_stream_name(name)?;
            if store::stream_by_name(conn, &name)?.is_some() {
                return Err(ApiError::bad_request("Channel name already in use.").into());
            }
        }
        stream.name = name.to_owned();
    }
    if let Some(folder) = request.folder {
        if let Some(folder_id) = folder {
            super::channel_folders::folder(conn, folder_id)?;
        }
        stream.folder_id = folder;
    }
    let groups = change_groups(conn, graph, caller, &stream, subscribed, &request.settings)?;
    store::update_stream_fields(conn, &stream)?;
    if groups != stream.groups {
        store::set_stream_groups(conn, stream_id, &groups)?;
    }
    Ok(())
}

/// `is_private`, `is_web_public` and `history_public_to_subscribers`, checked together
/// as Zulip checks the state they propose.
fn change_privacy(
    graph: &GroupGraph,
    caller: &UserRow,
    stream: &mut StreamRow,
    subscribed: bool,
    request: &Request,
) -> Result<(), Error> {
    let private = request.is_private.unwrap_or(stream.invite_only);
    let web_public = request.is_web_public.unwrap_or(false);
    let history = request
        .history_public_to_subscribers
        .or(request.is_private.map(|private| !private))
        .unwrap_or(stream.history_public_to_subscribers);
    // Web-public channels are public with public history; public ones have public history.
    let web_public_misfit = web_public && (private || !history);
    if web_public_misfit || (!private && !history) {
        return Err(invalid_parameters());
    }
    if request.is_private.is_some() {
        if !content_access(graph, caller, stream, subscribed) {
            return Err(content_required());
        }
        // Weir's realm lets every member create public and private channels.
        if caller.is_guest() {
            return Err(ApiError::bad_request("Insufficient permission").into());
        }
    }
    // Weir's realm never enables spectator access.
    if request.is_web_public == Some(true) {
        return Err(ApiError::bad_request("Web-public channels are not enabled.").into());
    }
    if request.is_private.is_some()
        || request.is_web_public.is_some()
        || request.history_public_to_subscribers.is_some()
    {
        stream.invite_only = private;
        stream.history_public_to_subscribers = history;
    }
    Ok(())
}

/// Zulip's `parse_message_retention_days`: a positive number of days, `"unlimited"`
/// (-1) or `"realm_default"` (none of its own).
fn parse_retention(raw: &Value) -> Result<Option<i64>, Error> {
    match raw {
        Value::String(text) if text == "unlimited" => Ok(Some(-1)),
        Value::String(text) if text == "realm_default" => Ok(None),
        Value::Number(days) if days.as_i64().is_some_and(|days| days > 0) => Ok(days.as_i64()),
        other => {
            let shown = match other {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            Err(
                ApiError::bad_request(format!("Bad value for 'message_retention_days': {shown}"))
                    .into(),
            )
        }
    }
}

/// The group settings after the request, checked in Zulip's order.
fn change_groups(
    conn: &Connection,
    graph: &GroupGraph,
    caller: &UserRow,
    stream: &StreamRow,
    subscribed: bool,
    settings: &[(&'static str, SettingValue, Option<SettingValue>)],
) -> Result<StreamGroupSettings, Error> {
    let mut groups = stream.groups.clone();
    for (name, _) in SETTING_LEVELS {
        let Some((_, new, old)) = settings.iter().find(|(given, _, _)| *given == name) else {
            continue;
        };
        let current = setting_value(stream, name);
        if let Some(old) = old
            && old.to_json(graph) != current.to_json(graph)
        {
            return Err(
                ApiError::bad_request("'old' value does not match the expected value.")
                    .code(ZulipErrorCode::ExpectationMismatch)
                    .into(),
            );
        }
        if new.to_json(graph) == current.to_json(graph) {
            continue;
        }
        if NEED_CONTENT_ACCESS.contains(&name) && !content_access(graph, caller, stream, subscribed)
        {
            return Err(content_required());
        }
        check_group_value(conn, graph, name, new)?;
        store_value(&mut groups, name, new);
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn retention_takes_positive_days_and_zulips_two_words() {
        assert_eq!(parse_retention(&json!("unlimited")).ok(), Some(Some(-1)));
        assert_eq!(parse_retention(&json!("realm_default")).ok(), Some(None));
        assert_eq!(parse_retention(&json!(30)).ok(), Some(Some(30)));
        let msg = |raw: Value| match parse_retention(&raw) {
            Err(Error::Api(error)) => error.msg,
            other => format!("{other:?}"),
        };
        assert_eq!(msg(json!(0)), "Bad value for 'message_retention_days': 0");
        assert_eq!(
            msg(json!("forever")),
            "Bad value for 'message_retention_days': forever"
        );
    }
}
