//! Wire types of the Zulip REST API, shared by Weir's local server and its client so
//! that both sides agree on one spelling of every field.
//!
//! Only serde lives here: no HTTP, no storage.

mod error;
mod messages;
mod realm;
mod streams;
mod users;

pub use error::{ErrorResponse, ZulipErrorCode};
pub use messages::{
    DirectRecipient, Message, MessagesResponse, Recipient, RenderResponse, SendMessageResponse,
    TopicLink,
};
pub use realm::{RegisterResponse, ServerSettings};
pub use streams::{
    AddSubscriptionsResponse, GroupSettingValue, RemoveSubscriptionsResponse, Stream,
    StreamIdResponse, StreamsResponse, SubscribersResponse, Subscription, SubscriptionsResponse,
};
pub use users::{Bot, BotType, CreateBotResponse, Role, User, UsersResponse};

/// The feature level Weir's server reports by default (Zulip 11.0).
pub const DEFAULT_FEATURE_LEVEL: u32 = 421;
