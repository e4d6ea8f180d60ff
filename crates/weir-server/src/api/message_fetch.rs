//! Reading messages: `GET /messages` (with Zulip's narrows and `message_ids`; Zulip's
//! `message_fetch.py`) and `POST /messages/render`. Sending is `send.rs`.

use axum::extract::State;
use serde_json::{Value, json};
use zulip_api::{DirectRecipient, Message, Recipient, TopicLink};

use super::dto::avatar_url;
use super::{ApiResult, success};
use crate::AppState;
use crate::error::{ApiError, Error};
use crate::http::auth::Caller;
use crate::http::params::{Params, as_list};
use crate::rules::access::{can_access, can_access_history};
use crate::store::{self, Filter, MessageQuery, MessageRow, Narrow, UserRow};

/// Zulip's `LARGER_THAN_MAX_MESSAGE_ID`, reported as the anchor of `anchor=newest`.
const LARGER_THAN_MAX_MESSAGE_ID: i64 = 10_000_000_000_000_000;
/// Zulip's cap on `num_before + num_after`.
const MAX_MESSAGES_PER_FETCH: i64 = 5000;

/// Largest `narrow` and `message_ids` lists accepted.
const MAX_NARROW_TERMS: usize = 100;

/// What a topic with no name shows as, for clients that did not say they handle empty
/// topics (Zulip's default `realm_empty_topic_display_name`).
const EMPTY_TOPIC_DISPLAY_NAME: &str = "general chat";

/// One narrow term, resolved only after the caller's visibility is known.
#[derive(Debug, Clone)]
enum Term {
    Stream(Value),
    PublicStreams,
    Topic(String),
    Dm(Value),
    Sender(Value),
    Id(i64),
    Search(String),
    Is(Narrow),
}

#[derive(Debug, Clone)]
struct Parsed {
    term: Term,
    negated: bool,
}

fn parse_narrow(value: Option<Value>) -> Result<Vec<Parsed>, ApiError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items = as_list("narrow", value)?;
    if items.len() > MAX_NARROW_TERMS {
        let msg = format!("narrow has too many terms (limit: {MAX_NARROW_TERMS})");
        return Err(ApiError::bad_request(msg));
    }
    let mut terms = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let (operator, operand, negated) = match &item {
            Value::Object(fields) => (
                fields.get("operator").cloned(),
                fields.get("operand").cloned(),
                fields.get("negated").cloned().unwrap_or(Value::Bool(false)),
            ),
            Value::Array(pair) if pair.len() == 2 => (
                pair.first().cloned(),
                pair.get(1).cloned(),
                Value::Bool(false),
            ),
            _ => (None, None, Value::Null),
        };
        let (Some(Value::String(operator)), Some(operand), Value::Bool(negated)) =
            (operator, operand, negated)
        else {
            return Err(ApiError::bad_request(format!(
                "narrow[{index}] is not a valid narrow term"
            )));
        };
        let invalid =
            |what: &str| ApiError::bad_request(format!("Invalid narrow operator: {what}"));
        let term = match (operator.as_str(), operand) {
            ("channel" | "stream", operand) => Term::Stream(operand),
            ("channels" | "streams", Value::String(kind)) if kind == "public" => {
                Term::PublicStreams
            }
            ("topic" | "subject", Value::String(topic)) => Term::Topic(topic),
            ("dm" | "pm-with", operand) => Term::Dm(operand),
            ("sender", operand) => Term::Sender(operand),
            ("id", Value::Number(id)) => {
                Term::Id(id.as_i64().ok_or_else(|| invalid("invalid message ID"))?)
            }
            ("id", Value::String(id)) => Term::Id(
                id.trim()
                    .parse()
                    .map_err(|_| invalid("invalid message ID"))?,
            ),
            ("search", Value::String(text)) => Term::Search(text),
            ("is", Value::String(what)) => Term::Is(match what.as_str() {
                "dm" | "private" => Narrow::Direct,
                "resolved" => Narrow::ResolvedTopic,
                // Mentions are read from the rendered message; Weir keeps no stars,
                // unread state, alert words, follows or mutes, so those match nothing.
                "mentioned" => Narrow::Mentions(0),
                "starred" | "unread" | "alerted" | "followed" | "muted" => Narrow::Nothing,
                other => return Err(invalid(&format!("unknown 'is' operand {other}"))),
            }),
            (operator, _) => {
                return Err(invalid(&format!("unknown operator {operator}")));
            }
        };
        terms.push(Parsed { term, negated });
    }
    Ok(terms)
}

