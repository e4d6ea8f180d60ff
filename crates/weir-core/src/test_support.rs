//! Builders the unit tests share: Zulip users as the server would send them.

use zulip_api::{Role, User};

/// An active person with `role` and an e-mail made from the id.
pub(crate) fn user(user_id: i64, full_name: &str, role: Role) -> User {
    User {
        user_id,
        email: format!("user{user_id}@example.com"),
        full_name: full_name.to_string(),
        role,
        is_admin: role.is_org_admin(),
        is_owner: role == Role::Owner,
        is_guest: role == Role::Guest,
        is_bot: false,
        bot_type: None,
        bot_owner_id: None,
        is_active: true,
        avatar_url: None,
        avatar_version: 1,
        date_joined: String::new(),
        timezone: String::new(),
        delivery_email: None,
        profile_data: None,
        is_system_bot: None,
    }
}

/// A generic bot owned by `owner`.
pub(crate) fn bot(user_id: i64, owner: i64) -> User {
    User {
        is_bot: true,
        bot_type: Some(zulip_api::BotType::Generic),
        bot_owner_id: Some(owner),
        email: format!("bot{user_id}-bot@example.com"),
        ..user(user_id, &format!("Bot {user_id}"), Role::Member)
    }
}
