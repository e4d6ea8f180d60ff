//! Messages: stream messages and direct messages between two users.

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Row, params, params_from_iter};

use crate::error::Result;

#[derive(Debug, Clone, PartialEq)]
pub struct NewMessage {
    pub sender_id: i64,
    /// Exactly one of `stream_id` and `recipient_id` is set.
    pub stream_id: Option<i64>,
    pub recipient_id: Option<i64>,
    pub topic: String,
    pub content: String,
    pub rendered_content: String,
    pub client: String,
    pub timestamp: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MessageRow {
    pub id: i64,
    pub message: NewMessage,
}

/// A message about to be stored, borrowing from the request that produced it: the
/// writer inserts without copying.
#[derive(Debug, Clone, Copy)]
pub struct MessageInsert<'a> {
    pub sender_id: i64,
    /// Exactly one of `stream_id` and `recipient_id` is set.
    pub stream_id: Option<i64>,
    pub recipient_id: Option<i64>,
    pub topic: &'a str,
    pub content: &'a str,
    pub rendered_content: &'a str,
    pub client: &'a str,
    pub timestamp: i64,
}

/// Whether `user_id` received any message of the stream (a subscription period in which
/// something was sent): they may narrow to it even after leaving.
pub fn received_from_stream(conn: &Connection, user_id: i64, stream_id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM received_ranges
                            WHERE user_id = ?1 AND stream_id = ?2
                              AND (last_message_id IS NULL
                                   OR last_message_id >= first_message_id))",
        )?
        .query_row([user_id, stream_id], |row| row.get(0))?)
}

pub fn insert_message(conn: &Connection, message: &MessageInsert<'_>) -> Result<i64> {
    conn.prepare_cached(
        "INSERT INTO messages (sender_id, stream_id, recipient_id, topic, content,
                               rendered_content, client, timestamp)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        message.sender_id,
        message.stream_id,
        message.recipient_id,
        message.topic,
        message.content,
        message.rendered_content,
        message.client,
        message.timestamp,
    ])?;
    Ok(conn.last_insert_rowid())
}

/// One narrow term as SQL sees it, already resolved against the organization.
#[derive(Debug, Clone, PartialEq)]
pub enum Narrow {
    Stream(i64),
    /// Any of these streams (`channels:public`).
    AnyStream(Vec<i64>),
    /// Topic, compared case-insensitively as Zulip does.
    Topic(String),
    /// Direct messages between the viewer and this user.
    DmWith(i64),
    /// Any direct message.
    Direct,
    Sender(i64),
    Id(i64),
    /// Every word is in the content or the topic (case-insensitive substring).
    Search(String),
    /// The rendered content mentions this user by name (not silently).
    Mentions(i64),
    /// Topics marked resolved (`✔ ` prefix).
    ResolvedTopic,
    /// Matches nothing: a flag Weir never sets, such as `starred`.
    Nothing,
}

/// A narrow term, possibly negated (`"negated": true`).
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    pub narrow: Narrow,
    pub negated: bool,
}

/// Which messages to fetch around an anchor, already limited to what the viewer may see.
#[derive(Debug, Clone, Default)]
pub struct MessageQuery {
    pub viewer_id: i64,
    /// Streams whose whole history the viewer reads in this query (an explicit narrow to
    /// a stream whose history they may access). Elsewhere they read what they received:
    /// stream messages sent while they were subscribed (`received_ranges`), their own
    /// messages, and their direct messages, as Zulip's `UserMessage` rows give them.
    pub full_history_streams: Vec<i64>,
    pub filters: Vec<Filter>,
    pub anchor: i64,
    pub num_before: u32,
    pub num_after: u32,
}

