//! How stored rows look on the wire: users, streams and subscriptions with every field
//! Zulip 10's API document lists for them.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use zulip_api::{Role, Stream, Subscription, User};

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::channel_folders::FOLDERS_LEVEL;
use super::topics_policy::{self, TOPICS_POLICY_LEVEL};
use crate::render::render_markdown;
use crate::store::{StreamActivity, StreamRow, UserRow};

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
    use std::fmt::Write;
    let digest = Md5::digest(email.trim().to_lowercase().as_bytes());
    let mut url = String::with_capacity(96);
    url.push_str("https://secure.gravatar.com/avatar/");
    for byte in digest {
        let _ = write!(url, "{byte:02x}");
    }
    url.push_str("?d=identicon&version=1");
    url
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
    serde_json::to_value(UserJson(user)).unwrap_or(Value::Null)
}

/// A user serialized as [`user_json`] shapes it, straight to the output: `register`
/// lists every user, and building a `serde_json::Value` for each of 100,000 users first
/// was a large part of its time and memory.
pub struct UserJson(pub User);

impl Serialize for UserJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let user = &self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("user_id", &user.user_id)?;
        map.serialize_entry("email", &user.email)?;
        map.serialize_entry("full_name", &user.full_name)?;
        map.serialize_entry("role", &user.role)?;
        map.serialize_entry("is_admin", &user.is_admin)?;
        map.serialize_entry("is_owner", &user.is_owner)?;
        map.serialize_entry("is_guest", &user.is_guest)?;
        map.serialize_entry("is_bot", &user.is_bot)?;
        if user.is_bot {
            map.serialize_entry("bot_type", &user.bot_type)?;
            map.serialize_entry("bot_owner_id", &user.bot_owner_id)?;
        }
        map.serialize_entry("is_active", &user.is_active)?;
        map.serialize_entry("avatar_url", &user.avatar_url)?;
        map.serialize_entry("avatar_version", &user.avatar_version)?;
        map.serialize_entry("date_joined", &user.date_joined)?;
        map.serialize_entry("timezone", &user.timezone)?;
        map.serialize_entry("delivery_email", &user.delivery_email)?;
        if let Some(profile_data) = &user.profile_data {
            map.serialize_entry("profile_data", profile_data)?;
        }
        if let Some(is_system_bot) = user.is_system_bot {
            map.serialize_entry("is_system_bot", &is_system_bot)?;
        }
        map.end()
    }
}

/// Distinct descriptions whose rendering is remembered; past this the memory starts over.
const REMEMBERED_DESCRIPTIONS: usize = 4_096;

/// A stream description's HTML. Every listing (and every `register`) shows every
/// description, always off the async threads (read jobs, `off_async`); each distinct
/// text is rendered once, so a description full of slow formulas costs its 5 s once,
/// not on every listing.
pub(super) fn rendered_description(description: &str) -> String {
    static RENDERED: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    let memory = RENDERED.get_or_init(Mutex::default);
    if let Some(html) = memory
        .lock()
        .ok()
        .and_then(|map| map.get(description).cloned())
    {
        return html;
    }
    let html = render_markdown(description);
    if let Ok(mut map) = memory.lock() {
        if map.len() >= REMEMBERED_DESCRIPTIONS {
            map.clear();
        }
        map.insert(description.to_owned(), html.clone());
    }
    html
}

/// `subscriber_count` on channel objects (Zulip 11).
const SUBSCRIBER_COUNT_LEVEL: u32 = 394;

/// How a listing shows its streams: the emulated level, and when `is_recently_active`
/// is measured from.
#[derive(Debug, Clone, Copy)]
pub struct StreamView {
    pub level: u32,
    pub now: i64,
}

