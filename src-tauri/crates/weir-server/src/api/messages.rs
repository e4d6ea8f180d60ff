//! `GET /messages` (with Zulip's narrows) and `POST /messages/render`.

use axum::extract::State;
use serde_json::{Value, json};
use zulip_api::{DirectRecipient, Message, Recipient};

use super::{ApiResult, success};
use crate::AppState;
use crate::auth::Caller;
use crate::error::{ApiError, Error};
use crate::params::{Params, as_list};
use crate::store::{self, MessageQuery, MessageRow, UserRow};

/// Zulip's `LARGER_THAN_MAX_MESSAGE_ID`, reported as the anchor of `anchor=newest`.
const LARGER_THAN_MAX_MESSAGE_ID: i64 = 10_000_000_000_000_000;
/// Zulip's cap on `num_before + num_after`.
const MAX_MESSAGES_PER_FETCH: i64 = 5000;

/// One narrow term, resolved only after the caller's visibility is known.
#[derive(Debug, Clone)]
enum Term {
    Stream(Value),
    Topic(String),
    Dm(Value),
    IsDm,
}

fn parse_narrow(value: Option<Value>) -> Result<Vec<Term>, ApiError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let mut terms = Vec::new();
    for (index, item) in as_list("narrow", value)?.into_iter().enumerate() {
        let (operator, operand) = match &item {
            Value::Object(fields) => (
                fields.get("operator").cloned(),
                fields.get("operand").cloned(),
            ),
            Value::Array(pair) if pair.len() == 2 => (pair.first().cloned(), pair.get(1).cloned()),
            _ => (None, None),
        };
        let (Some(Value::String(operator)), Some(operand)) = (operator, operand) else {
            return Err(ApiError::bad_request(format!(
                "narrow[{index}] is not a valid narrow term"
            )));
        };
        let term = match (operator.as_str(), operand) {
            ("channel" | "stream", operand) => Term::Stream(operand),
            ("topic" | "subject", Value::String(topic)) => Term::Topic(topic),
            ("dm" | "pm-with", operand) => Term::Dm(operand),
            ("is", Value::String(what)) if what == "dm" || what == "private" => Term::IsDm,
            (operator, _) => {
                return Err(ApiError::bad_request(format!(
                    "Invalid narrow operator: unknown operator {operator}"
                )));
            }
        };
        terms.push(term);
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

pub async fn get_messages(
    State(state): State<AppState>,
    caller: Caller,
    mut params: Params,
) -> ApiResult {
    let (anchor, reported_anchor) = parse_anchor(params.take_str("anchor"))?;
    let num_before = count(&mut params, "num_before")?;
    let num_after = count(&mut params, "num_after")?;
    if i64::from(num_before) + i64::from(num_after) > MAX_MESSAGES_PER_FETCH {
        return Err(ApiError::bad_request("Too many messages requested (maximum 5000).").into());
    }
    let terms = parse_narrow(params.take_json("narrow")?)?;
    let apply_markdown = params.take_bool("apply_markdown", true)?;
    for known in [
        "client_gravatar",
        "include_anchor",
        "use_first_unread_anchor",
    ] {
        let _ = params.take_str(known);
    }
    let ignored = params.into_ignored();
    let viewer = caller.0;
    let body = state
        .store()
        .read(move |conn| {
            let query = build_query(conn, &viewer, &terms, anchor, num_before, num_after)?;
            let page = store::find_messages(conn, &query)?;
            let messages = page
                .messages
                .iter()
                .map(|row| message_dto(conn, row, apply_markdown))
                .collect::<Result<Vec<_>, Error>>()?;
            Ok::<_, Error>(json!({
                "messages": messages,
                "found_anchor": page.found_anchor,
                "found_newest": page.found_newest,
                "found_oldest": page.found_oldest,
                "history_limited": false,
                "anchor": reported_anchor,
            }))
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
    terms: &[Term],
    anchor: i64,
    num_before: u32,
    num_after: u32,
) -> Result<MessageQuery, Error> {
    let subscribed = store::subscription_states(conn, viewer.user_id)?;
    let readable = |stream: &store::StreamRow| {
        subscribed.get(&stream.stream_id) == Some(&true)
            || (!stream.invite_only && !viewer.is_guest())
    };
    let mut query = MessageQuery {
        viewer_id: viewer.user_id,
        readable_streams: store::all_streams(conn)?
            .iter()
            .filter(|stream| readable(stream))
            .map(|stream| stream.stream_id)
            .collect(),
        anchor,
        num_before,
        num_after,
        ..MessageQuery::default()
    };
    let unknown_channel = || ApiError::bad_request("Invalid narrow operator: unknown channel");
    for term in terms {
        match term {
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
                // A private stream the viewer cannot read is reported as unknown too.
                let stream = stream
                    .filter(|stream| {
                        crate::access::can_access(
                            viewer,
                            stream,
                            subscribed.get(&stream.stream_id) == Some(&true),
                        )
                    })
                    .ok_or_else(unknown_channel)?;
                query.stream_id = Some(stream.stream_id);
            }
            Term::Topic(topic) => query.topic = Some(topic.clone()),
            Term::IsDm => query.direct_only = true,
            Term::Dm(operand) => {
                let other = dm_partner(conn, viewer, operand)?;
                query.dm_with = Some(other);
                query.direct_only = true;
            }
        }
    }
    Ok(query)
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

fn message_dto(
    conn: &rusqlite::Connection,
    row: &MessageRow,
    apply_markdown: bool,
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
    let (content, content_type) = if apply_markdown {
        (message.rendered_content.clone(), "text/html")
    } else {
        (message.content.clone(), "text/x-markdown")
    };
    Ok(Message {
        id: row.id,
        sender_id: sender.user_id,
        sender_email: sender.email.clone(),
        sender_full_name: sender.full_name.clone(),
        kind: kind.into(),
        stream_id: message.stream_id,
        display_recipient,
        subject: message.topic.clone(),
        content,
        content_type: content_type.into(),
        timestamp: message.timestamp,
        client: message.client.clone(),
    })
}

fn direct_recipient(user: &UserRow) -> DirectRecipient {
    DirectRecipient {
        id: user.user_id,
        email: user.email.clone(),
        full_name: user.full_name.clone(),
    }
}

pub async fn render_message(State(state): State<AppState>, mut params: Params) -> ApiResult {
    let content = params.require_str("content")?;
    let rendered = state
        .store()
        .read(move |conn| Ok::<_, Error>(crate::messages::render_preview(conn, &content)?))
        .await?;
    success(json!({ "rendered": rendered }), params.into_ignored())
}
