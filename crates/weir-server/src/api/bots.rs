//! Bots: create, list, read and regenerate API keys (bots' and your own).

use axum::extract::{Path, State};
use serde_json::json;
use zulip_api::{Bot, BotType, CreateBotResponse, Role};

use super::reads::gravatar_url;
use super::{ApiResult, success};
use crate::AppState;
use crate::clock::{iso8601, now_unix};
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::keys::generate_api_key;
use crate::rules::names::{check_full_name, check_short_name};
use crate::store::{self, NewUser, UserRow};

/// Refuses guests, as Zulip does before subscribing anyone.
pub fn refuse_guests(caller: &Caller) -> Result<(), ApiError> {
    if caller.is_guest() {
        return Err(ApiError::bad_request("Not allowed for guest users"));
    }
    Ok(())
}

/// Zulip's `human_users_only`: a bot may not manage bots or keys (a bot owning a bot).
fn refuse_bots(caller: &Caller) -> Result<(), ApiError> {
    if caller.bot_type.is_some() {
        return Err(ApiError::bad_request(
            "This endpoint does not accept bot requests.",
        ));
    }
    Ok(())
}

/// Zulip's `require_member_or_admin`: guests first, then bots.
fn require_member_or_admin(caller: &Caller) -> Result<(), ApiError> {
    refuse_guests(caller)?;
    refuse_bots(caller)
}

fn bot_dto(bot: &UserRow) -> Bot {
    Bot {
        user_id: bot.user_id,
        username: bot.email.clone(),
        full_name: bot.full_name.clone(),
        api_key: bot.api_key.clone(),
        bot_type: bot.bot_type.unwrap_or(BotType::Generic),
        is_active: bot.is_active,
        owner_id: bot.bot_owner_id,
        avatar_url: None,
        default_sending_stream: None,
        default_events_register_stream: None,
        default_all_public_streams: false,
        services: Vec::new(),
    }
}

/// Zulip 12 added `GET /bots/{bot_id}/api_key`, the documented way to read a bot's key.
pub const BOT_KEY_ENDPOINT_LEVEL: u32 = 463;
/// From Zulip 12's level 474 keys leave `register` and events; weir-server then keeps
/// them out of `GET /bots` too, so that clients are held to the key endpoint.
pub const KEYLESS_LISTINGS_LEVEL: u32 = 474;

pub async fn list_bots(State(state): State<AppState>, caller: Caller, params: Params) -> ApiResult {
    require_member_or_admin(&caller)?;
    let owner_id = caller.user_id;
    let bots = state
        .store()
        .read(move |conn| store::bots_owned_by(conn, owner_id))
        .await?;
    let keyless = state.feature_level() >= KEYLESS_LISTINGS_LEVEL;
    let bots: Vec<serde_json::Value> = bots
        .iter()
        .map(|bot| {
            let mut listed = json!(bot_dto(bot));
            if keyless && let Some(fields) = listed.as_object_mut() {
                fields.remove("api_key");
            }
            listed
        })
        .collect();
    success(json!({ "bots": bots }), params.into_ignored())
}

/// `GET /bots/{bot_id}/api_key` (Zulip 12): the key of a bot the caller owns, or of any
/// bot for an administrator; "Endpoint not found" below the level that added it.
pub async fn get_bot_key(
    State(state): State<AppState>,
    caller: Caller,
    Path(bot_id): Path<String>,
    params: Params,
) -> ApiResult {
    if state.feature_level() < BOT_KEY_ENDPOINT_LEVEL {
        return Err(ApiError::not_found().into());
    }
    require_member_or_admin(&caller)?;
    let bot_id = parse_bot_id(&bot_id)?;
    let ignored = params.into_ignored();
    let caller = caller.0;
    let api_key = state
        .store()
        .read(move |conn| Ok::<_, Error>(managed_bot(conn, &caller, bot_id)?.api_key))
        .await?;
    success(json!({ "api_key": api_key }), ignored)
}

fn parse_bot_id(bot_id: &str) -> Result<i64, ApiError> {
    bot_id
        .parse()
        .map_err(|_| ApiError::bad_request("No such bot"))
}

