//! `register`'s `realm` event type: the organization's settings as Zulip 10 sends them,
//! from what Weir's realm has (its name, address, creation, limits) and, for what it does
//! not model, the value that tells a client the feature is off (no uploads, no video
//! calls, no presence, no web-public channels). Group settings are Zulip's defaults,
//! which are the rules Weir's endpoints apply.

use rusqlite::Connection;
use serde_json::{Map, Value, json};

use super::channel_folders::{MAX_FOLDER_DESCRIPTION_CHARS, MAX_FOLDER_NAME_CHARS};
use super::channel_groups::newer_settings_at;
use super::subscribe::MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
use super::topics_policy::REALM_TOPICS_POLICY;
use crate::error::Error;
use crate::rules::names::{MAX_STREAM_DESCRIPTION_CHARS, MAX_STREAM_NAME_CHARS};
use crate::store::{self, system};
use weir_integrations::limits::{MAX_CONTENT_CHARS, MAX_TOPIC_CHARS};

/// Keys Zulip added after level 1, with their level: below it a key is left out, as
/// that server would. Keys not listed are older than anything Weir emulates.
const KEY_LEVELS: &[(&str, u32)] = &[
    ("realm_wildcard_mention_policy", 33),
    ("max_stream_name_length", 53),
    ("max_stream_description_length", 53),
    ("max_topic_length", 53),
    ("max_message_length", 53),
    ("realm_giphy_rating", 55),
    ("max_icon_file_size_mib", 72),
    ("max_logo_file_size_mib", 72),
    ("realm_upload_quota_mib", 72),
    ("server_needs_upgrade", 74),
    ("event_queue_longpoll_timeout_seconds", 74),
    ("realm_enable_spectator_access", 109),
    ("server_web_public_streams_enabled", 110),
    ("realm_org_type", 128),
    ("realm_want_advertise_in_communities_directory", 129),
    ("realm_enable_read_receipts", 137),
    ("server_emoji_data_url", 140),
    ("realm_move_messages_within_stream_limit_seconds", 162),
    ("realm_move_messages_between_streams_limit_seconds", 162),
    ("server_presence_ping_interval_seconds", 164),
    ("server_presence_offline_threshold_seconds", 164),
    ("realm_date_created", 203),
    ("server_typing_started_expiry_period_milliseconds", 204),
    ("server_typing_stopped_wait_period_milliseconds", 204),
    ("server_typing_started_wait_period_milliseconds", 204),
    ("realm_create_multiuse_invite_group", 209),
    ("realm_jitsi_server_url", 212),
    ("server_jitsi_server_url", 212),
    ("realm_enable_guest_user_indicator", 216),
    ("server_supported_permission_settings", 221),
    ("realm_can_access_all_users_group", 225),
    ("realm_push_notifications_enabled_end_timestamp", 231),
    ("realm_zulip_update_announcements_stream_id", 242),
    ("realm_require_unique_names", 246),
    ("realm_url", 257),
    ("realm_can_create_public_channel_group", 264),
    ("realm_can_create_private_channel_group", 266),
    ("realm_direct_message_initiator_group", 270),
    ("realm_direct_message_permission_group", 270),
    ("server_thumbnail_formats", 273),
    ("realm_can_create_web_public_channel_group", 280),
    ("realm_can_delete_any_message_group", 281),
    ("realm_can_delete_own_message_group", 291),
    ("realm_can_create_groups", 299),
    ("realm_can_manage_all_groups", 299),
    ("realm_can_add_custom_emoji_group", 307),
    ("realm_can_move_messages_between_channels_group", 310),
    ("realm_can_move_messages_between_topics_group", 316),
    ("realm_can_invite_users_group", 321),
    ("realm_moderation_request_channel_id", 331),
    ("server_min_deactivated_realm_deletion_days", 332),
    ("server_max_deactivated_realm_deletion_days", 332),
    ("realm_empty_topic_display_name", 334),
    ("password_max_length", 338),
    ("realm_can_add_subscribers_group", 341),
    ("realm_can_create_bots_group", 344),
    ("realm_can_create_write_only_bots_group", 344),
    ("realm_enable_guest_user_dm_warning", 348),
    ("realm_can_summarize_topics_group", 350),
    ("server_can_summarize_topics", 350),
    ("realm_can_mention_many_users_group", 352),
    ("realm_message_edit_history_visibility_policy", 358),
    ("realm_can_manage_billing_group", 363),
    ("realm_can_resolve_topics_group", 367),
    ("realm_topics_policy", 392),
    ("realm_can_set_topics_policy_group", 392),
    ("max_bulk_new_subscription_messages", 397),
    ("realm_can_set_delete_message_policy_group", 407),
    ("realm_require_e2ee_push_notifications", 409),
    ("max_channel_folder_name_length", 410),
    ("max_channel_folder_description_length", 410),
    ("realm_welcome_message_custom_text", 416),
];

