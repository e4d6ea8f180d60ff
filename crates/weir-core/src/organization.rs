//! The organization as Weir shows it: the realm and who you are in it, and the caller's
//! bots, assembled from a few small Zulip calls. People and channels with their
//! subscribers are the memberships grid's (one `register` snapshot, in
//! [`crate::memberships`]). The types are what the UI receives (camelCase, generated into
//! TypeScript by the app).

use serde::Serialize;
use ts_rs::TS;
use zulip_api::{ServerSettings, User};

use crate::client::ZulipClient;
use crate::error::CoreError;

/// A user's role, by name (Zulip sends numbers: 100 for owners up to 600 for guests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Owner,
    Administrator,
    Moderator,
    Member,
    Guest,
}

impl From<zulip_api::Role> for Role {
    fn from(role: zulip_api::Role) -> Self {
        match role {
            zulip_api::Role::Owner => Self::Owner,
            zulip_api::Role::Administrator => Self::Administrator,
            zulip_api::Role::Moderator => Self::Moderator,
            zulip_api::Role::Member => Self::Member,
            zulip_api::Role::Guest => Self::Guest,
        }
    }
}

/// A bot's type, by name (Zulip sends 1 to 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum BotType {
    Generic,
    IncomingWebhook,
    OutgoingWebhook,
    Embedded,
}

impl From<zulip_api::BotType> for BotType {
    fn from(kind: zulip_api::BotType) -> Self {
        match kind {
            zulip_api::BotType::Generic => Self::Generic,
            zulip_api::BotType::IncomingWebhook => Self::IncomingWebhook,
            zulip_api::BotType::OutgoingWebhook => Self::OutgoingWebhook,
            zulip_api::BotType::Embedded => Self::Embedded,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    #[ts(type = "number")]
    pub user_id: i64,
    pub full_name: String,
    pub email: String,
    pub role: Role,
    pub is_bot: bool,
    pub bot_type: Option<BotType>,
    pub is_active: bool,
}

impl From<&User> for UserSummary {
    fn from(user: &User) -> Self {
        Self {
            user_id: user.user_id,
            full_name: user.full_name.clone(),
            email: user.email.clone(),
            role: user.role.into(),
            is_bot: user.is_bot,
            bot_type: user.bot_type.map(BotType::from),
            is_active: user.is_active,
        }
    }
}

/// The realm and the caller: the Memberships page's header, shown while its grid (the
/// large part) still loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrganizationOverview {
    pub realm_name: String,
    pub realm_url: String,
    pub zulip_version: String,
    pub feature_level: u32,
    pub me: UserSummary,
}

/// One of the caller's bots. Keys never leave weir-core this way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BotSummary {
    #[ts(type = "number")]
    pub user_id: i64,
    pub full_name: String,
    pub email: String,
    pub bot_type: BotType,
    pub is_active: bool,
}

/// The overview in two small concurrent requests (`server_settings`, cached per client,
/// and `users/me`): no `register`, whose snapshot of the whole organization only the grid
/// needs, so that the Memberships page asks for it once.
pub async fn overview(client: &ZulipClient) -> Result<OrganizationOverview, CoreError> {
    let (settings, me) = tokio::join!(client.server_settings(), client.get_own_user());
    let (settings, me) = (settings?, me?);
    Ok(assemble_overview(&settings, &me))
}

/// The caller's own bots. Read from the user list, whose fields real Zulip servers send
/// (`GET /bots` has no ids or types there).
pub async fn own_bots(client: &ZulipClient) -> Result<Vec<BotSummary>, CoreError> {
    let me = client.get_own_user().await?;
    let users = client.get_users().await?;
    Ok(bots_owned_by(me.user_id, &users))
}

/// [`overview`] without the requests.
pub fn assemble_overview(settings: &ServerSettings, me: &User) -> OrganizationOverview {
    OrganizationOverview {
        realm_name: settings.realm_name.clone().unwrap_or_default(),
        realm_url: settings.realm_url().unwrap_or_default().to_owned(),
        zulip_version: settings.zulip_version.clone(),
        feature_level: settings.zulip_feature_level,
        me: UserSummary::from(me),
    }
}

/// The bots among `users` that `owner_id` owns, in the list's order.
pub fn bots_owned_by(owner_id: i64, users: &[User]) -> Vec<BotSummary> {
    users
        .iter()
        .filter(|user| user.bot_owner_id == Some(owner_id))
        .filter_map(|user| {
            user.bot_type.map(|kind| BotSummary {
                user_id: user.user_id,
                full_name: user.full_name.clone(),
                email: user.email.clone(),
                bot_type: kind.into(),
                is_active: user.is_active,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::{bot as plain_bot, user};

    fn bot(user_id: i64, owner: i64, kind: zulip_api::BotType) -> User {
        User {
            bot_type: Some(kind),
            ..plain_bot(user_id, owner)
        }
    }

    fn settings() -> ServerSettings {
        ServerSettings {
            zulip_feature_level: 362,
            zulip_version: "10.2".into(),
            zulip_merge_base: None,
            push_notifications_enabled: false,
            authentication_methods: serde_json::Map::new(),
            realm_name: Some("Acme".into()),
            realm_url: None,
            realm_uri: Some("https://acme.example.com".into()),
        }
    }

    #[test]
    fn overview_is_the_realm_and_the_caller() {
        let me = user(1, "Alice", zulip_api::Role::Owner);
        let overview = assemble_overview(&settings(), &me);
        assert_eq!(overview.realm_name, "Acme");
        assert_eq!(overview.realm_url, "https://acme.example.com");
        assert_eq!(
            (overview.zulip_version.as_str(), overview.feature_level),
            ("10.2", 362)
        );
        assert_eq!((overview.me.user_id, overview.me.role), (1, Role::Owner));
    }

    #[test]
    fn only_the_callers_bots_with_a_type_are_listed() {
        let users = vec![
            user(1, "me", zulip_api::Role::Member),
            bot(10, 1, zulip_api::BotType::IncomingWebhook),
            bot(11, 2, zulip_api::BotType::Generic),
            User {
                bot_type: None,
                ..bot(12, 1, zulip_api::BotType::Generic)
            },
        ];
        let bots = bots_owned_by(1, &users);
        assert_eq!(bots.len(), 1);
        assert_eq!(
            (bots[0].user_id, bots[0].bot_type),
            (10, BotType::IncomingWebhook)
        );
    }

    #[test]
    fn roles_and_bot_types_cross_as_snake_case_names() {
        let json = serde_json::to_value((
            Role::from(zulip_api::Role::Guest),
            BotType::from(zulip_api::BotType::OutgoingWebhook),
        ));
        assert_eq!(
            json.ok(),
            Some(serde_json::json!(["guest", "outgoing_webhook"]))
        );
    }
}
