//! Streams and subscriptions.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct StreamRow {
    pub stream_id: i64,
    pub name: String,
    pub description: String,
    pub invite_only: bool,
    pub date_created: i64,
    /// Who created it through the API; `None` for seeded streams, as Zulip reports
    /// streams whose creator it did not record.
    pub creator_id: Option<i64>,
    /// Whether a new subscriber reads the messages sent before they joined (always for
    /// public streams; Zulip's default for private ones is no).
    pub history_public_to_subscribers: bool,
    /// Days messages are kept: `None` the realm's setting, -1 forever (Zulip's values).
    pub message_retention_days: Option<i64>,
    /// Zulip 11's `topics_policy` as its API spells it; `None` is `inherit` (the realm's).
    pub topics_policy: Option<String>,
    /// The channel folder it is in (Zulip 11).
    pub folder_id: Option<i64>,
    pub groups: StreamGroupSettings,
}

/// A stream's settings that name user groups, as stored group-setting values (JSON);
/// `None` is Weir's default (see `api/channel_groups.rs`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamGroupSettings {
    pub can_add_subscribers_group: Option<String>,
    pub can_remove_subscribers_group: Option<String>,
    pub can_subscribe_group: Option<String>,
    pub can_administer_channel_group: Option<String>,
    pub can_send_message_group: Option<String>,
    /// Zulip 11's settings (feature levels 396, 402 and 407): stored and shown, but
    /// Weir has no message moving, resolving or deleting for them to decide.
    pub can_move_messages_out_of_channel_group: Option<String>,
    pub can_move_messages_within_channel_group: Option<String>,
    pub can_resolve_topics_group: Option<String>,
    pub can_delete_any_message_group: Option<String>,
    pub can_delete_own_message_group: Option<String>,
}

impl StreamGroupSettings {
    fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        Some(match name {
            "can_add_subscribers_group" => &mut self.can_add_subscribers_group,
            "can_remove_subscribers_group" => &mut self.can_remove_subscribers_group,
            "can_subscribe_group" => &mut self.can_subscribe_group,
            "can_administer_channel_group" => &mut self.can_administer_channel_group,
            "can_send_message_group" => &mut self.can_send_message_group,
            "can_move_messages_out_of_channel_group" => {
                &mut self.can_move_messages_out_of_channel_group
            }
            "can_move_messages_within_channel_group" => {
                &mut self.can_move_messages_within_channel_group
            }
            "can_resolve_topics_group" => &mut self.can_resolve_topics_group,
            "can_delete_any_message_group" => &mut self.can_delete_any_message_group,
            "can_delete_own_message_group" => &mut self.can_delete_own_message_group,
            _ => return None,
        })
    }

    /// The stored value of the setting called `name` (`None`: its default, or no such
    /// setting).
    pub fn get(&self, name: &str) -> Option<&String> {
        match name {
            "can_add_subscribers_group" => self.can_add_subscribers_group.as_ref(),
            "can_remove_subscribers_group" => self.can_remove_subscribers_group.as_ref(),
            "can_subscribe_group" => self.can_subscribe_group.as_ref(),
            "can_administer_channel_group" => self.can_administer_channel_group.as_ref(),
            "can_send_message_group" => self.can_send_message_group.as_ref(),
            "can_move_messages_out_of_channel_group" => {
                self.can_move_messages_out_of_channel_group.as_ref()
            }
            "can_move_messages_within_channel_group" => {
                self.can_move_messages_within_channel_group.as_ref()
            }
            "can_resolve_topics_group" => self.can_resolve_topics_group.as_ref(),
            "can_delete_any_message_group" => self.can_delete_any_message_group.as_ref(),
            "can_delete_own_message_group" => self.can_delete_own_message_group.as_ref(),
            _ => None,
        }
    }

    /// Stores `value` for the setting called `name`; an unknown name changes nothing.
    pub fn set(&mut self, name: &str, value: Option<String>) {
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
    }
}

const COLUMNS: &str = "stream_id, name, description, invite_only, date_created, creator_id, \
                       history_public_to_subscribers, can_add_subscribers_group, \
                       can_remove_subscribers_group, can_subscribe_group, \
                       can_administer_channel_group, can_send_message_group, \
                       message_retention_days, topics_policy, \
                       can_move_messages_out_of_channel_group, \
                       can_move_messages_within_channel_group, can_resolve_topics_group, \
                       can_delete_any_message_group, can_delete_own_message_group, folder_id";

