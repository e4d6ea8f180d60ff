//! The snapshot form of `POST /register`: the state a client asks for in one request, as
//! Zulip's own clients load it. Weir has no event queue yet, so `queue_id` is null.

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;
use serde::Serialize;
use serde_json::{Map, Value, json};
use zulip_api::{Stream, Subscription};

use super::ApiResult;
use super::channel_folders::FOLDERS_LEVEL;
use super::dto::{
    StreamView, UserJson, WithFolder, gravatar_url, stream_dto, subscription_dto, user_dto,
    with_folder,
};
use super::reads::zulip_version;
use crate::AppState;
use crate::clock::now_unix;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::access::can_access;
use crate::store::{self, UserRow};

/// The `fetch_event_types` Weir answers. Types about things Weir does not have (custom
/// emoji, alert words, mutes, stars, linkifiers...) are answered truthfully empty; any
/// other type is refused by name rather than silently left out.
const SUPPORTED: &[&str] = &[
    "realm_user",
    "subscription",
    "message",
    "stream",
    "realm_emoji",
    "alert_words",
    "muted_users",
    "muted_topics",
    "user_topic",
    "starred_messages",
    "realm_linkifiers",
    "realm_filters",
    "realm_playgrounds",
    "realm_domains",
    "default_streams",
    "scheduled_messages",
    "saved_snippets",
    "user_status",
    "realm_user_groups",
    "realm",
    "realm_incoming_webhook_bots",
    "channel_folders",
];

/// `is_moderator` is true for administrators too from this level (Zulip 11).
const MODERATOR_INCLUDES_ADMINS_LEVEL: u32 = 380;

/// Largest `event_types` / `fetch_event_types` list accepted.
const MAX_EVENT_TYPES: usize = 200;

/// Event types answered with an empty list, and the key each one brings.
const EMPTY_LISTS: &[(&str, &str)] = &[
    ("alert_words", "alert_words"),
    ("muted_users", "muted_users"),
    ("muted_topics", "muted_topics"),
    ("user_topic", "user_topics"),
    ("starred_messages", "starred_messages"),
    ("realm_linkifiers", "realm_linkifiers"),
    ("realm_filters", "realm_filters"),
    ("realm_playgrounds", "realm_playgrounds"),
    ("realm_domains", "realm_domains"),
    ("default_streams", "realm_default_streams"),
    ("scheduled_messages", "scheduled_messages"),
    ("saved_snippets", "saved_snippets"),
];

/// Event types answered with an empty object, and the key each one brings.
const EMPTY_OBJECTS: &[(&str, &str)] = &[
    ("realm_emoji", "realm_emoji"),
    ("user_status", "user_status"),
];

struct Request {
    types: Option<Vec<String>>,
    include_subscribers: bool,
    client_gravatar: bool,
    /// The `include_deactivated_groups` client capability.
    include_deactivated_groups: bool,
}

impl Request {
    fn wants(&self, kind: &str) -> bool {
        self.types
            .as_ref()
            .is_none_or(|types| types.iter().any(|t| t == kind))
    }
}

