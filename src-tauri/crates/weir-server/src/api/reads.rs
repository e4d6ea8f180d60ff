//! Read endpoints: server settings, users, streams, subscriptions, members.

use axum::extract::{Path, State};
use serde_json::json;
use zulip_api::{Stream, Subscription, User};

use super::{ApiResult, success};
use crate::AppState;
use crate::access::can_access;
use crate::auth::Caller;
use crate::error::{ApiError, Error};
use crate::params::Params;
use crate::render::render_markdown;
use crate::store::{self, StreamRow, UserRow};

/// Zulip's release that matches the default feature level.
pub const ZULIP_VERSION: &str = "10.0";

pub async fn server_settings(State(state): State<AppState>, params: Params) -> ApiResult {
    let realm = state.store().read(store::realm).await?;
    let (name, url) = realm
        .map(|realm| (realm.name, realm.url))
        .unwrap_or_default();
    let body = json!({
        "authentication_methods": {"password": true, "dev": false, "email": true, "ldap": false,
                                   "remoteuser": false, "github": false, "google": false},
        "external_authentication_methods": [],
        "zulip_feature_level": state.feature_level(),
        "zulip_version": ZULIP_VERSION,
        "zulip_merge_base": ZULIP_VERSION,
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

/// Zulip's avatar for a user without an uploaded one: their Gravatar, by e-mail hash.
pub fn gravatar_url(email: &str) -> String {
    use md5::{Digest, Md5};
    let digest = Md5::digest(email.trim().to_lowercase().as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("https://secure.gravatar.com/avatar/{hex}?d=identicon&version=1")
}

/// A user as `viewer` may see them. `delivery_email` is visible to administrators, to
/// the user themself, and for bots to everyone, as in Zulip. `avatar_url` is null, as
/// Zulip sends it with `client_gravatar` (the default of these listings).
pub fn user_dto(user: &UserRow, viewer: &UserRow) -> User {
    User {
        user_id: user.user_id,
        email: user.email.clone(),
        full_name: user.full_name.clone(),
        role: user.role,
        is_admin: user.is_org_admin(),
        is_owner: user.role == zulip_api::Role::Owner,
        is_guest: user.is_guest(),
        is_bot: user.bot_type.is_some(),
        bot_type: user.bot_type,
        bot_owner_id: user.bot_owner_id,
        is_active: user.is_active,
        avatar_url: None,
        date_joined: user.date_joined.clone(),
        timezone: user.timezone.clone(),
        delivery_email: (viewer.is_org_admin()
            || viewer.user_id == user.user_id
            || user.bot_type.is_some())
        .then(|| user.email.clone()),
    }
}

pub fn stream_dto(stream: &StreamRow, subscriber_count: usize) -> Stream {
    Stream {
        stream_id: stream.stream_id,
        name: stream.name.clone(),
        description: stream.description.clone(),
        rendered_description: render_markdown(&stream.description),
        invite_only: stream.invite_only,
        is_web_public: false,
        history_public_to_subscribers: !stream.invite_only,
        date_created: stream.date_created,
        subscriber_count: subscriber_count as i64,
        is_archived: false,
    }
}

pub fn subscription_dto(stream: &StreamRow, subscribers: &[i64], include: bool) -> Subscription {
    Subscription {
        stream_id: stream.stream_id,
        name: stream.name.clone(),
        description: stream.description.clone(),
        invite_only: stream.invite_only,
        is_web_public: false,
        date_created: stream.date_created,
        subscriber_count: subscribers.len() as i64,
        subscribers: include.then(|| subscribers.to_vec()),
    }
}

pub async fn get_users(State(state): State<AppState>, caller: Caller, params: Params) -> ApiResult {
    let users = state.store().read(store::realm_users).await?;
    let members: Vec<User> = users.iter().map(|user| user_dto(user, &caller)).collect();
    success(json!({ "members": members }), params.into_ignored())
}

/// `GET /users/me`: Zulip answers it without `client_gravatar`, so with an avatar URL,
/// plus the newest message id the caller can see.
pub async fn get_own_user(
    State(state): State<AppState>,
    caller: Caller,
    params: Params,
) -> ApiResult {
    let mut user = user_dto(&caller, &caller);
    user.avatar_url = Some(gravatar_url(&user.email));
    let viewer = caller.0;
    let max_message_id = state
        .store()
        .read(move |conn| {
            let query = super::messages::newest_visible_query(conn, &viewer)?;
            Ok::<_, Error>(
                store::find_messages(conn, &query)?
                    .messages
                    .last()
                    .map_or(-1, |row| row.id),
            )
        })
        .await?;
    let mut body =
        serde_json::to_value(user).map_err(|error| Error::Internal(error.to_string()))?;
    if let Some(fields) = body.as_object_mut() {
        fields.insert("max_message_id".into(), json!(max_message_id));
    }
    success(body, params.into_ignored())
}

/// The streams `caller` can access, with every stream's subscribers.
async fn accessible_streams(
    state: &AppState,
    caller: &Caller,
) -> Result<Vec<(StreamRow, Vec<i64>, bool)>, Error> {
    let caller = caller.clone();
    state
        .store()
        .read(move |conn| {
            let streams = store::all_streams(conn)?;
            let mut subscribers = store::all_subscribers(conn)?;
            Ok::<_, Error>(
                streams
                    .into_iter()
                    .filter_map(|stream| {
                        let members = subscribers.remove(&stream.stream_id).unwrap_or_default();
                        let subscribed = members.contains(&caller.user_id);
                        can_access(&caller, &stream, subscribed)
                            .then_some((stream, members, subscribed))
                    })
                    .collect(),
            )
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
    let _ = params.take_bool("include_web_public", false)?;
    let _ = params.take_bool("include_default", false)?;
    let _ = params.take_bool("include_owner_subscribed", false)?;
    if include_all && !caller.is_org_admin() {
        return Err(ApiError::bad_request("User not authorized for this query").into());
    }
    let streams: Vec<Stream> = accessible_streams(&state, &caller)
        .await?
        .into_iter()
        .filter(|(stream, _, subscribed)| {
            include_all
                || (include_subscribed && *subscribed)
                || (include_public && !stream.invite_only && !caller.is_guest())
        })
        .map(|(stream, members, _)| stream_dto(&stream, members.len()))
        .collect();
    success(json!({ "streams": streams }), params.into_ignored())
}

pub async fn get_subscriptions(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let include_subscribers = params.take_bool("include_subscribers", false)?;
    let subscriptions: Vec<Subscription> = accessible_streams(&state, &caller)
        .await?
        .into_iter()
        .filter(|(_, _, subscribed)| *subscribed)
        .map(|(stream, members, _)| subscription_dto(&stream, &members, include_subscribers))
        .collect();
    success(
        json!({ "subscriptions": subscriptions }),
        params.into_ignored(),
    )
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
