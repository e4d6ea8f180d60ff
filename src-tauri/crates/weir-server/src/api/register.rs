//! The snapshot form of `POST /register`: users and subscriptions in one request, as
//! Zulip's own clients load them. Weir has no event queue yet, so `queue_id` is null.

use axum::extract::State;
use serde_json::{Map, Value, json};

use super::reads::{ZULIP_VERSION, subscription_dto, user_dto};
use super::{ApiResult, success};
use crate::AppState;
use crate::access::can_access;
use crate::auth::Caller;
use crate::error::Error;
use crate::params::Params;
use crate::store;

pub async fn register(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let event_types = params.take_string_list("event_types")?;
    let fetch_event_types = params
        .take_string_list("fetch_event_types")?
        .or(event_types);
    let include_subscribers = params.take_bool("include_subscribers", false)?;
    for known in [
        "client_gravatar",
        "slim_presence",
        "apply_markdown",
        "all_public_streams",
        "client_capabilities",
        "narrow",
        "queue_lifespan_secs",
        "user_avatar_url_field_optional",
        "user_settings_object",
        "include_streams",
    ] {
        let _ = params.take_str(known);
    }
    let wants = |kind: &str| {
        fetch_event_types
            .as_ref()
            .is_none_or(|types| types.iter().any(|t| t == kind))
    };
    let (want_users, want_subscriptions) = (wants("realm_user"), wants("subscription"));
    let level = state.feature_level();
    let viewer = caller.0;
    let body = state
        .store()
        .read(move |conn| {
            let mut body = Map::new();
            body.insert("queue_id".into(), Value::Null);
            body.insert("last_event_id".into(), json!(-1));
            body.insert("zulip_feature_level".into(), json!(level));
            body.insert("zulip_version".into(), json!(ZULIP_VERSION));
            body.insert("zulip_merge_base".into(), json!(ZULIP_VERSION));
            if want_users {
                let users = store::realm_users(conn)?;
                let (active, inactive): (Vec<_>, Vec<_>) =
                    users.iter().partition(|user| user.is_active);
                let dto = |users: Vec<&store::UserRow>| -> Vec<zulip_api::User> {
                    users
                        .into_iter()
                        .map(|user| user_dto(user, &viewer))
                        .collect()
                };
                body.insert("realm_users".into(), json!(dto(active)));
                body.insert("realm_non_active_users".into(), json!(dto(inactive)));
                let bots: Vec<_> = store::system_bots(conn)?
                    .iter()
                    .map(|bot| user_dto(bot, &viewer))
                    .collect();
                body.insert("cross_realm_bots".into(), json!(bots));
            }
            if want_subscriptions {
                let states = store::subscription_states(conn, viewer.user_id)?;
                let mut subscribers = store::all_subscribers(conn)?;
                let (mut subscribed, mut unsubscribed, mut never) = (vec![], vec![], vec![]);
                for stream in store::all_streams(conn)? {
                    let members = subscribers.remove(&stream.stream_id).unwrap_or_default();
                    let state = states.get(&stream.stream_id).copied();
                    let is_subscribed = state == Some(true);
                    if !can_access(&viewer, &stream, is_subscribed) {
                        continue;
                    }
                    let dto = subscription_dto(&stream, &members, include_subscribers);
                    match state {
                        Some(true) => subscribed.push(dto),
                        Some(false) => unsubscribed.push(dto),
                        None => never.push(dto),
                    }
                }
                body.insert("subscriptions".into(), json!(subscribed));
                body.insert("unsubscribed".into(), json!(unsubscribed));
                body.insert("never_subscribed".into(), json!(never));
            }
            Ok::<_, Error>(body)
        })
        .await?;
    success(Value::Object(body), params.into_ignored())
}
