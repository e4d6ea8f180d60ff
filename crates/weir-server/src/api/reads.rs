//! Read endpoints: server settings, users, streams, subscriptions, members.

use axum::extract::{Path, State};
use serde_json::{Value, json};
use zulip_api::{Stream, Subscription};

use super::dto::{
    StreamView, WithFolder, stream_dto, subscription_dto, user_dto, user_json, with_folder,
};
use super::{ApiResult, success};
use crate::AppState;
use crate::clock::now_unix;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::access::can_access;
use crate::store::{self, StreamActivity, StreamRow};

pub use super::dto::gravatar_url;

/// Zulip 11.0's feature level, weir-server's default.
const ZULIP_11_LEVEL: u32 = 421;

/// The Zulip release a server at `level` reports: 11.0 from 11.0's level, 10.0 below
/// (the levels Weir emulated before were Zulip 10's).
pub fn zulip_version(level: u32) -> &'static str {
    if level >= ZULIP_11_LEVEL {
        "11.0"
    } else {
        "10.0"
    }
}

pub async fn server_settings(State(state): State<AppState>, params: Params) -> ApiResult {
    let realm = state.store().read(store::realm).await?;
    let (name, url) = realm
        .map(|realm| (realm.name, realm.url))
        .unwrap_or_default();
    let body = json!({
        // Every method key Zulip 10 lists; Weir authenticates by e-mail and API key only.
        "authentication_methods": {
            "password": true, "dev": false, "email": true, "ldap": false,
            "remoteuser": false, "github": false, "azuread": false, "gitlab": false,
            "apple": false, "google": false, "saml": false, "openid connect": false,
        },
        "external_authentication_methods": [],
        "zulip_feature_level": state.feature_level(),
        "zulip_version": zulip_version(state.feature_level()),
        "zulip_merge_base": zulip_version(state.feature_level()),
        "push_notifications_enabled": false,
        "is_incompatible": false,
        "email_auth_enabled": true,
        "require_email_format_usernames": true,
        "realm_url": url,
        "realm_uri": url,
        "realm_name": name,
        "realm_icon": "",
        "realm_description": "",
        "realm_web_public_access_enabled": false,
    });
    success(body, params.into_ignored())
}

pub async fn get_users(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let client_gravatar = params.take_bool("client_gravatar", true)?;
    let profile_data = params.take_bool("include_custom_profile_fields", false)?;
    let users = state.store().read(store::realm_users).await?;
    let members: Vec<Value> = users
        .iter()
        .map(|user| user_json(user_dto(user, &caller, client_gravatar), profile_data))
        .collect();
    success(json!({ "members": members }), params.into_ignored())
}

/// `GET /users/{user_id}` and `GET /users/{email}`: one user of the organization,
/// deactivated ones included, as Zulip answers them.
pub async fn get_user(
    State(state): State<AppState>,
    caller: Caller,
    Path(who): Path<String>,
    mut params: Params,
) -> ApiResult {
    let client_gravatar = params.take_bool("client_gravatar", true)?;
    let profile_data = params.take_bool("include_custom_profile_fields", false)?;
    let found = state
        .store()
        .read(move |conn| match who.parse::<i64>() {
            Ok(id) => store::user_by_id(conn, id),
            Err(_) => store::user_by_email(conn, who.trim()),
        })
        .await?
        .filter(|user| !user.is_system_bot);
    let user = found.ok_or_else(|| ApiError::bad_request("No such user"))?;
    let user = user_json(user_dto(&user, &caller, client_gravatar), profile_data);
    success(json!({ "user": user }), params.into_ignored())
}

/// `GET /users/me`: Zulip answers it without `client_gravatar`, so with an avatar URL,
/// plus the newest message id the caller can see. Bot fields only for bots.
pub async fn get_own_user(
    State(state): State<AppState>,
    caller: Caller,
    params: Params,
) -> ApiResult {
    let user = user_dto(&caller, &caller, false);
    let viewer = caller.0;
    let max_message_id = state
        .store()
        .read(move |conn| {
            let query = super::message_fetch::newest_visible_query(conn, &viewer)?;
            Ok::<_, Error>(
                store::find_messages(conn, &query)?
                    .messages
                    .last()
                    .map_or(-1, |row| row.id),
            )
        })
        .await?;
    let mut body = user_json(user, false);
    if let Some(fields) = body.as_object_mut() {
        fields.insert("max_message_id".into(), json!(max_message_id));
    }
    success(body, params.into_ignored())
}

/// A stream `caller` can access, with its subscribers, whether the caller is one of
/// them, and what its messages say about it.
pub struct Accessible {
    pub stream: StreamRow,
    pub subscribers: Vec<i64>,
    pub subscribed: bool,
    pub activity: StreamActivity,
}

impl Accessible {
    pub fn dto(&self, view: StreamView) -> Stream {
        stream_dto(&self.stream, self.activity, view, self.subscribers.len())
    }
}

/// Runs CPU work (rendering stream descriptions) on the blocking pool.
async fn off_async<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| Error::Internal(format!("rendering stopped: {error}")))
}

