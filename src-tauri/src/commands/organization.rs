use tauri::State;
use zulip_api::{Subscription, User};

use crate::dto::{BotSummary, OrganizationOverview, StreamSummary, UserSummary};
use crate::error::AppResult;
use crate::state::WeirState;

fn user_summary(user: &User) -> UserSummary {
    UserSummary {
        user_id: user.user_id,
        full_name: user.full_name.clone(),
        email: user.email.clone(),
        role: user.role.name().to_owned(),
        is_bot: user.is_bot,
        bot_type: user.bot_type.map(|kind| kind as u8),
        is_active: user.is_active,
    }
}

fn stream_summary(stream: &Subscription) -> StreamSummary {
    StreamSummary {
        stream_id: stream.stream_id,
        name: stream.name.clone(),
        description: stream.description.clone(),
        invite_only: stream.invite_only,
        subscriber_count: stream
            .subscribers
            .as_ref()
            .map_or(stream.subscriber_count, |subscribers| {
                subscribers.len() as i64
            }),
    }
}

/// Everything the Memberships page shows, in two requests (`server_settings` and one
/// `register` snapshot), however large the organization.
#[tauri::command]
pub async fn organization_overview(state: State<'_, WeirState>) -> AppResult<OrganizationOverview> {
    let client = state.active_client().await?;
    let settings = client
        .server_settings()
        .await
        .map_err(weir_core::CoreError::from)?;
    let snapshot = client
        .register_snapshot()
        .await
        .map_err(weir_core::CoreError::from)?;
    let me = client
        .get_own_user()
        .await
        .map_err(weir_core::CoreError::from)?;
    let mut users: Vec<UserSummary> = snapshot
        .realm_users
        .iter()
        .chain(&snapshot.realm_non_active_users)
        .map(user_summary)
        .collect();
    users.sort_by_key(|user| user.full_name.to_lowercase());
    let mut streams: Vec<StreamSummary> = snapshot
        .subscriptions
        .iter()
        .chain(&snapshot.unsubscribed)
        .chain(&snapshot.never_subscribed)
        .map(stream_summary)
        .collect();
    streams.sort_by_key(|stream| stream.name.to_lowercase());
    Ok(OrganizationOverview {
        realm_name: settings.realm_name.clone().unwrap_or_default(),
        realm_url: settings.realm_url().unwrap_or_default().to_owned(),
        zulip_version: settings.zulip_version.clone(),
        feature_level: settings.zulip_feature_level,
        me: user_summary(&me),
        users,
        streams,
    })
}

/// The active account's own bots. Read from the user list, whose fields real Zulip
/// servers send (`GET /bots` has no ids or types there); keys are never sent to the UI.
#[tauri::command]
pub async fn list_bots(state: State<'_, WeirState>) -> AppResult<Vec<BotSummary>> {
    let client = state.active_client().await?;
    let me = client
        .get_own_user()
        .await
        .map_err(weir_core::CoreError::from)?;
    let users = client
        .get_users()
        .await
        .map_err(weir_core::CoreError::from)?;
    Ok(users
        .iter()
        .filter(|user| user.bot_owner_id == Some(me.user_id))
        .filter_map(|user| {
            user.bot_type.map(|kind| BotSummary {
                user_id: user.user_id,
                full_name: user.full_name.clone(),
                email: user.email.clone(),
                bot_type: kind as u8,
                is_active: user.is_active,
            })
        })
        .collect())
}
