use serde::{Deserialize, Serialize};

use crate::{Stream, Subscription, User};

/// `GET /server_settings`, the unauthenticated discovery call clients start with.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerSettings {
    pub zulip_feature_level: u32,
    pub zulip_version: String,
    #[serde(default)]
    pub zulip_merge_base: Option<String>,
    pub push_notifications_enabled: bool,
    pub authentication_methods: serde_json::Map<String, serde_json::Value>,
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegisterResponse {
    pub queue_id: Option<String>,
    pub last_event_id: i64,
    pub zulip_feature_level: u32,
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
}
