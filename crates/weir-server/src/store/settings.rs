//! Per-user settings (`user_settings`): only those that change what the server does,
//! so far Zulip's `translate_emoticons`. A user without a row has Zulip's defaults.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;

/// Whether `user_id` has emoticons in their messages translated to emoji.
pub fn translate_emoticons(conn: &Connection, user_id: i64) -> Result<bool> {
    let on = conn
        .prepare_cached("SELECT translate_emoticons FROM user_settings WHERE user_id = ?1")?
        .query_row(params![user_id], |row| row.get::<_, bool>(0))
        .optional()?;
    Ok(on.unwrap_or(false))
}

/// Turns emoticon translation on or off for `user_id`.
pub fn set_translate_emoticons(conn: &Connection, user_id: i64, on: bool) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO user_settings (user_id, translate_emoticons) VALUES (?1, ?2)
         ON CONFLICT (user_id) DO UPDATE SET translate_emoticons = excluded.translate_emoticons",
    )?
    .execute(params![user_id, on])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::schema::migrate;

    #[test]
    fn translate_emoticons_defaults_off_and_is_kept_per_user() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn)?;
        conn.execute_batch(
            "INSERT INTO users (user_id, email, email_key, full_name, role, api_key, date_joined)
             VALUES (1, 'a@x', 'a@x', 'A', 400, 'k1', ''), (2, 'b@x', 'b@x', 'B', 400, 'k2', '');",
        )?;
        assert!(!translate_emoticons(&conn, 1)?);
        set_translate_emoticons(&conn, 1, true)?;
        assert!(translate_emoticons(&conn, 1)?);
        assert!(!translate_emoticons(&conn, 2)?);
        set_translate_emoticons(&conn, 1, false)?;
        assert!(!translate_emoticons(&conn, 1)?);
        Ok(())
    }
}
