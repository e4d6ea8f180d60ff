//! The wall clock as Unix time: the one place the app and the core read it (account and
//! journal timestamps, rate-limit headers, the local server's status).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Time since the Unix epoch; zero for a clock set before 1970 (no panic, no negative).
pub fn since_epoch() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

/// Unix seconds.
pub fn unix_seconds() -> i64 {
    i64::try_from(since_epoch().as_secs()).unwrap_or(i64::MAX)
}

/// Unix milliseconds.
pub fn unix_millis() -> i64 {
    i64::try_from(since_epoch().as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_milliseconds_agree() {
        let seconds = unix_seconds();
        let millis = unix_millis();
        assert!(seconds > 1_600_000_000, "{seconds}");
        assert!((millis / 1000 - seconds).abs() <= 1, "{millis} {seconds}");
    }
}