fn from_row(row: &Row<'_>) -> rusqlite::Result<StreamRow> {
    Ok(StreamRow {
        stream_id: row.get(0)?,
        name: row.get(1)?,
        description: row.get(2)?,
        invite_only: row.get(3)?,
        date_created: row.get(4)?,
        creator_id: row.get(5)?,
        history_public_to_subscribers: row.get(6)?,
        message_retention_days: row.get(12)?,
        topics_policy: row.get(13)?,
        folder_id: row.get(19)?,
        groups: StreamGroupSettings {
            can_add_subscribers_group: row.get(7)?,
            can_remove_subscribers_group: row.get(8)?,
            can_subscribe_group: row.get(9)?,
            can_administer_channel_group: row.get(10)?,
            can_send_message_group: row.get(11)?,
            can_move_messages_out_of_channel_group: row.get(14)?,
            can_move_messages_within_channel_group: row.get(15)?,
            can_resolve_topics_group: row.get(16)?,
            can_delete_any_message_group: row.get(17)?,
            can_delete_own_message_group: row.get(18)?,
        },
    })
}

/// Sets a stream's group settings (the seed and `PATCH /streams/{id}`).
pub fn set_stream_groups(
    conn: &Connection,
    stream_id: i64,
    groups: &StreamGroupSettings,
) -> Result<()> {
    conn.execute(
        "UPDATE streams SET can_add_subscribers_group = ?2, can_remove_subscribers_group = ?3,
                            can_subscribe_group = ?4, can_administer_channel_group = ?5,
                            can_send_message_group = ?6,
                            can_move_messages_out_of_channel_group = ?7,
                            can_move_messages_within_channel_group = ?8,
                            can_resolve_topics_group = ?9, can_delete_any_message_group = ?10,
                            can_delete_own_message_group = ?11
         WHERE stream_id = ?1",
        params![
            stream_id,
            groups.can_add_subscribers_group,
            groups.can_remove_subscribers_group,
            groups.can_subscribe_group,
            groups.can_administer_channel_group,
            groups.can_send_message_group,
            groups.can_move_messages_out_of_channel_group,
            groups.can_move_messages_within_channel_group,
            groups.can_resolve_topics_group,
            groups.can_delete_any_message_group,
            groups.can_delete_own_message_group
        ],
    )?;
    Ok(())
}

/// A stream's own fields as `PATCH /streams/{id}` leaves them.
pub fn update_stream_fields(conn: &Connection, stream: &StreamRow) -> Result<()> {
    conn.execute(
        "UPDATE streams SET name = ?2, name_key = ?3, description = ?4, invite_only = ?5,
                            history_public_to_subscribers = ?6, message_retention_days = ?7,
                            topics_policy = ?8, folder_id = ?9
         WHERE stream_id = ?1",
        params![
            stream.stream_id,
            stream.name,
            name_key(&stream.name),
            stream.description,
            stream.invite_only,
            stream.history_public_to_subscribers,
            stream.message_retention_days,
            stream.topics_policy,
            stream.folder_id
        ],
    )?;
    Ok(())
}

/// The lookup key of a stream name: Zulip matches names case-insensitively.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// A stream to create; `stream_id: None` lets SQLite choose.
#[derive(Debug, Clone, Copy)]
pub struct NewStream<'a> {
    pub stream_id: Option<i64>,
    pub name: &'a str,
    pub description: &'a str,
    pub invite_only: bool,
    pub creator_id: Option<i64>,
    /// `None`: Zulip's default (public history for public streams only). Public
    /// streams always have public history.
    pub history_public_to_subscribers: Option<bool>,
}

