//! A bounded log of the requests the server answered, newest last, for the app's
//! "Local server" page. Only method and path are kept: query strings can carry
//! `api_key`, and bodies carry payloads, so neither is ever recorded.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

/// How many entries the log keeps; older ones are dropped.
pub const CAPACITY: usize = 500;

#[derive(Debug, Clone, PartialEq)]
pub struct RequestLogEntry {
    pub id: u64,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub duration_ms: f64,
    /// Unix milliseconds when the request arrived.
    pub at: i64,
}

#[derive(Debug, Clone, Default)]
pub struct RequestLog(Arc<Mutex<Inner>>);

#[derive(Debug, Default)]
struct Inner {
    next_id: u64,
    entries: VecDeque<RequestLogEntry>,
}

impl RequestLog {
    pub fn new() -> Self {
        Self::default()
    }

    fn push(&self, mut entry: RequestLogEntry) {
        let mut inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        inner.next_id += 1;
        entry.id = inner.next_id;
        if inner.entries.len() == CAPACITY {
            inner.entries.pop_front();
        }
        inner.entries.push_back(entry);
    }

    /// The entries, newest first.
    pub fn newest_first(&self) -> Vec<RequestLogEntry> {
        let inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        inner.entries.iter().rev().cloned().collect()
    }

    /// The entries recorded after the one with id `id`, newest first: what a viewer that
    /// has everything up to `id` still lacks. Ids keep growing across [`Self::clear`].
    pub fn newer_than(&self, id: u64) -> Vec<RequestLogEntry> {
        let inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        inner
            .entries
            .iter()
            .rev()
            .take_while(|entry| entry.id > id)
            .cloned()
            .collect()
    }

    pub fn clear(&self) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entries
            .clear();
    }
}

/// Middleware that records every request once its response is ready.
pub async fn record(State(log): State<RequestLog>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let method = request.method().to_string();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    log.push(RequestLogEntry {
        id: 0,
        method,
        path,
        status: response.status().as_u16(),
        duration_ms: started.elapsed().as_secs_f64() * 1000.0,
        at,
    });
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str) -> RequestLogEntry {
        RequestLogEntry {
            id: 0,
            method: "GET".into(),
            path: path.into(),
            status: 200,
            duration_ms: 1.0,
            at: 0,
        }
    }

    #[test]
    fn keeps_the_newest_entries_up_to_capacity() {
        let log = RequestLog::new();
        for index in 0..CAPACITY + 3 {
            log.push(entry(&format!("/{index}")));
        }
        let entries = log.newest_first();
        assert_eq!(entries.len(), CAPACITY);
        assert_eq!(entries[0].path, format!("/{}", CAPACITY + 2));
        assert_eq!(entries[0].id, (CAPACITY + 3) as u64);
    }

    #[test]
    fn newer_than_gives_only_what_a_follower_lacks() {
        let log = RequestLog::new();
        for index in 0..5 {
            log.push(entry(&format!("/{index}")));
        }
        let ids = |entries: Vec<RequestLogEntry>| entries.iter().map(|e| e.id).collect::<Vec<_>>();
        assert_eq!(ids(log.newer_than(3)), vec![5, 4]);
        assert!(log.newer_than(5).is_empty());
        log.clear();
        log.push(entry("/after"));
        assert_eq!(
            ids(log.newer_than(5)),
            vec![6],
            "ids keep growing after a clear"
        );
    }
}
