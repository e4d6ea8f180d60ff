//! GitHub Sponsors' events, which Zulip's GitHub view also handles (its `githubsponsors`
//! integration is the same view).

use serde_json::Value;

use super::{HandlerError, field, missing, sender_name, string};
use crate::git;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The body of a sponsors event; any other name is a missing `action` (the handler only
/// calls this with Zulip's sponsors event names).
pub(super) fn body(json: &Value, event: &str) -> Result<String, HandlerError> {
    let user = sender_name(json)?;
    let message = match event {
        "cancelled" => format!("{user} cancelled their {} subscription.", tier(json)?),
        "created" => format!("{user} subscribed for {}.", tier(json)?),
        "edited" => format!(
            "{user} changed who can see their sponsorship from {} to {}.",
            string(field(field(json, "changes")?, "privacy_level")?, "from")?,
            string(field(json, "sponsorship")?, "privacy_level")?
        ),
        "pending_cancellation" => format!(
            "{user}'s {} subscription will be cancelled on {}.",
            tier(json)?,
            effective_date(json)?
        ),
        "pending_tier_change" => format!(
            "{user}'s subscription will change from {} to {} on {}.",
            prior_tier(json)?,
            tier(json)?,
            effective_date(json)?
        ),
        "tier_changed" => format!(
            "{user} changed their subscription from {} to {}.",
            prior_tier(json)?,
            tier(json)?
        ),
        _ => return Err(missing("action")),
    };
    Ok(git::rstrip(&message).to_owned())
}

/// `sponsorship.tier.name`.
fn tier(json: &Value) -> Result<&str, HandlerError> {
    string(field(field(json, "sponsorship")?, "tier")?, "name")
}

/// `changes.tier.from.name`.
fn prior_tier(json: &Value) -> Result<&str, HandlerError> {
    string(
        field(field(field(json, "changes")?, "tier")?, "from")?,
        "name",
    )
}

/// `effective_date`'s first ten characters as Python's `%Y-%m-%d`, written `%B %d, %Y`
/// (`January 05, 2020`).
fn effective_date(json: &Value) -> Result<String, HandlerError> {
    let date: String = string(json, "effective_date")?.chars().take(10).collect();
    parse_date(&date).ok_or_else(|| missing("effective_date"))
}

fn parse_date(date: &str) -> Option<String> {
    let mut parts = date.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |text: &str, lengths: std::ops::RangeInclusive<usize>| {
        (lengths.contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse::<u32>().ok())
            .flatten()
    };
    let (year, month, day) = (
        digits(year, 4..=4)?,
        digits(month, 1..=2)?,
        digits(day, 1..=2)?,
    );
    if parts.next().is_some() || year == 0 {
        return None;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    if !(1..=days).contains(&day) {
        return None;
    }
    let name = MONTHS.get(usize::try_from(month).ok()?.checked_sub(1)?)?;
    Some(format!("{name} {day:02}, {year:04}"))
}

#[cfg(test)]
mod tests {
    use super::parse_date;

    #[test]
    fn dates_read_as_python_writes_them() {
        assert_eq!(
            parse_date("2020-01-05").as_deref(),
            Some("January 05, 2020")
        );
        assert_eq!(
            parse_date("2019-12-30").as_deref(),
            Some("December 30, 2019")
        );
        assert_eq!(parse_date("2024-2-9").as_deref(), Some("February 09, 2024"));
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(parse_date("2020-13-01"), None);
        assert_eq!(parse_date("20-01-01"), None);
        assert_eq!(parse_date("2020-01-05T"), None);
    }
}
