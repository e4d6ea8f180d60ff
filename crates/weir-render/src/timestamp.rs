//! Zulip's `<time:…>` syntax: the time a message names, shown in each reader's own
//! time zone by the clients. Zulip's server reads the text with `dateutil` (or as a
//! Unix timestamp) and stores `<time datetime="…Z">text</time>`, or
//! `<span class="timestamp-error">Invalid time format: text</span>`.
//!
//! `dateutil` accepts almost anything; this reads what people and the composer's time
//! picker write: ISO 8601 (`2017-06-05T22:30:00+02:00`), day, month name and year in
//! any order with an optional time (`Jun 5th 2017, 10:30PM`, `31 Dec 2017 5:30 am IST`),
//! `M/D/YYYY`, and Unix timestamps. A date without a year, month and day is refused
//! (`dateutil` would fill in today's: a preview would change from day to day).

use std::fmt::Write as _;

use super::sanitize::escape_text;

/// Longest `<time:…>` body looked at; Zulip's messages are 10,000 characters at most.
const MAX_LEN: usize = 256;

/// If `text` starts with `<time:…>`, its length and the HTML it becomes.
pub(super) fn timestamp_at(text: &str) -> Option<(usize, String)> {
    let body = text.strip_prefix("<time:")?;
    let window = (0..=MAX_LEN.min(body.len()))
        .rev()
        .find(|&i| body.is_char_boundary(i))
        .unwrap_or(0);
    let end = body[..window].find(['>', '\n'])?;
    if !body[end..].starts_with('>') {
        return None;
    }
    let input = &body[..end];
    let mut html = String::new();
    match parse(input) {
        Some(datetime) => {
            let _ = write!(html, "<time datetime=\"{datetime}\">");
            escape_text(&mut html, input);
            html.push_str("</time>");
        }
        None => {
            html.push_str("<span class=\"timestamp-error\">Invalid time format: ");
            escape_text(&mut html, input);
            html.push_str("</span>");
        }
    }
    Some(("<time:".len() + end + 1, html))
}

/// A moment as UTC seconds since the epoch plus microseconds.
struct Moment {
    seconds: i64,
    micros: u32,
}

impl std::fmt::Display for Moment {
    /// Python's `isoformat()` with `+00:00` written `Z`, as Zulip stores it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let days = self.seconds.div_euclid(86_400);
        let secs = self.seconds.rem_euclid(86_400);
        let (y, m, d) = crate::civil::civil_from_days(days);
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )?;
        if self.micros > 0 {
            write!(f, ".{:06}", self.micros)?;
        }
        f.write_str("Z")
    }
}

fn parse(input: &str) -> Option<Moment> {
    let input = input.trim();
    if input.is_empty() {
        return None;
    }
    if let Ok(unix) = input.parse::<f64>()
        && input
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
    {
        return from_unix(unix);
    }
    parse_date(input)
}

fn from_unix(unix: f64) -> Option<Moment> {
    // Python's datetime covers years 1 to 9999.
    if !unix.is_finite() || !(-62_135_596_800.0..253_402_300_800.0).contains(&unix) {
        return None;
    }
    let seconds = unix.floor();
    let micros = ((unix - seconds) * 1_000_000.0).round() as u32;
    Some(Moment {
        seconds: seconds as i64,
        micros: micros.min(999_999),
    })
}

#[derive(Default)]
struct Fields {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    hour: i64,
    minute: i64,
    second: i64,
    micros: u32,
    pm: Option<bool>,
    /// Offset east of UTC, in seconds.
    offset: Option<i64>,
}

fn parse_date(input: &str) -> Option<Moment> {
    let mut fields = Fields::default();
    for word in input.split(|c: char| c.is_whitespace() || c == ',') {
        if !word.is_empty() {
            fields.word(word)?;
        }
    }
    let (year, month, day) = (fields.year?, fields.month?, fields.day?);
    if !(1..=9999).contains(&year) || day < 1 || day > days_in_month(year, month)? {
        return None;
    }
    let mut hour = fields.hour;
    match fields.pm {
        Some(_) if !(1..=12).contains(&hour) => return None,
        Some(true) if hour < 12 => hour += 12,
        Some(false) if hour == 12 => hour = 0,
        _ => {}
    }
    if hour > 23 || fields.minute > 59 || fields.second > 59 {
        return None;
    }
    let local = days_from_civil(year, month, day) * 86_400
        + hour * 3600
        + fields.minute * 60
        + fields.second;
    Some(Moment {
        seconds: local - fields.offset.unwrap_or(0),
        micros: fields.micros,
    })
}

