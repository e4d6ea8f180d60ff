//! The typed endpoints Weir uses, and the few request/response types that `zulip-api`
//! does not (or cannot, because of the API key) provide.

use reqwest::Method;
use serde::Deserialize;
use serde_json::{Map, Value};
use zulip_api::{
    AddSubscriptionsResponse, BotType, MessagesResponse, RegisterResponse,
    RemoveSubscriptionsResponse, RenderResponse, Stream, StreamsResponse, SubscribersResponse,
    Subscription, SubscriptionsResponse, User, UsersResponse,
};

use super::transport::Params;
use super::{
    ClientError, FEATURE_LEVEL_BOT_KEY_ENDPOINT, FEATURE_LEVEL_INTEGER_PRINCIPALS, ZulipClient,
};
use crate::secret::Secret;

/// Whom a subscription change is for. Zulip accepts a list of all ids (feature level 9+)
/// or of all e-mail addresses, never a mix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Principals {
    Ids(Vec<i64>),
    Emails(Vec<String>),
}

impl Principals {
    fn to_json(&self) -> Value {
        match self {
            Self::Ids(ids) => Value::from(ids.clone()),
            Self::Emails(emails) => Value::from(emails.clone()),
        }
    }
}

/// One entry of `subscriptions` when subscribing (a missing stream is created).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSubscription {
    pub name: String,
    pub description: Option<String>,
}

impl NewSubscription {
    pub fn named(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: None,
        }
    }

    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("name".into(), Value::from(self.name.clone()));
        if let Some(description) = &self.description {
            object.insert("description".into(), Value::from(description.clone()));
        }
        Value::Object(object)
    }
}

/// `POST /bots` parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBot {
    pub full_name: String,
    /// The part before `-bot@`: the bot's e-mail becomes `<short_name>-bot@<domain>`.
    pub short_name: String,
    pub bot_type: BotType,
}

/// `POST /bots` answer, with the new bot's key kept as a [`Secret`].
#[derive(Debug, Clone, Deserialize)]
pub struct CreatedBot {
    pub user_id: i64,
    pub api_key: Secret,
    #[serde(default)]
    pub avatar_url: Option<String>,
}

/// One of the caller's bots from `GET /bots`, with its key as a [`Secret`].
///
/// Defined here rather than using `zulip_api::Bot` because real Zulip servers send only
/// `username`, `full_name`, `api_key`, `avatar_url`, `default_sending_stream`,
/// `default_events_register_stream` and `default_all_public_streams`, and Zulip 12 keeps
/// keys out of listings (feature levels 463 and 474: `GET /bots/{id}/api_key` is the way
/// to read one): every field but the address is optional here.
#[derive(Debug, Clone, Deserialize)]
pub struct BotInfo {
    /// The bot's e-mail address (Zulip calls it `username` here).
    #[serde(rename = "username")]
    pub email: String,
    #[serde(default)]
    pub full_name: Option<String>,
    #[serde(default)]
    pub api_key: Option<Secret>,
    #[serde(default)]
    pub user_id: Option<i64>,
    #[serde(default)]
    pub bot_type: Option<BotType>,
    #[serde(default)]
    pub is_active: Option<bool>,
    #[serde(default)]
    pub owner_id: Option<i64>,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default)]
    pub default_sending_stream: Option<String>,
    #[serde(default)]
    pub default_events_register_stream: Option<String>,
    #[serde(default)]
    pub default_all_public_streams: Option<bool>,
}

#[derive(Deserialize)]
struct BotsEnvelope {
    bots: Vec<BotInfo>,
}

/// Where `GET /messages` starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Anchor {
    #[default]
    Newest,
    Oldest,
    FirstUnread,
    Id(i64),
}

impl Anchor {
    fn as_param(self) -> String {
        match self {
            Self::Newest => "newest".into(),
            Self::Oldest => "oldest".into(),
            Self::FirstUnread => "first_unread".into(),
            Self::Id(id) => id.to_string(),
        }
    }
}

/// One `narrow` term: `{"operator": ..., "operand": ..., "negated": ...}`.
#[derive(Debug, Clone, PartialEq)]
pub struct NarrowTerm {
    pub operator: String,
    pub operand: Value,
    pub negated: bool,
}

