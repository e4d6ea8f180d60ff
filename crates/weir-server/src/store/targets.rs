//! Post targets remembered by the writer: every webhook message looks its stream up
//! (with whether anyone is subscribed), and that query was a tenth of the writer's work.
//!
//! Only write jobs use this cache, on the writer's connection, so it always agrees with
//! what that connection sees. Any change to `streams`, `users` or `subscriptions` marks
//! it stale at once (an update hook; `subscriptions` has no rowid, which update hooks
//! skip, so temporary triggers on the writer's connection report its changes through a
//! temporary table). While stale it is bypassed; after the group's commit it is emptied.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::Connection;

use super::streams::{PostTarget, StreamRef, name_key, post_target};
use crate::error::Result;

/// Tables whose changes can change a post target.
const WATCHED_TABLES: [&str; 3] = ["streams", "users", CHANGES_TABLE];

/// The temporary table that the triggers on `subscriptions` touch.
const CHANGES_TABLE: &str = "weir_subscription_changes";

/// Entries kept at most; beyond that the cache starts over (streams are few).
const MAX_ENTRIES: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Id(i64),
    Name(String),
}

#[derive(Default)]
pub struct PostTargets {
    entries: Mutex<HashMap<Key, Option<PostTarget>>>,
    /// Set by the writer's update hook; cleared after each commit.
    stale: Arc<AtomicBool>,
}

impl PostTargets {
    /// Creates the temporary triggers on the writer's connection.
    pub fn watch_subscriptions(conn: &Connection) -> Result<()> {
        conn.execute_batch(&format!(
            "CREATE TEMP TABLE {CHANGES_TABLE} (id INTEGER PRIMARY KEY, count INTEGER NOT NULL);
             INSERT INTO {CHANGES_TABLE} VALUES (1, 0);
             CREATE TEMP TRIGGER weir_subscription_inserted AFTER INSERT ON main.subscriptions
                 BEGIN UPDATE {CHANGES_TABLE} SET count = count + 1; END;
             CREATE TEMP TRIGGER weir_subscription_updated AFTER UPDATE ON main.subscriptions
                 BEGIN UPDATE {CHANGES_TABLE} SET count = count + 1; END;
             CREATE TEMP TRIGGER weir_subscription_deleted AFTER DELETE ON main.subscriptions
                 BEGIN UPDATE {CHANGES_TABLE} SET count = count + 1; END;"
        ))?;
        Ok(())
    }

    /// For the update hook: whether a change to `table` makes the cache stale.
    pub fn is_watched(table: &str) -> bool {
        WATCHED_TABLES.contains(&table)
    }

    pub fn stale_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stale)
    }

    /// The stream as [`post_target`] finds it, from memory when nothing has changed.
    /// Only for write jobs: `conn` must be the writer's connection.
    pub fn get(&self, conn: &Connection, stream: StreamRef<'_>) -> Result<Option<PostTarget>> {
        if self.stale.load(Ordering::Acquire) {
            return post_target(conn, stream);
        }
        let key = match stream {
            StreamRef::Id(id) => Key::Id(id),
            StreamRef::Name(name) => Key::Name(name_key(name)),
        };
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = entries.get(&key) {
            return Ok(found.clone());
        }
        let found = post_target(conn, stream)?;
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, found.clone());
        Ok(found)
    }

    /// Called by the writer after a commit.
    pub fn clear_if_stale(&self) {
        if self.stale.swap(false, Ordering::AcqRel) {
            self.entries
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clear();
        }
    }
}
