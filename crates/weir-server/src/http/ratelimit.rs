//! Zulip's rate limiting: at most `limit` requests in any sliding 60-second window per
//! key (a user, or a bot for its webhooks).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::clock::now_unix;

pub const WINDOW: Duration = Duration::from_secs(60);

pub struct RateLimiter {
    limit: u32,
    hits: Mutex<HashMap<i64, VecDeque<Instant>>>,
}

/// What the `X-RateLimit-*` headers report after an allowed request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quota {
    pub limit: u32,
    pub remaining: u32,
    /// Unix time at which the window has room for the full limit again.
    pub reset_unix: i64,
}

/// A refused request: how long until one more is allowed, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Exceeded {
    pub retry_after: f64,
    pub quota: Quota,
}

impl RateLimiter {
    pub fn new(limit: u32) -> Self {
        Self {
            limit: limit.max(1),
            hits: Mutex::new(HashMap::new()),
        }
    }

    pub fn check(&self, key: i64) -> Result<Quota, Exceeded> {
        self.check_at(key, Instant::now())
    }

    /// Whether `key` is over the limit now, without counting a request.
    pub fn exceeded(&self, key: i64) -> Option<Exceeded> {
        let now = Instant::now();
        let hits = self.hits.lock().ok()?;
        let log = hits.get(&key)?;
        let live: Vec<Instant> = log
            .iter()
            .copied()
            .filter(|hit| now.duration_since(*hit) < WINDOW)
            .collect();
        if (live.len() as u32) < self.limit {
            return None;
        }
        let oldest = live.first().copied().unwrap_or(now);
        let newest = live.last().copied().unwrap_or(now);
        Some(Exceeded {
            retry_after: WINDOW.saturating_sub(now - oldest).as_secs_f64(),
            quota: Quota {
                limit: self.limit,
                remaining: 0,
                reset_unix: now_unix()
                    + WINDOW.saturating_sub(now - newest).as_secs_f64().ceil() as i64,
            },
        })
    }

    fn check_at(&self, key: i64, now: Instant) -> Result<Quota, Exceeded> {
        let Ok(mut hits) = self.hits.lock() else {
            // A poisoned limiter must not take the API down: let the request through.
            return Ok(Quota {
                limit: self.limit,
                remaining: self.limit,
                reset_unix: now_unix(),
            });
        };
        let log = hits.entry(key).or_default();
        while log
            .front()
            .is_some_and(|hit| now.duration_since(*hit) >= WINDOW)
        {
            log.pop_front();
        }
        let reset_in = |log: &VecDeque<Instant>| {
            log.back()
                .map_or(Duration::ZERO, |last| WINDOW.saturating_sub(now - *last))
        };
        if log.len() as u32 >= self.limit {
            let oldest = log.front().copied().unwrap_or(now);
            let retry_after = WINDOW.saturating_sub(now - oldest).as_secs_f64();
            let quota = Quota {
                limit: self.limit,
                remaining: 0,
                // Rounded up as for allowed requests, so that the header never moves
                // backwards from one answer to the next.
                reset_unix: now_unix() + reset_in(log).as_secs_f64().ceil() as i64,
            };
            return Err(Exceeded { retry_after, quota });
        }
        log.push_back(now);
        Ok(Quota {
            limit: self.limit,
            remaining: self.limit - log.len() as u32,
            reset_unix: now_unix() + reset_in(log).as_secs_f64().ceil() as i64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_limit_then_refuses_until_the_window_moves() {
        let limiter = RateLimiter::new(2);
        let start = Instant::now();
        assert_eq!(limiter.check_at(1, start).map(|q| q.remaining), Ok(1));
        assert_eq!(limiter.check_at(1, start).map(|q| q.remaining), Ok(0));
        let refused = limiter.check_at(1, start + Duration::from_secs(10));
        assert!(matches!(refused, Err(e) if (e.retry_after - 50.0).abs() < 0.01));
        assert!(limiter.check_at(2, start).is_ok(), "keys are independent");
        assert!(limiter.check_at(1, start + WINDOW).is_ok());
    }

    #[test]
    fn exceeded_tells_without_counting() {
        let limiter = RateLimiter::new(2);
        assert!(limiter.exceeded(7).is_none());
        assert!(limiter.check(7).is_ok());
        assert!(limiter.exceeded(7).is_none(), "one of two used");
        assert!(limiter.check(7).is_ok());
        let over = limiter.exceeded(7).map(|e| e.quota.remaining);
        assert_eq!(over, Some(0));
        assert!(limiter.exceeded(8).is_none(), "keys are independent");
    }
}