fn parse_anchor(raw: Option<String>) -> Result<(i64, i64), ApiError> {
    match raw.as_deref().unwrap_or("newest") {
        "newest" | "first_unread" => Ok((i64::MAX, LARGER_THAN_MAX_MESSAGE_ID)),
        "oldest" => Ok((0, 0)),
        number => number
            .parse::<i64>()
            .map(|id| (id, id))
            .map_err(|_| ApiError::bad_request("Invalid anchor")),
    }
}

fn count(params: &mut Params, name: &str) -> Result<u32, ApiError> {
    let value = params
        .take_int(name)?
        .ok_or_else(|| ApiError::missing_argument(name))?;
    u32::try_from(value)
        .map_err(|_| ApiError::bad_request(format!("{name} is not a non-negative integer")))
}

/// `message_ids`: a JSON list of integers.
fn parse_message_ids(value: Option<Value>) -> Result<Option<Vec<i64>>, ApiError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let items = as_list("message_ids", value)?;
    if items.len() > MAX_MESSAGES_PER_FETCH as usize {
        let msg = format!("message_ids has too many items (limit: {MAX_MESSAGES_PER_FETCH})");
        return Err(ApiError::bad_request(msg));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            item.as_i64().ok_or_else(|| {
                ApiError::bad_request(format!("message_ids[{index}] is not an integer"))
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// How the messages of one response are shown.
#[derive(Debug, Clone, Copy)]
struct Presentation {
    apply_markdown: bool,
    client_gravatar: bool,
    allow_empty_topic_name: bool,
}

/// Where a `GET /messages` request starts: around an anchor, or a list of ids.
enum Window {
    Anchor {
        anchor: i64,
        reported: i64,
        num_before: u32,
        num_after: u32,
        include_anchor: bool,
    },
    Ids(Vec<i64>),
}

fn parse_window(params: &mut Params) -> Result<Window, ApiError> {
    if let Some(ids) = parse_message_ids(params.take_json("message_ids")?)? {
        let range_params = [
            "anchor",
            "include_anchor",
            "use_first_unread_anchor",
            "num_before",
            "num_after",
        ];
        if let Some(other) = range_params.iter().find(|name| params.has(name)) {
            let names = format!("{other}, message_ids");
            return Err(ApiError::bad_request(format!(
                "Unsupported parameter combination: {names}"
            ))
            .with("parameters", names));
        }
        return Ok(Window::Ids(ids));
    }
    let first_unread = params.take_bool("use_first_unread_anchor", false)?;
    let raw_anchor = params.take_str("anchor");
    let (anchor, reported) = if first_unread {
        parse_anchor(Some("first_unread".into()))?
    } else {
        parse_anchor(raw_anchor)?
    };
    let num_before = count(params, "num_before")?;
    let num_after = count(params, "num_after")?;
    if i64::from(num_before) + i64::from(num_after) > MAX_MESSAGES_PER_FETCH {
        return Err(ApiError::bad_request(
            "Too many messages requested (maximum 5000).",
        ));
    }
    Ok(Window::Anchor {
        anchor,
        reported,
        num_before,
        num_after,
        include_anchor: params.take_bool("include_anchor", true)?,
    })
}

pub async fn get_messages(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let window = parse_window(&mut params)?;
    let terms = parse_narrow(params.take_json("narrow")?)?;
    let presentation = Presentation {
        apply_markdown: params.take_bool("apply_markdown", true)?,
        client_gravatar: params.take_bool("client_gravatar", true)?,
        allow_empty_topic_name: params.take_bool("allow_empty_topic_name", false)?,
    };
    let ignored = params.into_ignored();
    let viewer = caller.0;
    let body = state
        .store()
        .read(move |conn| {
            let realm = realm_string_id(conn)?;
            let show = |rows: &[MessageRow]| {
                rows.iter()
                    .map(|row| message_dto(conn, &viewer, row, presentation, &realm))
                    .collect::<Result<Vec<_>, Error>>()
            };
            let body = match window {
                Window::Ids(ids) => {
                    let query = build_query(conn, &viewer, &terms, 0, 0, 0)?;
                    let rows = store::messages_by_ids(conn, &query, &ids)?;
                    json!({ "messages": show(&rows)?, "history_limited": false })
                }
                Window::Anchor {
                    anchor,
                    reported,
                    num_before,
                    num_after,
                    include_anchor,
                } => {
                    let query = build_query(conn, &viewer, &terms, anchor, num_before, num_after)?;
                    let mut page = store::find_messages(conn, &query)?;
                    if !include_anchor && page.found_anchor {
                        page.messages.retain(|row| row.id != anchor);
                        page.found_anchor = false;
                    }
                    json!({
                        "messages": show(&page.messages)?,
                        "found_anchor": page.found_anchor,
                        "found_newest": page.found_newest,
                        "found_oldest": page.found_oldest,
                        "history_limited": false,
                        "anchor": reported,
                    })
                }
            };
            Ok::<_, Error>(body)
        })
        .await?;
    success(body, ignored)
}

/// The query for the one newest message `viewer` can see.
pub fn newest_visible_query(
    conn: &rusqlite::Connection,
    viewer: &UserRow,
) -> Result<MessageQuery, Error> {
    build_query(conn, viewer, &[], i64::MAX, 1, 0)
}

fn build_query(
    conn: &rusqlite::Connection,
    viewer: &UserRow,
    terms: &[Parsed],
    anchor: i64,
    num_before: u32,
    num_after: u32,
) -> Result<MessageQuery, Error> {
    let subscribed = store::subscription_states(conn, viewer.user_id)?;
    let streams = store::all_streams(conn)?;
    let is_subscribed =
        |stream: &store::StreamRow| subscribed.get(&stream.stream_id) == Some(&true);
    let mut query = MessageQuery {
        viewer_id: viewer.user_id,
        anchor,
        num_before,
        num_after,
        ..MessageQuery::default()
    };
    let unknown_channel = || ApiError::bad_request("Invalid narrow operator: unknown channel");
    for Parsed { term, negated } in terms {
        let narrow = match term {
            Term::Stream(operand) => {
                let stream = match operand {
                    Value::String(name) => store::stream_by_name(conn, name.trim())?,
                    Value::Number(id) => id
                        .as_i64()
                        .map(|id| store::stream_by_id(conn, id))
                        .transpose()?
                        .flatten(),
                    _ => None,
                };
                // A private stream the viewer cannot see is reported as unknown too,
                // unless they received some of its messages while subscribed: those
                // stay theirs to read, as Zulip's `UserMessage` rows do.
                let stream = match stream {
                    Some(stream) if can_access(viewer, &stream, is_subscribed(&stream)) => stream,
                    Some(stream)
                        if store::received_from_stream(conn, viewer.user_id, stream.stream_id)? =>
                    {
                        stream
                    }
                    _ => return Err(unknown_channel().into()),
                };
                if !negated && can_access_history(viewer, &stream, is_subscribed(&stream)) {
                    query.full_history_streams.push(stream.stream_id);
                }
                Narrow::Stream(stream.stream_id)
            }
            Term::PublicStreams => {
                let public: Vec<i64> = streams
                    .iter()
                    .filter(|stream| !stream.invite_only && !viewer.is_guest())
                    .map(|stream| stream.stream_id)
                    .collect();
                if !negated {
                    query.full_history_streams.extend(&public);
                }
                Narrow::AnyStream(public)
            }
            Term::Topic(topic) => Narrow::Topic(topic.clone()),
            Term::Dm(operand) => Narrow::DmWith(dm_partner(conn, viewer, operand)?),
            Term::Sender(operand) => Narrow::Sender(sender_id(conn, operand)?),
            Term::Id(id) => Narrow::Id(*id),
            Term::Search(text) => Narrow::Search(text.clone()),
            Term::Is(Narrow::Mentions(_)) => Narrow::Mentions(viewer.user_id),
            Term::Is(narrow) => narrow.clone(),
        };
        query.filters.push(Filter {
            narrow,
            negated: *negated,
        });
    }
    Ok(query)
}

/// The user a `sender` operand names, by id or e-mail.
fn sender_id(conn: &rusqlite::Connection, operand: &Value) -> Result<i64, Error> {
    let user = match operand {
        Value::Number(id) => id
            .as_i64()
            .map(|id| store::user_by_id(conn, id))
            .transpose()?
            .flatten(),
        Value::String(email) => store::user_by_email(conn, email.trim())?,
        _ => None,
    };
    user.map(|user| user.user_id)
        .ok_or_else(|| ApiError::bad_request("Invalid narrow operator: unknown user").into())
}

/// The other person of a one-to-one conversation named by a `dm` operand.
fn dm_partner(
    conn: &rusqlite::Connection,
    viewer: &UserRow,
    operand: &Value,
) -> Result<i64, Error> {
    let invalid = || ApiError::bad_request("Invalid narrow operator: unknown user");
    let ids: Vec<Value> = match operand {
        Value::Array(items) => items.clone(),
        Value::String(text) => text
            .split(',')
            .map(|email| Value::from(email.trim()))
            .collect(),
        Value::Number(_) => vec![operand.clone()],
        _ => return Err(invalid().into()),
    };
    let mut others = Vec::new();
    for id in &ids {
        let user = match id {
            Value::Number(n) => n
                .as_i64()
                .map(|id| store::user_by_id(conn, id))
                .transpose()?
                .flatten(),
            Value::String(email) => store::user_by_email(conn, email)?,
            _ => None,
        }
        .ok_or_else(invalid)?;
        if user.user_id != viewer.user_id {
            others.push(user.user_id);
        }
    }
    match others.as_slice() {
        [] => Ok(viewer.user_id),
        [other] => Ok(*other),
        _ => Err(
            ApiError::bad_request("Group direct messages are not supported by this server").into(),
        ),
    }
}

/// Zulip's `sender_realm_str`: the organization's subdomain (first label of its host,
/// empty for a bare host), or `zulipinternal` for system bots.
fn realm_string_id(conn: &rusqlite::Connection) -> Result<String, Error> {
    let url = store::realm(conn)?
        .map(|realm| realm.url)
        .unwrap_or_default();
    let host = url
        .split_once("://")
        .map_or(url.as_str(), |(_, rest)| rest)
        .split(['/', ':'])
        .next()
        .unwrap_or_default();
    Ok(match host.split_once('.') {
        Some((label, _)) if host.parse::<std::net::IpAddr>().is_err() => label.to_owned(),
        _ => String::new(),
    })
}

/// Zulip's recipient ids are rows of their own; Weir derives them so that they are
/// distinct: a person's is twice their user id, a stream's twice its id plus one.
fn recipient_id(message: &store::NewMessage) -> i64 {
    match (message.stream_id, message.recipient_id) {
        (Some(stream_id), _) => stream_id * 2 + 1,
        (None, Some(user_id)) => user_id * 2,
        (None, None) => 0,
    }
}

/// `http(s)://` links in a topic, as Zulip's `topic_links` lists them (Weir has no
/// linkifiers).
fn topic_links(topic: &str) -> Vec<TopicLink> {
    topic
        .split_whitespace()
        .filter(|word| word.starts_with("https://") || word.starts_with("http://"))
        .map(|url| TopicLink {
            text: url.to_owned(),
            url: url.to_owned(),
        })
        .collect()
}

fn message_dto(
    conn: &rusqlite::Connection,
    viewer: &UserRow,
    row: &MessageRow,
    presentation: Presentation,
    realm: &str,
) -> Result<Message, Error> {
    let message = &row.message;
    let sender = store::user_by_id(conn, message.sender_id)?
        .ok_or_else(|| Error::Internal(format!("message {} has no sender", row.id)))?;
    let (kind, display_recipient) = match (message.stream_id, message.recipient_id) {
        (Some(stream_id), _) => {
            let name = store::stream_by_id(conn, stream_id)?
                .map(|stream| stream.name)
                .unwrap_or_default();
            ("stream", Recipient::Stream(name))
        }
        (None, recipient_id) => {
            let mut people = vec![direct_recipient(&sender)];
            let recipient = recipient_id.filter(|id| *id != sender.user_id);
            if let Some(user) = recipient
                .map(|id| store::user_by_id(conn, id))
                .transpose()?
                .flatten()
            {
                people.push(direct_recipient(&user));
            }
            people.sort_by_key(|person| person.id);
            ("private", Recipient::Direct(people))
        }
    };
    let (content, content_type) = if presentation.apply_markdown {
        (message.rendered_content.clone(), "text/html")
    } else {
        (message.content.clone(), "text/x-markdown")
    };
    let subject = if message.stream_id.is_some()
        && message.topic.is_empty()
        && !presentation.allow_empty_topic_name
    {
        EMPTY_TOPIC_DISPLAY_NAME.to_owned()
    } else {
        message.topic.clone()
    };
    // Weir keeps no unread state: every message reads as read. Mentions come from the
    // rendered content, as the `is:mentioned` narrow finds them.
    let mut flags = vec!["read".to_owned()];
    let mention = format!(
        "<span class=\"user-mention\" data-user-id=\"{}\">",
        viewer.user_id
    );
    if message.rendered_content.contains(&mention) {
        flags.push("mentioned".to_owned());
    }
    Ok(Message {
        id: row.id,
        sender_id: sender.user_id,
        sender_email: sender.email.clone(),
        sender_full_name: sender.full_name.clone(),
        sender_realm_str: if sender.is_system_bot {
            "zulipinternal".to_owned()
        } else {
            realm.to_owned()
        },
        avatar_url: avatar_url(&sender.email, presentation.client_gravatar),
        kind: kind.into(),
        stream_id: message.stream_id,
        recipient_id: recipient_id(message),
        display_recipient,
        topic_links: topic_links(&subject),
        subject,
        is_me_message: message.content.starts_with("/me ") && !message.content.contains('\n'),
        content,
        content_type: content_type.into(),
        timestamp: message.timestamp,
        client: message.client.clone(),
        flags,
        reactions: Vec::new(),
        submessages: Vec::new(),
    })
}

fn direct_recipient(user: &UserRow) -> DirectRecipient {
    DirectRecipient {
        id: user.user_id,
        email: user.email.clone(),
        full_name: user.full_name.clone(),
        is_mirror_dummy: false,
    }
}

pub async fn render_message(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let content = params.require_str("content")?;
    let acting = caller.0;
    let rendered = state
        .store()
        .render(move |conn| crate::compose::render_preview(conn, &acting, &content))
        .await?;
    success(json!({ "rendered": rendered }), params.into_ignored())
}
