//! Escaping and the URL-scheme policy: every byte that reaches the output from
//! a message payload goes through one of these functions, so they are the whole
//! of the renderer's defence against markup injection.

/// Escapes text content the way Zulip's serializer does (`&`, `<`, `>` only;
/// quotes are harmless outside attributes and Zulip leaves them alone).
pub(super) fn escape_text(out: &mut String, s: &str) {
    escape_with(out, s, |b| match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        _ => None,
    });
}

/// Escapes a value for a double-quoted attribute, so no payload can close it.
pub(super) fn escape_attr(out: &mut String, s: &str) {
    escape_with(out, s, |b| match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'"' => Some("&quot;"),
        _ => None,
    });
}

/// Escapes code-block text like Pygments (which Zulip uses) does, quotes included.
pub(super) fn escape_code(out: &mut String, s: &str) {
    escape_with(out, s, |b| match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'"' => Some("&quot;"),
        b'\'' => Some("&#39;"),
        _ => None,
    });
}

/// Replaces the ASCII bytes `map` picks; slicing only at ASCII positions keeps
/// every slice on a char boundary.
fn escape_with(out: &mut String, s: &str, map: impl Fn(u8) -> Option<&'static str>) {
    let mut last = 0;
    for (i, b) in s.bytes().enumerate() {
        if let Some(replacement) = map(b) {
            out.push_str(&s[last..i]);
            out.push_str(replacement);
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
pub(super) fn is_safe_url(url: &str) -> bool {
    let mut scheme = String::new();
    for c in url.chars() {
        if c.is_whitespace() || c.is_control() {
            continue;
        }
        match c {
            ':' => {
                return ["http", "https", "mailto", "tel", "sms"]
                    .iter()
                    .any(|allowed| scheme.eq_ignore_ascii_case(allowed));
            }
            // A path, query or fragment started before any colon: no scheme.
            '/' | '?' | '#' => return true,
            _ => scheme.push(c),
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
        ] {
            assert!(!is_safe_url(url), "{url:?}");
        }
    }
}