pub fn insert_stream(conn: &Connection, stream: &NewStream<'_>, now: i64) -> Result<StreamRow> {
    let history_public =
        !stream.invite_only || stream.history_public_to_subscribers.unwrap_or(false);
    conn.execute(
        "INSERT INTO streams (stream_id, name, name_key, description, invite_only, date_created,
                              creator_id, history_public_to_subscribers)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            stream.stream_id,
            stream.name,
            name_key(stream.name),
            stream.description,
            stream.invite_only,
            now,
            stream.creator_id,
            history_public,
        ],
    )?;
    Ok(StreamRow {
        stream_id: conn.last_insert_rowid(),
        name: stream.name.to_owned(),
        description: stream.description.to_owned(),
        invite_only: stream.invite_only,
        date_created: now,
        creator_id: stream.creator_id,
        history_public_to_subscribers: history_public,
        message_retention_days: None,
        topics_policy: None,
        folder_id: None,
        groups: StreamGroupSettings::default(),
    })
}

/// What a stream's messages say about it: the first message's id and the newest
/// message's time (both `None` without messages). Two index lookups per stream.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StreamActivity {
    pub first_message_id: Option<i64>,
    pub last_message_at: Option<i64>,
}

/// Whether any of a stream's messages has a topic other than the empty one.
pub fn stream_has_named_topics(conn: &Connection, stream_id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM messages WHERE stream_id = ?1 AND topic <> '')",
        )?
        .query_row([stream_id], |row| row.get(0))?)
}

pub fn stream_activity(conn: &Connection, stream_id: i64) -> Result<StreamActivity> {
    let first_message_id = conn
        .prepare_cached("SELECT min(id) FROM messages WHERE stream_id = ?1")?
        .query_row([stream_id], |row| row.get(0))?;
    let last_message_at = conn
        .prepare_cached(
            "SELECT timestamp FROM messages WHERE stream_id = ?1 ORDER BY id DESC LIMIT 1",
        )?
        .query_row([stream_id], |row| row.get(0))
        .optional()?;
    Ok(StreamActivity {
        first_message_id,
        last_message_at,
    })
}

pub fn stream_by_name(conn: &Connection, name: &str) -> Result<Option<StreamRow>> {
    let sql = format!("SELECT {COLUMNS} FROM streams WHERE name_key = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([name_key(name)], from_row)
        .optional()?)
}

pub fn stream_by_id(conn: &Connection, stream_id: i64) -> Result<Option<StreamRow>> {
    let sql = format!("SELECT {COLUMNS} FROM streams WHERE stream_id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([stream_id], from_row)
        .optional()?)
}

/// Every stream, sorted by name as Zulip lists them (by code point: SQLite's BINARY
/// collation on UTF-8 gives the same order).
pub fn all_streams(conn: &Connection) -> Result<Vec<StreamRow>> {
    let sql = format!("SELECT {COLUMNS} FROM streams ORDER BY name, stream_id");
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn is_subscribed(conn: &Connection, user_id: i64, stream_id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM subscriptions WHERE user_id = ?1 AND stream_id = ?2 AND active = 1",
        )?
        .query_row([user_id, stream_id], |_| Ok(()))
        .optional()?
        .is_some())
}

