//! Deactivating and reactivating bots: `DELETE /bots/{id}` and
//! `POST /users/{id}/reactivate`, with Zulip's rules (a bot's owner or an organization
//! administrator; humans only by administrators).

use axum::extract::{Path, State};
use serde_json::json;

use super::bots::refuse_guests;
use super::{ApiResult, success};
use crate::AppState;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::store::{self, UserRow};

/// Zulip's `can_admin_user`: administrators, and a bot's owner for that bot.
fn may_manage(caller: &UserRow, target: &UserRow) -> bool {
    caller.is_org_admin()
        || (target.bot_type.is_some() && target.bot_owner_id == Some(caller.user_id))
}

fn parse_id(text: &str, error: &str) -> Result<i64, ApiError> {
    text.parse().map_err(|_| ApiError::bad_request(error))
}

/// `DELETE /bots/{bot_id}`: the bot stops authenticating at once; deactivating a
/// deactivated bot changes nothing.
pub async fn deactivate_bot(
    State(state): State<AppState>,
    caller: Caller,
    Path(bot_id): Path<String>,
    params: Params,
) -> ApiResult {
    refuse_guests(&caller)?;
    let bot_id = parse_id(&bot_id, "No such bot")?;
    let ignored = params.into_ignored();
    let caller = caller.0;
    state
        .store()
        .write(move |conn| {
            let bot = store::user_by_id(conn, bot_id)?
                .filter(|user| user.bot_type.is_some() && !user.is_system_bot)
                .ok_or_else(|| ApiError::bad_request("No such bot"))?;
            if !may_manage(&caller, &bot) {
                return Err(ApiError::bad_request("Insufficient permission").into());
            }
            store::set_user_active(conn, bot.user_id, false)?;
            Ok::<_, Error>(())
        })
        .await?;
    success(json!({}), ignored)
}

/// `POST /users/{user_id}/reactivate`: a bot comes back with its old key, unless an
/// active bot took its name meanwhile.
pub async fn reactivate_user(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    params: Params,
) -> ApiResult {
    let user_id = parse_id(&user_id, "No such user")?;
    let ignored = params.into_ignored();
    let caller = caller.0;
    state
        .store()
        .write(move |conn| {
            let target = store::user_by_id(conn, user_id)?
                .filter(|user| !user.is_system_bot)
                .ok_or_else(|| ApiError::bad_request("No such user"))?;
            if !may_manage(&caller, &target) {
                return Err(ApiError::bad_request("Insufficient permission").into());
            }
            if target.is_active {
                return Ok(());
            }
            if target.bot_type.is_some()
                && store::active_user_with_name_exists(conn, &target.full_name)?
            {
                return Err(ApiError::bad_request("Name is already in use.").into());
            }
            store::set_user_active(conn, target.user_id, true)?;
            Ok::<_, Error>(())
        })
        .await?;
    success(json!({}), ignored)
}
