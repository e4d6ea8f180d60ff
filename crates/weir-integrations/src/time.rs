//! Zulip's global times (`<time:2022-08-31T05:54:04+00:00>`, `datetime_to_global_time`)
//! from an ISO 8601 text as Python's `datetime.fromisoformat` reads it, or from a Unix
//! time. Whole seconds; the text's own offset is kept, as Python keeps it.

/// `<time:…>` of an ISO 8601 date and time, or `None` where Python raises `ValueError`.
pub(crate) fn global_time_from_iso(text: &str) -> Option<String> {
    let (date, rest) = split_date(text)?;
    let (year, month, day) = date;
    if !valid_date(year, month, day) {
        return None;
    }
    let (time, offset) = match rest {
        None => ((0, 0, 0), None),
        Some(rest) => parse_time(rest)?,
    };
    let (hour, minute, second) = time;
    let mut out = format!("<time:{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}");
    if let Some(seconds) = offset {
        out.push_str(&format_offset(seconds));
    }
    out.push('>');
    Some(out)
}

/// `<time:…>` of a Unix time, in UTC (`datetime.fromtimestamp(ts, timezone.utc)`), or
/// `None` outside Python's years 1 to 9999.
pub(crate) fn global_time_from_unix(seconds: i64) -> Option<String> {
    let days = seconds.div_euclid(86_400);
    let in_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    if !(1..=9999).contains(&year) {
        return None;
    }
    let (hour, minute, second) = (in_day / 3600, in_day % 3600 / 60, in_day % 60);
    Some(format!(
        "<time:{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}+00:00>"
    ))
}

type Date = (i64, u32, u32);

/// The date (`YYYY-MM-DD` or `YYYYMMDD`) and what follows its one-character separator.
fn split_date(text: &str) -> Option<(Date, Option<&str>)> {
    let (date, rest) = if text.as_bytes().get(4) == Some(&b'-') {
        (text.get(..10)?, text.get(10..)?)
    } else {
        (text.get(..8)?, text.get(8..)?)
    };
    let digits: String = date.chars().filter(|c| *c != '-').collect();
    if digits.len() != 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if date.len() == 10 && (date.as_bytes()[4] != b'-' || date.as_bytes()[7] != b'-') {
        return None;
    }
    let year = digits[..4].parse().ok()?;
    let month = digits[4..6].parse().ok()?;
    let day = digits[6..].parse().ok()?;
    let mut rest_chars = rest.chars();
    // Python takes any one character between the date and the time.
    let time = rest_chars.next().map(|_| rest_chars.as_str());
    Some(((year, month, day), time))
}

type Clock = (u32, u32, u32);

/// `HH[:MM[:SS[.f…]]]` (or without colons) and an optional `Z` / `±HH[:MM[:SS]]` offset,
/// in seconds east of UTC.
fn parse_time(text: &str) -> Option<(Clock, Option<i64>)> {
    let split = text.find(['Z', 'z', '+', '-']);
    let (clock, zone) = match split {
        Some(at) => (&text[..at], Some(&text[at..])),
        None => (text, None),
    };
    let (clock, fraction) = match clock.find(['.', ',']) {
        Some(at) => (&clock[..at], Some(&clock[at + 1..])),
        None => (clock, None),
    };
    if fraction
        .is_some_and(|digits| digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let [hour, minute, second] = fields(clock)?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let offset = match zone {
        None => None,
        Some("Z" | "z") => Some(0),
        Some(zone) => {
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            let [hours, minutes, seconds] = fields(&zone[1..])?;
            if hours > 23 || minutes > 59 || seconds > 59 {
                return None;
            }
            Some(sign * i64::from(hours * 3600 + minutes * 60 + seconds))
        }
    };
    Some(((hour, minute, second), offset))
}

/// Up to three two-digit fields, with colons between all of them or none.
fn fields(text: &str) -> Option<[u32; 3]> {
    let parts: Vec<&str> = if text.contains(':') {
        text.split(':').collect()
    } else {
        let mut parts = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (part, tail) = rest.split_at(2.min(rest.len()));
            parts.push(part);
            rest = tail;
        }
        parts
    };
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut out = [0; 3];
    for (slot, part) in out.iter_mut().zip(&parts) {
        if part.len() != 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse().ok()?;
    }
    Some(out)
}

fn format_offset(seconds: i64) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let seconds = seconds.abs();
    let (hours, minutes, rest) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    if rest == 0 {
        format!("{sign}{hours:02}:{minutes:02}")
    } else {
        format!("{sign}{hours:02}:{minutes:02}:{rest:02}")
    }
}

fn valid_date(year: i64, month: u32, day: u32) -> bool {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=9999).contains(&year) && (1..=days).contains(&day)
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to a proleptic Gregorian date
/// (Sentry's and Grafana's times; weir-render keeps its own for `<time:…>`).
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_as_python_reads_them() {
        for (text, global) in [
            (
                "2022-08-31T05:54:04.52289368Z",
                Some("<time:2022-08-31T05:54:04+00:00>"),
            ),
            (
                "2021-10-12T09:51:03.157076+02:00",
                Some("<time:2021-10-12T09:51:03+02:00>"),
            ),
            (
                "2024-03-01T02:09:00Z",
                Some("<time:2024-03-01T02:09:00+00:00>"),
            ),
            (
                "2024-03-01 02:09-0530",
                Some("<time:2024-03-01T02:09:00-05:30>"),
            ),
            ("20240301T020900", Some("<time:2024-03-01T02:09:00>")),
            ("2024-02-29", Some("<time:2024-02-29T00:00:00>")),
            ("2023-02-29T00:00:00Z", None),
            ("2024-03-01T24:00:00Z", None),
            ("2024-03-01T02:09:00.Z", None),
            ("yesterday", None),
            ("", None),
            ("2024-03-01T0", None),
        ] {
            assert_eq!(global_time_from_iso(text).as_deref(), global, "{text}");
        }
    }

    #[test]
    fn unix_times_in_utc() {
        assert_eq!(
            global_time_from_unix(1_655_945_306).as_deref(),
            Some("<time:2022-06-23T00:48:26+00:00>")
        );
        assert_eq!(
            global_time_from_unix(0).as_deref(),
            Some("<time:1970-01-01T00:00:00+00:00>")
        );
        assert_eq!(
            global_time_from_unix(-1).as_deref(),
            Some("<time:1969-12-31T23:59:59+00:00>")
        );
        assert_eq!(global_time_from_unix(i64::MAX), None);
        assert_eq!(global_time_from_unix(i64::MIN), None);
    }
}
