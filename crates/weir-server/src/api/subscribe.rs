//! `POST /users/me/subscriptions`: subscribe yourself or others, creating streams.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;
use rusqlite::Connection;
use serde_json::Value;
use zulip_api::AddSubscriptionsResponse;

use super::channel_groups::opens_to;
use super::principals::{
    Principal, is_heavy, parse_principals, resolve_principals, unique_stream_names,
};
use super::success_weighted;
use super::topics_policy::{self, TOPICS_POLICY_LEVEL};
use crate::AppState;
use crate::clock::now_unix;
use crate::compose::{Notice, deliver_notices};
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::{Params, as_list};
use crate::rules::access::can_access;
use crate::rules::group_graph::GroupGraph;
use crate::rules::limits::{MAX_SUBSCRIPTIONS, check_list_len};
use crate::rules::names::MAX_STREAM_DESCRIPTION_CHARS;
use crate::store::{self, Groups, StreamRow, SubscriptionChange, UserRow};

/// Before Zulip 11, the "you were subscribed" messages were skipped above this many
/// new subscriptions.
const MAX_NOTIFIED_SUBSCRIPTIONS: usize = 250;
/// `send_new_subscription_messages` and `max_bulk_new_subscription_messages` (Zulip 11).
pub const BULK_MESSAGES_LEVEL: u32 = 397;
/// From [`BULK_MESSAGES_LEVEL`], no messages when more users than this were subscribed.
pub const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES: usize = 100;

struct Request {
    names: Vec<String>,
    descriptions: BTreeMap<String, String>,
    principals: Vec<Principal>,
    invite_only: bool,
    /// For streams this request creates; `None` is Zulip's default.
    history_public_to_subscribers: Option<bool>,
    /// `authorization_errors_fatal`: when false, streams the caller may not access are
    /// listed under `unauthorized` and the others are still subscribed to.
    fatal: bool,
    /// Group settings for the streams this request creates.
    group_settings: Vec<(&'static str, crate::rules::groups::SettingValue)>,
    /// `topics_policy` for the streams this request creates (`None`: `inherit`).
    topics_policy: Option<&'static str>,
    /// `send_new_subscription_messages`: `None` below its level.
    send_messages: Option<bool>,
    /// `folder_id` for the streams this request creates (Zulip 11).
    folder_id: Option<i64>,
}

/// The answer, with Zulip 11's `new_subscription_messages_sent` when asked to send.
#[derive(serde::Serialize)]
struct Answer {
    #[serde(flatten)]
    response: AddSubscriptionsResponse,
    #[serde(skip_serializing_if = "Option::is_none")]
    new_subscription_messages_sent: Option<bool>,
}

pub async fn subscribe(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> Result<Response, Error> {
    super::bots::refuse_guests(&caller)?;
    let (raw_names, descriptions) = parse_subscriptions(params.require_json("subscriptions")?)?;
    let principals = parse_principals(params.take_json("principals")?, state.feature_level())?;
    let invite_only = params.take_bool("invite_only", false)?;
    let history_public_to_subscribers = if params.has("history_public_to_subscribers") {
        Some(params.take_bool("history_public_to_subscribers", false)?)
    } else {
        None
    };
    let _announce = params.take_bool("announce", false)?;
    let fatal = params.take_bool("authorization_errors_fatal", true)?;
    let level = state.feature_level();
    let group_settings = super::channel_settings::take_creation_settings(&mut params, level)?;
    let topics_policy = if level >= TOPICS_POLICY_LEVEL {
        match params.take_json("topics_policy")? {
            Some(Value::String(raw)) => Some(topics_policy::parse(&raw, level)?),
            Some(Value::Null) | None => None,
            Some(_) => return Err(ApiError::bad_request("topics_policy is not a string").into()),
        }
    } else {
        None
    };
    if topics_policy.is_some_and(|policy| policy != "inherit") {
        topics_policy::check_may_set(&caller)?;
    }
    let send_messages = if level >= BULK_MESSAGES_LEVEL {
        Some(params.take_bool("send_new_subscription_messages", true)?)
    } else {
        None
    };
    let folder_id = if level >= super::channel_folders::FOLDERS_LEVEL {
        match params.take_json("folder_id")? {
            None | Some(Value::Null) => None,
            Some(Value::Number(id)) if id.is_i64() => id.as_i64(),
            Some(_) => return Err(ApiError::bad_request("folder_id is not an integer").into()),
        }
    } else {
        None
    };
    let ignored = params.into_ignored();
    let request = Request {
        names: raw_names,
        descriptions,
        principals,
        invite_only,
        history_public_to_subscribers,
        fatal,
        group_settings,
        topics_policy: topics_policy.filter(|policy| *policy != "inherit"),
        send_messages,
        folder_id,
    };
    let heavy = is_heavy(request.names.len(), request.principals.len());
    // The groups decide only for streams the caller cannot otherwise reach: resolved now,
    // on a reader, except for administrators, who reach every stream.
    let groups = if caller.is_org_admin() {
        state.store().groups_later(caller.user_id)
    } else {
        state.store().groups_for(caller.user_id).await?
    };
    let (response, notices) = state
        .store()
        .write_weighted(heavy, move |conn| {
            add(conn, &groups, &caller, &request, level)
        })
        .await?;
    // Rendered off the writer, after it, and stored by a write of their own.
    deliver_notices(state.store(), notices).await?;
    success_weighted(heavy, response, ignored).await
}

/// `[{"name": ..., "description"?: ...}]` with Zulip's validation texts.
fn parse_subscriptions(value: Value) -> Result<(Vec<String>, BTreeMap<String, String>), ApiError> {
    let mut names = Vec::new();
    let mut descriptions = BTreeMap::new();
    let items = as_list("subscriptions", value)?;
    check_list_len("subscriptions", items.len(), MAX_SUBSCRIPTIONS)?;
    for (index, item) in items.into_iter().enumerate() {
        let Value::Object(fields) = item else {
            return Err(ApiError::bad_request(format!(
                "subscriptions[{index}] is not a dict"
            )));
        };
        let name = match fields.get("name") {
            Some(Value::String(name)) => name.clone(),
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "subscriptions[{index}][\"name\"] is not a string"
                )));
            }
            None => {
                return Err(ApiError::bad_request(format!(
                    "name key is missing from subscriptions[{index}]"
                )));
            }
        };
        match fields.get("description") {
            None => {}
            Some(Value::String(text)) => {
                if text.chars().count() > MAX_STREAM_DESCRIPTION_CHARS {
                    return Err(ApiError::bad_request(format!(
                        "subscriptions[{index}][\"description\"] is too long \
                         (limit: {MAX_STREAM_DESCRIPTION_CHARS} characters)"
                    )));
                }
                descriptions.insert(store::name_key(name.trim()), text.clone());
            }
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "subscriptions[{index}][\"description\"] is not a string"
                )));
            }
        }
        names.push(name);
    }
    Ok((names, descriptions))
}

