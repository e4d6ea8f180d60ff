//! [`AccountStore`]: the accounts table in SQLite. No secrets are stored here: keys live
//! in the keyring (see [`crate::keyring`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};

use crate::client::TlsOptions;
use crate::error::CoreError;

mod webhook_urls;

pub use webhook_urls::{MAX_URLS_PER_BOT, RememberedUrl};

/// Schema migrations; `PRAGMA user_version` is the number applied.
const MIGRATIONS: &[&str] = &[
    // 1: accounts, and which one is active.
    "CREATE TABLE accounts (
        id              INTEGER PRIMARY KEY,
        site            TEXT    NOT NULL,
        email           TEXT    NOT NULL,
        label           TEXT    NOT NULL,
        is_demo         INTEGER NOT NULL DEFAULT 0 CHECK (is_demo IN (0, 1)),
        tls_insecure    INTEGER NOT NULL DEFAULT 0 CHECK (tls_insecure IN (0, 1)),
        cert_bundle     TEXT,
        client_cert     TEXT,
        client_cert_key TEXT,
        created_at      INTEGER NOT NULL,
        UNIQUE (site, email COLLATE NOCASE)
    );
    CREATE TABLE active_account (
        singleton  INTEGER PRIMARY KEY CHECK (singleton = 1),
        account_id INTEGER REFERENCES accounts (id) ON DELETE SET NULL
    );",
    // 2: webhook URLs Weir built, without their keys (see `webhook_urls`).
    "CREATE TABLE webhook_urls (
        id            INTEGER PRIMARY KEY,
        account_id    INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        bot_user_id   INTEGER NOT NULL,
        spec          TEXT    NOT NULL,
        created_at    INTEGER NOT NULL,
        last_built_at INTEGER NOT NULL,
        UNIQUE (account_id, bot_user_id, spec)
    );",
];

/// One saved account (never with its key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub id: i64,
    /// Normalized site, e.g. `https://chat.example.com`.
    pub site: String,
    pub email: String,
    pub label: String,
    /// An account on Weir's local demo server.
    pub is_demo: bool,
    /// TLS verification is off for this account (from `insecure = true`).
    pub insecure: bool,
    pub cert_bundle: Option<PathBuf>,
    pub client_cert: Option<PathBuf>,
    pub client_cert_key: Option<PathBuf>,
    /// Unix seconds.
    pub created_at: i64,
}

impl Account {
    /// The TLS options to build this account's client with.
    pub fn tls(&self) -> TlsOptions {
        TlsOptions {
            insecure: self.insecure,
            cert_bundle: self.cert_bundle.clone(),
            client_cert: self.client_cert.clone(),
            client_cert_key: self.client_cert_key.clone(),
        }
    }
}

/// What [`AccountStore::insert`] needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRecord {
    pub site: String,
    pub email: String,
    pub label: String,
    pub is_demo: bool,
    pub tls: TlsOptions,
}

/// The account database. All SQL of weir-core lives here.
#[derive(Debug)]
pub struct AccountStore {
    conn: Mutex<Connection>,
}

const COLUMNS: &str = "id, site, email, label, is_demo, tls_insecure, cert_bundle, client_cert, \
                       client_cert_key, created_at";

impl AccountStore {
    /// Opens (creating if needed) the database at `path`: WAL journal, foreign keys on,
    /// migrations applied.
    pub fn open(path: &Path) -> Result<Self, CoreError> {
        Self::init(crate::sqlite::open_wal(path)?)
    }

