//! Loading an organization from a seed file (or the built-in demo) into a new database.

use std::collections::HashSet;

use rusqlite::Connection;
use serde::Deserialize;
use serde_json::Value;
use zulip_api::{BotType, Role};

use super::streams::{NewStream, insert_stream, name_key, subscribe};
use super::users::{NewUser, RealmRow, insert_realm, insert_user};
use crate::clock::{iso8601, now_unix};
use crate::error::{Error, Result};
use crate::rules::keys::{generate_api_key, has_api_key_format};
use crate::rules::names::{check_full_name, check_stream_name};

/// Zulip's own address for the system bot that tells owners about their bots.
pub const NOTIFICATION_BOT_EMAIL: &str = "notification-bot@zulip.com";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    pub realm: SeedRealm,
    #[serde(default)]
    pub users: Vec<Value>,
    #[serde(default)]
    pub streams: Vec<Value>,
    /// User groups (see `seed_groups.rs`).
    #[serde(default)]
    pub groups: Vec<Value>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRealm {
    pub name: String,
    pub url: String,
    #[serde(default)]
    pub bot_domain: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedUser {
    #[serde(default)]
    pub user_id: Option<i64>,
    pub email: String,
    pub full_name: String,
    pub role: String,
    #[serde(default)]
    pub bot_type: Option<u8>,
    #[serde(default)]
    pub bot_owner_id: Option<i64>,
    #[serde(default)]
    pub api_key: Option<String>,
    #[serde(default = "yes")]
    pub is_active: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedStream {
    #[serde(default)]
    pub stream_id: Option<i64>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub invite_only: bool,
    #[serde(default)]
    pub subscribers: Vec<i64>,
    /// Group-setting values (see `seed_groups.rs`); absent: Weir's defaults.
    #[serde(default)]
    pub can_add_subscribers_group: Option<Value>,
    #[serde(default)]
    pub can_remove_subscribers_group: Option<Value>,
    #[serde(default)]
    pub can_subscribe_group: Option<Value>,
}

fn yes() -> bool {
    true
}

impl Seed {
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text).map_err(|error| Error::Seed(error.to_string()))
    }
}

/// The host part of a URL such as `http://globex.localhost:9991/`.
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = host.split(':').next().unwrap_or_default();
    (!host.is_empty()).then(|| host.to_lowercase())
}

pub(super) fn entry_error(
    kind: &str,
    index: usize,
    label: &str,
    problem: impl std::fmt::Display,
) -> Error {
    let label = if label.is_empty() {
        String::new()
    } else {
        format!(" ({label})")
    };
    Error::Seed(format!("{kind}[{index}]{label}: {problem}"))
}

