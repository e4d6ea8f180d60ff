//! How stored rows look on the wire: users, streams and subscriptions with every field
//! Zulip 10's API document lists for them.

use serde_json::{Value, json};
use zulip_api::{GroupSettingValue, Role, Stream, Subscription, User};

use crate::render::render_markdown;
use crate::store::{StreamActivity, StreamRow, UserRow};

/// System groups named by stream settings Weir does not store (listed in
/// docs/zulip-compatibility.md).
pub mod system_groups {
    pub use crate::store::system::{EVERYONE, NOBODY};
}

/// A stream counts as recently active for this long after its last message or creation,
/// as Zulip's daily job decides.
const RECENTLY_ACTIVE_SECS: i64 = 180 * 24 * 60 * 60;

/// Zulip's palette for new subscriptions; Weir keeps no per-user colour, so each stream
/// gets one by its id, the same for everyone and every call.
const STREAM_COLORS: [&str; 24] = [
    "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
    "#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
    "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4", "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
];

/// Zulip's avatar for a user without an uploaded one: their Gravatar, by e-mail hash.
pub fn gravatar_url(email: &str) -> String {
    use md5::{Digest, Md5};
    let digest = Md5::digest(email.trim().to_lowercase().as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("https://secure.gravatar.com/avatar/{hex}?d=identicon&version=1")
}

/// `avatar_url` as Zulip sends it: with `client_gravatar` the client computes Gravatar
/// URLs itself, so the field is null (no Weir user has an uploaded avatar).
pub fn avatar_url(email: &str, client_gravatar: bool) -> Option<String> {
    (!client_gravatar).then(|| gravatar_url(email))
}

/// A user as `viewer` may see them. `delivery_email` is visible to administrators, to
/// the user themself, and for bots to everyone, as in Zulip.
pub fn user_dto(user: &UserRow, viewer: &UserRow, client_gravatar: bool) -> User {
    User {
        user_id: user.user_id,
        email: user.email.clone(),
        full_name: user.full_name.clone(),
        role: user.role,
        is_admin: user.is_org_admin(),
        is_owner: user.role == Role::Owner,
        is_guest: user.is_guest(),
        is_bot: user.bot_type.is_some(),
        bot_type: user.bot_type,
        bot_owner_id: user.bot_owner_id,
        is_active: user.is_active,
        avatar_url: avatar_url(&user.email, client_gravatar),
        avatar_version: 1,
        date_joined: user.date_joined.clone(),
        timezone: user.timezone.clone(),
        delivery_email: (viewer.is_org_admin()
            || viewer.user_id == user.user_id
            || user.bot_type.is_some())
        .then(|| user.email.clone()),
        profile_data: None,
        is_system_bot: user.is_system_bot.then_some(true),
    }
}

/// The JSON of a user: like Zulip, bot fields only for bots, and `profile_data` (Weir
/// has no custom profile fields, so it is empty) for people when asked for.
pub fn user_json(mut user: User, include_profile_data: bool) -> Value {
    if include_profile_data && !user.is_bot {
        user.profile_data = Some(serde_json::Map::new());
    }
    let is_bot = user.is_bot;
    let mut value = serde_json::to_value(user).unwrap_or(Value::Null);
    if !is_bot && let Some(fields) = value.as_object_mut() {
        fields.remove("bot_type");
        fields.remove("bot_owner_id");
    }
    value
}

fn group(id: i64) -> GroupSettingValue {
    json!(id)
}

/// A stream with the fields every listing shares; `now` decides `is_recently_active`.
pub fn stream_dto(stream: &StreamRow, activity: StreamActivity, now: i64) -> Stream {
    let [
        can_add_subscribers_group,
        can_remove_subscribers_group,
        can_subscribe_group,
    ] = super::channel_groups::wire_settings(stream);
    let last_activity = activity
        .last_message_at
        .unwrap_or(0)
        .max(stream.date_created);
    Stream {
        stream_id: stream.stream_id,
        name: stream.name.clone(),
        description: stream.description.clone(),
        rendered_description: render_markdown(&stream.description),
        invite_only: stream.invite_only,
        is_web_public: false,
        history_public_to_subscribers: !stream.invite_only,
        date_created: stream.date_created,
        creator_id: stream.creator_id,
        stream_post_policy: 1,
        message_retention_days: None,
        first_message_id: activity.first_message_id,
        is_announcement_only: false,
        // Zulip's estimate needs weeks of statistics; null is its "not enough data".
        stream_weekly_traffic: None,
        is_recently_active: now - last_activity <= RECENTLY_ACTIVE_SECS,
        is_archived: false,
        can_add_subscribers_group,
        can_remove_subscribers_group,
        can_administer_channel_group: match stream.creator_id {
            Some(creator) => json!({"direct_members": [creator], "direct_subgroups": []}),
            None => group(system_groups::NOBODY),
        },
        can_send_message_group: group(system_groups::EVERYONE),
        can_subscribe_group,
        subscribers: None,
        subscriber_count: None,
    }
}

/// The caller's subscription to `stream`, with Zulip's default per-user settings (Weir
/// stores none of them).
pub fn subscription_dto(stream: Stream) -> Subscription {
    let palette_index = stream.stream_id.rem_euclid(STREAM_COLORS.len() as i64) as usize;
    Subscription {
        color: STREAM_COLORS
            .get(palette_index)
            .copied()
            .unwrap_or(STREAM_COLORS[0])
            .to_owned(),
        stream,
        is_muted: false,
        in_home_view: true,
        pin_to_top: false,
        desktop_notifications: None,
        email_notifications: None,
        wildcard_mentions_notify: None,
        push_notifications: None,
        audible_notifications: None,
    }
}
