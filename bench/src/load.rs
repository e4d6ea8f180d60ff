//! Closed-loop load: `concurrency` workers, each with its own keep-alive connection,
//! each sending its next request as soon as the previous one is answered.
//!
//! Timeline: connect everything, warm up, then a measured window. Throughput and
//! latencies count the 200s that *completed* inside the window; requests still in
//! flight when the window closes are awaited (bounded by [`REQUEST_TIMEOUT`]) and count
//! only as acknowledged, so that a durability check can account for every 200.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper::{StatusCode, Uri};
use tokio::task::JoinSet;

use crate::Result;
use crate::http::Connection;

/// A request slower than this counts as an error (and its connection is replaced).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Makes the body of request `id`; ids are unique within one load run.
pub type BodyFn = Arc<dyn Fn(u64) -> Bytes + Send + Sync>;

pub struct Load {
    pub address: SocketAddr,
    /// Path and query of every request.
    pub uri: Uri,
    pub body: BodyFn,
    pub concurrency: usize,
    pub warmup: Duration,
    pub window: Duration,
}

#[derive(Debug, Default)]
pub struct Outcome {
    pub window: Duration,
    /// Latencies of the 200s completed inside the window, in microseconds, sorted.
    pub latencies_us: Vec<u32>,
    /// Ids of every request answered 200 (warm-up and tail included).
    pub acknowledged: Vec<u64>,
    /// Requests answered with another status, failed or timed out.
    pub errors: u64,
    pub first_error: Option<String>,
}

impl Outcome {
    /// 200s completed per second of the window.
    pub fn rate(&self) -> f64 {
        let seconds = self.window.as_secs_f64();
        if seconds > 0.0 {
            self.latencies_us.len() as f64 / seconds
        } else {
            0.0
        }
    }

    /// Nearest-rank percentile (`q` in 0..=1) of the window's latencies, in ms.
    pub fn percentile_ms(&self, q: f64) -> f64 {
        let count = self.latencies_us.len();
        if count == 0 {
            return f64::NAN;
        }
        let rank = ((q * count as f64).ceil() as usize).clamp(1, count);
        self.latencies_us
            .get(rank - 1)
            .map_or(f64::NAN, |&us| f64::from(us) / 1000.0)
    }
}

/// Runs the load to completion: about `warmup + window`, plus the slowest tail request.
pub async fn run(load: &Load) -> Result<Outcome> {
    let mut connections = Vec::with_capacity(load.concurrency);
    for _ in 0..load.concurrency {
        connections.push(Connection::open(load.address).await?);
    }
    let start = Instant::now();
    let window = Window {
        opens: start + load.warmup,
        closes: start + load.warmup + load.window,
    };
    let mut workers = JoinSet::new();
    for (worker, connection) in connections.into_iter().enumerate() {
        let job = Job {
            worker: worker as u64,
            address: load.address,
            uri: load.uri.clone(),
            body: Arc::clone(&load.body),
            window,
        };
        workers.spawn(job.run(connection));
    }
    let mut outcome = Outcome {
        window: load.window,
        ..Outcome::default()
    };
    while let Some(finished) = workers.join_next().await {
        let worker = finished?;
        outcome.latencies_us.extend(worker.latencies_us);
        outcome.acknowledged.extend(worker.acknowledged);
        outcome.errors += worker.errors;
        if outcome.first_error.is_none() {
            outcome.first_error = worker.first_error;
        }
    }
    outcome.latencies_us.sort_unstable();
    Ok(outcome)
}

#[derive(Debug, Clone, Copy)]
struct Window {
    opens: Instant,
    closes: Instant,
}

struct Job {
    worker: u64,
    address: SocketAddr,
    uri: Uri,
    body: BodyFn,
    window: Window,
}

impl Job {
    async fn run(self, mut connection: Connection) -> Outcome {
        let mut outcome = Outcome::default();
        for sequence in 0u64.. {
            let begin = Instant::now();
            if begin >= self.window.closes {
                break;
            }
            let id = (self.worker << 40) | sequence;
            let request = connection.post_json(self.uri.clone(), (self.body)(id));
            let answer = tokio::time::timeout(REQUEST_TIMEOUT, request).await;
            let end = Instant::now();
            let failure = match answer {
                Ok(Ok((StatusCode::OK, _))) => {
                    outcome.acknowledged.push(id);
                    if end >= self.window.opens && end <= self.window.closes {
                        let micros = end.duration_since(begin).as_micros();
                        outcome
                            .latencies_us
                            .push(u32::try_from(micros).unwrap_or(u32::MAX));
                    }
                    continue;
                }
                Ok(Ok((status, body))) => {
                    outcome.errors += 1;
                    if outcome.first_error.is_none() {
                        let body = String::from_utf8_lossy(&body);
                        outcome.first_error = Some(format!("HTTP {status}: {body}"));
                    }
                    continue;
                }
                Ok(Err(error)) => error.to_string(),
                Err(_) => format!("no answer within {}s", REQUEST_TIMEOUT.as_secs()),
            };
            // The connection is in an unknown state: count the error and start afresh.
            outcome.errors += 1;
            if outcome.first_error.is_none() {
                outcome.first_error = Some(failure);
            }
            match Connection::open(self.address).await {
                Ok(fresh) => connection = fresh,
                Err(_) => break,
            }
        }
        outcome
    }
}