/// Subscribes; the answer, and Notification Bot's notices to the people subscribed.
fn add(
    conn: &Connection,
    groups: &Groups,
    caller: &UserRow,
    request: &Request,
    feature_level: u32,
) -> Result<(Answer, Vec<Notice>), Error> {
    let targets = resolve_principals(conn, caller, &request.principals, feature_level)?;
    let names = unique_stream_names(&request.names)?;
    let now = now_unix();
    if let Some(folder_id) = request.folder_id {
        super::channel_folders::folder(conn, folder_id)?;
    }
    let new_groups = match request.group_settings.as_slice() {
        [] => None,
        settings => Some(super::channel_settings::creation_groups(
            conn,
            &*groups.current(conn)?,
            settings,
        )?),
    };

    let mut streams: Vec<StreamRow> = Vec::with_capacity(names.len());
    let mut unauthorized: Vec<String> = Vec::new();
    // Zulip sends no "subscribed you" message for streams this request creates.
    let mut created: HashSet<i64> = HashSet::new();
    // The group graph, loaded only if a stream's group settings must decide.
    let mut graph: Option<Arc<GroupGraph>> = None;
    for name in &names {
        let stream = match store::stream_by_name(conn, name)? {
            Some(stream) => {
                let subscribed = store::is_subscribed(conn, caller.user_id, stream.stream_id)?;
                if !can_access(caller, &stream, subscribed)
                    && !allowed_by_groups(conn, groups, &mut graph, caller, &stream, feature_level)?
                {
                    if !request.fatal {
                        unauthorized.push(stream.name);
                        continue;
                    }
                    let msg = format!("Unable to access channel ({}).", stream.name);
                    return Err(ApiError::bad_request(msg).into());
                }
                stream
            }
            None => {
                let description = request.descriptions.get(&store::name_key(name));
                let description = description.map_or("", String::as_str);
                let new = store::NewStream {
                    stream_id: None,
                    name,
                    description,
                    invite_only: request.invite_only,
                    creator_id: Some(caller.user_id),
                    history_public_to_subscribers: request.history_public_to_subscribers,
                };
                let mut stream = store::insert_stream(conn, &new, now)?;
                if request.topics_policy.is_some() || request.folder_id.is_some() {
                    stream.topics_policy = request.topics_policy.map(str::to_owned);
                    stream.folder_id = request.folder_id;
                    store::update_stream_fields(conn, &stream)?;
                }
                if let Some(groups) = &new_groups {
                    store::set_stream_groups(conn, stream.stream_id, groups)?;
                }
                created.insert(stream.stream_id);
                stream
            }
        };
        streams.push(stream);
    }

    let mut response = AddSubscriptionsResponse {
        unauthorized: (!request.fatal).then_some(unauthorized),
        ..AddSubscriptionsResponse::default()
    };
    let mut newly: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for target in &targets {
        let key = target.user_id.to_string();
        for stream in &streams {
            match store::subscribe(conn, target.user_id, stream.stream_id)? {
                SubscriptionChange::Changed => {
                    response
                        .subscribed
                        .entry(key.clone())
                        .or_default()
                        .push(stream.name.clone());
                    if !created.contains(&stream.stream_id) {
                        newly
                            .entry(target.user_id)
                            .or_default()
                            .push(stream.name.clone());
                    }
                }
                SubscriptionChange::AlreadyThere => {
                    response
                        .already_subscribed
                        .entry(key.clone())
                        .or_default()
                        .push(stream.name.clone());
                }
            }
        }
    }
    for target in &targets {
        response
            .subscribed
            .entry(target.user_id.to_string())
            .or_default();
    }
    response.subscribed.retain(|_, names| !names.is_empty());

    // Zulip 11 counts the users subscribed; Zulip 10 counted new subscriptions.
    let within_limit = match request.send_messages {
        Some(_) => response.subscribed.len() <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
        None => newly.values().map(Vec::len).sum::<usize>() <= MAX_NOTIFIED_SUBSCRIPTIONS,
    };
    let send = within_limit && request.send_messages != Some(false);
    let mut notices = Vec::new();
    if send {
        for target in targets
            .iter()
            .filter(|t| t.user_id != caller.user_id && t.bot_type.is_none())
        {
            if let Some(stream_names) = newly.get(&target.user_id) {
                // Linking channels as the person subscribed sees them (now a subscriber).
                notices.push(Notice {
                    recipients: vec![target.user_id],
                    text: subscribed_you_text(caller, stream_names),
                    seen_by: None,
                });
            }
        }
    }
    let answer = Answer {
        response,
        new_subscription_messages_sent: request.send_messages.filter(|asked| *asked).map(|_| send),
    };
    Ok((answer, notices))
}

