//! `POST /messages`: send a stream message or a one-to-one direct message.
//!
//! The message is rendered on a read connection first, so that the single writer only
//! inserts it.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use rusqlite::Connection;
use serde_json::{Value, json};

use super::group_mentions::check_group_mentions;
use super::{ApiResult, success};
use crate::AppState;
use crate::clock::now_unix;
use crate::compose::{Destination, Outgoing, send};
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::Params;
use crate::rules::access::{SendAccess, send_access};
use crate::store::{self, Groups, StreamRow, UserRow};

/// Largest `to` list accepted for a direct message.
const MAX_RECIPIENTS: usize = 100;

/// Whom the request addresses, before it is resolved.
enum To {
    StreamName(String),
    StreamId(i64),
    People(Vec<Value>),
}

/// The level from which the topic "(no topic)" means the empty topic (Zulip 10.0).
const NO_TOPIC_IS_EMPTY_LEVEL: u32 = 370;

pub async fn send_message(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    mut params: Params,
) -> ApiResult {
    let kind = params.require_str("type")?;
    let direct = match kind.as_str() {
        "direct" | "private" => true,
        "stream" | "channel" => false,
        _ => return Err(ApiError::bad_request("Invalid type").into()),
    };
    let to = parse_to(&params.require_str("to")?, direct)?;
    let topic = params
        .take_str("topic")
        .or_else(|| params.take_str("subject"));
    let content = params.require_str("content")?;
    let _ = params.take_bool("read_by_sender", false)?;
    let _ = params.take_str("queue_id");
    let _ = params.take_str("local_id");
    let ignored = params.into_ignored();
    let level = state.feature_level();
    if content.trim().is_empty() {
        return Err(ApiError::bad_request("Message must not be empty").into());
    }
    let topic = match (direct, topic) {
        (true, _) => String::new(),
        // From Zulip 10.0 "(no topic)" is the empty topic ("general chat").
        (false, Some(topic))
            if level >= NO_TOPIC_IS_EMPTY_LEVEL && topic.trim() == "(no topic)" =>
        {
            String::new()
        }
        (false, Some(topic)) => topic.trim().to_owned(),
        (false, None) => return Err(ApiError::bad_request("Missing topic").into()),
    };
    let sender = caller.0.clone();
    // The groups' graph the permission checks use: the cached one when there is one.
    let groups = state.store().groups_later(sender.user_id);
    // Rendered on the render pool, before the write.
    let (destination, outgoing) = state
        .store()
        .render(move |conn| {
            let destination = resolve(conn, &groups, &sender, to)?;
            if let Destination::Stream(stream_id) = destination
                && let Some(stream) = store::stream_by_id(conn, stream_id)?
            {
                super::topics_policy::check_topic(stream.topics_policy.as_deref(), &topic, level)?;
            }
            let outgoing = Outgoing::from_sender(conn, &sender, &topic, &content)?;
            check_group_mentions(conn, &groups, &sender, &outgoing.rendered)?;
            Ok::<_, Error>((destination, outgoing))
        })
        .await?;
    let client = client_name(&headers);
    let sender_id = caller.user_id;
    let now = now_unix();
    let id = state
        .store()
        .write(move |conn| send(conn, sender_id, destination, &outgoing, &client, now))
        .await?;
    success(json!({ "id": id }), ignored)
}

