//! The checks behind `weir-bench webhooks`' durability line: every message a server
//! acknowledged must still be there after it was killed with SIGKILL, read back through
//! weir-server's API (and counted in its SQLite file), or found in the durable
//! baseline's database.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::Path;

use base64::Engine;
use hyper::{StatusCode, Uri};
use serde_json::{Value, json};

use crate::Result;
use crate::http::Connection;
use crate::report::grouped;
use crate::webhooks::{ADMIN_EMAIL, ADMIN_KEY, STREAM_ID, STREAM_NAME, TITLE_PREFIX};

/// What came back after SIGKILL and a restart.
#[derive(Debug, Default)]
pub struct Durability {
    acknowledged: usize,
    /// Acknowledged messages found again through `GET /messages`.
    found: usize,
    /// Messages in the stream through the API, and in the SQLite file.
    stored_api: usize,
    stored_sqlite: usize,
    /// Stream messages that this run did not send, or that came back twice.
    foreign: usize,
    duplicates: usize,
}

impl Durability {
    /// The sum of several rounds' checks.
    pub fn total(checks: &[Durability]) -> Self {
        let sum = |field: fn(&Durability) -> usize| checks.iter().map(field).sum();
        Self {
            acknowledged: sum(|d| d.acknowledged),
            found: sum(|d| d.found),
            stored_api: sum(|d| d.stored_api),
            stored_sqlite: sum(|d| d.stored_sqlite),
            foreign: sum(|d| d.foreign),
            duplicates: sum(|d| d.duplicates),
        }
    }

    fn missing(&self) -> usize {
        self.acknowledged.saturating_sub(self.found)
    }

    pub fn passed(&self) -> bool {
        self.missing() == 0
            && self.stored_api == self.stored_sqlite
            && self.foreign == 0
            && self.duplicates == 0
    }
}

pub fn print_durability(indent: &str, check: &Durability) {
    let verdict = if check.passed() { "ok" } else { "FAILED" };
    println!(
        "{indent}durable: {}/{} acknowledged messages present after SIGKILL + restart \
         ({} in the stream via the API, {} in SQLite): {verdict}",
        grouped(check.found as u64),
        grouped(check.acknowledged as u64),
        grouped(check.stored_api as u64),
        grouped(check.stored_sqlite as u64),
    );
    if check.missing() > 0 {
        println!(
            "{indent}! {} acknowledged messages are missing",
            grouped(check.missing() as u64)
        );
    }
    if check.foreign > 0 || check.duplicates > 0 {
        println!(
            "{indent}! {} unexpected and {} duplicated messages in the stream",
            check.foreign, check.duplicates
        );
    }
    let unacknowledged = check.stored_api.saturating_sub(check.found);
    if unacknowledged > 0 {
        println!(
            "{indent}note: {unacknowledged} stored messages got no 200 (failed or timed-out requests)"
        );
    }
}