impl Fields {
    /// Takes in one word of the input; `None` when it means nothing known.
    fn word(&mut self, word: &str) -> Option<()> {
        let lower = word.to_ascii_lowercase();
        if let Some(month) = month(&lower) {
            return set(&mut self.month, month);
        }
        if WEEKDAYS
            .iter()
            .any(|day| lower.starts_with(day) && lower.len() <= 9)
        {
            return Some(());
        }
        if let Some(offset) = zone(&lower) {
            return set(&mut self.offset, offset);
        }
        match lower.as_str() {
            "am" | "a.m." => return set(&mut self.pm, false),
            "pm" | "p.m." => return set(&mut self.pm, true),
            "at" | "on" | "of" => return Some(()),
            _ => {}
        }
        // ISO 8601: a date, then `T` and a time with an optional offset.
        if let Some((date, time)) = lower.split_once('t')
            && date.contains('-')
        {
            self.word(date)?;
            return self.time_with_zone(time);
        }
        // `10:30PM`, `10pm`.
        if let Some(time) = lower
            .strip_suffix("am")
            .or_else(|| lower.strip_suffix("pm"))
            && time.starts_with(|c: char| c.is_ascii_digit())
        {
            if time.contains(':') {
                self.time_with_zone(time)?;
            } else {
                self.hour = number(time)?;
            }
            return set(&mut self.pm, lower.ends_with("pm"));
        }
        if lower.contains(':') {
            return self.time_with_zone(&lower);
        }
        for separator in ['-', '/'] {
            let parts: Vec<&str> = lower.split(separator).collect();
            if let [a, b, c] = parts[..] {
                let (a, b, c) = (number(a)?, number(b)?, number(c)?);
                // `2017-06-05`, or `6/5/2017` month first as dateutil reads it.
                let (year, month, day) = if a > 31 { (a, b, c) } else { (c, a, b) };
                set(&mut self.year, year)?;
                set(&mut self.month, month)?;
                return set(&mut self.day, day);
            }
        }
        let digits = ["st", "nd", "rd", "th"]
            .iter()
            .find_map(|suffix| lower.strip_suffix(suffix))
            .unwrap_or(&lower);
        let value = number(digits)?;
        if digits.len() <= 2 && self.day.is_none() {
            set(&mut self.day, value)
        } else {
            set(&mut self.year, value)
        }
    }

    /// `22:30`, `22:30:15.5`, each optionally followed by `z` or an offset.
    fn time_with_zone(&mut self, time: &str) -> Option<()> {
        let (time, offset) = match time.find(['z', '+', '-']) {
            Some(at) => (&time[..at], Some(zone(&time[at..])?)),
            None => (time, None),
        };
        if let Some(offset) = offset {
            set(&mut self.offset, offset)?;
        }
        let mut parts = time.split(':');
        self.hour = number(parts.next()?)?;
        self.minute = number(parts.next()?)?;
        if let Some(seconds) = parts.next() {
            let (whole, fraction) = seconds.split_once('.').unwrap_or((seconds, ""));
            self.second = number(whole)?;
            if !fraction.is_empty() {
                let digits: String = fraction.chars().chain("000000".chars()).take(6).collect();
                self.micros = u32::try_from(number(&digits)?).ok()?;
            }
        }
        parts.next().is_none().then_some(())
    }
}

/// Sets a field once; a second value (two years, two zones) makes the input invalid.
fn set<T>(field: &mut Option<T>, value: T) -> Option<()> {
    field.is_none().then(|| *field = Some(value))
}