/// `to`: a stream's name or id, or for direct messages a JSON list of user ids or
/// e-mails (a comma-separated list of e-mails is accepted too, as in Zulip).
fn parse_to(raw: &str, direct: bool) -> Result<To, ApiError> {
    let parsed: Option<Value> = serde_json::from_str(raw).ok();
    if direct {
        let split = |text: &str| -> Vec<Value> {
            text.split(',')
                .map(str::trim)
                .filter(|email| !email.is_empty())
                .map(Value::from)
                .collect()
        };
        let items = match parsed {
            Some(Value::Array(items)) => items,
            Some(Value::Number(id)) => vec![Value::Number(id)],
            Some(Value::String(text)) => split(&text),
            None => split(raw),
            Some(_) => return Err(invalid_recipients()),
        };
        check_recipient_types(&items)?;
        if items.len() > MAX_RECIPIENTS {
            let msg = format!("Too many recipients (limit: {MAX_RECIPIENTS})");
            return Err(ApiError::bad_request(msg));
        }
        return Ok(To::People(items));
    }
    let single = match parsed {
        Some(Value::Array(mut items)) if items.len() == 1 => items.pop(),
        Some(Value::Array(_)) => {
            return Err(ApiError::bad_request("Cannot send to multiple channels"));
        }
        other => other,
    };
    Ok(match single {
        Some(Value::Number(id)) => To::StreamId(id.as_i64().unwrap_or(-1)),
        Some(Value::String(name)) => To::StreamName(name),
        _ => To::StreamName(raw.to_owned()),
    })
}

fn invalid_recipients() -> ApiError {
    ApiError::bad_request("Invalid data type for recipients")
}

/// Zulip's `extract_private_recipients`: the first item says whether the list holds
/// e-mails or user ids (integers; `107.0` is neither), and every item must agree.
fn check_recipient_types(items: &[Value]) -> Result<(), ApiError> {
    let is_id = |item: &Value| item.as_i64().is_some();
    let agree: fn(&Value) -> bool = match items.first() {
        None => return Ok(()),
        Some(Value::String(_)) => Value::is_string,
        Some(first) if is_id(first) => |item| item.as_i64().is_some(),
        Some(_) => return Err(invalid_recipients()),
    };
    if items.iter().all(agree) {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "Recipient lists may contain emails or user IDs, but not both.",
        ))
    }
}

fn resolve(
    conn: &Connection,
    groups: &Groups,
    sender: &UserRow,
    to: To,
) -> Result<Destination, Error> {
    match to {
        To::StreamName(name) => {
            let name = name.trim();
            let stream = store::stream_by_name(conn, name)?;
            writable_stream(conn, groups, sender, stream, || {
                ApiError::stream_does_not_exist(name)
            })
        }
        To::StreamId(id) => {
            let stream = store::stream_by_id(conn, id)?;
            writable_stream(conn, groups, sender, stream, || {
                ApiError::bad_request(format!("Channel with ID '{id}' does not exist"))
                    .code(zulip_api::ZulipErrorCode::StreamDoesNotExist)
                    .with("stream_id", id)
            })
        }
        To::People(items) => direct_partner(conn, sender, &items).map(Destination::Direct),
    }
}

/// A stream the sender may post to, by the one sending rule ([`send_access`]): a
/// stream the sender cannot see is reported as missing (Weir's rule for hidden
/// streams); one they see but may not post to is refused as Zulip refuses it.
fn writable_stream(
    conn: &Connection,
    groups: &Groups,
    sender: &UserRow,
    stream: Option<StreamRow>,
    missing: impl Fn() -> ApiError,
) -> Result<Destination, Error> {
    let stream = stream.ok_or_else(&missing)?;
    let subscribed = store::is_subscribed(conn, sender.user_id, stream.stream_id)?;
    let owner_subscribed = match sender.bot_owner_id {
        Some(owner) => store::is_subscribed(conn, owner, stream.stream_id)?,
        None => false,
    };
    let access = send_access(sender, stream.invite_only, subscribed, owner_subscribed);
    if access != SendAccess::Hidden {
        let graph = || groups.on_reader(conn);
        super::channel_groups::check_may_post(graph, sender, &stream)?;
    }
    match access {
        SendAccess::Allowed => Ok(Destination::Stream(stream.stream_id)),
        SendAccess::Hidden => Err(missing().into()),
        SendAccess::Refused => Err(not_authorized(&stream.name).into()),
    }
}