/// Reads the whole stream back through the restarted server, and counts it in SQLite.
pub async fn check_durability(
    address: SocketAddr,
    data_dir: &Path,
    acknowledged: &[u64],
) -> Result<Durability> {
    let mut check = Durability {
        acknowledged: acknowledged.len(),
        ..Durability::default()
    };
    let credentials = format!("{ADMIN_EMAIL}:{ADMIN_KEY}");
    let authorization = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(credentials)
    );
    let narrow = json!([{"operator": "channel", "operand": STREAM_NAME}]).to_string();
    let mut connection = Connection::open(address).await?;
    let mut message_ids = HashSet::new();
    let mut titles = HashSet::new();
    let mut anchor = "oldest".to_owned();
    let max_pages = acknowledged.len() / 4000 + 10;
    let mut complete = false;
    for _ in 0..max_pages {
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("anchor", &anchor)
            .append_pair("num_before", "0")
            .append_pair("num_after", "5000")
            .append_pair("narrow", &narrow)
            .append_pair("apply_markdown", "false")
            .finish();
        let uri: Uri = format!("/api/v1/messages?{query}").parse()?;
        let (status, body) = connection.get(uri, &authorization).await?;
        if status != StatusCode::OK {
            let body = String::from_utf8_lossy(&body);
            return Err(format!("GET /api/v1/messages answered {status}: {body}").into());
        }
        let page: Value = serde_json::from_slice(&body)?;
        let messages = page["messages"]
            .as_array()
            .ok_or("GET /api/v1/messages answered no messages array")?;
        let mut last = None;
        for message in messages {
            let id = message["id"].as_i64().ok_or("a message without an id")?;
            last = Some(id);
            if !message_ids.insert(id) {
                continue; // the anchor, seen on the previous page
            }
            match message["content"].as_str().and_then(title_of) {
                Some(title) if titles.insert(title) => {}
                Some(_) => check.duplicates += 1,
                None => check.foreign += 1,
            }
        }
        match last {
            Some(id) if page["found_newest"] != Value::Bool(true) => anchor = id.to_string(),
            _ => {
                complete = true;
                break;
            }
        }
    }
    if !complete {
        return Err(
            format!("GET /api/v1/messages did not reach the newest in {max_pages} pages").into(),
        );
    }
    check.stored_api = message_ids.len();
    check.found = acknowledged
        .iter()
        .filter(|id| titles.contains(*id))
        .count();
    let database = data_dir.join("weir.sqlite3");
    check.stored_sqlite = tokio::task::spawn_blocking(move || count_in_sqlite(&database)).await??;
    Ok(check)
}

/// The request id in a stored Hello World message: `... **[bench-ID](URL)**`.
fn title_of(content: &str) -> Option<u64> {
    let (_, rest) = content.split_once(&format!("**[{TITLE_PREFIX}"))?;
    let (id, _) = rest.split_once("](")?;
    id.parse().ok()
}

fn count_in_sqlite(database: &Path) -> Result<usize> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(database, flags)?;
    let count: i64 = conn.query_row(
        "SELECT count(*) FROM messages WHERE stream_id = ?1",
        [STREAM_ID],
        |row| row.get(0),
    )?;
    Ok(usize::try_from(count)?)
}

/// How many acknowledged requests have no body in the durable baseline's database.
pub fn missing_from_floor(database: &Path, acknowledged: &[u64]) -> Result<usize> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(database, flags)?;
    let mut statement = conn.prepare("SELECT body FROM received")?;
    let mut rows = statement.query([])?;
    let mut stored = HashSet::new();
    while let Some(row) = rows.next()? {
        if let Some(id) = title_in_body(row.get_ref(0)?.as_blob()?) {
            stored.insert(id);
        }
    }
    Ok(acknowledged
        .iter()
        .filter(|id| !stored.contains(id))
        .count())
}

/// The id in a load body's `featured_title` (see [`load_body`]).
fn title_in_body(body: &[u8]) -> Option<u64> {
    let body = std::str::from_utf8(body).ok()?;
    let (_, rest) = body.split_once(&format!(r#""featured_title":"{TITLE_PREFIX}"#))?;
    let (id, _) = rest.split_once('"')?;
    id.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhooks::load_body;

    #[test]
    fn titles_come_back_out_of_the_hello_world_text() {
        let content = "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article \
                       for today is **[bench-1099511627781](https://en.wikipedia.org/wiki/Weir)**";
        assert_eq!(title_of(content), Some((1 << 40) + 5));
        assert_eq!(title_of("**[other](x)**"), None);
    }

    #[test]
    fn titles_come_back_out_of_the_load_bodies() {
        assert_eq!(title_in_body(&load_body(42)), Some(42));
        assert_eq!(title_in_body(br#"{"featured_title":"other"}"#), None);
    }

    #[test]
    fn acknowledged_bodies_missing_from_the_floor_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        let database = dir.path().join(crate::durable::DATABASE_FILE);
        let conn = crate::durable::open(&database).unwrap();
        for id in [1_u64, 2] {
            conn.execute(
                "INSERT INTO received (body) VALUES (?1)",
                [load_body(id).as_ref()],
            )
            .unwrap();
        }
        assert_eq!(missing_from_floor(&database, &[1, 2]).unwrap(), 0);
        assert_eq!(missing_from_floor(&database, &[1, 2, 3]).unwrap(), 1);
    }
}