impl NarrowTerm {
    pub fn new(operator: impl Into<String>, operand: impl Into<Value>) -> Self {
        Self {
            operator: operator.into(),
            operand: operand.into(),
            negated: false,
        }
    }

    /// Messages in a channel (`channel` operator; servers before 9.0 know it as
    /// `stream`, which every version accepts).
    pub fn channel(name: impl Into<String>) -> Self {
        Self::new("stream", name.into())
    }

    pub fn topic(name: impl Into<String>) -> Self {
        Self::new("topic", name.into())
    }

    fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("operator".into(), Value::from(self.operator.clone()));
        object.insert("operand".into(), self.operand.clone());
        if self.negated {
            object.insert("negated".into(), Value::Bool(true));
        }
        Value::Object(object)
    }
}

/// `GET /messages` parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct MessagesQuery {
    pub anchor: Anchor,
    pub num_before: u32,
    pub num_after: u32,
    pub narrow: Vec<NarrowTerm>,
    /// `true`: `content` is HTML; `false`: the Markdown source.
    pub apply_markdown: bool,
}

impl Default for MessagesQuery {
    fn default() -> Self {
        Self {
            anchor: Anchor::Newest,
            num_before: 50,
            num_after: 0,
            narrow: Vec::new(),
            apply_markdown: true,
        }
    }
}

/// The answer of `POST /bots/{id}/api_key/regenerate` and `GET /bots/{id}/api_key`,
/// decoded straight into a [`Secret`].
#[derive(Deserialize)]
struct RegenerateEnvelope {
    api_key: Secret,
}

impl ZulipClient {
    /// `GET /users/me`: the caller's own user record. Also the credential check.
    pub async fn get_own_user(&self) -> Result<User, ClientError> {
        self.call(Method::GET, "users/me", Params::new()).await
    }

    /// `GET /users`: every user of the organization (with avatar URLs).
    pub async fn get_users(&self) -> Result<Vec<User>, ClientError> {
        let params = Params::new().json("client_gravatar", false);
        let response: UsersResponse = self.call(Method::GET, "users", params).await?;
        Ok(response.members)
    }

    /// `GET /streams`. With `include_all`, every stream (organization administrators
    /// only); both the current `include_all` and the older `include_all_active` are sent,
    /// servers ignore the one they do not know.
    pub async fn get_streams(&self, include_all: bool) -> Result<Vec<Stream>, ClientError> {
        let mut params = Params::new();
        if include_all {
            params = params
                .json("include_all", true)
                .json("include_all_active", true);
        }
        let response: StreamsResponse = self.call(Method::GET, "streams", params).await?;
        Ok(response.streams)
    }

    /// `GET /users/me/subscriptions`.
    pub async fn get_subscriptions(
        &self,
        include_subscribers: bool,
    ) -> Result<Vec<Subscription>, ClientError> {
        let params = Params::new().json("include_subscribers", include_subscribers);
        let response: SubscriptionsResponse = self
            .call(Method::GET, "users/me/subscriptions", params)
            .await?;
        Ok(response.subscriptions)
    }

    /// `GET /streams/{id}/members`: the subscribers' user ids.
    pub async fn get_stream_members(&self, stream_id: i64) -> Result<Vec<i64>, ClientError> {
        let path = format!("streams/{stream_id}/members");
        let response: SubscribersResponse = self.call(Method::GET, &path, Params::new()).await?;
        Ok(response.subscribers)
    }

    /// `DELETE /users/me/subscriptions`. Without principals, the caller leaves.
    /// Missing streams come back as [`ClientError::StreamsDoNotExist`].
    pub async fn remove_subscriptions<S: AsRef<str>>(
        &self,
        names: &[S],
        principals: Option<&Principals>,
    ) -> Result<RemoveSubscriptionsResponse, ClientError> {
        let mut params = Params::new().json("subscriptions", stream_names(names));
        if let Some(principals) = principals {
            self.check_principals(principals).await?;
            params = params.json("principals", principals.to_json());
        }
        self.call(Method::DELETE, "users/me/subscriptions", params)
            .await
    }