/// Zulip's refusal of a stream the sender sees but may not post to.
pub(crate) fn not_authorized(stream_name: &str) -> ApiError {
    ApiError::bad_request(format!("Not authorized to send to channel '{stream_name}'"))
}

/// The one other person of a direct message (the sender themself when alone).
fn direct_partner(conn: &Connection, sender: &UserRow, items: &[Value]) -> Result<i64, Error> {
    if items.is_empty() {
        return Err(ApiError::bad_request("Message must have recipients").into());
    }
    let mut others: Vec<i64> = Vec::new();
    for item in items {
        let user = match item {
            Value::Number(id) => {
                let id = id.as_i64().unwrap_or(-1);
                store::user_by_id(conn, id)?
                    .ok_or_else(|| ApiError::bad_request(format!("Invalid user ID {id}")))?
            }
            Value::String(email) => store::user_by_email(conn, email.trim())?.ok_or_else(|| {
                ApiError::bad_request(format!("Invalid email '{}'", email.trim()))
            })?,
            _ => return Err(ApiError::bad_request("Invalid recipients").into()),
        };
        if !user.is_active {
            let msg = format!("'{}' is no longer using Zulip.", user.email);
            return Err(ApiError::bad_request(msg).into());
        }
        if user.user_id != sender.user_id && !others.contains(&user.user_id) {
            others.push(user.user_id);
        }
    }
    match others.as_slice() {
        [] => Ok(sender.user_id),
        [other] => Ok(*other),
        _ => Err(
            ApiError::bad_request("Group direct messages are not supported by this server").into(),
        ),
    }
}

/// The sending client's name as Zulip records it: the product part of `User-Agent`
/// (`ZulipPython/0.9.1` → `ZulipPython`).
fn client_name(headers: &HeaderMap) -> String {
    headers
        .get(header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .and_then(|agent| agent.split(['/', ' ']).next())
        .map(|name| name.chars().take(30).collect::<String>())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "Unspecified".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_targets_are_names_ids_or_one_item_lists() {
        assert!(matches!(parse_to("Verona", false), Ok(To::StreamName(n)) if n == "Verona"));
        assert!(matches!(parse_to("11", false), Ok(To::StreamId(11))));
        assert!(matches!(parse_to("[\"Verona\"]", false), Ok(To::StreamName(n)) if n == "Verona"));
        assert!(parse_to("[\"a\", \"b\"]", false).is_err());
    }

    #[test]
    fn direct_recipients_are_all_ids_or_all_emails_as_in_zulip() {
        let error = |raw: &str| parse_to(raw, true).err().map(|error| error.msg);
        let invalid = Some("Invalid data type for recipients".to_owned());
        assert_eq!(error("[107.0]"), invalid);
        assert_eq!(error("[{}]"), invalid);
        assert_eq!(error(r#"{"color": "red"}"#), invalid);
        let mixed =
            Some("Recipient lists may contain emails or user IDs, but not both.".to_owned());
        assert_eq!(error(r#"[3, "a@x.test"]"#), mixed);
        assert_eq!(error(r#"["a@x.test", 3]"#), mixed);
        assert_eq!(error("[3, 4.5]"), mixed);
        let Ok(To::People(people)) = parse_to(r#""a@x.test,b@x.test""#, true) else {
            panic!("a JSON string of e-mails")
        };
        assert_eq!(people, vec![json!("a@x.test"), json!("b@x.test")]);
    }

    #[test]
    fn direct_targets_are_lists_or_comma_separated_emails() {
        let Ok(To::People(people)) = parse_to("[8, 9]", true) else {
            panic!("ids")
        };
        assert_eq!(people, vec![json!(8), json!(9)]);
        let Ok(To::People(people)) = parse_to("a@x.test, b@x.test", true) else {
            panic!("emails")
        };
        assert_eq!(people, vec![json!("a@x.test"), json!("b@x.test")]);
    }
}