/// The realm's group settings at Zulip 10's defaults (system group ids).
const REALM_GROUPS: &[(&str, i64)] = &[
    ("realm_can_access_all_users_group", system::EVERYONE),
    ("realm_can_add_custom_emoji_group", system::MEMBERS),
    ("realm_can_add_subscribers_group", system::MEMBERS),
    ("realm_can_create_bots_group", system::MEMBERS),
    ("realm_can_create_groups", system::MEMBERS),
    ("realm_can_create_private_channel_group", system::MEMBERS),
    ("realm_can_create_public_channel_group", system::MEMBERS),
    ("realm_can_create_web_public_channel_group", system::OWNERS),
    ("realm_can_create_write_only_bots_group", system::MEMBERS),
    ("realm_can_delete_any_message_group", system::ADMINISTRATORS),
    ("realm_can_delete_own_message_group", system::EVERYONE),
    ("realm_can_invite_users_group", system::MEMBERS),
    ("realm_can_manage_all_groups", system::OWNERS),
    ("realm_can_manage_billing_group", system::ADMINISTRATORS),
    ("realm_can_mention_many_users_group", system::ADMINISTRATORS),
    (
        "realm_can_move_messages_between_channels_group",
        system::MEMBERS,
    ),
    (
        "realm_can_move_messages_between_topics_group",
        system::EVERYONE,
    ),
    ("realm_can_resolve_topics_group", system::EVERYONE),
    (
        "realm_can_set_delete_message_policy_group",
        system::MODERATORS,
    ),
    ("realm_can_set_topics_policy_group", system::MEMBERS),
    ("realm_can_summarize_topics_group", system::EVERYONE),
    ("realm_create_multiuse_invite_group", system::ADMINISTRATORS),
    ("realm_direct_message_initiator_group", system::EVERYONE),
    ("realm_direct_message_permission_group", system::EVERYONE),
];

/// How Weir checks each channel setting's value, as Zulip's
/// `server_supported_permission_settings` describes it at `level`: the five of Zulip 10
/// and, from their levels, Zulip 11's (a client lists the settings it finds here).
fn stream_permission_settings(level: u32) -> Value {
    let setting = |everyone: bool, default: &str| {
        json!({
            "require_system_group": false,
            "allow_internet_group": false,
            "allow_nobody_group": true,
            "allow_everyone_group": everyone,
            "default_group_name": default,
            "default_for_system_groups": null,
            "allowed_system_groups": [],
        })
    };
    let mut stream = json!({
        "can_add_subscribers_group": setting(false, "role:nobody"),
        "can_administer_channel_group": setting(false, creator_default(level)),
        "can_send_message_group": setting(true, "role:everyone"),
        "can_remove_subscribers_group": setting(true, "role:administrators"),
        "can_subscribe_group": setting(false, "role:nobody"),
    });
    if let Value::Object(settings) = &mut stream {
        for name in newer_settings_at(level) {
            settings.insert(name.to_owned(), setting(true, "role:nobody"));
        }
    }
    json!({
        "realm": {},
        "group": {},
        "stream": stream,
    })
}

