//! [`Journal`]: every apply, written to a local SQLite file in the app's data directory
//! (account, server, when, the changes, the server's answers), so that the history view
//! can list applies and undo one by staging its reverse, after a restart too. Each apply
//! has a [`ChangeKind`]: memberships, group members or channel settings share the file.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rusqlite::{Connection, OptionalExtension, params};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::apply::{ApplyReport, CellResult, reverse_of};
use super::plan::Change;
use crate::error::CoreError;

/// Schema migrations; `PRAGMA user_version` is the number applied.
const MIGRATIONS: &[&str] = &[
    // 1: one row per apply; changes and answers as JSON (read back whole, never queried).
    "CREATE TABLE applies (
        id             INTEGER PRIMARY KEY,
        account_id     INTEGER NOT NULL,
        site           TEXT    NOT NULL,
        email          TEXT    NOT NULL,
        applied_at     INTEGER NOT NULL,
        requests_total INTEGER NOT NULL,
        requests_sent  INTEGER NOT NULL,
        cancelled      INTEGER NOT NULL CHECK (cancelled IN (0, 1)),
        changed        INTEGER NOT NULL,
        failed         INTEGER NOT NULL,
        changes        TEXT    NOT NULL,
        cells          TEXT    NOT NULL
    );
    CREATE INDEX applies_by_account ON applies (account_id, id);",
    // 2: the kind of change an apply made; earlier rows are the grid's.
    "ALTER TABLE applies ADD COLUMN kind TEXT NOT NULL DEFAULT 'memberships';
    CREATE INDEX applies_by_kind ON applies (account_id, kind, id);",
];

/// What an apply changed; each page lists and undoes its own kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Subscriptions (the memberships grid).
    Memberships,
    /// Direct members of user groups (the groups page).
    GroupMembers,
    /// Channel settings that name groups (the Channels page).
    ChannelSettings,
}

impl ChangeKind {
    /// The name stored in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Memberships => "memberships",
            Self::GroupMembers => "group_members",
            Self::ChannelSettings => "channel_settings",
        }
    }
}

/// One apply of any kind as the journal stores it: its counts, and its changes and
/// answers per cell as JSON (what the kind reads back).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalRecord {
    pub kind: ChangeKind,
    pub applied_at: i64,
    pub requests_total: usize,
    pub requests_sent: usize,
    pub cancelled: bool,
    pub changed: usize,
    pub failed: usize,
    pub changes: String,
    pub cells: String,
}

/// Who applied, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalAccount<'a> {
    pub account_id: i64,
    pub site: &'a str,
    pub email: &'a str,
}

/// One apply, as the history view lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalSummary {
    pub id: i64,
    pub account_id: i64,
    pub site: String,
    pub email: String,
    /// Unix seconds.
    pub applied_at: i64,
    pub requests_total: usize,
    pub requests_sent: usize,
    pub cancelled: bool,
    /// Cells this apply changed on the server.
    pub changed: usize,
    pub failed: usize,
}

/// One apply in full: its changes and the server's answer per cell, as the kind's types.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntryOf<C, R> {
    #[serde(flatten)]
    pub summary: JournalSummary,
    /// The changes the user asked for.
    pub changes: Vec<C>,
    /// The server's answer per cell.
    pub cells: Vec<R>,
}

/// One apply of the grid in full.
pub type JournalEntry = JournalEntryOf<Change, CellResult>;

impl JournalEntry {
    /// The changes that undo this apply, to be staged for review.
    pub fn reverse(&self) -> Vec<Change> {
        reverse_of(&self.cells)
    }
}

/// The journal database.
#[derive(Debug)]
pub struct Journal {
    conn: Mutex<Connection>,
}

impl Journal {
    /// Opens (creating if needed) the journal at `path`.
    pub fn open(path: &Path) -> Result<Self, CoreError> {
        Self::init(crate::sqlite::open_wal(path)?)
    }

    /// A private in-memory journal, for tests.
    pub fn open_in_memory() -> Result<Self, CoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Self, CoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        crate::sqlite::migrate(&mut conn, MIGRATIONS)?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records one apply of the grid; returns its id.
    pub fn record(
        &self,
        account: &JournalAccount<'_>,
        changes: &[Change],
        report: &ApplyReport,
        applied_at: i64,
    ) -> Result<i64, CoreError> {
        self.record_raw(
            account,
            &JournalRecord {
                kind: ChangeKind::Memberships,
                applied_at,
                requests_total: report.requests_total,
                requests_sent: report.requests_sent,
                cancelled: report.cancelled,
                changed: report.cells.iter().filter(|c| c.status.changed()).count(),
                failed: report.failed_count(),
                changes: to_json(changes)?,
                cells: to_json(&report.cells)?,
            },
        )
    }

