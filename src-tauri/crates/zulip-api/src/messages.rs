use serde::{Deserialize, Serialize};

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
}

/// A message as `GET /messages` returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub id: i64,
    pub sender_id: i64,
    pub sender_email: String,
    pub sender_full_name: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_id: Option<i64>,
    pub display_recipient: Recipient,
    /// The topic (Zulip's historical name for it).
    pub subject: String,
    pub content: String,
    pub content_type: String,
    pub timestamp: i64,
    pub client: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MessagesResponse {
    pub messages: Vec<Message>,
    pub found_anchor: bool,
    pub found_newest: bool,
    pub found_oldest: bool,
    pub anchor: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RenderResponse {
    pub rendered: String,
}