/// The level at which Zulip renamed `can_administer_channel_group`'s default from
/// `stream_creator_or_nobody` to `channel_creator` (Zulip 12).
const CHANNEL_CREATOR_LEVEL: u32 = 427;

/// The name `server_supported_permission_settings` gives the channel-creator default.
fn creator_default(level: u32) -> &'static str {
    if level >= CHANNEL_CREATOR_LEVEL {
        "channel_creator"
    } else {
        "stream_creator_or_nobody"
    }
}

/// The `realm` keys as a server at `level` sends them.
pub fn realm_state(conn: &Connection, level: u32) -> Result<Map<String, Value>, Error> {
    let realm = store::realm(conn)?;
    let (name, url, bot_domain) = realm
        .map(|realm| (realm.name, realm.url, realm.bot_domain))
        .unwrap_or_default();
    let created = store::realm_date_created(conn)?;
    // Several objects: one literal of this size exceeds `json!`'s recursion limit.
    let parts = [
        json!({
        "realm_name": name,
        "realm_url": url,
        "realm_uri": url,
        "realm_bot_domain": bot_domain,
        "realm_date_created": created,
        "realm_description": "",
        "realm_default_language": "en",
        "realm_org_type": 0,
        "realm_plan_type": 1,
        "zulip_plan_is_not_limited": true,
        "upgrade_text_for_wide_organization_logo": "",
        "max_stream_name_length": MAX_STREAM_NAME_CHARS,
        "max_stream_description_length": MAX_STREAM_DESCRIPTION_CHARS,
        "max_topic_length": MAX_TOPIC_CHARS,
        "max_message_length": MAX_CONTENT_CHARS,
        "server_min_deactivated_realm_deletion_days": 14,
        "server_max_deactivated_realm_deletion_days": null,
        // Messages are kept forever (Zulip's -1).
        "realm_message_retention_days": -1,
        }),
        json!({
        "realm_waiting_period_threshold": 0,
        "realm_invite_required": true,
        "realm_emails_restricted_to_domains": false,
        "realm_disallow_disposable_email_addresses": true,
        "realm_email_changes_disabled": false,
        "realm_name_changes_disabled": false,
        "realm_avatar_changes_disabled": false,
        "realm_require_unique_names": false,
        "realm_send_welcome_emails": false,
        "realm_digest_emails_enabled": false,
        "realm_digest_weekday": 1,
        "settings_send_digest_emails": false,
        "realm_message_content_allowed_in_email_notifications": true,
        "realm_mandatory_topics": false,
        "realm_empty_topic_display_name": "general chat",
        "realm_allow_message_editing": true,
        "realm_allow_edit_history": true,
        "realm_message_edit_history_visibility_policy": "all",
        "realm_message_content_edit_limit_seconds": 600,
        "realm_message_content_delete_limit_seconds": 600,
        "realm_move_messages_within_stream_limit_seconds": 604_800,
        "realm_move_messages_between_streams_limit_seconds": 604_800,
        }),
        json!({
        "realm_enable_read_receipts": false,
        "realm_enable_spectator_access": false,
        "realm_want_advertise_in_communities_directory": false,
        "realm_enable_guest_user_indicator": true,
        "realm_enable_guest_user_dm_warning": true,
        "realm_inline_image_preview": true,
        "realm_inline_url_embed_preview": false,
        "realm_default_code_block_language": "",
        "realm_presence_disabled": true,
        "realm_is_zephyr_mirror_realm": false,
        "realm_email_auth_enabled": true,
        "realm_password_auth_enabled": true,
        "realm_authentication_methods": {
            "Email": {"enabled": true, "available": true},
        },
        }),
        json!({
        "realm_push_notifications_enabled": false,
        "realm_push_notifications_enabled_end_timestamp": null,
        "realm_upload_quota_mib": null,
        "realm_icon_url": "",
        "realm_icon_source": "G",
        "realm_logo_url": "",
        "realm_logo_source": "D",
        "realm_night_logo_url": "",
        "realm_night_logo_source": "D",
        "max_icon_file_size_mib": 0,
        "max_logo_file_size_mib": 0,
        "max_avatar_file_size_mib": 0,
        "max_file_upload_size_mib": 0,
        "realm_video_chat_provider": 0,
        "realm_available_video_chat_providers": {
            "disabled": {"name": "None", "id": 0},
        },
        "realm_jitsi_server_url": null,
        "server_jitsi_server_url": null,
        "jitsi_server_url": "",
        "realm_giphy_rating": 0,
        "giphy_rating_options": {
            "disabled": {"name": "GIPHY integration disabled", "id": 0},
        },
        "realm_default_external_accounts": {},
        }),
        json!({
        "realm_new_stream_announcements_stream_id": -1,
        "realm_signup_announcements_stream_id": -1,
        "realm_zulip_update_announcements_stream_id": -1,
        "realm_moderation_request_channel_id": -1,
        // Zulip's policies, superseded by the group settings but still sent.
        "realm_create_public_stream_policy": 1,
        "realm_create_private_stream_policy": 1,
        "realm_create_web_public_stream_policy": 7,
        "realm_wildcard_mention_policy": 5,
        "development_environment": false,
        "server_generation": created,
        "password_min_length": 6,
        "password_max_length": 100,
        "password_min_guesses": 10_000,
        "server_inline_image_preview": true,
        "server_inline_url_embed_preview": false,
        "server_avatar_changes_disabled": false,
        "server_name_changes_disabled": false,
        "server_needs_upgrade": false,
        "server_web_public_streams_enabled": false,
        "server_emoji_data_url": "",
        "server_can_summarize_topics": false,
        "server_thumbnail_formats": [],
        "server_presence_ping_interval_seconds": 60,
        "server_presence_offline_threshold_seconds": 140,
        "server_typing_started_expiry_period_milliseconds": 45_000,
        "server_typing_stopped_wait_period_milliseconds": 5_000,
        "server_typing_started_wait_period_milliseconds": 10_000,
        "event_queue_longpoll_timeout_seconds": 90,
        "server_supported_permission_settings": stream_permission_settings(level),
        "realm_topics_policy": REALM_TOPICS_POLICY,
        "max_bulk_new_subscription_messages": MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
        "realm_require_e2ee_push_notifications": false,
        "max_channel_folder_name_length": MAX_FOLDER_NAME_CHARS,
        "max_channel_folder_description_length": MAX_FOLDER_DESCRIPTION_CHARS,
        "realm_welcome_message_custom_text": "",
        }),
    ];
    let mut state = Map::new();
    for part in parts {
        if let Value::Object(fields) = part {
            state.extend(fields);
        }
    }
    for (key, group) in REALM_GROUPS {
        state.insert((*key).to_owned(), json!(group));
    }
    for (key, since) in KEY_LEVELS {
        if level < *since {
            state.remove(*key);
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_newer_than_the_level_are_left_out() -> Result<(), Error> {
        let mut conn = Connection::open_in_memory()?;
        crate::store::migrate_for_tests(&mut conn)?;
        let at = |level| realm_state(&conn, level);
        let now = at(362)?;
        assert_eq!(now["realm_can_create_groups"], json!(system::MEMBERS));
        assert!(!now.contains_key("realm_can_manage_billing_group"));
        assert!(at(372)?.contains_key("realm_can_resolve_topics_group"));
        let old = at(100)?;
        assert!(old.contains_key("max_message_length"));
        assert!(!old.contains_key("realm_url") && old.contains_key("realm_uri"));
        Ok(())
    }
}
