//! Versioned migrations, tracked in `PRAGMA user_version`.

use rusqlite::Connection;

use crate::error::Result;

/// Each entry moves the schema from version `index` to `index + 1`. Append only.
const MIGRATIONS: &[&str] = &[
    // 1: the organization, its people and streams.
    "
    CREATE TABLE realm (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        url TEXT NOT NULL,
        bot_domain TEXT NOT NULL,
        date_created INTEGER NOT NULL
    );
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        email TEXT NOT NULL,
        email_key TEXT NOT NULL UNIQUE,       -- lower-cased, for case-insensitive lookups
        full_name TEXT NOT NULL,
        role INTEGER NOT NULL,
        bot_type INTEGER,
        bot_owner_id INTEGER REFERENCES users (user_id),
        api_key TEXT NOT NULL UNIQUE,
        is_active INTEGER NOT NULL DEFAULT 1,
        is_system_bot INTEGER NOT NULL DEFAULT 0,
        date_joined TEXT NOT NULL,
        timezone TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX users_by_owner ON users (bot_owner_id);
    CREATE TABLE streams (
        stream_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,        -- lower-cased, for case-insensitive lookups
        description TEXT NOT NULL DEFAULT '',
        invite_only INTEGER NOT NULL DEFAULT 0,
        date_created INTEGER NOT NULL
    );
    -- Rows stay when someone leaves (active = 0), as in Zulip, so that `register`
    -- can tell streams a user left from streams they never joined.
    CREATE TABLE subscriptions (
        user_id INTEGER NOT NULL REFERENCES users (user_id),
        stream_id INTEGER NOT NULL REFERENCES streams (stream_id),
        active INTEGER NOT NULL,
        PRIMARY KEY (user_id, stream_id)
    ) WITHOUT ROWID;
    CREATE INDEX subscriptions_by_stream ON subscriptions (stream_id, active);
    ",
    // 2: messages, as webhooks and notifications produce them.
    "
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        sender_id INTEGER NOT NULL REFERENCES users (user_id),
        stream_id INTEGER REFERENCES streams (stream_id),
        recipient_id INTEGER REFERENCES users (user_id),  -- direct messages only
        topic TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        rendered_content TEXT NOT NULL,
        client TEXT NOT NULL,
        timestamp INTEGER NOT NULL,
        CHECK ((stream_id IS NULL) <> (recipient_id IS NULL))
    );
    CREATE INDEX messages_by_stream ON messages (stream_id, id);
    CREATE INDEX messages_by_recipient ON messages (recipient_id, id);
    CREATE INDEX messages_by_sender ON messages (sender_id, id);
    ",
    // 3: direct-message indexes cover direct messages only, so that the common stream
    // message (every webhook post) updates two b-trees instead of four.
    "
    DROP INDEX messages_by_recipient;
    DROP INDEX messages_by_sender;
    CREATE INDEX direct_messages_by_recipient ON messages (recipient_id, id)
        WHERE recipient_id IS NOT NULL;
    CREATE INDEX direct_messages_by_sender ON messages (sender_id, id)
        WHERE recipient_id IS NOT NULL;
    ",
    // 4: plain INTEGER PRIMARY KEY ids. Messages are never deleted, so max(id) + 1 never
    // reuses an id, and AUTOINCREMENT's sqlite_sequence update was one more page written
    // by every commit (seen in webhook ingest profiles).
    "
    CREATE TABLE messages_new (
        id INTEGER PRIMARY KEY,
        sender_id INTEGER NOT NULL REFERENCES users (user_id),
        stream_id INTEGER REFERENCES streams (stream_id),
        recipient_id INTEGER REFERENCES users (user_id),  -- direct messages only
        topic TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        rendered_content TEXT NOT NULL,
        client TEXT NOT NULL,
        timestamp INTEGER NOT NULL,
        CHECK ((stream_id IS NULL) <> (recipient_id IS NULL))
    );
    INSERT INTO messages_new SELECT * FROM messages;
    DROP TABLE messages;
    ALTER TABLE messages_new RENAME TO messages;
    CREATE INDEX messages_by_stream ON messages (stream_id, id);
    CREATE INDEX direct_messages_by_recipient ON messages (recipient_id, id)
        WHERE recipient_id IS NOT NULL;
    CREATE INDEX direct_messages_by_sender ON messages (sender_id, id)
        WHERE recipient_id IS NOT NULL;
    ",
    // 5: who created a stream through the API (Zulip's `creator_id`; NULL when unknown).
    "
    ALTER TABLE streams ADD COLUMN creator_id INTEGER REFERENCES users (user_id);
    ",
    // 6: per-user settings Weir honours (Zulip's `translate_emoticons`); a user without a
    // row has Zulip's defaults.
    "
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY REFERENCES users (user_id),
        translate_emoticons INTEGER NOT NULL DEFAULT 0
    );
    ",
    // 7: access rules (issue 24): protected history, what each user received, and the
    // once-per-five-minutes notices to bot owners. See `store/received.rs`.
    "
    ALTER TABLE users ADD COLUMN last_reminder INTEGER;  -- bots: owner last told, Unix s
    ALTER TABLE streams ADD COLUMN history_public_to_subscribers INTEGER NOT NULL DEFAULT 1;
    UPDATE streams SET history_public_to_subscribers = 0 WHERE invite_only = 1;
    -- The stream messages a user received: ids from first_message_id through
    -- last_message_id (NULL while still subscribed), one row per subscription period.
    CREATE TABLE received_ranges (
        user_id INTEGER NOT NULL REFERENCES users (user_id),
        stream_id INTEGER NOT NULL REFERENCES streams (stream_id),
        first_message_id INTEGER NOT NULL,
        last_message_id INTEGER,
        PRIMARY KEY (user_id, stream_id, first_message_id)
    ) WITHOUT ROWID;
    -- Subscriptions older than this table: counted as received from the start.
    INSERT INTO received_ranges (user_id, stream_id, first_message_id)
        SELECT user_id, stream_id, 0 FROM subscriptions WHERE active = 1;
    CREATE TRIGGER subscription_started AFTER INSERT ON subscriptions WHEN NEW.active = 1
    BEGIN
        INSERT OR REPLACE INTO received_ranges (user_id, stream_id, first_message_id)
            VALUES (NEW.user_id, NEW.stream_id,
                    (SELECT coalesce(max(id), 0) + 1 FROM messages));
    END;
    CREATE TRIGGER subscription_restarted AFTER UPDATE OF active ON subscriptions
        WHEN NEW.active = 1 AND OLD.active = 0
    BEGIN
        -- A period in which no message was sent held nothing.
        DELETE FROM received_ranges
            WHERE user_id = NEW.user_id AND stream_id = NEW.stream_id
              AND last_message_id < first_message_id;
        INSERT OR REPLACE INTO received_ranges (user_id, stream_id, first_message_id)
            VALUES (NEW.user_id, NEW.stream_id,
                    (SELECT coalesce(max(id), 0) + 1 FROM messages));
    END;
    CREATE TRIGGER subscription_ended AFTER UPDATE OF active ON subscriptions
        WHEN NEW.active = 0 AND OLD.active = 1
    BEGIN
        UPDATE received_ranges SET last_message_id = (SELECT coalesce(max(id), 0) FROM messages)
            WHERE user_id = NEW.user_id AND stream_id = NEW.stream_id
              AND last_message_id IS NULL;
    END;
    ",
    // 8: user groups: named groups (the role-based system groups among them, whose
    // direct members are derived from roles, not stored), their direct members and
    // subgroups. Settings are group-setting values as Zulip's API spells them (JSON).
    "
    CREATE TABLE user_groups (
        group_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,        -- lower-cased, for case-insensitive lookups
        description TEXT NOT NULL DEFAULT '',
        is_system INTEGER NOT NULL DEFAULT 0,
        deactivated INTEGER NOT NULL DEFAULT 0,
        creator_id INTEGER REFERENCES users (user_id),
        date_created INTEGER,
        can_add_members_group TEXT NOT NULL DEFAULT '1',
        can_join_group TEXT NOT NULL DEFAULT '1',
        can_leave_group TEXT NOT NULL DEFAULT '7',
        can_manage_group TEXT NOT NULL DEFAULT '1',
        can_mention_group TEXT NOT NULL DEFAULT '7',
        can_remove_members_group TEXT NOT NULL DEFAULT '1'
    );
    CREATE TABLE user_group_members (
        group_id INTEGER NOT NULL REFERENCES user_groups (group_id),
        user_id INTEGER NOT NULL REFERENCES users (user_id),
        PRIMARY KEY (group_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX user_group_members_by_user ON user_group_members (user_id);
    CREATE TABLE user_group_subgroups (
        group_id INTEGER NOT NULL REFERENCES user_groups (group_id),
        subgroup_id INTEGER NOT NULL REFERENCES user_groups (group_id),
        PRIMARY KEY (group_id, subgroup_id)
    ) WITHOUT ROWID;
    INSERT INTO user_groups (group_id, name, name_key, description, is_system) VALUES
        (1, 'role:nobody', 'role:nobody', 'Nobody', 1),
        (2, 'role:owners', 'role:owners', 'Owners of this organization', 1),
        (3, 'role:administrators', 'role:administrators',
            'Administrators of this organization, including owners', 1),
        (4, 'role:moderators', 'role:moderators',
            'Moderators of this organization, including administrators', 1),
        (5, 'role:fullmembers', 'role:fullmembers',
            'Members of this organization, not including new accounts and guests', 1),
        (6, 'role:members', 'role:members',
            'Members of this organization, not including guests', 1),
        (7, 'role:everyone', 'role:everyone',
            'Everyone in this organization, including guests', 1),
        (8, 'role:internet', 'role:internet', 'Everyone on the internet', 1);
    INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES
        (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (8, 7);
    ",
    // 9: stream settings that name groups (group-setting values as JSON; NULL: Weir's
    // default, see `StreamGroupSettings`).
    "
    ALTER TABLE streams ADD COLUMN can_add_subscribers_group TEXT;
    ALTER TABLE streams ADD COLUMN can_remove_subscribers_group TEXT;
    ALTER TABLE streams ADD COLUMN can_subscribe_group TEXT;
    ",
    // 10: Zulip's `default_for_system_groups`: every setting of a system group is
    // `role:nobody` (nobody mentions `@*role:everyone*`, joins or leaves a role).
    "
    UPDATE user_groups SET can_leave_group = '1', can_mention_group = '1' WHERE is_system = 1;
    ",
    // 11: the rest of a channel's settings that `PATCH /streams/{id}` changes: who
    // administers it and who posts (NULL: Zulip's defaults, the creator and everyone),
    // and its message retention (NULL: the realm's; -1: unlimited).
    "
    ALTER TABLE streams ADD COLUMN can_administer_channel_group TEXT;
    ALTER TABLE streams ADD COLUMN can_send_message_group TEXT;
    ALTER TABLE streams ADD COLUMN message_retention_days INTEGER;
    ",
    // 12: Zulip 11's channel settings: `topics_policy` (NULL: `inherit`) and five more
    // settings that name groups (NULL: Zulip's default, `role:nobody`).
    "
    ALTER TABLE streams ADD COLUMN topics_policy TEXT;
    ALTER TABLE streams ADD COLUMN can_move_messages_out_of_channel_group TEXT;
    ALTER TABLE streams ADD COLUMN can_move_messages_within_channel_group TEXT;
    ALTER TABLE streams ADD COLUMN can_resolve_topics_group TEXT;
    ALTER TABLE streams ADD COLUMN can_delete_any_message_group TEXT;
    ALTER TABLE streams ADD COLUMN can_delete_own_message_group TEXT;
    ",
    // 13: channel folders (Zulip 11); a channel is in at most one.
    "
    CREATE TABLE channel_folders (
        folder_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,               -- lower-cased, for case-insensitive lookups
        description TEXT NOT NULL DEFAULT '',
        folder_order INTEGER NOT NULL,
        date_created INTEGER NOT NULL,
        creator_id INTEGER REFERENCES users (user_id),
        is_archived INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX channel_folders_by_name ON channel_folders (name_key);
    ALTER TABLE streams ADD COLUMN folder_id INTEGER REFERENCES channel_folders (folder_id);
    ",
];

pub fn migrate(conn: &mut Connection) -> Result<()> {
    let current: usize = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if current > MIGRATIONS.len() {
        return Err(crate::error::Error::Internal(format!(
            "the database has schema version {current}, newer than this build knows ({})",
            MIGRATIONS.len()
        )));
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(current) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_once_and_record_the_version() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn)?;
        migrate(&mut conn)?;
        let version: usize = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
        assert_eq!(version, MIGRATIONS.len());
        Ok(())
    }

    #[test]
    fn message_ids_survive_the_move_off_autoincrement_and_keep_counting() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        for (index, sql) in MIGRATIONS.iter().enumerate().take(3) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", index + 1)?;
        }
        conn.execute_batch(
            "INSERT INTO users (user_id, email, email_key, full_name, role, api_key, date_joined)
                 VALUES (1, 'a@x.test', 'a@x.test', 'A', 400, 'k', '2026-01-01');
             INSERT INTO streams (stream_id, name, name_key, date_created)
                 VALUES (1, 'general', 'general', 0);
             INSERT INTO messages (id, sender_id, stream_id, topic, content, rendered_content,
                                   client, timestamp)
                 VALUES (41, 1, 1, 't', 'hi', '<p>hi</p>', 'test', 0);",
        )?;
        migrate(&mut conn)?;
        conn.execute(
            "INSERT INTO messages (sender_id, recipient_id, content, rendered_content, client,
                                   timestamp)
             VALUES (1, 1, 'again', '<p>again</p>', 'test', 1)",
            [],
        )?;
        let ids: Vec<i64> = conn
            .prepare("SELECT id FROM messages ORDER BY id")?
            .query_map([], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        assert_eq!(ids, [41, 42]);
        let sequences: i64 = conn.query_row(
            "SELECT count(*) FROM sqlite_sequence WHERE name = 'messages'",
            [],
            |row| row.get(0),
        )?;
        assert_eq!(sequences, 0);
        Ok(())
    }

    #[test]
    fn system_groups_settings_become_nobody_at_version_10() -> Result<()> {
        let mut conn = Connection::open_in_memory()?;
        for (index, sql) in MIGRATIONS.iter().enumerate().take(9) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", index + 1)?;
        }
        let settings = |conn: &Connection| -> Result<Vec<(String, String)>> {
            Ok(conn
                .prepare(
                    "SELECT DISTINCT can_leave_group, can_mention_group FROM user_groups
                     WHERE is_system = 1",
                )?
                .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?)
        };
        assert_eq!(settings(&conn)?, [("7".to_owned(), "7".to_owned())]);
        migrate(&mut conn)?;
        assert_eq!(settings(&conn)?, [("1".to_owned(), "1".to_owned())]);
        Ok(())
    }

    fn seeded() -> Result<Connection> {
        let mut conn = Connection::open_in_memory()?;
        migrate(&mut conn)?;
        conn.execute_batch(
            "INSERT INTO users (user_id, email, email_key, full_name, role, api_key, date_joined)
                 VALUES (1, 'a@x.test', 'a@x.test', 'A', 400, 'k', '2026-01-01');
             INSERT INTO streams (stream_id, name, name_key, date_created)
                 VALUES (1, 'general', 'general', 0);",
        )?;
        Ok(conn)
    }

    fn post(conn: &Connection) -> Result<i64> {
        conn.execute(
            "INSERT INTO messages (sender_id, stream_id, content, rendered_content, client,
                                   timestamp) VALUES (1, 1, 'm', '<p>m</p>', 'test', 0)",
            [],
        )?;
        Ok(conn.last_insert_rowid())
    }

    fn ranges(conn: &Connection) -> Result<Vec<(i64, Option<i64>)>> {
        Ok(conn
            .prepare(
                "SELECT first_message_id, last_message_id FROM received_ranges
                 ORDER BY first_message_id",
            )?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?)
    }

    #[test]
    fn received_ranges_follow_each_subscription_period() -> Result<()> {
        let conn = seeded()?;
        post(&conn)?; // 1: before joining
        crate::store::subscribe(&conn, 1, 1)?;
        post(&conn)?; // 2: received
        crate::store::unsubscribe_many(&conn, 1, &[1])?;
        post(&conn)?; // 3: sent while away
        crate::store::subscribe(&conn, 1, 1)?;
        assert_eq!(ranges(&conn)?, [(2, Some(2)), (4, None)]);
        // A period in which nothing was sent leaves no range behind.
        crate::store::unsubscribe_many(&conn, 1, &[1])?;
        crate::store::subscribe(&conn, 1, 1)?;
        assert_eq!(ranges(&conn)?, [(2, Some(2)), (4, None)]);
        Ok(())
    }

    #[test]
    fn a_bots_owner_is_alerted_at_most_once_per_five_minutes() -> Result<()> {
        let conn = seeded()?;
        let claim = |now| crate::store::claim_bot_owner_alert(&conn, 1, now);
        assert!(claim(1_000)?);
        assert!(!claim(1_000)?);
        assert!(!claim(1_300)?);
        assert!(claim(1_301)?);
        Ok(())
    }
}
