//! Inline syntax Zulip has and CommonMark reads differently, applied to the text
//! pulldown-cmark left as text.

/// Appends `text` through `plain`, turning what CommonMark left of Zulip's `**strong**`
/// (`(\*\*)([^\n]+?)\*\*`: spaces inside allowed, unlike CommonMark's flanking rules)
/// and `~~strike~~` into markup.
pub(super) fn push_with_zulip_inline(out: &mut String, text: &str, plain: fn(&mut String, &str)) {
    if !text.contains('*') {
        return push_with_strikethrough(out, text, plain);
    }
    let mut emitted = 0;
    let mut from = 0;
    while let Some(open) = text.get(from..).and_then(|rest| rest.find("**")) {
        let open = from + open;
        let body = open + 2;
        // At least one character, then the closing `**`, all on one line.
        let Some(first) = text[body..].chars().next() else {
            break;
        };
        let Some(close) = text[body + first.len_utf8()..]
            .find("**")
            .map(|at| body + first.len_utf8() + at)
        else {
            break;
        };
        if let Some(newline) = text[open..close].find('\n') {
            from = open + newline + 1;
            continue;
        }
        push_with_strikethrough(out, &text[emitted..open], plain);
        out.push_str("<strong>");
        push_with_strikethrough(out, &text[body..close], plain);
        out.push_str("</strong>");
        emitted = close + 2;
        from = close + 2;
    }
    push_with_strikethrough(out, &text[emitted..], plain);
}

/// Appends `text` through `plain`, turning what CommonMark left of Zulip's
/// `~~strike~~` into `<del>`: Zulip's rule (`(?<!~)~~([^~\n]+?)~~(?!~)`) allows
/// spaces inside the tildes (`~~ a ~~`), which CommonMark's flanking rules refuse.
pub(super) fn push_with_strikethrough(out: &mut String, text: &str, plain: fn(&mut String, &str)) {
    if !text.contains('~') {
        return plain(out, text);
    }
    let bytes = text.as_bytes();
    let mut emitted = 0;
    let mut i = 0;
    while let Some(at) = text.get(i..).and_then(|rest| rest.find("~~")) {
        let open = i + at;
        let body = open + 2;
        if (open > 0 && bytes[open - 1] == b'~') || bytes.get(body) == Some(&b'~') {
            // Part of a longer run of tildes: skip the run.
            i = body + text[body..].len() - text[body..].trim_start_matches('~').len();
            continue;
        }
        let len = text[body..].find(['~', '\n']).unwrap_or(text.len() - body);
        let close = body + len;
        let closes = text[close..].starts_with("~~") && bytes.get(close + 2) != Some(&b'~');
        if len > 0 && closes {
            plain(out, &text[emitted..open]);
            out.push_str("<del>");
            plain(out, &text[body..close]);
            out.push_str("</del>");
            emitted = close + 2;
            i = close + 2;
        } else {
            // No `~` or newline before `close`, so no match can start earlier.
            i = close.max(body);
        }
    }
    plain(out, &text[emitted..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanitize::escape_text;

    fn render(text: &str) -> String {
        let mut out = String::new();
        push_with_strikethrough(&mut out, text, escape_text);
        out
    }

    fn zulip(text: &str) -> String {
        let mut out = String::new();
        push_with_zulip_inline(&mut out, text, escape_text);
        out
    }

    #[test]
    fn spaced_stars_are_strong() {
        assert_eq!(zulip("a ** b ** c"), "a <strong> b </strong> c");
        assert_eq!(zulip("**x ~~ y ~~**"), "<strong>x <del> y </del></strong>");
        assert_eq!(zulip("a * b ** c"), "a * b ** c");
        assert_eq!(zulip("****"), "****");
        assert_eq!(zulip("**é**"), "<strong>é</strong>");
    }

    #[test]
    fn spaced_tildes_strike_through() {
        assert_eq!(render("I ~~ a b ~~ c"), "I <del> a b </del> c");
        assert_eq!(render("~~a~~ ~~b~~"), "<del>a</del> <del>b</del>");
        assert_eq!(render("~~a~~~~b~~"), "~~a~~~~b~~");
    }

    #[test]
    fn longer_runs_newlines_and_unclosed_stay_text() {
        for text in ["~~~a~~~", "~~a\nb~~", "~~a", "~~~~", "~~<b>~~~", "a~~"] {
            let mut escaped = String::new();
            escape_text(&mut escaped, text);
            assert_eq!(render(text), escaped, "{text:?}");
        }
    }
}