pub async fn register(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> Result<Response, Error> {
    let event_types = params.take_string_list("event_types")?;
    let types = params
        .take_string_list("fetch_event_types")?
        .or(event_types);
    if let Some(types) = &types {
        if types.len() > MAX_EVENT_TYPES {
            let msg = format!("Too many event types (limit: {MAX_EVENT_TYPES})");
            return Err(ApiError::bad_request(msg).into());
        }
        let unsupported: Vec<&str> = types
            .iter()
            .map(String::as_str)
            .filter(|kind| {
                !SUPPORTED.contains(kind)
                    || (*kind == "channel_folders" && state.feature_level() < FOLDERS_LEVEL)
            })
            .collect();
        if !unsupported.is_empty() {
            let msg = format!("Unsupported event types: {}", unsupported.join(", "));
            return Err(ApiError::bad_request(msg).into());
        }
    }
    let include_subscribers =
        super::reads::take_include_subscribers(&mut params, state.feature_level())?;
    let client_gravatar = params.take_bool("client_gravatar", true)?;
    let capabilities = params.take_json("client_capabilities")?;
    let request = Request {
        types,
        include_subscribers,
        client_gravatar,
        include_deactivated_groups: capabilities
            .as_ref()
            .and_then(|c| c.get("include_deactivated_groups"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
    };
    // Accepted as Zulip accepts them; without an event queue they change nothing.
    for flag in [
        "apply_markdown",
        "slim_presence",
        "all_public_streams",
        "include_streams",
    ] {
        let _ = params.take_bool(flag, false)?;
    }
    let _ = params.take_int("queue_lifespan_secs")?;
    let _ = params.take_json("narrow")?;
    let _ = params.take_int("presence_history_limit_days")?;
    let level = state.feature_level();
    let viewer = caller.0;
    let (fields, users, lists) = state
        .store()
        .read(move |conn| snapshot(conn, &viewer, &request, level))
        .await?;
    let body = Body {
        result: "success",
        msg: "",
        fields,
        users,
        lists,
        ignored_parameters_unsupported: params.into_ignored(),
    };
    let json = tokio::task::spawn_blocking(move || serde_json::to_vec(&body))
        .await
        .map_err(|error| Error::Internal(format!("serializing stopped: {error}")))?
        .map_err(|error| Error::Internal(error.to_string()))?;
    Ok(([(CONTENT_TYPE, "application/json")], json).into_response())
}

/// Zulip's success envelope around the snapshot, serialized in one pass. The user and
/// stream lists stay typed: at 100,000 users and 5 million subscriptions, making each user
/// and subscriber id a `serde_json::Value` on the way was most of `register`'s time and
/// memory.
#[derive(Serialize)]
struct Body {
    result: &'static str,
    msg: &'static str,
    #[serde(flatten)]
    fields: Map<String, Value>,
    #[serde(flatten)]
    users: UserLists,
    #[serde(flatten)]
    lists: StreamLists,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ignored_parameters_unsupported: Vec<String>,
}

/// `realm_user`'s lists, when asked for.
#[derive(Default, Serialize)]
struct UserLists {
    #[serde(skip_serializing_if = "Option::is_none")]
    realm_users: Option<Vec<UserJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    realm_non_active_users: Option<Vec<UserJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cross_realm_bots: Option<Vec<UserJson>>,
}

/// `subscription` and `stream`'s lists, when asked for.
#[derive(Default, Serialize)]
struct StreamLists {
    #[serde(skip_serializing_if = "Option::is_none")]
    subscriptions: Option<Vec<WithFolder<Subscription>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unsubscribed: Option<Vec<WithFolder<Subscription>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    never_subscribed: Option<Vec<WithFolder<Stream>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    streams: Option<Vec<WithFolder<Stream>>>,
}

fn snapshot(
    conn: &Connection,
    viewer: &UserRow,
    request: &Request,
    level: u32,
) -> Result<(Map<String, Value>, UserLists, StreamLists), Error> {
    let mut body = Map::new();
    let mut users = UserLists::default();
    let mut lists = StreamLists::default();
    body.insert("queue_id".into(), Value::Null);
    body.insert("last_event_id".into(), json!(-1));
    body.insert("zulip_feature_level".into(), json!(level));
    body.insert("zulip_version".into(), json!(zulip_version(level)));
    body.insert("zulip_merge_base".into(), json!(zulip_version(level)));
    if request.wants("realm_user") {
        users = add_users(conn, viewer, request.client_gravatar, level, &mut body)?;
    }
    if request.wants("subscription") || request.wants("stream") {
        lists = streams(conn, viewer, request, level)?;
    }
    if request.wants("message") {
        let query = super::message_fetch::newest_visible_query(conn, viewer)?;
        let newest = store::find_messages(conn, &query)?
            .messages
            .last()
            .map_or(-1, |m| m.id);
        body.insert("max_message_id".into(), json!(newest));
    }
    if request.wants("realm") {
        body.extend(super::realm_state::realm_state(conn, level)?);
    }
    if request.wants("realm_user_groups") {
        let groups =
            super::user_groups::groups_json(conn, request.include_deactivated_groups, level)?;
        body.insert("realm_user_groups".into(), json!(groups));
    }
    // Zulip 11: every folder, archived ones too. A server below the level refuses the
    // type, as it does any type it does not know.
    if level >= FOLDERS_LEVEL && request.wants("channel_folders") {
        body.insert(
            "channel_folders".into(),
            json!(super::channel_folders::folders_json(conn, true, level)?),
        );
    }
    if request.wants("realm_incoming_webhook_bots") {
        body.insert(
            "realm_incoming_webhook_bots".into(),
            super::webhook_bots::catalog(level),
        );
    }
    for (kind, key) in EMPTY_LISTS {
        if request.wants(kind) {
            body.insert((*key).into(), json!([]));
        }
    }
    for (kind, key) in EMPTY_OBJECTS {
        if request.wants(kind) {
            body.insert((*key).into(), json!({}));
        }
    }
    Ok((body, users, lists))
}

/// `realm_user`: the users, the system bots, and the caller's own account and rights.
fn add_users(
    conn: &Connection,
    viewer: &UserRow,
    client_gravatar: bool,
    level: u32,
    body: &mut Map<String, Value>,
) -> Result<UserLists, Error> {
    let dto = |user: &UserRow| UserJson(user_dto(user, viewer, client_gravatar));
    let (mut active, mut inactive) = (Vec::new(), Vec::new());
    for user in store::realm_users(conn)? {
        if user.is_active {
            active.push(dto(&user));
        } else {
            inactive.push(dto(&user));
        }
    }
    let bots: Vec<UserJson> = store::system_bots(conn)?.iter().map(dto).collect();
    // Zulip's defaults: members and above may create streams, invite people and
    // subscribe others; nobody creates web-public streams.
    let member = !viewer.is_guest();
    let own_avatar = gravatar_url(&viewer.email);
    let own = json!({
        "avatar_source": "G",
        "avatar_url_medium": own_avatar,
        "avatar_url": own_avatar,
        "can_create_streams": member,
        "can_create_public_streams": member,
        "can_create_private_streams": member,
        "can_create_web_public_streams": false,
        "can_subscribe_other_users": member,
        "can_invite_others_to_realm": member,
        "is_admin": viewer.is_org_admin(),
        "is_owner": viewer.role == zulip_api::Role::Owner,
        // From Zulip 11 (level 380) administrators count as moderators too.
        "is_moderator": viewer.role == zulip_api::Role::Moderator
            || (level >= MODERATOR_INCLUDES_ADMINS_LEVEL && viewer.is_org_admin()),
        "is_guest": viewer.is_guest(),
        "user_id": viewer.user_id,
        "email": viewer.email,
        "delivery_email": viewer.email,
        "full_name": viewer.full_name,
    });
    if let Value::Object(fields) = own {
        body.extend(fields);
    }
    Ok(UserLists {
        realm_users: Some(active),
        realm_non_active_users: Some(inactive),
        cross_realm_bots: Some(bots),
    })
}

/// `subscription` (the caller's subscriptions, the streams they left, the others they
/// can see) and `stream` (every stream they can see).
fn streams(
    conn: &Connection,
    viewer: &UserRow,
    request: &Request,
    level: u32,
) -> Result<StreamLists, Error> {
    let view = StreamView {
        level,
        now: now_unix(),
    };
    let states = store::subscription_states(conn, viewer.user_id)?;
    let mut subscribers = store::all_subscribers(conn)?;
    let (mut subscribed, mut unsubscribed, mut never, mut all) = (vec![], vec![], vec![], vec![]);
    let deactivated = store::deactivated_user_ids(conn)?;
    for mut row in store::all_streams(conn)? {
        super::channel_groups::hide_deactivated(&mut row, &deactivated, level);
        let members = subscribers.remove(&row.stream_id).unwrap_or_default();
        let state = states.get(&row.stream_id).copied();
        if !can_access(viewer, &row, state == Some(true)) {
            continue;
        }
        let activity = store::stream_activity(conn, row.stream_id)?;
        let mut stream = stream_dto(&row, activity, view, members.len());
        all.push(with_folder(stream.clone(), &row, level));
        stream.subscribers = request.include_subscribers.then_some(members);
        match state {
            Some(true) => subscribed.push(with_folder(subscription_dto(stream), &row, level)),
            Some(false) => unsubscribed.push(with_folder(subscription_dto(stream), &row, level)),
            None => never.push(with_folder(stream, &row, level)),
        }
    }
    let mut lists = StreamLists::default();
    if request.wants("subscription") {
        lists.subscriptions = Some(subscribed);
        lists.unsubscribed = Some(unsubscribed);
        lists.never_subscribed = Some(never);
    }
    if request.wants("stream") {
        lists.streams = Some(all);
    }
    Ok(lists)
}

/// `DELETE /events`: weir-server keeps no event queues (`register` answers `queue_id`
/// null), so every queue id is one that no longer exists, and gets Zulip's answer for
/// it rather than a 404.
pub async fn delete_queue(_caller: Caller, mut params: Params) -> ApiResult {
    let queue_id = params.require_str("queue_id")?;
    Err(
        ApiError::bad_request(format!("Bad event queue ID: {queue_id}"))
            .code(zulip_api::ZulipErrorCode::BadEventQueueId)
            .with("queue_id", queue_id)
            .into(),
    )
}