/// A bot `caller` may manage (its owner, or an administrator), as Zulip's
/// `access_bot_by_id` decides.
fn managed_bot(
    conn: &rusqlite::Connection,
    caller: &UserRow,
    bot_id: i64,
) -> Result<UserRow, Error> {
    let bot = store::user_by_id(conn, bot_id)?
        .filter(|user| user.bot_type.is_some() && !user.is_system_bot)
        .ok_or_else(|| ApiError::bad_request("No such bot"))?;
    if bot.bot_owner_id != Some(caller.user_id) && !caller.is_org_admin() {
        return Err(ApiError::bad_request("Insufficient permission").into());
    }
    Ok(bot)
}

pub async fn create_bot(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    require_member_or_admin(&caller)?;
    let full_name = params.require_str("full_name")?;
    let short_name = params.require_str("short_name")?;
    let bot_type = match params.take_int("bot_type")? {
        None => BotType::Generic,
        Some(code) => u8::try_from(code)
            .ok()
            .and_then(BotType::from_code)
            .ok_or_else(|| ApiError::bad_request("Invalid bot type"))?,
    };
    for known in [
        "service_name",
        "payload_url",
        "interface_type",
        "config_data",
        "avatar",
    ] {
        let _ = params.take_str(known);
    }
    let ignored = params.into_ignored();
    let full_name = check_full_name(&full_name)?;
    let owner_id = caller.user_id;
    let created = state
        .store()
        .write(move |conn| {
            let domain = store::realm(conn)?
                .map(|realm| realm.bot_domain)
                .unwrap_or_default();
            let short_name = check_short_name(&short_name, &domain)?;
            let email = format!("{short_name}-bot@{domain}");
            let email_for_avatar = email.clone();
            if store::user_by_email(conn, &email)?.is_some() {
                return Err(ApiError::bad_request("Username already in use").into());
            }
            if store::active_user_with_name_exists(conn, &full_name)? {
                return Err(ApiError::bad_request("Name is already in use.").into());
            }
            let api_key = generate_api_key();
            let user_id = store::insert_user(
                conn,
                &NewUser {
                    user_id: None,
                    email,
                    full_name: full_name.clone(),
                    role: Role::Member,
                    bot_type: Some(bot_type),
                    bot_owner_id: Some(owner_id),
                    api_key: api_key.clone(),
                    is_active: true,
                    is_system_bot: false,
                    date_joined: iso8601(now_unix()),
                },
            )?;
            Ok::<_, Error>(CreateBotResponse {
                user_id,
                api_key,
                avatar_url: Some(gravatar_url(&email_for_avatar)),
                default_sending_stream: None,
                default_events_register_stream: None,
                default_all_public_streams: false,
            })
        })
        .await?;
    success(created, ignored)
}

pub async fn regenerate_bot_key(
    State(state): State<AppState>,
    caller: Caller,
    Path(bot_id): Path<String>,
    params: Params,
) -> ApiResult {
    require_member_or_admin(&caller)?;
    let bot_id = parse_bot_id(&bot_id)?;
    let ignored = params.into_ignored();
    let caller = caller.0;
    let api_key = state
        .store()
        .write(move |conn| {
            let bot = managed_bot(conn, &caller, bot_id)?;
            let api_key = generate_api_key();
            store::set_api_key(conn, bot.user_id, &api_key)?;
            Ok::<_, Error>(api_key)
        })
        .await?;
    success(json!({ "api_key": api_key }), ignored)
}

pub async fn regenerate_own_key(
    State(state): State<AppState>,
    caller: Caller,
    params: Params,
) -> ApiResult {
    refuse_bots(&caller)?;
    let user_id = caller.user_id;
    let api_key = state
        .store()
        .write(move |conn| {
            let api_key = generate_api_key();
            store::set_api_key(conn, user_id, &api_key)?;
            Ok::<_, Error>(api_key)
        })
        .await?;
    success(json!({ "api_key": api_key }), params.into_ignored())
}