pub(super) fn label_of(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Validates the whole seed, then writes it; nothing is written if any entry is wrong.
pub fn load_seed(conn: &Connection, seed: &Seed) -> Result<()> {
    let bot_domain = match &seed.realm.bot_domain {
        Some(domain) => domain.to_lowercase(),
        None => host_of(&seed.realm.url)
            .ok_or_else(|| Error::Seed(format!("realm.url {:?} has no host", seed.realm.url)))?,
    };
    let now = now_unix();
    insert_realm(
        conn,
        &RealmRow {
            name: seed.realm.name.clone(),
            url: seed.realm.url.clone(),
            bot_domain,
        },
        now,
    )?;
    conn.pragma_update(None, "defer_foreign_keys", "ON")?;

    let users = parse_users(&seed.users)?;
    // Users with a given id first, so generated ids never take an id the seed names.
    let (with_ids, without_ids): (Vec<_>, Vec<_>) =
        users.into_iter().partition(|user| user.user_id.is_some());
    let mut known_ids = HashSet::new();
    for user in with_ids.iter().chain(&without_ids) {
        let id = insert_user(conn, user)?;
        known_ids.insert(id);
    }
    for (index, value) in seed.users.iter().enumerate() {
        let owner = value.get("bot_owner_id").and_then(Value::as_i64);
        if let Some(owner) = owner.filter(|owner| !known_ids.contains(owner)) {
            let problem = format!("bot_owner_id {owner} is not a user of this seed");
            return Err(entry_error(
                "users",
                index,
                &label_of(value, "email"),
                problem,
            ));
        }
    }
    insert_notification_bot(conn, now)?;

    let mut names = HashSet::new();
    let mut stream_groups = Vec::new();
    for (index, value) in seed.streams.iter().enumerate() {
        let label = label_of(value, "name");
        let stream: SeedStream = serde_json::from_value(value.clone())
            .map_err(|error| entry_error("streams", index, &label, error))?;
        let name = check_stream_name(&stream.name)
            .map_err(|error| entry_error("streams", index, &label, error.msg))?;
        if !names.insert(name_key(&name)) {
            return Err(entry_error(
                "streams",
                index,
                &label,
                "duplicate stream name",
            ));
        }
        let new = NewStream {
            stream_id: stream.stream_id,
            name: &name,
            description: &stream.description,
            invite_only: stream.invite_only,
            creator_id: None,
        };
        let row = insert_stream(conn, &new, now)
            .map_err(|error| entry_error("streams", index, &label, error))?;
        for subscriber in &stream.subscribers {
            if !known_ids.contains(subscriber) {
                let problem = format!("subscriber {subscriber} is not a user of this seed");
                return Err(entry_error("streams", index, &label, problem));
            }
            subscribe(conn, *subscriber, row.stream_id)?;
        }
        stream_groups.push((index, label, row.stream_id, stream));
    }
    super::seed_groups::load_groups(conn, &seed.groups, &known_ids)?;
    super::seed_groups::set_stream_groups(conn, &stream_groups, &known_ids)
}

fn parse_users(values: &[Value]) -> Result<Vec<NewUser>> {
    let mut emails = HashSet::new();
    let mut ids = HashSet::new();
    let mut keys = HashSet::new();
    let joined = iso8601(now_unix());
    let mut users = Vec::with_capacity(values.len());
    for (index, value) in values.iter().enumerate() {
        let label = label_of(value, "email");
        let fail = |problem: String| entry_error("users", index, &label, problem);
        let user: SeedUser =
            serde_json::from_value(value.clone()).map_err(|error| fail(error.to_string()))?;
        let role = Role::from_name(&user.role).ok_or_else(|| {
            fail(format!(
                "role {:?} is not one of owner, administrator, moderator, member, guest",
                user.role
            ))
        })?;
        let bot_type = match user.bot_type {
            None => None,
            Some(code) => Some(
                BotType::from_code(code)
                    .ok_or_else(|| fail(format!("bot_type {code} is not 1, 2, 3 or 4")))?,
            ),
        };
        if user.bot_owner_id.is_some() && bot_type.is_none() {
            return Err(fail("bot_owner_id is only for bots (set bot_type)".into()));
        }
        if !user.email.contains('@') || user.email.trim() != user.email {
            return Err(fail(format!(
                "email {:?} is not an e-mail address",
                user.email
            )));
        }
        if !emails.insert(user.email.to_lowercase()) {
            return Err(fail("duplicate email".into()));
        }
        if let Some(id) = user.user_id
            && (id <= 0 || !ids.insert(id))
        {
            return Err(fail(format!("user_id {id} is not a new positive id")));
        }
        let api_key = user.api_key.clone().unwrap_or_else(generate_api_key);
        if !has_api_key_format(&api_key) {
            return Err(fail("api_key must be 32 letters or digits".into()));
        }
        if !keys.insert(api_key.clone()) {
            return Err(fail("duplicate api_key".into()));
        }
        let full_name = check_full_name(&user.full_name)
            .map_err(|error| fail(format!("full_name {:?}: {}", user.full_name, error.msg)))?;
        users.push(NewUser {
            user_id: user.user_id,
            email: user.email,
            full_name,
            role,
            bot_type,
            bot_owner_id: user.bot_owner_id,
            api_key,
            is_active: user.is_active,
            is_system_bot: false,
            date_joined: joined.clone(),
        });
    }
    Ok(users)
}

fn insert_notification_bot(conn: &Connection, now: i64) -> Result<()> {
    insert_user(
        conn,
        &NewUser {
            user_id: None,
            email: NOTIFICATION_BOT_EMAIL.into(),
            full_name: "Notification Bot".into(),
            role: Role::Member,
            bot_type: Some(BotType::Generic),
            bot_owner_id: None,
            api_key: generate_api_key(),
            is_active: true,
            is_system_bot: true,
            date_joined: iso8601(now),
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(seed: Value) -> Result<Connection> {
        let mut conn = Connection::open_in_memory()?;
        super::super::schema::migrate(&mut conn)?;
        let seed: Seed = serde_json::from_value(seed).map_err(|e| Error::Seed(e.to_string()))?;
        let tx = conn.transaction()?;
        load_seed(&tx, &seed)?;
        tx.commit()?;
        Ok(conn)
    }

    fn error_text(seed: Value) -> String {
        match load(seed) {
            Err(error) => error.to_string(),
            Ok(_) => "loaded".into(),
        }
    }

    #[test]
    fn bot_domain_defaults_to_the_realm_host() {
        assert_eq!(
            host_of("http://globex.localhost:9991/x").as_deref(),
            Some("globex.localhost")
        );
        let conn = load(json!({"realm": {"name": "G", "url": "https://Globex.example"}})).unwrap();
        let realm = super::super::users::realm(&conn).unwrap().unwrap();
        assert_eq!(realm.bot_domain, "globex.example");
    }

    #[test]
    fn unknown_keys_name_the_entry() {
        let text = error_text(json!({
            "realm": {"name": "G", "url": "http://g.test"},
            "users": [{"email": "a@g.test", "full_name": "A", "role": "owner", "colour": "red"}]
        }));
        assert!(
            text.contains("users[0] (a@g.test)") && text.contains("colour"),
            "{text}"
        );
    }

    #[test]
    fn bad_roles_and_dangling_owners_are_refused() {
        let realm = json!({"name": "G", "url": "http://g.test"});
        let text = error_text(json!({"realm": realm,
            "users": [{"email": "a@g.test", "full_name": "A", "role": "king"}]}));
        assert!(text.contains("role \"king\""), "{text}");
        let text = error_text(json!({"realm": realm,
            "users": [{"email": "b@g.test", "full_name": "Bo", "role": "member",
                       "bot_type": 2, "bot_owner_id": 9}]}));
        assert!(text.contains("bot_owner_id 9"), "{text}");
    }

    #[test]
    fn full_names_follow_zulips_rules() {
        let realm = json!({"name": "G", "url": "http://g.test"});
        for (name, problem) in [
            ("B", "Name too short!"),
            ("Eve\u{202E}gnp", "Invalid characters in name!"),
            ("<b>*x*</b>", "Invalid characters in name!"),
            ("Ada|7", "Invalid format!"),
        ] {
            let text = error_text(json!({"realm": realm,
                "users": [{"email": "b@g.test", "full_name": name, "role": "member"}]}));
            assert!(
                text.contains("users[0] (b@g.test): full_name") && text.contains(problem),
                "{text}"
            );
        }
    }

    #[test]
    fn ids_and_keys_given_are_kept_and_missing_ones_generated() {
        let key = "a".repeat(32);
        let conn = load(json!({
            "realm": {"name": "G", "url": "http://g.test"},
            "users": [
                {"email": "gen@g.test", "full_name": "Gen", "role": "member"},
                {"user_id": 1, "email": "one@g.test", "full_name": "One", "role": "owner", "api_key": key}
            ],
            "streams": [{"stream_id": 7, "name": "Ops", "subscribers": [1]}]
        }))
        .unwrap();
        let one = super::super::users::user_by_id(&conn, 1).unwrap().unwrap();
        assert_eq!(one.api_key, key);
        let generated = super::super::users::user_by_email(&conn, "GEN@g.test")
            .unwrap()
            .unwrap();
        assert!(generated.user_id > 1 && has_api_key_format(&generated.api_key));
        assert_eq!(
            super::super::streams::subscriber_ids(&conn, 7).unwrap(),
            vec![1]
        );
    }
}
