//! [`Journal`]: every apply, written to a local SQLite file in the app's data directory
//! (account, server, when, the changes, the server's answers), so that the history view
//! can list applies and undo one by staging its reverse.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

use rusqlite::{Connection, OptionalExtension, params};
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
];

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

/// One apply in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntry {
    #[serde(flatten)]
    pub summary: JournalSummary,
    /// The changes the user asked for.
    pub changes: Vec<Change>,
    /// The server's answer per cell.
    pub cells: Vec<CellResult>,
}

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

    /// Records one apply; returns its id.
    pub fn record(
        &self,
        account: &JournalAccount<'_>,
        changes: &[Change],
        report: &ApplyReport,
        applied_at: i64,
    ) -> Result<i64, CoreError> {
        let changes_json = to_json(changes)?;
        let cells_json = to_json(&report.cells)?;
        let changed = report.cells.iter().filter(|c| c.status.changed()).count();
        let conn = self.conn();
        conn.execute(
            "INSERT INTO applies (account_id, site, email, applied_at, requests_total,
                                  requests_sent, cancelled, changed, failed, changes, cells)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                account.account_id,
                account.site,
                account.email,
                applied_at,
                to_i64(report.requests_total),
                to_i64(report.requests_sent),
                report.cancelled,
                to_i64(changed),
                to_i64(report.failed_count()),
                changes_json,
                cells_json,
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// The account's applies, newest first, at most `limit`.
    pub fn list(&self, account_id: i64, limit: usize) -> Result<Vec<JournalSummary>, CoreError> {
        let conn = self.conn();
        let mut statement = conn.prepare(
            "SELECT id, account_id, site, email, applied_at, requests_total, requests_sent,
                    cancelled, changed, failed
             FROM applies WHERE account_id = ?1 ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = statement.query_map(params![account_id, to_i64(limit)], summary_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// One apply in full, if it exists and belongs to the account.
    pub fn get(&self, account_id: i64, id: i64) -> Result<Option<JournalEntry>, CoreError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, account_id, site, email, applied_at, requests_total,
                        requests_sent, cancelled, changed, failed, changes, cells
                 FROM applies WHERE account_id = ?1 AND id = ?2",
                params![account_id, id],
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
        Ok(Some(JournalEntry {
            summary,
            changes: from_json(&changes)?,
            cells: from_json(&cells)?,
        }))
    }

    /// The account's latest apply.
    pub fn last(&self, account_id: i64) -> Result<Option<JournalEntry>, CoreError> {
        let id: Option<i64> = self
            .conn()
            .query_row(
                "SELECT max(id) FROM applies WHERE account_id = ?1",
                [account_id],
                |row| row.get(0),
            )
            .optional()?
            .flatten();
        match id {
            Some(id) => self.get(account_id, id),
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

fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, CoreError> {
    serde_json::to_string(value)
        .map_err(|error| CoreError::Internal(format!("journal encoding: {error}")))
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, CoreError> {
    serde_json::from_str(text)
        .map_err(|error| CoreError::Internal(format!("journal entry unreadable: {error}")))
}
