//! `durable-server`: the minimal axum handler of `minimal.rs`, plus what any server that
//! keeps its webhooks must do before answering: store the body in SQLite and commit.
//!
//! It is the floor of durable ingest on this machine, next to which weir's own costs
//! (authentication, the integration, rendering, Zulip's message row) can be judged: the
//! same durability as weir-server (WAL at `synchronous = NORMAL`: a commit survives a
//! killed process), the same group commit (one transaction for the requests waiting
//! when the writer comes round), and nothing else. Rows are one integer key and the body,
//! with no index to maintain.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use crate::Result;
use crate::minimal::{SUCCESS_JSON, bind};

/// The database's name in `--data-dir`.
pub const DATABASE_FILE: &str = "ingest.sqlite3";

/// Requests one commit may carry at most, as in weir-server's writer.
const MAX_GROUP: usize = 64;

/// A body waiting for its commit, and where to say whether it was saved.
struct Pending {
    body: Bytes,
    saved: oneshot::Sender<bool>,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// Directory for the database (created if missing); the caller removes it.
    #[arg(long)]
    data_dir: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    std::fs::create_dir_all(&args.data_dir)?;
    let conn = open(&args.data_dir.join(DATABASE_FILE))?;
    // One async thread, as weir-server runs by default on two cores: with two, the
    // hand-offs between handler and writer cost 1.5x the minimal handler's CPU per
    // request instead of 1.3x, and the floor would flatter weir.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (queue, pending) = mpsc::channel(1024);
        tokio::spawn(write_groups(conn, pending));
        let app = Router::new()
            .route("/api/v1/external/{integration}", post(receive))
            .with_state(queue);
        let listener = bind(args.listen).await?;
        axum::serve(listener, app).await?;
        Ok(ExitCode::SUCCESS)
    })
}

/// A WAL database with the one table, set up as weir-server sets up its own.
pub fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch("CREATE TABLE IF NOT EXISTS received (id INTEGER PRIMARY KEY, body BLOB)")?;
    Ok(conn)
}

async fn receive(State(queue): State<mpsc::Sender<Pending>>, body: Bytes) -> Response {
    let (saved, answer) = oneshot::channel();
    if queue.send(Pending { body, saved }).await.is_err() {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    match answer.await {
        Ok(true) => ([(CONTENT_TYPE, "application/json")], SUCCESS_JSON).into_response(),
        _ => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The writer task: waits for a body, lets the other requests queue theirs (one yield),
/// commits them all in one transaction, then answers each.
async fn write_groups(conn: Connection, mut pending: mpsc::Receiver<Pending>) {
    let mut group = Vec::with_capacity(MAX_GROUP);
    while let Some(first) = pending.recv().await {
        group.push(first);
        tokio::task::yield_now().await;
        while group.len() < MAX_GROUP {
            match pending.try_recv() {
                Ok(next) => group.push(next),
                Err(_) => break,
            }
        }
        let saved = store(&conn, &group).is_ok();
        if !saved {
            let _ = conn.execute_batch("ROLLBACK");
        }
        for request in group.drain(..) {
            let _ = request.saved.send(saved);
        }
    }
}

fn store(conn: &Connection, group: &[Pending]) -> rusqlite::Result<()> {
    conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
    let mut insert = conn.prepare_cached("INSERT INTO received (body) VALUES (?1)")?;
    for request in group {
        insert.execute([request.body.as_ref()])?;
    }
    conn.prepare_cached("COMMIT")?.execute([])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_answered_body_is_committed_for_another_connection() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DATABASE_FILE);
        let (queue, pending) = mpsc::channel(16);
        tokio::spawn(write_groups(open(&path).unwrap(), pending));
        let mut answers = Vec::new();
        for n in 0..5 {
            let (saved, answer) = oneshot::channel();
            let body = Bytes::from(format!("body {n}"));
            queue.send(Pending { body, saved }).await.unwrap();
            answers.push(answer);
        }
        for answer in answers {
            assert!(answer.await.unwrap());
        }
        let reader = Connection::open(&path).unwrap();
        let stored: Vec<String> = reader
            .prepare("SELECT CAST(body AS TEXT) FROM received ORDER BY id")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(stored, ["body 0", "body 1", "body 2", "body 3", "body 4"]);
    }
}
