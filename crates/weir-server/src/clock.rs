//! Wall-clock helpers without a date-time dependency.

use std::time::{SystemTime, UNIX_EPOCH};

use weir_render::civil_from_days;

pub fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs() as i64)
}

/// Unix seconds as ISO 8601 in UTC (`2024-05-01T09:30:00+00:00`), Zulip's `date_joined` form.
pub fn iso8601(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let seconds = unix.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00",
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00+00:00");
        assert_eq!(iso8601(1_709_251_199), "2024-02-29T23:59:59+00:00");
    }
}
