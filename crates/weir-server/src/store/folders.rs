//! Channel folders (Zulip 11): named, ordered groups of channels that organization
//! administrators keep. Never deleted, only archived.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;

#[derive(Debug, Clone, PartialEq)]
pub struct FolderRow {
    pub folder_id: i64,
    pub name: String,
    pub description: String,
    /// Position among the folders (Zulip's `order`): a new folder's is its id.
    pub order: i64,
    pub date_created: i64,
    pub creator_id: Option<i64>,
    pub is_archived: bool,
}

const COLUMNS: &str =
    "folder_id, name, description, folder_order, date_created, creator_id, is_archived";

fn from_row(row: &Row<'_>) -> rusqlite::Result<FolderRow> {
    Ok(FolderRow {
        folder_id: row.get(0)?,
        name: row.get(1)?,
        description: row.get(2)?,
        order: row.get(3)?,
        date_created: row.get(4)?,
        creator_id: row.get(5)?,
        is_archived: row.get(6)?,
    })
}

/// Every folder, archived ones included, by id.
pub fn all_folders(conn: &Connection) -> Result<Vec<FolderRow>> {
    let sql = format!("SELECT {COLUMNS} FROM channel_folders ORDER BY folder_id");
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn folder_by_id(conn: &Connection, folder_id: i64) -> Result<Option<FolderRow>> {
    let sql = format!("SELECT {COLUMNS} FROM channel_folders WHERE folder_id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([folder_id], from_row)
        .optional()?)
}

/// Whether a folder of this name exists, archived or not, whatever its case.
pub fn folder_name_taken(conn: &Connection, name: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM channel_folders WHERE name_key = ?1)")?
        .query_row([name.to_lowercase()], |row| row.get(0))?)
}

/// Creates a folder; its order is its id, as Zulip gives it.
pub fn insert_folder(
    conn: &Connection,
    name: &str,
    description: &str,
    creator_id: i64,
    now: i64,
) -> Result<i64> {
    conn.execute(
        "INSERT INTO channel_folders (name, name_key, description, folder_order, date_created,
                                      creator_id)
         VALUES (?1, ?2, ?3, 0, ?4, ?5)",
        params![name, name.to_lowercase(), description, now, creator_id],
    )?;
    let folder_id = conn.last_insert_rowid();
    conn.execute(
        "UPDATE channel_folders SET folder_order = folder_id WHERE folder_id = ?1",
        [folder_id],
    )?;
    Ok(folder_id)
}

/// A folder's name, description and archived state as `PATCH` leaves them.
pub fn update_folder(conn: &Connection, folder: &FolderRow) -> Result<()> {
    conn.execute(
        "UPDATE channel_folders SET name = ?2, name_key = ?3, description = ?4, is_archived = ?5
         WHERE folder_id = ?1",
        params![
            folder.folder_id,
            folder.name,
            folder.name.to_lowercase(),
            folder.description,
            folder.is_archived
        ],
    )?;
    Ok(())
}

pub fn set_folder_order(conn: &Connection, folder_id: i64, order: i64) -> Result<()> {
    conn.execute(
        "UPDATE channel_folders SET folder_order = ?2 WHERE folder_id = ?1",
        [folder_id, order],
    )?;
    Ok(())
}

/// Whether any channel is in the folder.
pub fn folder_in_use(conn: &Connection, folder_id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM streams WHERE folder_id = ?1)")?
        .query_row([folder_id], |row| row.get(0))?)
}