    /// `POST /users/me/subscriptions` (creates streams that do not exist yet).
    pub async fn add_subscriptions(
        &self,
        streams: &[NewSubscription],
        principals: Option<&Principals>,
    ) -> Result<AddSubscriptionsResponse, ClientError> {
        let subscriptions: Vec<Value> = streams.iter().map(NewSubscription::to_json).collect();
        let mut params = Params::new().json("subscriptions", subscriptions);
        if let Some(principals) = principals {
            self.check_principals(principals).await?;
            params = params.json("principals", principals.to_json());
        }
        self.call(Method::POST, "users/me/subscriptions", params)
            .await
    }

    /// `POST /bots`.
    pub async fn create_bot(&self, bot: &NewBot) -> Result<CreatedBot, ClientError> {
        let params = Params::new()
            .text("full_name", bot.full_name.clone())
            .text("short_name", bot.short_name.clone())
            .json("bot_type", bot.bot_type as u8);
        self.call(Method::POST, "bots", params).await
    }

    /// `GET /bots`: the caller's active bots, keys included (as secrets).
    pub async fn list_bots(&self) -> Result<Vec<BotInfo>, ClientError> {
        let response: BotsEnvelope = self.call(Method::GET, "bots", Params::new()).await?;
        Ok(response.bots)
    }

    /// `GET /bots/{id}/api_key` (Zulip 12, feature level 463): one bot's key, for its
    /// owner or an administrator.
    pub async fn get_bot_key(&self, bot_id: i64) -> Result<Secret, ClientError> {
        let path = format!("bots/{bot_id}/api_key");
        let response: RegenerateEnvelope = self.call(Method::GET, &path, Params::new()).await?;
        Ok(response.api_key)
    }

    /// Whether the server has `GET /bots/{id}/api_key`.
    pub async fn supports_bot_key_endpoint(&self) -> Result<bool, ClientError> {
        Ok(self.feature_level().await? >= FEATURE_LEVEL_BOT_KEY_ENDPOINT)
    }

    /// `POST /bots/{id}/api_key/regenerate`: the old key stops working at once.
    pub async fn regenerate_bot_key(&self, bot_id: i64) -> Result<Secret, ClientError> {
        let path = format!("bots/{bot_id}/api_key/regenerate");
        let response: RegenerateEnvelope = self.call(Method::POST, &path, Params::new()).await?;
        Ok(response.api_key)
    }

    /// `DELETE /bots/{id}`: deactivates one of the caller's bots (its key stops working;
    /// Zulip keeps the bot and its messages).
    pub async fn deactivate_bot(&self, bot_id: i64) -> Result<(), ClientError> {
        let path = format!("bots/{bot_id}");
        let _: Value = self.call(Method::DELETE, &path, Params::new()).await?;
        Ok(())
    }

    /// `POST /users/{id}/reactivate`: Zulip lets a bot's owner (and administrators)
    /// reactivate it.
    pub async fn reactivate_user(&self, user_id: i64) -> Result<(), ClientError> {
        let path = format!("users/{user_id}/reactivate");
        let _: Value = self.call(Method::POST, &path, Params::new()).await?;
        Ok(())
    }

    /// `POST /register` for a one-shot snapshot of users and subscriptions (with
    /// subscribers): what a membership grid needs in one request.
    ///
    /// Zulip registers an event queue with every snapshot, which Weir never reads, so the
    /// queue is deleted right away (`DELETE /events`, in the background: the snapshot does
    /// not wait for it) instead of lingering on the server until it expires.
    pub async fn register_snapshot(&self) -> Result<RegisterResponse, ClientError> {
        let params = Params::new()
            .json("fetch_event_types", vec!["realm_user", "subscription"])
            .json("event_types", vec!["realm_user", "subscription"])
            .json("include_subscribers", true)
            // The grid shows no avatars: with `client_gravatar` the server sends null for
            // Gravatar users instead of hashing 100,000 addresses into URLs.
            .json("client_gravatar", true);
        let snapshot: RegisterResponse = self.call_large(Method::POST, "register", params).await?;
        self.delete_queue_later(snapshot.queue_id.clone());
        Ok(snapshot)
    }