/// The streams `caller` can access, with every stream's subscribers.
async fn accessible_streams(state: &AppState, caller: &Caller) -> Result<Vec<Accessible>, Error> {
    let caller = caller.clone();
    let level = state.feature_level();
    state
        .store()
        .read(move |conn| {
            let streams = store::all_streams(conn)?;
            let mut subscribers = store::all_subscribers(conn)?;
            let deactivated = store::deactivated_user_ids(conn)?;
            let mut accessible = Vec::new();
            for mut stream in streams {
                super::channel_groups::hide_deactivated(&mut stream, &deactivated, level);
                let members = subscribers.remove(&stream.stream_id).unwrap_or_default();
                let subscribed = members.contains(&caller.user_id);
                if can_access(&caller, &stream, subscribed) {
                    accessible.push(Accessible {
                        activity: store::stream_activity(conn, stream.stream_id)?,
                        stream,
                        subscribers: members,
                        subscribed,
                    });
                }
            }
            Ok::<_, Error>(accessible)
        })
        .await
}

pub async fn get_streams(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let include_public = params.take_bool("include_public", true)?;
    let include_subscribed = params.take_bool("include_subscribed", true)?;
    let include_all =
        params.take_bool("include_all", false)? | params.take_bool("include_all_active", false)?;
    for flag in [
        "include_web_public",
        "include_default",
        "include_owner_subscribed",
        "include_can_access_content",
    ] {
        let _ = params.take_bool(flag, false)?;
    }
    let _ = params.take_bool("exclude_archived", true)?;
    if include_all && !caller.is_org_admin() {
        return Err(ApiError::bad_request("User not authorized for this query").into());
    }
    let view = StreamView {
        level: state.feature_level(),
        now: now_unix(),
    };
    let found = accessible_streams(&state, &caller).await?;
    let guest = caller.is_guest();
    // Descriptions are rendered Markdown (math, code): CPU work, off the async threads.
    let streams: Vec<WithFolder<Stream>> = off_async(move || {
        found
            .into_iter()
            .filter(|found| {
                include_all
                    || (include_subscribed && found.subscribed)
                    || (include_public && !found.stream.invite_only && !guest)
            })
            .map(|found| with_folder(found.dto(view), &found.stream, view.level))
            .collect()
    })
    .await?;
    success(json!({ "streams": streams }), params.into_ignored())
}

pub async fn get_subscriptions(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let include_subscribers = take_include_subscribers(&mut params, state.feature_level())?;
    let view = StreamView {
        level: state.feature_level(),
        now: now_unix(),
    };
    let found = accessible_streams(&state, &caller).await?;
    let subscriptions: Vec<WithFolder<Subscription>> = off_async(move || {
        found
            .into_iter()
            .filter(|found| found.subscribed)
            .map(|found| {
                let mut stream = found.dto(view);
                stream.subscribers = include_subscribers.then_some(found.subscribers);
                with_folder(subscription_dto(stream), &found.stream, view.level)
            })
            .collect()
    })
    .await?;
    success(
        json!({ "subscriptions": subscriptions }),
        params.into_ignored(),
    )
}

/// `include_subscribers=partial` (Zulip 11): any subset that has every subscriber a
/// client needs; Weir always sends the whole list, which Zulip's documentation allows.
const PARTIAL_SUBSCRIBERS_LEVEL: u32 = 412;

/// `include_subscribers`: a boolean, or from Zulip 11 `partial` (sent JSON-encoded or
/// bare), which Weir answers with full lists.
pub fn take_include_subscribers(params: &mut Params, level: u32) -> Result<bool, ApiError> {
    if level >= PARTIAL_SUBSCRIBERS_LEVEL
        && let Some(raw) = params.take_str("include_subscribers")
    {
        return match raw.as_str() {
            "partial" | "\"partial\"" => Ok(true),
            other => match serde_json::from_str::<Value>(other) {
                Ok(Value::Bool(value)) => Ok(value),
                Ok(_) => Err(ApiError::bad_request(
                    "include_subscribers is not a boolean",
                )),
                Err(_) => Err(ApiError::bad_request(
                    "include_subscribers is not valid JSON",
                )),
            },
        };
    }
    params.take_bool("include_subscribers", false)
}

/// The stream with this id if `caller` can access it.
async fn accessible_stream_by(
    state: &AppState,
    caller: &Caller,
    find: impl FnOnce(&rusqlite::Connection) -> Result<Option<StreamRow>, Error> + Send + 'static,
) -> Result<Option<(StreamRow, Vec<i64>)>, Error> {
    let caller = caller.clone();
    state
        .store()
        .read(move |conn| {
            let Some(stream) = find(conn)? else {
                return Ok(None);
            };
            let members = store::subscriber_ids(conn, stream.stream_id)?;
            let subscribed = members.contains(&caller.user_id);
            Ok(can_access(&caller, &stream, subscribed).then_some((stream, members)))
        })
        .await
}

pub async fn get_stream_members(
    State(state): State<AppState>,
    caller: Caller,
    Path(stream_id): Path<String>,
    params: Params,
) -> ApiResult {
    let stream_id: Option<i64> = stream_id.parse().ok();
    let found = match stream_id {
        Some(id) => {
            accessible_stream_by(&state, &caller, move |conn| store::stream_by_id(conn, id)).await?
        }
        None => None,
    };
    let (_, subscribers) = found.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
    success(json!({ "subscribers": subscribers }), params.into_ignored())
}

pub async fn get_stream_id(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let name = params.require_str("stream")?;
    let lookup = name.clone();
    let found = accessible_stream_by(&state, &caller, move |conn| {
        store::stream_by_name(conn, lookup.trim())
    })
    .await?;
    let (stream, _) =
        found.ok_or_else(|| ApiError::bad_request(format!("Invalid channel name '{name}'")))?;
    success(
        json!({ "stream_id": stream.stream_id }),
        params.into_ignored(),
    )
}
