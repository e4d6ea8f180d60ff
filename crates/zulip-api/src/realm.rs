use serde::{Deserialize, Serialize};

use crate::{Stream, Subscription, User};

/// `GET /server_settings`, the unauthenticated discovery call clients start with.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerSettings {
    /// Absent before Zulip 3.0, and from the example in Zulip's own documentation:
    /// Zulip's clients read a missing level as 0.
    #[serde(default)]
    pub zulip_feature_level: u32,
    #[serde(default)]
    pub zulip_version: String,
    #[serde(default)]
    pub zulip_merge_base: Option<String>,
    #[serde(default)]
    pub push_notifications_enabled: bool,
    #[serde(default)]
    pub authentication_methods: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    pub realm_name: Option<String>,
    /// Newer servers send `realm_url`, older ones only `realm_uri`.
    #[serde(default)]
    pub realm_url: Option<String>,
    #[serde(default)]
    pub realm_uri: Option<String>,
}

impl ServerSettings {
    pub fn realm_url(&self) -> Option<&str> {
        self.realm_url.as_deref().or(self.realm_uri.as_deref())
    }
}

/// The snapshot form of `POST /register` with `realm_user` and `subscription`
/// event types: everything a membership grid needs in one request.
///
/// Only what the grid reads; every other key a server adds (or drops) is ignored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegisterResponse {
    #[serde(default)]
    pub queue_id: Option<String>,
    #[serde(default = "no_event")]
    pub last_event_id: i64,
    #[serde(default)]
    pub zulip_feature_level: u32,
    #[serde(default)]
    pub zulip_version: String,
    #[serde(default)]
    pub realm_users: Vec<User>,
    #[serde(default)]
    pub realm_non_active_users: Vec<User>,
    #[serde(default)]
    pub cross_realm_bots: Vec<User>,
    #[serde(default)]
    pub subscriptions: Vec<Subscription>,
    #[serde(default)]
    pub unsubscribed: Vec<Subscription>,
    #[serde(default)]
    pub never_subscribed: Vec<Stream>,
    /// Whether the caller may add others to the channels they can reach, by the
    /// organization's rule (with the `realm_user` fetch type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_subscribe_other_users: Option<bool>,
    /// The GIF rating limit, only with the `realm` fetch type: Zulip 12 renamed
    /// `realm_giphy_rating` (levels 442 and 453); either spelling is read. Kept as JSON,
    /// as Weir only shows it.
    #[serde(
        default,
        alias = "realm_giphy_rating",
        skip_serializing_if = "Option::is_none"
    )]
    pub realm_gif_rating_policy: Option<serde_json::Value>,
    /// How each group setting's value is checked (feature level 221+, with the `realm`
    /// fetch type): by kind (`realm`, `stream`, `group`), each setting's rules. Kept as
    /// JSON: Weir reads the `stream` part and must not fail on keys it does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_supported_permission_settings: Option<serde_json::Value>,
}

/// Zulip's "no event yet" id.
fn no_event() -> i64 {
    -1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `GET /server_settings` example of Zulip 10.2's OpenAPI document (abridged to
    /// the keys Weir reads and a few it does not), which has no `zulip_feature_level`.
    #[test]
    fn the_documented_server_settings_example_decodes() -> Result<(), serde_json::Error> {
        let body = r#"{"authentication_methods": {"password": true, "dev": true},
            "zulip_version": "5.0-dev-1650-gc3fd37755f",
            "zulip_merge_base": "5.0-dev-1646-gea6b21cd8c",
            "push_notifications_enabled": false, "msg": "", "is_incompatible": false,
            "email_auth_enabled": true, "require_email_format_usernames": true,
            "realm_uri": "http://localhost:9991", "realm_url": "http://localhost:9991",
            "realm_name": "Zulip Dev", "result": "success"}"#;
        let settings: ServerSettings = serde_json::from_str(body)?;
        assert_eq!(settings.zulip_feature_level, 0);
        assert_eq!(settings.realm_url(), Some("http://localhost:9991"));
        Ok(())
    }

    /// A register answer without the keys the grid can do without (the event id, the
    /// snapshot lists) still decodes.
    #[test]
    fn a_register_answer_without_the_snapshot_keys_decodes() -> Result<(), serde_json::Error> {
        let body = r#"{"result": "success", "msg": "", "queue_id": null,
            "zulip_feature_level": 500, "zulip_version": "12.0"}"#;
        let register: RegisterResponse = serde_json::from_str(body)?;
        assert_eq!(
            (register.last_event_id, register.zulip_feature_level),
            (-1, 500)
        );
        assert!(register.realm_users.is_empty() && register.never_subscribed.is_empty());
        Ok(())
    }

    /// `realm_giphy_rating` before Zulip 12, `realm_gif_rating_policy` from it.
    #[test]
    fn the_gif_rating_reads_under_both_names() -> Result<(), serde_json::Error> {
        let base = r#""queue_id": null, "last_event_id": -1, "zulip_version": "x""#;
        for (level, key) in [
            (421, "realm_giphy_rating"),
            (500, "realm_gif_rating_policy"),
        ] {
            let body = format!(r#"{{{base}, "zulip_feature_level": {level}, "{key}": 2}}"#);
            let register: RegisterResponse = serde_json::from_str(&body)?;
            assert_eq!(register.realm_gif_rating_policy, Some(serde_json::json!(2)));
        }
        Ok(())
    }
}
