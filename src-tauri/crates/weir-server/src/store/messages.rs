//! Messages: stream messages and direct messages between two users.

use rusqlite::{Connection, Row, ToSql, params};

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

/// Which messages to fetch around an anchor, already limited to what the viewer may see.
#[derive(Debug, Clone, Default)]
pub struct MessageQuery {
    pub viewer_id: i64,
    /// Streams whose messages the viewer may read.
    pub readable_streams: Vec<i64>,
    pub stream_id: Option<i64>,
    pub topic: Option<String>,
    /// Direct messages between the viewer and this user.
    pub dm_with: Option<i64>,
    pub direct_only: bool,
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

pub fn find_messages(conn: &Connection, query: &MessageQuery) -> Result<MessagePage> {
    let readable = serde_json::to_string(&query.readable_streams).unwrap_or_else(|_| "[]".into());
    let mut filters = vec![
        "(stream_id IN (SELECT value FROM json_each(:readable)) \
          OR recipient_id = :viewer OR (sender_id = :viewer AND recipient_id IS NOT NULL))",
    ];
    if query.stream_id.is_some() {
        filters.push("stream_id = :stream");
    }
    if query.topic.is_some() {
        filters.push("lower(topic) = lower(:topic)");
    }
    if query.dm_with.is_some() {
        filters.push(
            "((recipient_id = :other AND sender_id = :viewer) \
              OR (recipient_id = :viewer AND sender_id = :other))",
        );
    }
    if query.direct_only {
        filters.push("recipient_id IS NOT NULL");
    }
    let filter = filters.join(" AND ");
    let columns = "id, sender_id, stream_id, recipient_id, topic, content, rendered_content, \
                   client, timestamp";
    let topic = query.topic.clone().unwrap_or_default();
    let stream = query.stream_id.unwrap_or_default();
    let other = query.dm_with.unwrap_or_default();
    // One extra row on each side tells whether the narrow goes on past the page.
    let sides = [
        ("id < :anchor ORDER BY id DESC", i64::from(query.num_before)),
        ("id = :anchor", 1),
        ("id > :anchor ORDER BY id ASC", i64::from(query.num_after)),
    ];
    let mut fetched = Vec::with_capacity(3);
    for (condition, wanted) in sides {
        let limit = wanted + 1;
        let mut named: Vec<(&str, &dyn ToSql)> = vec![
            (":readable", &readable),
            (":viewer", &query.viewer_id),
            (":anchor", &query.anchor),
            (":limit", &limit),
        ];
        for (name, value) in [
            (":stream", &stream as &dyn ToSql),
            (":topic", &topic),
            (":other", &other),
        ] {
            if filter.contains(name) {
                named.push((name, value));
            }
        }
        let sql =
            format!("SELECT {columns} FROM messages WHERE {filter} AND {condition} LIMIT :limit");
        let rows: Vec<MessageRow> = conn
            .prepare_cached(&sql)?
            .query_map(named.as_slice(), from_row)?
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