    /// Records one apply of any kind; returns its id.
    pub fn record_raw(
        &self,
        account: &JournalAccount<'_>,
        record: &JournalRecord,
    ) -> Result<i64, CoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO applies (account_id, site, email, applied_at, requests_total,
                                  requests_sent, cancelled, changed, failed, changes, cells,
                                  kind)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                account.account_id,
                account.site,
                account.email,
                record.applied_at,
                to_i64(record.requests_total),
                to_i64(record.requests_sent),
                record.cancelled,
                to_i64(record.changed),
                to_i64(record.failed),
                record.changes,
                record.cells,
                record.kind.as_str(),
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// The account's applies of the grid, newest first, at most `limit`.
    pub fn list(&self, account_id: i64, limit: usize) -> Result<Vec<JournalSummary>, CoreError> {
        self.list_kind(ChangeKind::Memberships, account_id, limit)
    }

    /// The account's applies of one kind, newest first, at most `limit`.
    pub fn list_kind(
        &self,
        kind: ChangeKind,
        account_id: i64,
        limit: usize,
    ) -> Result<Vec<JournalSummary>, CoreError> {
        let conn = self.conn();
        let mut statement = conn.prepare(
            "SELECT id, account_id, site, email, applied_at, requests_total, requests_sent,
                    cancelled, changed, failed
             FROM applies WHERE account_id = ?1 AND kind = ?2 ORDER BY id DESC LIMIT ?3",
        )?;
        let rows = statement.query_map(
            params![account_id, kind.as_str(), to_i64(limit)],
            summary_from_row,
        )?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// One apply of the grid in full, if it exists and belongs to the account.
    pub fn get(&self, account_id: i64, id: i64) -> Result<Option<JournalEntry>, CoreError> {
        self.get_kind(ChangeKind::Memberships, account_id, id)
    }

    /// One apply of a kind in full, its changes and cells read as that kind's types.
    pub fn get_kind<C: DeserializeOwned, R: DeserializeOwned>(
        &self,
        kind: ChangeKind,
        account_id: i64,
        id: i64,
    ) -> Result<Option<JournalEntryOf<C, R>>, CoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, account_id, site, email, applied_at, requests_total,
                        requests_sent, cancelled, changed, failed, changes, cells
                 FROM applies WHERE account_id = ?1 AND id = ?2 AND kind = ?3",
                params![account_id, id, kind.as_str()],
                |row| {
                    Ok((
                        summary_from_row(row)?,
                        row.get::<_, String>(10)?,
                        row.get::<_, String>(11)?,
                    ))
                },
            )
            .optional()?;
        let Some((summary, changes, cells)) = row else {
            return Ok(None);
        };
        Ok(Some(JournalEntryOf {
            summary,
            changes: from_json(&changes)?,
            cells: from_json(&cells)?,
        }))
    }

    /// The account's latest apply of the grid.
    pub fn last(&self, account_id: i64) -> Result<Option<JournalEntry>, CoreError> {
        self.last_kind(ChangeKind::Memberships, account_id)
    }

    /// The account's latest apply of a kind.
    pub fn last_kind<C: DeserializeOwned, R: DeserializeOwned>(
        &self,
        kind: ChangeKind,
        account_id: i64,
    ) -> Result<Option<JournalEntryOf<C, R>>, CoreError> {
        let id: Option<i64> = self
            .conn()
            .query_row(
                "SELECT max(id) FROM applies WHERE account_id = ?1 AND kind = ?2",
                params![account_id, kind.as_str()],
                |row| row.get(0),
            )
            .optional()?
            .flatten();
        match id {
            Some(id) => self.get_kind(kind, account_id, id),
            None => Ok(None),
        }
    }
}

fn summary_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<JournalSummary> {
    let count = |index: usize| -> rusqlite::Result<usize> {
        Ok(usize::try_from(row.get::<_, i64>(index)?).unwrap_or(0))
    };
    Ok(JournalSummary {
        id: row.get(0)?,
        account_id: row.get(1)?,
        site: row.get(2)?,
        email: row.get(3)?,
        applied_at: row.get(4)?,
        requests_total: count(5)?,
        requests_sent: count(6)?,
        cancelled: row.get(7)?,
        changed: count(8)?,
        failed: count(9)?,
    })
}

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, CoreError> {
    serde_json::to_string(value)
        .map_err(|error| CoreError::Internal(format!("journal encoding: {error}")))
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, CoreError> {
    serde_json::from_str(text)
        .map_err(|error| CoreError::Internal(format!("journal entry unreadable: {error}")))
}