/// Messages around the anchor, oldest first, and what the query reached.
#[derive(Debug, Clone, Default)]
pub struct MessagePage {
    pub messages: Vec<MessageRow>,
    pub found_anchor: bool,
    pub found_oldest: bool,
    pub found_newest: bool,
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<MessageRow> {
    Ok(MessageRow {
        id: row.get(0)?,
        message: NewMessage {
            sender_id: row.get(1)?,
            stream_id: row.get(2)?,
            recipient_id: row.get(3)?,
            topic: row.get(4)?,
            content: row.get(5)?,
            rendered_content: row.get(6)?,
            client: row.get(7)?,
            timestamp: row.get(8)?,
        },
    })
}

const COLUMNS: &str =
    "id, sender_id, stream_id, recipient_id, topic, content, rendered_content, client, timestamp";

/// The SQL condition of one narrow term and the values of its `?`s, in order.
fn condition(narrow: &Narrow, viewer: i64) -> (String, Vec<SqlValue>) {
    match narrow {
        Narrow::Stream(id) => ("stream_id = ?".into(), vec![SqlValue::Integer(*id)]),
        Narrow::AnyStream(ids) => (
            "stream_id IN (SELECT value FROM json_each(?))".into(),
            vec![SqlValue::Text(
                serde_json::to_string(ids).unwrap_or_else(|_| "[]".into()),
            )],
        ),
        Narrow::Topic(topic) => (
            "(stream_id IS NOT NULL AND lower(topic) = lower(?))".into(),
            vec![SqlValue::Text(topic.clone())],
        ),
        Narrow::DmWith(other) => (
            "((recipient_id = ? AND sender_id = ?) OR (recipient_id = ? AND sender_id = ?))".into(),
            [*other, viewer, viewer, *other]
                .into_iter()
                .map(SqlValue::Integer)
                .collect(),
        ),
        Narrow::Direct => ("recipient_id IS NOT NULL".into(), Vec::new()),
        Narrow::Sender(id) => ("sender_id = ?".into(), vec![SqlValue::Integer(*id)]),
        Narrow::Id(id) => ("id = ?".into(), vec![SqlValue::Integer(*id)]),
        Narrow::Search(text) => {
            let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
            if words.is_empty() {
                return ("1".into(), Vec::new());
            }
            let one = "(instr(lower(content), ?) > 0 OR instr(lower(topic), ?) > 0)";
            let sql = vec![one; words.len()].join(" AND ");
            let values = words
                .into_iter()
                .flat_map(|word| [SqlValue::Text(word.clone()), SqlValue::Text(word)])
                .collect();
            (format!("({sql})"), values)
        }
        Narrow::Mentions(user_id) => (
            "instr(rendered_content, ?) > 0".into(),
            vec![SqlValue::Text(format!(
                "<span class=\"user-mention\" data-user-id=\"{user_id}\">"
            ))],
        ),
        Narrow::ResolvedTopic => (
            "(stream_id IS NOT NULL AND substr(topic, 1, 2) = '\u{2714} ')".into(),
            Vec::new(),
        ),
        Narrow::Nothing => ("0".into(), Vec::new()),
    }
}

/// The WHERE clause shared by every side of a fetch: visibility, then the narrow.
fn where_clause(query: &MessageQuery) -> (String, Vec<SqlValue>) {
    let full = serde_json::to_string(&query.full_history_streams).unwrap_or_else(|_| "[]".into());
    let mut sql = String::from(
        "((stream_id IS NOT NULL AND (stream_id IN (SELECT value FROM json_each(?)) \
             OR sender_id = ? \
             OR EXISTS (SELECT 1 FROM received_ranges r \
                        WHERE r.user_id = ? AND r.stream_id = messages.stream_id \
                          AND r.first_message_id <= messages.id \
                          AND (r.last_message_id IS NULL OR messages.id <= r.last_message_id)))) \
          OR recipient_id = ? OR (sender_id = ? AND recipient_id IS NOT NULL))",
    );
    let mut values = vec![SqlValue::Text(full)];
    values.extend((0..4).map(|_| SqlValue::Integer(query.viewer_id)));
    for filter in &query.filters {
        let (condition, more) = condition(&filter.narrow, query.viewer_id);
        let negation = if filter.negated { "NOT " } else { "" };
        sql.push_str(&format!(" AND {negation}({condition})"));
        values.extend(more);
    }
    (sql, values)
}

pub fn find_messages(conn: &Connection, query: &MessageQuery) -> Result<MessagePage> {
    let (filter, values) = where_clause(query);
    // One extra row on each side tells whether the narrow goes on past the page.
    let sides = [
        ("id < ? ORDER BY id DESC", i64::from(query.num_before)),
        ("id = ?", 1),
        ("id > ? ORDER BY id ASC", i64::from(query.num_after)),
    ];
    let mut fetched = Vec::with_capacity(3);
    for (condition, wanted) in sides {
        let mut bound = values.clone();
        bound.push(SqlValue::Integer(query.anchor));
        bound.push(SqlValue::Integer(wanted + 1));
        let sql = format!("SELECT {COLUMNS} FROM messages WHERE {filter} AND {condition} LIMIT ?");
        let rows: Vec<MessageRow> = conn
            .prepare_cached(&sql)?
            .query_map(params_from_iter(bound), from_row)?
            .collect::<rusqlite::Result<_>>()?;
        fetched.push((rows, wanted));
    }
    let mut sides = fetched.into_iter();
    let (mut older, before_wanted) = sides.next().unwrap_or_default();
    let (at_anchor, _) = sides.next().unwrap_or_default();
    let (mut newer, after_wanted) = sides.next().unwrap_or_default();
    let found_oldest = older.len() as i64 <= before_wanted;
    let found_newest = newer.len() as i64 <= after_wanted;
    older.truncate(before_wanted as usize);
    newer.truncate(after_wanted as usize);
    older.reverse();
    let found_anchor = !at_anchor.is_empty();
    older.extend(at_anchor);
    older.extend(newer);
    Ok(MessagePage {
        messages: older,
        found_anchor,
        found_oldest,
        found_newest,
    })
}

/// The messages among `ids` that `query`'s viewer may see and its narrow matches, by id
/// (`GET /messages` with `message_ids`); `query`'s anchor and counts are not used.
pub fn messages_by_ids(
    conn: &Connection,
    query: &MessageQuery,
    ids: &[i64],
) -> Result<Vec<MessageRow>> {
    let (filter, mut values) = where_clause(query);
    let wanted = serde_json::to_string(ids).unwrap_or_else(|_| "[]".into());
    values.push(SqlValue::Text(wanted));
    let sql = format!(
        "SELECT {COLUMNS} FROM messages WHERE {filter} \
         AND id IN (SELECT value FROM json_each(?)) ORDER BY id"
    );
    let rows = conn
        .prepare_cached(&sql)?
        .query_map(params_from_iter(values), from_row)?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}