    /// A private in-memory database, for tests.
    pub fn open_in_memory() -> Result<Self, CoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Self, CoreError> {
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        crate::sqlite::migrate(&mut conn, MIGRATIONS)?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds an account. The same e-mail (case-insensitively) on the same site twice is
    /// [`CoreError::AccountExists`].
    pub fn insert(&self, record: &AccountRecord) -> Result<Account, CoreError> {
        let created_at = crate::clock::unix_seconds();
        let conn = self.conn();
        let result = conn.execute(
            "INSERT INTO accounts (site, email, label, is_demo, tls_insecure, cert_bundle,
                                   client_cert, client_cert_key, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                record.site,
                record.email,
                record.label,
                record.is_demo,
                record.tls.insecure,
                path_text(record.tls.cert_bundle.as_deref())?,
                path_text(record.tls.client_cert.as_deref())?,
                path_text(record.tls.client_cert_key.as_deref())?,
                created_at,
            ],
        );
        match result {
            Ok(_) => {}
            Err(rusqlite::Error::SqliteFailure(error, _))
                if error.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                return Err(CoreError::AccountExists {
                    site: record.site.clone(),
                    email: record.email.clone(),
                });
            }
            Err(error) => return Err(error.into()),
        }
        let id = conn.last_insert_rowid();
        Ok(Account {
            id,
            site: record.site.clone(),
            email: record.email.clone(),
            label: record.label.clone(),
            is_demo: record.is_demo,
            insecure: record.tls.insecure,
            cert_bundle: record.tls.cert_bundle.clone(),
            client_cert: record.tls.client_cert.clone(),
            client_cert_key: record.tls.client_cert_key.clone(),
            created_at,
        })
    }

    pub fn get(&self, id: i64) -> Result<Option<Account>, CoreError> {
        let sql = format!("SELECT {COLUMNS} FROM accounts WHERE id = ?1");
        Ok(self
            .conn()
            .query_row(&sql, [id], account_from_row)
            .optional()?)
    }

    /// The account for `email` (case-insensitively) on `site` (normalized).
    pub fn find(&self, site: &str, email: &str) -> Result<Option<Account>, CoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM accounts WHERE site = ?1 AND email = ?2 COLLATE NOCASE");
        Ok(self
            .conn()
            .query_row(&sql, [site, email], account_from_row)
            .optional()?)
    }

    /// Every account, oldest first.
    pub fn list(&self) -> Result<Vec<Account>, CoreError> {
        let conn = self.conn();
        let mut statement = conn.prepare(&format!("SELECT {COLUMNS} FROM accounts ORDER BY id"))?;
        let rows = statement.query_map([], account_from_row)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Deletes an account; `false` if there was none. The active choice is cleared by the
    /// foreign key if it pointed at it.
    pub fn delete(&self, id: i64) -> Result<bool, CoreError> {
        Ok(self
            .conn()
            .execute("DELETE FROM accounts WHERE id = ?1", [id])?
            > 0)
    }

    pub fn set_label(&self, id: i64, label: &str) -> Result<(), CoreError> {
        let changed = self.conn().execute(
            "UPDATE accounts SET label = ?2 WHERE id = ?1",
            params![id, label],
        )?;
        if changed == 0 {
            return Err(CoreError::AccountNotFound(id));
        }
        Ok(())
    }

    /// The id of the active account, if one is chosen.
    pub fn active_id(&self) -> Result<Option<i64>, CoreError> {
        let id: Option<Option<i64>> = self
            .conn()
            .query_row(
                "SELECT account_id FROM active_account WHERE singleton = 1",
                [],
                |row| row.get(0),
            )
            .optional()?;
        Ok(id.flatten())
    }

    /// Chooses the active account (`None` clears the choice).
    pub fn set_active(&self, id: Option<i64>) -> Result<(), CoreError> {
        let conn = self.conn();
        if let Some(id) = id {
            let exists: bool = conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ?1)",
                [id],
                |row| row.get(0),
            )?;
            if !exists {
                return Err(CoreError::AccountNotFound(id));
            }
        }
        conn.execute(
            "INSERT INTO active_account (singleton, account_id) VALUES (1, ?1)
             ON CONFLICT (singleton) DO UPDATE SET account_id = excluded.account_id",
            [id],
        )?;
        Ok(())
    }
}

fn account_from_row(row: &Row<'_>) -> rusqlite::Result<Account> {
    let path = |index: usize| -> rusqlite::Result<Option<PathBuf>> {
        Ok(row.get::<_, Option<String>>(index)?.map(PathBuf::from))
    };
    Ok(Account {
        id: row.get(0)?,
        site: row.get(1)?,
        email: row.get(2)?,
        label: row.get(3)?,
        is_demo: row.get(4)?,
        insecure: row.get(5)?,
        cert_bundle: path(6)?,
        client_cert: path(7)?,
        client_cert_key: path(8)?,
        created_at: row.get(9)?,
    })
}

