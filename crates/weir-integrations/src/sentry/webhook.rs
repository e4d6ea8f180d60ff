//! Zulip's `transform_webhook_payload`: Sentry's plain webhooks (not its internal
//! integration) send the event without `web_url` and `datetime`; Zulip derives them from
//! the issue's `url` (Python's `urljoin`) and the event's Unix `timestamp`.

use serde_json::Value;

use super::{field, missing};
use crate::HandlerError;
use crate::pyvalue::{py_str, truthy};

/// The payload's `event` completed with `web_url` and `datetime`, or `None` when the
/// payload has no event id (then it is the deprecated plugin's).
pub(super) fn event(json: &Value) -> Result<Option<Value>, HandlerError> {
    let event = match json.get("event") {
        None => return Ok(None),
        Some(Value::Object(event)) => event,
        Some(_) => return Err(missing("event_id")),
    };
    let Some(event_id) = event.get("event_id").filter(|id| truthy(id)) else {
        return Ok(None);
    };
    let relative = format!("events/{}/", py_str(event_id));
    let web_url = match field(json, "url")? {
        base if !truthy(base) => relative,
        Value::String(base) => urljoin(base, &relative),
        _ => return Err(missing("url")),
    };
    // Zulip reads `received` even when `timestamp` is there.
    let received = event.get("received").ok_or_else(|| missing("received"))?;
    let (key, seconds) = match event.get("timestamp") {
        Some(timestamp) => ("timestamp", timestamp),
        None => ("received", received),
    };
    let datetime = utc_isoformat(seconds).ok_or_else(|| missing(key))?;
    let mut event = event.clone();
    event.insert("web_url".into(), Value::String(web_url));
    event.insert("datetime".into(), Value::String(datetime));
    Ok(Some(Value::Object(event)))
}

/// `datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="microseconds")`;
/// `None` where Python raises (not a number, outside years 1 to 9999).
fn utc_isoformat(seconds: &Value) -> Option<String> {
    let (mut whole, mut micros) = match seconds {
        Value::Bool(flag) => (i64::from(*flag), 0),
        Value::Number(number) => match number.as_i64() {
            Some(whole) => (whole, 0),
            None => {
                // Python splits with modf, rounds the fraction half to even.
                let float = number.as_f64()?;
                if !float.is_finite() || float.abs() > 1e12 {
                    return None;
                }
                let whole = float.trunc();
                let micros = (float.fract() * 1e6).round_ties_even();
                (whole as i64, micros as i64)
            }
        },
        _ => return None,
    };
    if micros >= 1_000_000 {
        micros -= 1_000_000;
        whole += 1;
    } else if micros < 0 {
        micros += 1_000_000;
        whole -= 1;
    }
    let days = whole.div_euclid(86_400);
    let clock = whole.rem_euclid(86_400);
    let (year, month, day) = crate::time::civil_from_days(days);
    if !(1..=9999).contains(&year) {
        return None;
    }
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{micros:06}+00:00",
        clock / 3600,
        clock / 60 % 60,
        clock % 60,
    ))
}

/// Schemes Python's `urljoin` resolves against (`urllib.parse.uses_relative`).
const USES_RELATIVE: &[&str] = &[
    "", "ftp", "http", "gopher", "nntp", "imap", "wais", "file", "https", "shttp", "mms",
    "prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss",
];

/// A URL's parts as `urllib.parse.urlparse` splits them.
struct Parts<'a> {
    scheme: String,
    netloc: Option<&'a str>,
    path: &'a str,
    params: &'a str,
    query: &'a str,
    fragment: &'a str,
}

fn urlparse(url: &str) -> Parts<'_> {
    let mut rest = url;
    let mut scheme = String::new();
    if let Some(colon) = rest.find(':')
        && rest.starts_with(|c: char| c.is_ascii_alphabetic())
        && rest[..colon]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        scheme = rest[..colon].to_ascii_lowercase();
        rest = &rest[colon + 1..];
    }
    let mut netloc = None;
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        netloc = Some(&after[..end]);
        rest = &after[end..];
    }
    let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let (mut path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let mut params = "";
    // Only the last segment carries parameters.
    let last = path.rfind('/').map_or(0, |slash| slash);
    if let Some(semicolon) = path[last..].find(';') {
        params = &path[last + semicolon + 1..];
        path = &path[..last + semicolon];
    }
    Parts {
        scheme,
        netloc,
        path,
        params,
        query,
        fragment,
    }
}

