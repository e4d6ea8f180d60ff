use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `display_recipient`: a stream's name, or the people in a direct message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Recipient {
    Stream(String),
    Direct(Vec<DirectRecipient>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DirectRecipient {
    pub id: i64,
    pub email: String,
    pub full_name: String,
    #[serde(default)]
    pub is_mirror_dummy: bool,
}

/// A link Zulip found in a topic (`topic_links`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicLink {
    pub text: String,
    pub url: String,
}

/// A message as `GET /messages` returns it. Fields added in later Zulip versions default
/// when a server does not send them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub id: i64,
    pub sender_id: i64,
    pub sender_email: String,
    pub sender_full_name: String,
    #[serde(default)]
    pub sender_realm_str: String,
    /// `None` when the client asked for `client_gravatar` and the sender uses Gravatar.
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_id: Option<i64>,
    #[serde(default)]
    pub recipient_id: i64,
    pub display_recipient: Recipient,
    /// The topic (Zulip's historical name for it).
    pub subject: String,
    #[serde(default)]
    pub topic_links: Vec<TopicLink>,
    pub content: String,
    #[serde(default)]
    pub content_type: String,
    #[serde(default)]
    pub is_me_message: bool,
    pub timestamp: i64,
    /// What sent the message; Weir only shows it.
    #[serde(default)]
    pub client: String,
    #[serde(default)]
    pub flags: Vec<String>,
    #[serde(default)]
    pub reactions: Vec<Value>,
    #[serde(default)]
    pub submessages: Vec<Value>,
}

/// `GET /messages`. The anchor fields are absent when the request named `message_ids`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MessagesResponse {
    pub messages: Vec<Message>,
    #[serde(default)]
    pub found_anchor: bool,
    #[serde(default)]
    pub found_newest: bool,
    #[serde(default)]
    pub found_oldest: bool,
    #[serde(default)]
    pub anchor: i64,
    #[serde(default)]
    pub history_limited: bool,
}

/// `POST /messages`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SendMessageResponse {
    pub id: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RenderResponse {
    pub rendered: String,
}
