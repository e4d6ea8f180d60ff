use serde::{Deserialize, Serialize};
use serde_repr::{Deserialize_repr, Serialize_repr};

/// A user's role in the organization, with Zulip's numeric values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize_repr, Deserialize_repr)]
#[repr(u16)]
pub enum Role {
    Owner = 100,
    Administrator = 200,
    Moderator = 300,
    Member = 400,
    Guest = 600,
}

impl Role {
    /// Owners and administrators are Zulip's "organization administrators".
    pub fn is_org_admin(self) -> bool {
        matches!(self, Self::Owner | Self::Administrator)
    }

    /// The lower-case name used in seed files (`owner`, `administrator`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Administrator => "administrator",
            Self::Moderator => "moderator",
            Self::Member => "member",
            Self::Guest => "guest",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        [
            Self::Owner,
            Self::Administrator,
            Self::Moderator,
            Self::Member,
            Self::Guest,
        ]
        .into_iter()
        .find(|role| role.name() == name)
    }

    pub fn from_code(code: u16) -> Option<Self> {
        [
            Self::Owner,
            Self::Administrator,
            Self::Moderator,
            Self::Member,
            Self::Guest,
        ]
        .into_iter()
        .find(|role| *role as u16 == code)
    }
}

/// Zulip's bot types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize_repr, Deserialize_repr)]
#[repr(u8)]
pub enum BotType {
    Generic = 1,
    IncomingWebhook = 2,
    OutgoingWebhook = 3,
    Embedded = 4,
}

impl BotType {
    pub fn from_code(code: u8) -> Option<Self> {
        [
            Self::Generic,
            Self::IncomingWebhook,
            Self::OutgoingWebhook,
            Self::Embedded,
        ]
        .into_iter()
        .find(|kind| *kind as u8 == code)
    }
}

/// A user as `GET /users`, `GET /users/me` and `POST /register` describe it.
///
/// `bot_type` and `bot_owner_id` are absent from `GET /users/me` for people, and
/// `is_system_bot` is only in `register`'s `cross_realm_bots`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub user_id: i64,
    pub email: String,
    pub full_name: String,
    pub role: Role,
    /// Derived from `role` by the server; read `role` instead.
    #[serde(default)]
    pub is_admin: bool,
    #[serde(default)]
    pub is_owner: bool,
    #[serde(default)]
    pub is_guest: bool,
    pub is_bot: bool,
    #[serde(default)]
    pub bot_type: Option<BotType>,
    #[serde(default)]
    pub bot_owner_id: Option<i64>,
    pub is_active: bool,
    /// `None` when the client asked for `client_gravatar` and the user uses Gravatar.
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default)]
    pub avatar_version: i64,
    /// Sent by every supported level; defaulted because Weir never needs them.
    #[serde(default)]
    pub date_joined: String,
    #[serde(default)]
    pub timezone: String,
    #[serde(default)]
    pub delivery_email: Option<String>,
    /// Custom profile field values by field id, when asked for (people only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_data: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_system_bot: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UsersResponse {
    pub members: Vec<User>,
}

/// One of the caller's bots, as `GET /bots` lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bot {
    pub user_id: i64,
    /// The bot's e-mail address (Zulip calls it `username` here).
    pub username: String,
    pub full_name: String,
    pub api_key: String,
    pub bot_type: BotType,
    pub is_active: bool,
    pub owner_id: Option<i64>,
    pub avatar_url: Option<String>,
    pub default_sending_stream: Option<String>,
    pub default_events_register_stream: Option<String>,
    pub default_all_public_streams: bool,
    pub services: Vec<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CreateBotResponse {
    pub user_id: i64,
    pub api_key: String,
    pub avatar_url: Option<String>,
    pub default_sending_stream: Option<String>,
    pub default_events_register_stream: Option<String>,
    pub default_all_public_streams: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_use_zulip_numbers_on_the_wire() {
        assert_eq!(
            serde_json::to_string(&Role::Guest).ok().as_deref(),
            Some("600")
        );
        assert_eq!(Role::from_name("administrator"), Some(Role::Administrator));
        assert!(Role::Owner.is_org_admin() && !Role::Moderator.is_org_admin());
    }

    /// A user a guest may not see (Zulip 8+, level 228), as Zulip 10's
    /// `get_data_for_inaccessible_user` fills it in for `realm_users` and `GET /users`.
    #[test]
    fn zulip_s_placeholder_for_an_inaccessible_user_decodes() -> Result<(), serde_json::Error> {
        let body = r#"{"email": "user12@zulip.testserver", "user_id": 12,
            "avatar_version": 1, "is_admin": false, "is_owner": false, "is_guest": false,
            "role": 400, "is_bot": false, "full_name": "Unknown user", "timezone": "",
            "is_active": true, "date_joined": "1970-01-01T00:00:00+00:00",
            "delivery_email": null,
            "avatar_url": "/static/images/unknown-user-avatar.png", "profile_data": {}}"#;
        let user: User = serde_json::from_str(body)?;
        assert_eq!((user.user_id, user.role), (12, Role::Member));
        assert!(user.delivery_email.is_none() && user.bot_type.is_none());
        Ok(())
    }
}
