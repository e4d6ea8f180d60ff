use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A stream (channel) as `GET /streams` describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stream {
    pub stream_id: i64,
    pub name: String,
    pub description: String,
    pub rendered_description: String,
    pub invite_only: bool,
    pub is_web_public: bool,
    pub history_public_to_subscribers: bool,
    pub date_created: i64,
    pub subscriber_count: i64,
    pub is_archived: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StreamsResponse {
    pub streams: Vec<Stream>,
}

/// A stream as seen through a subscription; `subscribers` only when asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subscription {
    pub stream_id: i64,
    pub name: String,
    pub description: String,
    pub invite_only: bool,
    pub is_web_public: bool,
    pub date_created: i64,
    pub subscriber_count: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribers: Option<Vec<i64>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscriptionsResponse {
    pub subscriptions: Vec<Subscription>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscribersResponse {
    pub subscribers: Vec<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StreamIdResponse {
    pub stream_id: i64,
}

/// `DELETE /users/me/subscriptions`: one stream name per (user, stream) pair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RemoveSubscriptionsResponse {
    pub removed: Vec<String>,
    pub not_removed: Vec<String>,
}

/// `POST /users/me/subscriptions`: stream names keyed by user id (as a string).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AddSubscriptionsResponse {
    pub subscribed: BTreeMap<String, Vec<String>>,
    pub already_subscribed: BTreeMap<String, Vec<String>>,
}