fn number(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 10 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

fn month(word: &str) -> Option<i64> {
    let word = word.trim_end_matches('.');
    let index = MONTHS.iter().zip(MONTH_NAMES).position(|(short, long)| {
        word == *short || word == long || (word == "sept" && *short == "sep")
    })?;
    i64::try_from(index + 1).ok()
}

/// UTC offsets (seconds east) of `z`, `utc`, common abbreviations (Zulip's own table
/// has these among others) and `+hh:mm`/`-hhmm`/`+hh` offsets.
fn zone(word: &str) -> Option<i64> {
    let hours = match word {
        "z" | "utc" | "gmt" => Some(0.0),
        "ist" => Some(5.5),
        "est" => Some(-5.0),
        "edt" => Some(-4.0),
        "cst" => Some(-6.0),
        "cdt" => Some(-5.0),
        "mst" => Some(-7.0),
        "mdt" => Some(-6.0),
        "pst" => Some(-8.0),
        "pdt" => Some(-7.0),
        "cet" => Some(1.0),
        "cest" => Some(2.0),
        "bst" => Some(1.0),
        "eet" => Some(2.0),
        "eest" => Some(3.0),
        "jst" => Some(9.0),
        "aest" => Some(10.0),
        _ => None,
    };
    if let Some(hours) = hours {
        return Some((hours * 3600.0_f64) as i64);
    }
    let sign = match word.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: String = word[1..].chars().filter(|&c| c != ':').collect();
    let (h, m) = match digits.len() {
        2 => (number(&digits)?, 0),
        4 => (number(&digits[..2])?, number(&digits[2..])?),
        _ => return None,
    };
    (h < 24 && m < 60).then_some(sign * (h * 3600 + m * 60))
}

fn days_in_month(year: i64, month: i64) -> Option<i64> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    Some(match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datetime(input: &str) -> Option<String> {
        parse(input).map(|moment| moment.to_string())
    }

    #[test]
    fn zulips_examples() {
        let cases = [
            ("1496701800", "2017-06-05T22:30:00Z"),
            ("Jun 5th 2017, 10:30PM", "2017-06-05T22:30:00Z"),
            ("31 Dec 2017", "2017-12-31T00:00:00Z"),
            ("31 Dec 2017 5:30 am IST", "2017-12-31T00:00:00Z"),
            ("2017-06-05T22:30:00+02:00", "2017-06-05T20:30:00Z"),
            ("2024-02-29 23:59:59.25Z", "2024-02-29T23:59:59.250000Z"),
            ("12/31/1999 12:00 am", "1999-12-31T00:00:00Z"),
            (
                "Monday, January 1st 2024 at 9:05 pm PST",
                "2024-01-02T05:05:00Z",
            ),
            ("1496701800.5", "2017-06-05T22:30:00.500000Z"),
        ];
        for (input, expected) in cases {
            assert_eq!(datetime(input).as_deref(), Some(expected), "{input}");
        }
    }

    #[test]
    fn nonsense_and_partial_dates_are_refused() {
        for input in [
            "",
            "**hello world**",
            "<alert(1)",
            "Jun 5th",
            "31 Feb 2017",
            "25:00 1 Jan 2017",
            "1 Jan 2017 2017",
            "1e400",
            "99999999999999999999",
            "13:00 pm 1 Jan 2017",
        ] {
            assert_eq!(datetime(input), None, "{input}");
        }
    }

    #[test]
    fn markup_is_zulips() {
        assert_eq!(
            timestamp_at("<time:1496701800>."),
            Some((
                17,
                "<time datetime=\"2017-06-05T22:30:00Z\">1496701800</time>".to_owned()
            ))
        );
        assert_eq!(
            timestamp_at("<time:<alert(1)>>"),
            Some((
                16,
                "<span class=\"timestamp-error\">Invalid time format: &lt;alert(1)</span>"
                    .to_owned()
            ))
        );
        assert_eq!(timestamp_at("<time:x\n>"), None);
        assert_eq!(timestamp_at("<time:x"), None);
        let long = format!("<time:{}>", "é".repeat(200));
        assert_eq!(timestamp_at(&long), None);
    }
}