fn path_text(path: Option<&Path>) -> Result<Option<&str>, CoreError> {
    path.map(|path| {
        path.to_str().ok_or_else(|| {
            CoreError::InvalidInput(format!("path {} is not valid UTF-8", path.display()))
        })
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(email: &str) -> AccountRecord {
        AccountRecord {
            site: "https://chat.example.com".into(),
            email: email.into(),
            label: "Example".into(),
            is_demo: false,
            tls: TlsOptions::default(),
        }
    }

    #[test]
    fn insert_list_get_find_delete() {
        let store = AccountStore::open_in_memory().unwrap();
        let a = store.insert(&record("iago@example.com")).unwrap();
        let b = store.insert(&record("hamlet@example.com")).unwrap();
        assert_eq!(store.list().unwrap(), vec![a.clone(), b.clone()]);
        assert_eq!(store.get(a.id).unwrap(), Some(a.clone()));
        assert_eq!(
            store.find(&a.site, "IAGO@example.com").unwrap(),
            Some(a.clone())
        );
        assert!(store.delete(a.id).unwrap());
        assert!(!store.delete(a.id).unwrap());
        assert_eq!(store.list().unwrap(), vec![b]);
    }

    #[test]
    fn the_same_email_on_the_same_site_is_refused() {
        let store = AccountStore::open_in_memory().unwrap();
        store.insert(&record("iago@example.com")).unwrap();
        let error = store.insert(&record("Iago@Example.com")).unwrap_err();
        assert!(
            matches!(error, CoreError::AccountExists { .. }),
            "{error:?}"
        );
    }

    #[test]
    fn tls_options_round_trip() {
        let store = AccountStore::open_in_memory().unwrap();
        let mut rec = record("iago@example.com");
        rec.tls = TlsOptions {
            insecure: true,
            cert_bundle: Some("/ca.pem".into()),
            client_cert: None,
            client_cert_key: Some("/k.pem".into()),
        };
        let account = store.insert(&rec).unwrap();
        assert_eq!(store.get(account.id).unwrap().unwrap().tls(), rec.tls);
    }

    #[test]
    fn the_active_account_is_kept_and_cleared_when_deleted() {
        let store = AccountStore::open_in_memory().unwrap();
        assert_eq!(store.active_id().unwrap(), None);
        let a = store.insert(&record("iago@example.com")).unwrap();
        store.set_active(Some(a.id)).unwrap();
        assert_eq!(store.active_id().unwrap(), Some(a.id));
        assert!(matches!(
            store.set_active(Some(999)),
            Err(CoreError::AccountNotFound(999))
        ));
        store.delete(a.id).unwrap();
        assert_eq!(store.active_id().unwrap(), None);
    }

    #[test]
    fn a_file_database_uses_wal_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("weir.db");
        let id = {
            let store = AccountStore::open(&path).unwrap();
            let id = store.insert(&record("iago@example.com")).unwrap().id;
            store.set_active(Some(id)).unwrap();
            let mode: String = store
                .conn()
                .query_row("PRAGMA journal_mode", [], |row| row.get(0))
                .unwrap();
            assert_eq!(mode, "wal");
            id
        };
        let store = AccountStore::open(&path).unwrap();
        assert_eq!(store.active_id().unwrap(), Some(id));
        let version: i64 = store
            .conn()
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap();
        assert_eq!(version as usize, MIGRATIONS.len());
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("weir.db");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", 99)
            .unwrap();
        assert!(matches!(
            AccountStore::open(&path),
            Err(CoreError::DatabaseTooNew { found: 99, .. })
        ));
    }

    #[test]
    fn no_column_can_hold_a_secret() {
        let store = AccountStore::open_in_memory().unwrap();
        let conn = store.conn();
        let mut statement = conn
            .prepare("SELECT name FROM pragma_table_info('accounts')")
            .unwrap();
        let names: Vec<String> = statement
            .query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(
            names
                .iter()
                .all(|name| !name.contains("key") || name == "client_cert_key"),
            "{names:?}"
        );
    }
}