/// A stream with the fields every listing shares, as a server at `view.level` shows it;
/// `subscribers` is its number of active subscribers.
pub fn stream_dto(
    stream: &StreamRow,
    activity: StreamActivity,
    view: StreamView,
    subscribers: usize,
) -> Stream {
    let level = view.level;
    let now = view.now;
    let [
        can_add_subscribers_group,
        can_administer_channel_group,
        can_send_message_group,
        can_remove_subscribers_group,
        can_subscribe_group,
    ] = super::channel_groups::wire_settings(stream);
    let newer = |name: &str| {
        super::channel_groups::newer_settings_at(level)
            .any(|known| known == name)
            .then(|| super::channel_groups::wire_value(stream, name))
    };
    let last_activity = activity
        .last_message_at
        .unwrap_or(0)
        .max(stream.date_created);
    Stream {
        stream_id: stream.stream_id,
        name: stream.name.clone(),
        description: stream.description.clone(),
        rendered_description: rendered_description(&stream.description),
        invite_only: stream.invite_only,
        is_web_public: false,
        history_public_to_subscribers: stream.history_public_to_subscribers,
        date_created: stream.date_created,
        creator_id: stream.creator_id,
        stream_post_policy: 1,
        message_retention_days: stream.message_retention_days,
        first_message_id: activity.first_message_id,
        is_announcement_only: false,
        // Zulip's estimate needs weeks of statistics; null is its "not enough data".
        stream_weekly_traffic: None,
        is_recently_active: now - last_activity <= RECENTLY_ACTIVE_SECS,
        is_archived: false,
        can_add_subscribers_group,
        can_remove_subscribers_group,
        can_administer_channel_group,
        can_send_message_group,
        can_subscribe_group,
        subscribers: None,
        partial_subscribers: None,
        subscriber_count: (level >= SUBSCRIBER_COUNT_LEVEL).then_some(subscribers as i64),
        // Zulip 11's settings, each from its level.
        can_move_messages_out_of_channel_group: newer("can_move_messages_out_of_channel_group"),
        can_move_messages_within_channel_group: newer("can_move_messages_within_channel_group"),
        can_resolve_topics_group: newer("can_resolve_topics_group"),
        can_delete_any_message_group: newer("can_delete_any_message_group"),
        can_delete_own_message_group: newer("can_delete_own_message_group"),
        // Zulip 12 (level 441); Weir emulates no level that has it.
        can_create_topic_group: None,
        // Sent by [`with_folder`], which can send it null.
        folder_id: None,
        topics_policy: (level >= TOPICS_POLICY_LEVEL).then(|| topics_policy::wire(stream)),
    }
}

/// A channel or subscription object with Zulip 11's `folder_id`, which from its level
/// is sent even when null (the shared [`Stream`] type leaves a missing folder out).
#[derive(Debug, Clone, serde::Serialize)]
pub struct WithFolder<T> {
    #[serde(flatten)]
    pub inner: T,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder_id: Option<Option<i64>>,
}

/// `inner` (made from `stream`) as a server at `level` shows it.
pub fn with_folder<T>(inner: T, stream: &StreamRow, level: u32) -> WithFolder<T> {
    WithFolder {
        inner,
        folder_id: (level >= FOLDERS_LEVEL).then_some(stream.folder_id),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use zulip_api::BotType;

    fn person() -> User {
        User {
            user_id: 7,
            email: "ann@x.test".into(),
            full_name: "Ann".into(),
            role: Role::Member,
            is_admin: false,
            is_owner: false,
            is_guest: false,
            is_bot: false,
            bot_type: None,
            bot_owner_id: None,
            is_active: true,
            avatar_url: None,
            avatar_version: 1,
            date_joined: "2024-01-01T00:00:00+00:00".into(),
            timezone: String::new(),
            delivery_email: Some("ann@x.test".into()),
            profile_data: None,
            is_system_bot: None,
        }
    }

    /// What `User`'s derived JSON gives, less the bot fields for people: the shape
    /// `UserJson` writes by hand, which must not drift from the struct.
    fn derived(user: &User) -> Value {
        let mut value = serde_json::to_value(user).unwrap();
        if !user.is_bot {
            let fields = value.as_object_mut().unwrap();
            fields.remove("bot_type");
            fields.remove("bot_owner_id");
        }
        value
    }

    #[test]
    fn user_json_is_the_structs_json_without_a_persons_bot_fields() {
        let ann = person();
        assert_eq!(user_json(ann.clone(), false), derived(&ann));
        assert!(user_json(ann.clone(), false).get("bot_type").is_none());
        let with_profile = user_json(ann.clone(), true);
        assert_eq!(with_profile["profile_data"], json!({}));
        let bot = User {
            is_bot: true,
            bot_type: Some(BotType::IncomingWebhook),
            bot_owner_id: None,
            avatar_url: Some(gravatar_url("bot@x.test")),
            is_system_bot: Some(true),
            ..person()
        };
        let value = user_json(bot.clone(), true);
        assert_eq!(value, derived(&bot), "bots get no profile_data");
        assert_eq!(value["bot_owner_id"], Value::Null);
        assert_eq!(value["bot_type"], json!(2));
    }

    #[test]
    fn gravatar_urls_hash_the_trimmed_lowercase_address() {
        assert_eq!(
            gravatar_url(" Ann@X.test "),
            "https://secure.gravatar.com/avatar/ddfb97efd93ca3019049ed7ddc4bf6a9\
             ?d=identicon&version=1"
        );
    }
}
