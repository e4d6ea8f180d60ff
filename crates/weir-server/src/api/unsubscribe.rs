//! `DELETE /users/me/subscriptions`, checked in Zulip's order and applied all or nothing.

use axum::extract::State;
use axum::response::Response;
use rusqlite::Connection;
use zulip_api::RemoveSubscriptionsResponse;

use super::channel_groups::may_remove_others;
use super::principals::{
    Principal, is_heavy, parse_principals, resolve_principals, unique_stream_names,
};
use super::success_weighted;
use crate::AppState;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::access::{has_content_access, visible_for_unsubscribe};
use crate::rules::limits::{MAX_SUBSCRIPTIONS, check_list_len};
use crate::store::{self, Groups, StreamRow, UserRow};

/// Feature level from which users may remove bots they own.
const BOT_OWNERS_REMOVE_BOTS_LEVEL: u32 = 145;

pub async fn unsubscribe(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> Result<Response, Error> {
    let names = params.require_string_list("subscriptions")?;
    check_list_len("subscriptions", names.len(), MAX_SUBSCRIPTIONS)?;
    let principals = parse_principals(params.take_json("principals")?, state.feature_level())?;
    let ignored = params.into_ignored();
    let level = state.feature_level();
    let heavy = is_heavy(names.len(), principals.len());
    // The groups decide only when someone who is no administrator removes others:
    // resolved now, on a reader, only then.
    let groups = if caller.is_org_admin() || principals.is_empty() {
        state.store().groups_later(caller.user_id)
    } else {
        state.store().groups_for(caller.user_id).await?
    };
    let response = state
        .store()
        .write_weighted(heavy, move |conn| {
            remove(conn, &groups, &caller, &names, &principals, level)
        })
        .await?;
    success_weighted(heavy, response, ignored).await
}

fn remove(
    conn: &Connection,
    groups: &Groups,
    caller: &UserRow,
    raw_names: &[String],
    principals: &[Principal],
    feature_level: u32,
) -> Result<RemoveSubscriptionsResponse, Error> {
    let targets = resolve_principals(conn, caller, principals, feature_level)?;
    let names = unique_stream_names(raw_names)?;

    let mut visible: Vec<StreamRow> = Vec::with_capacity(names.len());
    // The visible streams whose content the caller may read (Zulip's basic access).
    let mut readable: Vec<bool> = Vec::with_capacity(names.len());
    let mut first_missing: Option<&str> = None;
    for name in &names {
        let found = match store::stream_by_name(conn, name)? {
            Some(stream) => {
                let subscribed = store::is_subscribed(conn, caller.user_id, stream.stream_id)?;
                visible_for_unsubscribe(caller, &stream, subscribed)
                    .then(|| (has_content_access(caller, &stream, subscribed), stream))
            }
            None => None,
        };
        match found {
            Some((content_access, stream)) => {
                readable.push(content_access);
                visible.push(stream);
            }
            None => {
                first_missing.get_or_insert(name);
            }
        }
    }

    let acts_on_others = targets
        .iter()
        .any(|target| target.user_id != caller.user_id);
    if acts_on_others && !caller.is_org_admin() && !visible.is_empty() {
        let owns_bot = |target: &UserRow| {
            feature_level >= BOT_OWNERS_REMOVE_BOTS_LEVEL
                && target.bot_type.is_some()
                && target.bot_owner_id == Some(caller.user_id)
        };
        // `visible` streams are ones the caller can access, as bot owners need.
        let only_self_and_own_bots = targets
            .iter()
            .all(|target| target.user_id == caller.user_id || owns_bot(target));
        // Else, as Zulip's `can_remove_subscribers_from_stream`: basic access to the
        // stream first (a guest reads only streams they are in, public or not), then the
        // stream's groups, stream by stream (loaded only then).
        if !only_self_and_own_bots {
            if readable.contains(&false) {
                return Err(ApiError::bad_request("Insufficient permission").into());
            }
            let graph = groups.current(conn)?;
            if !visible
                .iter()
                .all(|stream| may_remove_others(&graph, caller, stream, feature_level))
            {
                return Err(ApiError::bad_request("Insufficient permission").into());
            }
        }
    }
    if let Some(name) = first_missing {
        return Err(ApiError::stream_does_not_exist(name).into());
    }

    // One entry per (target, stream) pair, listing the stream's name: per stream, as many
    // `removed` as targets that were subscribed, the rest `not_removed`.
    let ids: Vec<i64> = targets.iter().map(|target| target.user_id).collect();
    let mut response = RemoveSubscriptionsResponse::default();
    for stream in &visible {
        let removed = store::unsubscribe_many(conn, stream.stream_id, &ids)?;
        let kept = ids.len().saturating_sub(removed);
        response
            .removed
            .extend(std::iter::repeat_n(&stream.name, removed).cloned());
        response
            .not_removed
            .extend(std::iter::repeat_n(&stream.name, kept).cloned());
    }
    Ok(response)
}
