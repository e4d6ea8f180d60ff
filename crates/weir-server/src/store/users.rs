//! Users, bots and the organization row.

use rusqlite::{Connection, OptionalExtension, Row, params};
use zulip_api::{BotType, Role};

use crate::error::Result;

/// A user as stored; the API layer decides which fields a caller may see.
#[derive(Debug, Clone, PartialEq)]
pub struct UserRow {
    pub user_id: i64,
    pub email: String,
    pub full_name: String,
    pub role: Role,
    pub bot_type: Option<BotType>,
    pub bot_owner_id: Option<i64>,
    pub api_key: String,
    pub is_active: bool,
    pub is_system_bot: bool,
    pub date_joined: String,
    pub timezone: String,
}

impl UserRow {
    pub fn is_org_admin(&self) -> bool {
        self.role.is_org_admin()
    }

    pub fn is_guest(&self) -> bool {
        self.role == Role::Guest
    }
}

/// A user to insert; `user_id: None` lets SQLite choose.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub user_id: Option<i64>,
    pub email: String,
    pub full_name: String,
    pub role: Role,
    pub bot_type: Option<BotType>,
    pub bot_owner_id: Option<i64>,
    pub api_key: String,
    pub is_active: bool,
    pub is_system_bot: bool,
    pub date_joined: String,
}

const COLUMNS: &str = "user_id, email, full_name, role, bot_type, bot_owner_id, api_key, \
                       is_active, is_system_bot, date_joined, timezone";

fn from_row(row: &Row<'_>) -> rusqlite::Result<UserRow> {
    let role_code: u16 = row.get(3)?;
    let bot_code: Option<u8> = row.get(4)?;
    Ok(UserRow {
        user_id: row.get(0)?,
        email: row.get(1)?,
        full_name: row.get(2)?,
        role: Role::from_code(role_code).unwrap_or(Role::Member),
        bot_type: bot_code.and_then(BotType::from_code),
        bot_owner_id: row.get(5)?,
        api_key: row.get(6)?,
        is_active: row.get(7)?,
        is_system_bot: row.get(8)?,
        date_joined: row.get(9)?,
        timezone: row.get(10)?,
    })
}

pub fn insert_user(conn: &Connection, user: &NewUser) -> Result<i64> {
    conn.execute(
        "INSERT INTO users (user_id, email, email_key, full_name, role, bot_type, bot_owner_id,
                            api_key, is_active, is_system_bot, date_joined)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        params![
            user.user_id,
            user.email,
            user.email.to_lowercase(),
            user.full_name,
            user.role as u16,
            user.bot_type.map(|kind| kind as u8),
            user.bot_owner_id,
            user.api_key,
            user.is_active,
            user.is_system_bot,
            user.date_joined,
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

pub fn user_by_id(conn: &Connection, user_id: i64) -> Result<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE user_id = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([user_id], from_row)
        .optional()?)
}

/// Case-insensitive, as Zulip matches e-mail addresses.
pub fn user_by_email(conn: &Connection, email: &str) -> Result<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE email_key = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([email.to_lowercase()], from_row)
        .optional()?)
}

pub fn user_by_api_key(conn: &Connection, api_key: &str) -> Result<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE api_key = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([api_key], from_row)
        .optional()?)
}

/// Every user of the organization, system bots excluded, by id.
pub fn realm_users(conn: &Connection) -> Result<Vec<UserRow>> {
    query_users(conn, "is_system_bot = 0")
}

/// The ids of deactivated users (usually few), which group-setting values leave out.
pub fn deactivated_user_ids(conn: &Connection) -> Result<std::collections::BTreeSet<i64>> {
    let mut statement = conn.prepare_cached("SELECT user_id FROM users WHERE is_active = 0")?;
    let ids = statement.query_map([], |row| row.get::<_, i64>(0))?;
    Ok(ids.collect::<rusqlite::Result<_>>()?)
}

pub fn system_bots(conn: &Connection) -> Result<Vec<UserRow>> {
    query_users(conn, "is_system_bot = 1")
}

