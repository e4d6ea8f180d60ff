//! Slack's text conventions turned into Zulip's Markdown, as Zulip's
//! `slack_message_conversion` turns them: `<url|label>` links, `<mailto:…>` addresses,
//! `*bold*`, `~strike~` and `_italic_`; and the URL check (Django's `URLValidator`) that
//! decides whether an image or a title link is kept.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// Zulip's `LINK_REGEX` (case-sensitive, as Zulip's is).
static LINK: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"<(http://www\.|https://www\.|http://|https://|ftp://)?([a-z0-9]+([\-.][a-z0-9]+)*)(\.)([a-z]{2,63}(:[0-9]{1,5})?)(/[^>]*)?(\|)?(?:\|([^>]+))?(>)",
    )
    .ok()
});

/// Zulip's `SLACK_MAILTO_REGEX`.
static MAILTO: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"<((mailto:)?([\w.-]+@[\w.-]+(\.\w+)+))(\|)?([\w.-]+@[\w.-]+(\.\w+)+)?>").ok()
});

/// The characters Zulip's formatting patterns take as a word boundary.
static BOUNDARY: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\A[\p{P}\p{Zs}\p{S}]\z").ok());
/// Closing punctuation, which may not come before a marker.
static CLOSING: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\A[\p{Pf}\p{Pe}]\z").ok());
/// Opening punctuation, which may not come after one.
static OPENING: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\A[\p{Pi}\p{Ps}]\z").ok());

fn is(class: &LazyLock<Option<Regex>>, c: char) -> bool {
    let mut buffer = [0; 4];
    class
        .as_ref()
        .is_some_and(|regex| regex.is_match(c.encode_utf8(&mut buffer)))
}

/// Zulip's `replace_links`: `<https://a.b|label>` to `[label](https://a.b)`,
/// `<https://a.b>` to `https://a.b`, `<mailto:x@a.b|x@a.b>` to `mailto:x@a.b`. Zulip
/// replaces each matched text everywhere it occurs; one pass over the matches gives the
/// same text but where one match's text reappears inside another's.
pub(super) fn replace_links(text: &str) -> String {
    let linked = match LINK.as_ref() {
        Some(link) => link
            .replace_all(text, |found: &Captures<'_>| {
                let whole = &found[0];
                let inner = &whole[1..whole.len() - 1];
                match inner.split_once('|') {
                    Some((url, label)) => format!("[{label}]({url})"),
                    None => inner.to_owned(),
                }
            })
            .into_owned(),
        None => text.to_owned(),
    };
    match MAILTO.as_ref() {
        Some(mailto) => mailto.replace_all(&linked, "${1}").into_owned(),
        None => linked,
    }
}

/// Zulip's `convert_slack_formatting`: bold, then strikethrough, then italics.
pub(super) fn convert_slack_formatting(text: &str) -> String {
    let text = convert(text, '*', "**");
    let text = convert(&text, '~', "~~");
    convert(&text, '_', "*")
}

/// One of Zulip's `SLACK_*_REGEX` substitutions, scanned by hand (the pattern needs
/// look-ahead): a `marker` pair around text without the marker, opened at the start of a
/// line or after a boundary character, closed before one or at the end of a line.
fn convert(text: &str, marker: char, zulip: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let line_start = at == 0 || chars[at - 1] == '\n';
        // The pattern's first alternative consumes a boundary character; its second is
        // the start of a line.
        let opener = if chars[at] != marker && opens(chars[at], marker) {
            Some(at + 1)
        } else if chars[at] == marker && line_start {
            Some(at)
        } else {
            None
        };
        if let Some(open) = opener
            && let Some(close) = closing(&chars, open, marker)
        {
            out.extend(&chars[at..open]);
            out.push_str(zulip);
            out.extend(&chars[open + 1..close]);
            out.push_str(zulip);
            at = close + 1;
            continue;
        }
        out.push(chars[at]);
        at += 1;
    }
    out
}

/// The closing marker's index, when `open` holds a marker whose pair closes properly.
fn closing(chars: &[char], open: usize, marker: char) -> Option<usize> {
    if chars.get(open) != Some(&marker) {
        return None;
    }
    let offset = chars[open + 1..].iter().position(|c| *c == marker)?;
    if offset == 0 {
        return None;
    }
    let close = open + 1 + offset;
    match chars.get(close + 1) {
        None | Some('\n') => Some(close),
        Some(&next) if closes(next, marker) => Some(close),
        Some(_) => None,
    }
}

fn opens(c: char, marker: char) -> bool {
    if c.is_ascii() {
        return ascii_boundary(c, marker) && !matches!(c, ')' | ']' | '}');
    }
    is(&BOUNDARY, c) && !is(&CLOSING, c)
}

fn closes(c: char, marker: char) -> bool {
    if c.is_ascii() {
        return ascii_boundary(c, marker) && !matches!(c, '(' | '[' | '{');
    }
    is(&BOUNDARY, c) && !is(&OPENING, c)
}

/// ASCII's punctuation, symbols and space (the classes' ASCII part, without a regex per
/// character), less the characters no marker may touch.
fn ascii_boundary(c: char, marker: char) -> bool {
    (c == ' ' || c.is_ascii_punctuation()) && !matches!(c, '`' | '@' | '\\') && c != marker
}