pub fn subscriber_ids(conn: &Connection, stream_id: i64) -> Result<Vec<i64>> {
    let mut statement = conn.prepare_cached(
        "SELECT s.user_id FROM subscriptions s JOIN users u ON u.user_id = s.user_id
         WHERE s.stream_id = ?1 AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id",
    )?;
    let rows = statement.query_map([stream_id], |row| row.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What posting to a stream needs to know, in one query: webhooks look it up for
/// every message.
#[derive(Debug, Clone, PartialEq)]
pub struct PostTarget {
    pub stream_id: i64,
    pub name: String,
    pub invite_only: bool,
    pub has_subscribers: bool,
    /// Whether `can_send_message_group` is set (by default everyone posts), so that
    /// the common post needs no second lookup.
    pub restricts_posting: bool,
    /// The channel's `topics_policy` (`None`: `inherit`).
    pub topics_policy: Option<String>,
}

/// How a request names a stream.
#[derive(Debug, Clone, Copy)]
pub enum StreamRef<'a> {
    Id(i64),
    Name(&'a str),
}

pub fn post_target(conn: &Connection, stream: StreamRef<'_>) -> Result<Option<PostTarget>> {
    const SELECT: &str = "SELECT stream_id, name, invite_only,
               EXISTS (SELECT 1 FROM subscriptions s JOIN users u ON u.user_id = s.user_id
                       WHERE s.stream_id = streams.stream_id AND s.active = 1
                         AND u.is_active = 1),
               can_send_message_group IS NOT NULL, topics_policy
        FROM streams";
    let target = |row: &Row<'_>| {
        Ok(PostTarget {
            stream_id: row.get(0)?,
            name: row.get(1)?,
            invite_only: row.get(2)?,
            has_subscribers: row.get(3)?,
            restricts_posting: row.get(4)?,
            topics_policy: row.get(5)?,
        })
    };
    let found = match stream {
        StreamRef::Id(id) => conn
            .prepare_cached(&format!("{SELECT} WHERE stream_id = ?1"))?
            .query_row([id], target),
        StreamRef::Name(name) => conn
            .prepare_cached(&format!("{SELECT} WHERE name_key = ?1"))?
            .query_row([name_key(name)], target),
    };
    Ok(found.optional()?)
}

/// Subscribers (active subscriptions of active users) of every stream, each list sorted
/// by user id (for listings and `register`).
///
/// One scan of the covering index, without SQL's join and sort: at 5,000,000
/// subscriptions those made the query several times slower. The few deactivated users
/// are filtered here instead, and each list is sorted in place (already in order when
/// SQLite walks the index, so the sort only checks it).
pub fn all_subscribers(conn: &Connection) -> Result<HashMap<i64, Vec<i64>>> {
    let inactive: HashSet<i64> = conn
        .prepare_cached("SELECT user_id FROM users WHERE is_active = 0")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut statement = conn.prepare_cached(
        "SELECT stream_id, user_id FROM subscriptions INDEXED BY subscriptions_by_stream
         WHERE active = 1",
    )?;
    let mut by_stream: HashMap<i64, Vec<i64>> = HashMap::new();
    // Rows come stream by stream: gather a run, then hash its stream once.
    let mut run: (i64, Vec<i64>) = (0, Vec::new());
    let rows = statement.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)))?;
    for row in rows {
        let (stream_id, user_id) = row?;
        if stream_id != run.0 {
            let (done, members) = std::mem::replace(&mut run, (stream_id, Vec::new()));
            if !members.is_empty() {
                by_stream.entry(done).or_default().extend(members);
            }
        }
        if !inactive.contains(&user_id) {
            run.1.push(user_id);
        }
    }
    if !run.1.is_empty() {
        by_stream.entry(run.0).or_default().extend(run.1);
    }
    for members in by_stream.values_mut() {
        members.sort_unstable();
    }
    Ok(by_stream)
}

/// Streams a user has a subscription row for, with whether it is active.
pub fn subscription_states(conn: &Connection, user_id: i64) -> Result<HashMap<i64, bool>> {
    let mut statement =
        conn.prepare_cached("SELECT stream_id, active FROM subscriptions WHERE user_id = ?1")?;
    let rows = statement.query_map([user_id], |row| Ok((row.get(0)?, row.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// What a subscribe or unsubscribe did to one (user, stream) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionChange {
    Changed,
    AlreadyThere,
}

pub fn subscribe(conn: &Connection, user_id: i64, stream_id: i64) -> Result<SubscriptionChange> {
    let changed = conn
        .prepare_cached(
            "INSERT INTO subscriptions (user_id, stream_id, active) VALUES (?1, ?2, 1)
         ON CONFLICT (user_id, stream_id) DO UPDATE SET active = 1 WHERE active = 0",
        )?
        .execute([user_id, stream_id])?;
    Ok(if changed > 0 {
        SubscriptionChange::Changed
    } else {
        SubscriptionChange::AlreadyThere
    })
}

/// Removes `user_ids` (distinct) from one stream in one statement; answers how many of
/// them were subscribed. One statement per stream rather than per pair: removing 1,000
/// people from 100 streams is then 100 statements, not 100,000.
pub fn unsubscribe_many(conn: &Connection, stream_id: i64, user_ids: &[i64]) -> Result<usize> {
    let ids =
        serde_json::to_string(user_ids).map_err(|error| Error::Internal(error.to_string()))?;
    let changed = conn
        .prepare_cached(
            "UPDATE subscriptions SET active = 0
             WHERE stream_id = ?1 AND active = 1
               AND user_id IN (SELECT value FROM json_each(?2))",
        )?
        .execute(params![stream_id, ids])?;
    Ok(changed)
}