/// Python's `urljoin(base, relative)` for a `relative` path with no scheme or host (what
/// Zulip joins: `events/<id>/`).
fn urljoin(base: &str, relative: &str) -> String {
    let clean = |url: &str| -> String {
        url.trim_start_matches(|c: char| c <= ' ')
            .chars()
            .filter(|c| !matches!(c, '\t' | '\r' | '\n'))
            .collect()
    };
    let (base, relative) = (clean(base), clean(relative));
    let base_parts = urlparse(&base);
    let rel = urlparse(&relative);
    if !rel.scheme.is_empty() && rel.scheme != base_parts.scheme
        || !USES_RELATIVE.contains(&base_parts.scheme.as_str())
    {
        return relative;
    }
    let netloc = rel.netloc.or(base_parts.netloc).unwrap_or("");
    let mut base_segments: Vec<&str> = base_parts.path.split('/').collect();
    if base_segments.last().is_some_and(|last| !last.is_empty()) {
        base_segments.pop();
    }
    let mut segments: Vec<&str> = if rel.path.starts_with('/') {
        rel.path.split('/').collect()
    } else {
        let mut all = base_segments;
        all.extend(rel.path.split('/'));
        // Python drops empty segments between the first and the last.
        let count = all.len();
        let mut kept = Vec::with_capacity(count);
        for (index, segment) in all.into_iter().enumerate() {
            if index == 0 || index + 1 == count || !segment.is_empty() {
                kept.push(segment);
            }
        }
        kept
    };
    let ends_in_dots = matches!(segments.last(), Some(&"." | &".."));
    let mut resolved: Vec<&str> = Vec::new();
    for segment in segments.drain(..) {
        match segment {
            ".." => {
                resolved.pop();
            }
            "." => {}
            other => resolved.push(other),
        }
    }
    if ends_in_dots {
        resolved.push("");
    }
    let mut path = resolved.join("/");
    if path.is_empty() {
        path.push('/');
    }
    if !rel.params.is_empty() {
        path = format!("{path};{}", rel.params);
    }
    let mut url = String::new();
    if !base_parts.scheme.is_empty() {
        url.push_str(&base_parts.scheme);
        url.push(':');
    }
    if !netloc.is_empty() || !base_parts.scheme.is_empty() && !path.starts_with("//") {
        url.push_str("//");
        url.push_str(netloc);
        if !path.starts_with('/') {
            url.push('/');
        }
    }
    url.push_str(&path);
    for (mark, part) in [('?', rel.query), ('#', rel.fragment)] {
        if !part.is_empty() {
            url.push(mark);
            url.push_str(part);
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn urljoin_resolves_as_python_does() {
        let cases = [
            (
                "https://s.io/o/x/issues/1/",
                "events/e/",
                "https://s.io/o/x/issues/1/events/e/",
            ),
            (
                "https://s.io/o/x/issues/1",
                "events/e/",
                "https://s.io/o/x/issues/events/e/",
            ),
            ("https://s.io", "events/e/", "https://s.io/events/e/"),
            (
                "https://s.io/a/?q=1#f",
                "events/e/",
                "https://s.io/a/events/e/",
            ),
            (
                "https://s.io/a//b/",
                "events/e/",
                "https://s.io/a/b/events/e/",
            ),
            ("https://s.io/a/b/", "events/../x/", "https://s.io/a/b/x/"),
            (
                "https://s.io/a/",
                "events/e?x=1/",
                "https://s.io/a/events/e?x=1/",
            ),
            ("mailto:someone", "events/e/", "events/e/"),
            ("relative/path", "events/e/", "relative/events/e/"),
        ];
        for (base, relative, joined) in cases {
            assert_eq!(urljoin(base, relative), joined, "{base} + {relative}");
        }
    }

    #[test]
    fn timestamps_print_as_pythons_isoformat() {
        let cases = [
            (json!(1_603_322_711.0), "2020-10-21T23:25:11.000000+00:00"),
            (
                json!(1_603_322_711.123_456_7),
                "2020-10-21T23:25:11.123457+00:00",
            ),
            (json!(0), "1970-01-01T00:00:00.000000+00:00"),
            (json!(-1.5), "1969-12-31T23:59:58.500000+00:00"),
            (json!(951_782_400), "2000-02-29T00:00:00.000000+00:00"),
            (
                json!(253_402_300_799_i64),
                "9999-12-31T23:59:59.000000+00:00",
            ),
        ];
        for (seconds, printed) in cases {
            assert_eq!(
                utc_isoformat(&seconds).as_deref(),
                Some(printed),
                "{seconds}"
            );
        }
        for bad in [
            json!(253_402_300_800_i64),
            json!("1"),
            json!(null),
            json!(-62_135_596_801_i64),
        ] {
            assert_eq!(utc_isoformat(&bad), None, "{bad}");
        }
    }
}
