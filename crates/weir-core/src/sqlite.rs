//! What every local SQLite file of Weir shares: opening with WAL, and migrations counted
//! in `PRAGMA user_version`.

use std::path::Path;

use rusqlite::Connection;

use crate::error::CoreError;

/// Opens (creating the file and its directory if needed) a database in WAL mode.
pub(crate) fn open_wal(path: &Path) -> Result<Connection, CoreError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| CoreError::Io {
            context: format!("cannot create {}", parent.display()),
            source,
        })?;
    }
    let conn = Connection::open(path)?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
    Ok(conn)
}

/// Applies the migrations not applied yet, each in its own transaction. A database
/// written by a newer version (more migrations than known) is refused.
pub(crate) fn migrate(conn: &mut Connection, migrations: &[&str]) -> Result<(), CoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    let known = i64::try_from(migrations.len()).unwrap_or(i64::MAX);
    if version > known {
        return Err(CoreError::DatabaseTooNew {
            found: version,
            known,
        });
    }
    for (index, sql) in migrations
        .iter()
        .enumerate()
        .skip(usize::try_from(version).unwrap_or(0))
    {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index + 1)?;
        tx.commit()?;
    }
    Ok(())
}
