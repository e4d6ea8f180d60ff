//! The workbench's real send: POST a payload to a bot's webhook URL, then read back
//! what it produced (the bot's message, and any Notification Bot message to the owner).

use reqwest::header::{HeaderName, HeaderValue};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use zulip_api::{Message, Recipient};

use super::BotManager;
use crate::client::{Anchor, ClientError, MessagesQuery, NarrowTerm};
use crate::error::CoreError;
use crate::webhook_url::{self, WebhookUrlSpec};

/// Most custom headers on one request.
pub const MAX_HEADERS: usize = 50;
/// Longest header name or value.
pub const MAX_HEADER_CHARS: usize = 8 * 1024;
/// Largest body the workbench sends.
pub const MAX_WEBHOOK_BODY_BYTES: usize = 1024 * 1024;
/// Zulip's Notification Bot, which tells a bot's owner about failed deliveries.
pub const NOTIFICATION_BOT_EMAIL: &str = "notification-bot@zulip.com";
/// How many recent messages of each narrow are read back.
const READ_BACK: u32 = 20;

/// One request of the workbench (`WebhookSendRequest` in the UI).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "WebhookSendRequest")]
pub struct WebhookRequest {
    pub bot_user_id: i64,
    pub spec: WebhookUrlSpec,
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl WebhookRequest {
    /// Checks the limits before anything is sent.
    pub fn validate(&self) -> Result<(), CoreError> {
        if self.body.len() > MAX_WEBHOOK_BODY_BYTES {
            return Err(CoreError::InvalidInput(format!(
                "the body is larger than {MAX_WEBHOOK_BODY_BYTES} bytes"
            )));
        }
        if self.headers.len() > MAX_HEADERS {
            return Err(CoreError::InvalidInput(format!(
                "more than {MAX_HEADERS} headers"
            )));
        }
        let too_long = self
            .headers
            .iter()
            .any(|(name, value)| name.len() > MAX_HEADER_CHARS || value.len() > MAX_HEADER_CHARS);
        if too_long {
            return Err(CoreError::InvalidInput(format!(
                "a header is longer than {MAX_HEADER_CHARS} bytes"
            )));
        }
        for (name, value) in &self.headers {
            let valid = HeaderName::from_bytes(name.trim().as_bytes()).is_ok()
                && HeaderValue::from_str(value.trim()).is_ok();
            if !valid {
                return Err(CoreError::InvalidInput(format!(
                    "the header '{}' is not a valid HTTP header",
                    name.chars().take(100).collect::<String>()
                )));
            }
        }
        self.spec.normalized().validate()?;
        Ok(())
    }
}

/// Where a read-back message went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ResultDestination {
    Stream { stream: String, topic: String },
    Direct { recipients: Vec<String> },
}

/// A message the request produced, as the server stored and rendered it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultMessage {
    pub id: i64,
    pub sender_full_name: String,
    pub sender_email: String,
    /// Sent by Notification Bot (a failed delivery, a missing header, ...).
    pub is_notification: bool,
    pub destination: ResultDestination,
    /// The server's rendered HTML: untrusted, the UI sanitizes it.
    pub content_html: String,
    pub timestamp: i64,
}

/// What a send produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookResult {
    pub status: u16,
    pub response: String,
    /// The URL that was used, key masked.
    pub url: String,
    pub messages: Vec<ResultMessage>,
}

impl BotManager<'_> {
    /// Sends one request to the bot's webhook URL and reads back its messages.
    pub async fn send_webhook(&self, request: &WebhookRequest) -> Result<WebhookResult, CoreError> {
        request.validate()?;
        let key = self.key(request.bot_user_id).await?;
        let site = self.client.site();
        let url = webhook_url::build(site, &request.spec, &key)?;
        let masked = webhook_url::masked(site, &request.spec)?;
        let narrows = self.narrows(&request.spec);
        let mut baseline = 0;
        for narrow in &narrows {
            let newest = self.recent(narrow.clone(), 1).await?;
            baseline = newest.iter().map(|m| m.id).fold(baseline, i64::max);
        }
        let answer = self
            .client
            .post_webhook(&url, &request.headers, request.body.clone().into_bytes())
            .await?;
        let mut messages: Vec<ResultMessage> = Vec::new();
        for narrow in narrows {
            for message in self.recent(narrow, READ_BACK).await? {
                let ours = message.sender_id == request.bot_user_id
                    || message
                        .sender_email
                        .eq_ignore_ascii_case(NOTIFICATION_BOT_EMAIL);
                let seen = messages.iter().any(|known| known.id == message.id);
                if message.id > baseline && ours && !seen {
                    messages.push(result_message(message));
                }
            }
        }
        messages.sort_by_key(|message| message.id);
        Ok(WebhookResult {
            status: answer.status,
            response: answer.body,
            url: masked,
            messages,
        })
    }

    /// Where the request's messages can appear: its stream (when it names one; a
    /// public stream the owner is not subscribed to is only found this way) and the
    /// owner's direct messages (the bot's direct message, Notification Bot's notes).
    fn narrows(&self, spec: &WebhookUrlSpec) -> Vec<Vec<NarrowTerm>> {
        let mut narrows = vec![vec![NarrowTerm::new("is", "dm")]];
        if let Some(stream) = spec.normalized().stream {
            let operand = match stream.parse::<i64>() {
                Ok(id) if stream.bytes().all(|b| b.is_ascii_digit()) => Value::from(id),
                _ => Value::from(stream),
            };
            narrows.push(vec![NarrowTerm::new("stream", operand)]);
        }
        narrows
    }

    /// The newest messages of a narrow; none when the narrow names a stream that does
    /// not exist (yet).
    async fn recent(&self, narrow: Vec<NarrowTerm>, count: u32) -> Result<Vec<Message>, CoreError> {
        let query = MessagesQuery {
            anchor: Anchor::Newest,
            num_before: count,
            num_after: 0,
            narrow,
            apply_markdown: true,
        };
        match self.client.get_messages(&query).await {
            Ok(response) => Ok(response.messages),
            Err(ClientError::Zulip { .. } | ClientError::StreamsDoNotExist(_)) => Ok(Vec::new()),
            Err(error) => Err(error.into()),
        }
    }
}

fn result_message(message: Message) -> ResultMessage {
    let destination = match message.display_recipient {
        Recipient::Stream(stream) => ResultDestination::Stream {
            stream,
            topic: message.subject,
        },
        // Zulip lists the sender too; the recipients are the others (or the sender, in a
        // message to oneself).
        Recipient::Direct(people) => {
            let others: Vec<String> = people
                .iter()
                .filter(|person| person.id != message.sender_id)
                .map(|person| person.full_name.clone())
                .collect();
            let recipients = if others.is_empty() {
                people.into_iter().map(|person| person.full_name).collect()
            } else {
                others
            };
            ResultDestination::Direct { recipients }
        }
    };
    ResultMessage {
        id: message.id,
        is_notification: message
            .sender_email
            .eq_ignore_ascii_case(NOTIFICATION_BOT_EMAIL),
        sender_full_name: message.sender_full_name,
        sender_email: message.sender_email,
        destination,
        content_html: message.content,
        timestamp: message.timestamp,
    }
}