/// Active users (system bots excluded) with this full name, ignoring ASCII case.
pub fn users_named(conn: &Connection, full_name: &str) -> Result<Vec<UserRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM users WHERE full_name = ?1 COLLATE NOCASE
         AND is_active = 1 AND is_system_bot = 0 ORDER BY user_id"
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([full_name], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn bots_owned_by(conn: &Connection, owner_id: i64) -> Result<Vec<UserRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM users WHERE bot_owner_id = ?1 AND is_active = 1 ORDER BY user_id"
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([owner_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn query_users(conn: &Connection, filter: &str) -> Result<Vec<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE {filter} ORDER BY user_id");
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Whether an active user of the organization (person or bot) has this name, ignoring
/// case: Zulip's `check_bot_name_available` refuses a bot any active user's name, which
/// would also make `@**Name**` mentions of that person ambiguous.
pub fn active_user_with_name_exists(conn: &Connection, full_name: &str) -> Result<bool> {
    let mut statement = conn
        .prepare_cached("SELECT full_name FROM users WHERE is_active = 1 AND is_system_bot = 0")?;
    let wanted = full_name.trim().to_lowercase();
    let names = statement.query_map([], |row| row.get::<_, String>(0))?;
    for name in names {
        if name?.to_lowercase() == wanted {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Zulip's `BOT_OWNER_STREAM_ALERT_WAITPERIOD`, in seconds.
pub const BOT_OWNER_ALERT_WAIT_SECONDS: i64 = 5 * 60;

/// Whether a bot's owner may be told of a failed delivery now, and if so records it:
/// Zulip's `send_rate_limited_pm_notification_to_bot_owner` tells them at most once per
/// bot every five minutes, so that a misconfigured integration cannot flood them. In the
/// caller's transaction, so that a rolled-back notice is not counted.
pub fn claim_bot_owner_alert(conn: &Connection, bot_id: i64, now: i64) -> Result<bool> {
    let claimed = conn
        .prepare_cached(
            "UPDATE users SET last_reminder = ?2
             WHERE user_id = ?1 AND (last_reminder IS NULL OR ?2 - last_reminder > ?3)",
        )?
        .execute(params![bot_id, now, BOT_OWNER_ALERT_WAIT_SECONDS])?;
    Ok(claimed > 0)
}

pub fn set_api_key(conn: &Connection, user_id: i64, api_key: &str) -> Result<()> {
    conn.execute(
        "UPDATE users SET api_key = ?2 WHERE user_id = ?1",
        params![user_id, api_key],
    )?;
    Ok(())
}

/// Deactivates or reactivates a user (the user cache notices through the update hook).
pub fn set_user_active(conn: &Connection, user_id: i64, active: bool) -> Result<()> {
    conn.execute(
        "UPDATE users SET is_active = ?2 WHERE user_id = ?1",
        params![user_id, active],
    )?;
    Ok(())
}

/// The organization's name, URL and the domain new bots' e-mails use.
#[derive(Debug, Clone, PartialEq)]
pub struct RealmRow {
    pub name: String,
    pub url: String,
    pub bot_domain: String,
}

pub fn insert_realm(conn: &Connection, realm: &RealmRow, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO realm (id, name, url, bot_domain, date_created) VALUES (1, ?1, ?2, ?3, ?4)",
        params![realm.name, realm.url, realm.bot_domain, now],
    )?;
    Ok(())
}

/// When the organization was created (Unix seconds; 0 before it exists).
pub fn realm_date_created(conn: &Connection) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT date_created FROM realm WHERE id = 1")?
        .query_row([], |row| row.get(0))
        .optional()?
        .unwrap_or(0))
}

pub fn realm(conn: &Connection) -> Result<Option<RealmRow>> {
    Ok(conn
        .prepare_cached("SELECT name, url, bot_domain FROM realm WHERE id = 1")?
        .query_row([], |row| {
            Ok(RealmRow {
                name: row.get(0)?,
                url: row.get(1)?,
                bot_domain: row.get(2)?,
            })
        })
        .optional()?)
}