/// Django's `URLValidator` with its default schemes (Zulip's `check_url`), closely:
/// `http`, `https`, `ftp` or `ftps`; a host name with a top-level domain, `localhost`,
/// an IPv4 or a bracketed IPv6 address; an optional port; no white space.
pub(super) fn is_url(url: &str) -> bool {
    if url.len() > 2048 || url.chars().any(char::is_whitespace) {
        return false;
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return false;
    };
    if !["http", "https", "ftp", "ftps"].contains(&scheme.to_ascii_lowercase().as_str()) {
        return false;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let (host, port) = if let Some(v6) = host_port.strip_prefix('[') {
        match v6.split_once(']') {
            Some((address, port)) if address.contains(':') => ("[v6]", port),
            _ => return false,
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((host, _)) => (host, &host_port[host.len()..]),
            None => (host_port, ""),
        }
    };
    if !port.is_empty() {
        let digits = port.strip_prefix(':').unwrap_or("x");
        if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    host == "[v6]" || host.eq_ignore_ascii_case("localhost") || is_ipv4(host) || is_hostname(host)
}

fn is_ipv4(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|part| {
            !part.is_empty()
                && part.len() <= 3
                && part.bytes().all(|b| b.is_ascii_digit())
                && part.parse::<u8>().is_ok()
        })
}

fn is_hostname(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let labels: Vec<&str> = host.split('.').collect();
    let Some((tld, names)) = labels.split_last() else {
        return false;
    };
    let label_ok = |label: &&str| {
        !label.is_empty()
            && label.chars().count() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || u32::from(c) >= 0xa1)
    };
    let tld_ok = tld.starts_with("xn--")
        || (tld.chars().count() >= 2 && tld.chars().all(|c| c.is_alphabetic()));
    !names.is_empty() && names.iter().all(label_ok) && tld_ok
}

/// `requests.utils.requote_uri`: what may not stand in a URL percent-encoded, the rest
/// (escapes included) kept.
pub(super) fn requote(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        if c.is_ascii_alphanumeric() || "-._~!#$%&'()*+,/:;=?@[]".contains(c) {
            out.push(c);
        } else {
            let mut buffer = [0; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatting_as_zulips_tests_expect() {
        for (slack, zulip) in [
            ("some *foo* word", "some **foo** word"),
            ("*foo*", "**foo**"),
            ("*foo* *bar*", "**foo** **bar**"),
            ("*foo*a*bar*", "*foo*a*bar*"),
            ("some _foo_ word", "some *foo* word"),
            ("~gone~ and _it_", "~~gone~~ and *it*"),
            ("(*a*)", "(**a**)"),
            ("a\n*b*\nc", "a\n**b**\nc"),
            ("@*a*", "@*a*"),
            ("*a* (", "**a** ("),
            ("*a*(", "*a*("),
            ("snake_case_name", "snake_case_name"),
            ("**", "**"),
        ] {
            assert_eq!(convert_slack_formatting(slack), zulip, "{slack}");
        }
    }

    #[test]
    fn links_and_addresses() {
        assert_eq!(
            replace_links("<https://google.com|Overlook Hotel> and <http://a.io/x>"),
            "[Overlook Hotel](https://google.com) and http://a.io/x"
        );
        assert_eq!(
            replace_links("<mailto:ann@a.org|ann@a.org>, <ann@a.org>"),
            "mailto:ann@a.org, ann@a.org"
        );
        assert_eq!(replace_links("<HTTPS://A.COM>"), "<HTTPS://A.COM>");
    }

    #[test]
    fn urls_as_django_validates_them() {
        for (url, valid) in [
            ("https://pbs.twimg.com/profile_images/1/a_400x400.jpg", true),
            ("http://localhost:3000/", true),
            ("ftp://10.0.0.1/file", true),
            ("https://[::1]:8080/x", true),
            (
                "https://alertmanager.local//#/alerts?receiver=default",
                true,
            ),
            ("null", false),
            ("/#/alerts?receiver=default", false),
            ("javascript://a.com/", false),
            ("https://a.com/with space", false),
            ("https://nodot/", false),
            ("https://a.com:123456/", false),
            ("https://-a.com/", false),
        ] {
            assert_eq!(is_url(url), valid, "{url}");
        }
    }

    #[test]
    fn ascii_classes_agree_with_unicodes() {
        for c in (0u8..128).map(char::from) {
            for marker in ['*', '_', '~'] {
                let excluded = matches!(c, '`' | '@' | '\\') || c == marker;
                let boundary = !excluded && is(&BOUNDARY, c);
                assert_eq!(opens(c, marker), boundary && !is(&CLOSING, c), "{c:?}");
                assert_eq!(closes(c, marker), boundary && !is(&OPENING, c), "{c:?}");
            }
        }
    }

    #[test]
    fn long_texts_take_linear_time() {
        // Quadratic work on this would take minutes; linear takes milliseconds.
        let text = "*a _b ~c d, <https://a.io|x> ".repeat(5_000);
        let started = std::time::Instant::now();
        let out = convert_slack_formatting(&replace_links(&text));
        assert!(out.len() > text.len() / 2);
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn requoting_keeps_escapes() {
        assert_eq!(requote("a b/%20é"), "a%20b/%20%C3%A9");
    }
}