/// Whether the stream's group settings open it to the caller ([`opens_to`]), who may
/// then subscribe themself or, by Weir's organization's rule, others.
fn allowed_by_groups(
    conn: &Connection,
    groups: &Groups,
    graph: &mut Option<Arc<GroupGraph>>,
    caller: &UserRow,
    stream: &StreamRow,
    level: u32,
) -> Result<bool, Error> {
    if stream.groups == store::StreamGroupSettings::default() {
        return Ok(false);
    }
    if graph.is_none() {
        *graph = Some(groups.current(conn)?);
    }
    let Some(graph) = graph.as_ref() else {
        return Ok(false);
    };
    Ok(opens_to(graph, caller, stream, level))
}

/// Zulip's text for people someone else subscribed.
fn subscribed_you_text(actor: &UserRow, stream_names: &[String]) -> String {
    let mut names: Vec<&String> = stream_names.iter().collect();
    names.sort();
    let actor = format!("@**{}|{}**", actor.full_name, actor.user_id);
    match names.as_slice() {
        [only] => format!("{actor} subscribed you to the channel #**{only}**."),
        _ => {
            let mut text = format!("{actor} subscribed you to the following channels:\n\n");
            for name in names {
                text.push_str(&format!("* #**{name}**\n"));
            }
            text
        }
    }
}
