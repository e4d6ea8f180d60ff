//! Escaping and the URL-scheme policy: every byte that reaches the output from
//! a message payload goes through one of these functions, so they are the whole
//! of the renderer's defence against markup injection.

/// Escapes text content the way Zulip's serializer does (`&`, `<`, `>` only;
/// quotes are harmless outside attributes and Zulip leaves them alone). Every byte of
/// a message's text passes through here, so the special bytes are found with
/// `memchr3` (word-at-a-time) rather than byte by byte.
pub(super) fn escape_text(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut last = 0;
    for i in memchr::memchr3_iter(b'&', b'<', b'>', bytes) {
        out.push_str(&s[last..i]);
        out.push_str(match bytes[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            _ => "&gt;",
        });
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

/// Escapes a value for a double-quoted attribute, so no payload can close it.
pub(super) fn escape_attr(out: &mut String, s: &str) {
    escape_with(out, s, mask(b"&<>\""), |b| match b {
        b'&' => "&amp;",
        b'<' => "&lt;",
        b'>' => "&gt;",
        _ => "&quot;",
    });
}

/// Escapes code-block text like Pygments (which Zulip uses) does, quotes included.
pub(super) fn escape_code(out: &mut String, s: &str) {
    escape_with(out, s, mask(b"&<>\"'"), |b| match b {
        b'&' => "&amp;",
        b'<' => "&lt;",
        b'>' => "&gt;",
        b'"' => "&quot;",
        _ => "&#39;",
    });
}

/// The set of `bytes` (all below 64) as bits of a `u64`.
const fn mask(bytes: &[u8]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < bytes.len() {
        mask |= 1 << bytes[i];
        i += 1;
    }
    mask
}

/// Replaces the bytes in `special` (a [`mask`]) with what `map` gives them; a bit
/// test per byte, as attribute values are short (emoji names, one URL) and `memchr`'s
/// setup would cost more. Slicing only at ASCII positions keeps every slice on a
/// char boundary.
fn escape_with(out: &mut String, s: &str, special: u64, map: fn(u8) -> &'static str) {
    let mut last = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        if b < 64 && special >> b & 1 != 0 {
            out.push_str(&s[last..i]);
            out.push_str(map(b));
            last = i + 1;
        }
    }
    out.push_str(&s[last..]);
}

/// Whether `url` may become an `href`: `http:`, `https:`, `mailto:`, `tel:`,
/// `sms:` (both of which Zulip links; they only open a dialer) or a
/// scheme-less (relative, `#fragment`, `//host`) reference. Anything else —
/// `javascript:`, `data:`, `vbscript:`, unknown schemes — is refused.
///
/// `url` is the destination after pulldown-cmark decoded entities and escapes,
/// so `&#106;avascript:` arrives here as `javascript:`. Browsers drop ASCII
/// tabs/newlines inside a URL and trim controls and spaces around it, so those
/// are skipped before the scheme is read (`java\tscript:` is still refused);
/// any other odd character simply makes the scheme unknown, hence refused.
///
/// The scheme is gathered in a small buffer rather than a `String` (every link of
/// every message comes here): a scheme longer than the longest allowed one, or not
/// ASCII, matches none of them whatever its bytes.
pub(super) fn is_safe_url(url: &str) -> bool {
    const ALLOWED: [&str; 5] = ["http", "https", "mailto", "tel", "sms"];
    let mut scheme = [0u8; 6];
    // `None` once the scheme cannot be an allowed one.
    let mut len = Some(0);
    for c in url.chars() {
        if c.is_whitespace() || c.is_control() {
            continue;
        }
        match c {
            ':' => {
                let Some(len) = len else {
                    return false;
                };
                return ALLOWED
                    .iter()
                    .any(|allowed| scheme[..len].eq_ignore_ascii_case(allowed.as_bytes()));
            }
            // A path, query or fragment started before any colon: no scheme.
            '/' | '?' | '#' => return true,
            _ => {
                len = len
                    .filter(|&at| at < scheme.len() && c.is_ascii())
                    .map(|at| {
                        scheme[at] = c as u8;
                        at + 1
                    });
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> String {
        let mut out = String::new();
        escape_text(&mut out, s);
        out
    }

    fn attr(s: &str) -> String {
        let mut out = String::new();
        escape_attr(&mut out, s);
        out
    }

    #[test]
    fn text_escaping_covers_markup_characters_only() {
        assert_eq!(text("<a href='x'>&\"é"), "&lt;a href='x'&gt;&amp;\"é");
    }

    #[test]
    fn attribute_escaping_neutralises_double_quotes() {
        assert_eq!(attr("x\" onerror=\"y"), "x&quot; onerror=&quot;y");
    }

    /// The scans give what replacing character by character gives, at every position
    /// a special byte can take (first, last, adjacent, beside multi-byte characters).
    #[test]
    fn fast_paths_match_the_byte_by_byte_rule() {
        fn reference(s: &str, specials: &[(u8, &'static str)]) -> String {
            let mut out = String::new();
            for c in s.chars() {
                match specials
                    .iter()
                    .find(|(special, _)| char::from(*special) == c)
                {
                    Some((_, replacement)) => out.push_str(replacement),
                    None => out.push(c),
                }
            }
            out
        }
        let markup = [(b'&', "&amp;"), (b'<', "&lt;"), (b'>', "&gt;")];
        let quoted = [markup[0], markup[1], markup[2], (b'"', "&quot;")];
        let code = [quoted[0], quoted[1], quoted[2], quoted[3], (b'\'', "&#39;")];
        let pieces = [
            "", "a", "é", "&", "<", ">", "\"", "'", "&&", "<>", "x y", "😀",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let s = format!("{a}{b}{c}{a}");
                    assert_eq!(text(&s), reference(&s, &markup), "{s:?}");
                    assert_eq!(attr(&s), reference(&s, &quoted), "{s:?}");
                    let mut out = String::new();
                    escape_code(&mut out, &s);
                    assert_eq!(out, reference(&s, &code), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn code_escaping_matches_pygments() {
        let mut out = String::new();
        escape_code(&mut out, "print('<\"&\">')");
        assert_eq!(out, "print(&#39;&lt;&quot;&amp;&quot;&gt;&#39;)");
    }

    #[test]
    fn allowed_schemes_and_relative_urls_are_safe() {
        for url in [
            "https://example.com",
            "HTTP://EXAMPLE.COM",
            "mailto:a@b.c",
            "tel:+14155551234",
            "SMS:+14155551234",
            "/relative/path",
            "relative",
            "#narrow/stream/1",
            "//host/path",
            "?q=1",
            "path/with:colon",
            "",
        ] {
            assert!(is_safe_url(url), "{url}");
        }
    }

    #[test]
    fn dangerous_and_unknown_schemes_are_refused() {
        for url in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "\u{0}javascript:alert(1)",
            "data:text/html;base64,PHNjcmlwdD4=",
            "vbscript:msgbox",
            "file:///etc/passwd",
            "java\u{200b}script:alert(1)",
            ":no-scheme",
            "mailtox:a@b.c",
            "https\u{e9}:x",
            "longerthananyallowed:x",
        ] {
            assert!(!is_safe_url(url), "{url:?}");
        }
    }
}