    /// `DELETE /events` for a snapshot's queue, in the background: the snapshot does not
    /// wait for it.
    pub(super) fn delete_queue_later(&self, queue_id: Option<String>) {
        let Some(queue_id) = queue_id else {
            return;
        };
        let client = self.clone();
        tokio::spawn(async move {
            let params = Params::new().text("queue_id", &queue_id);
            if let Err(error) = client.call::<Value>(Method::DELETE, "events", params).await {
                tracing::debug!(%error, "could not delete the snapshot's event queue");
            }
        });
    }

    /// `POST /messages/render`: the server's HTML for some Markdown.
    pub async fn render_message(&self, content: &str) -> Result<String, ClientError> {
        let params = Params::new().text("content", content);
        let response: RenderResponse = self.call(Method::POST, "messages/render", params).await?;
        Ok(response.rendered)
    }

    /// `GET /messages`.
    pub async fn get_messages(
        &self,
        query: &MessagesQuery,
    ) -> Result<MessagesResponse, ClientError> {
        let narrow: Vec<Value> = query.narrow.iter().map(NarrowTerm::to_json).collect();
        let params = Params::new()
            .text("anchor", query.anchor.as_param())
            .json("num_before", query.num_before)
            .json("num_after", query.num_after)
            .json("narrow", narrow)
            .json("apply_markdown", query.apply_markdown);
        self.call(Method::GET, "messages", params).await
    }

    /// User ids as principals need feature level 9: refuse them for older servers instead
    /// of letting the server answer `principals[0] is not a string`.
    async fn check_principals(&self, principals: &Principals) -> Result<(), ClientError> {
        let uses_ids = matches!(principals, Principals::Ids(ids) if !ids.is_empty());
        if !uses_ids {
            return Ok(());
        }
        let feature_level = self.feature_level().await?;
        if feature_level < FEATURE_LEVEL_INTEGER_PRINCIPALS {
            return Err(ClientError::PrincipalIdsUnsupported { feature_level });
        }
        Ok(())
    }
}

fn stream_names<S: AsRef<str>>(names: &[S]) -> Value {
    Value::from(
        names
            .iter()
            .map(|name| name.as_ref().to_string())
            .collect::<Vec<_>>(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_decode_from_real_zulip_shape_without_optional_fields() {
        let body = r#"{"result":"success","msg":"","bots":[{"username":"hook-bot@example.com",
            "full_name":"Hook","api_key":"abcdefghijklmnopqrstuvwxyz012345","avatar_url":null,
            "default_sending_stream":null,"default_events_register_stream":null,
            "default_all_public_streams":false}]}"#;
        let decoded: Result<BotsEnvelope, _> = serde_json::from_str(body);
        let bots = decoded.map(|b| b.bots).unwrap_or_default();
        assert_eq!(bots.len(), 1);
        assert_eq!(bots[0].email, "hook-bot@example.com");
        assert!(!format!("{:?}", bots[0]).contains("abcdefghijklmnopqrstuvwxyz012345"));
    }

    /// Zulip 12 keeps keys out of listings: a bot without `api_key` (or any other field
    /// but its address) still decodes.
    #[test]
    fn bots_decode_without_keys_as_zulip_12_lists_them() {
        let body = r#"{"result":"success","msg":"","bots":[{"username":"hook-bot@example.com",
            "avatar_url":"https://example.com/a.png","some_future_key":1}]}"#;
        let decoded: Result<BotsEnvelope, _> = serde_json::from_str(body);
        let bots = decoded.map(|b| b.bots).unwrap_or_default();
        assert_eq!(bots.len(), 1);
        assert!(bots[0].api_key.is_none() && bots[0].full_name.is_none());
    }

    #[test]
    fn narrow_and_subscription_json() {
        let mut term = NarrowTerm::topic("t");
        term.negated = true;
        assert_eq!(
            term.to_json().to_string(),
            r#"{"negated":true,"operand":"t","operator":"topic"}"#
        );
        let sub = NewSubscription {
            name: "a".into(),
            description: Some("d".into()),
        };
        assert_eq!(
            sub.to_json().to_string(),
            r#"{"description":"d","name":"a"}"#
        );
        assert_eq!(Principals::Ids(vec![1, 2]).to_json().to_string(), "[1,2]");
        assert_eq!(
            Principals::Emails(vec!["a@b".into()]).to_json().to_string(),
            r#"["a@b"]"#
        );
        assert_eq!(Anchor::Id(42).as_param(), "42");
    }
}
