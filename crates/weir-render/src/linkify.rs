//! Zulip's autolinker (`get_web_link_regex` in its `markdown/__init__.py`): bare
//! `http(s)://` URLs, bare domains ending in a known top-level domain (`example.com`,
//! linked as `http://`), and e-mail addresses (linked as `mailto:`). Text around the
//! links gets emoji expansion; the links themselves never do.
//!
//! Zulip's rule, matched here without a regex engine:
//! * a link starts at the start of the text or after whitespace or one of `'"(,:<`;
//! * it is `https?://` and a host of `[\w.:@-]`, or `label.` labels and a TLD, either
//!   optionally followed by `/` and a path of anything but whitespace, `"` and
//!   parentheses, except parentheses that pair up (at most seven deep); or it is an
//!   address `[\w.-]+@[\w.-]+\.\w+`;
//! * it must be followed by nothing but `!:;?),.'">` up to whitespace or the end, and
//!   of the candidates the shortest wins (so trailing punctuation stays text).

use std::collections::HashSet;
use std::sync::LazyLock;

use super::emoji::push_text_with_emoji;
use super::sanitize::{escape_attr, escape_text};

/// Zulip's top-level domains, from `tlds.txt` (its origin is noted there).
static TLDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("tlds.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .collect()
});

/// Longest entry of `tlds.txt`, to bound the lookups.
const MAX_TLD_LEN: usize = 24;

/// Paren nesting Zulip's regex spells out (one inner group inside six wrappers).
const MAX_PAREN_DEPTH: usize = 7;

/// Characters a URL may be followed by before whitespace or the end.
const TRAILING: &[char] = &['!', ':', ';', '?', ')', ',', '.', '\'', '"', '>'];

/// Candidates are only looked for this far, so a long run without whitespace costs
/// linear time per start, and starts are sparse (see [`may_start`]).
const MAX_TOKEN: usize = 8192;

/// Appends escaped `text`, linking what Zulip links and expanding `:emoji:`.
pub(super) fn push_linkified(out: &mut String, text: &str) {
    let mut emitted = 0;
    let mut searched = 0;
    // Every kind of link holds one of these (`://` after a scheme, the dot before a
    // TLD, an address's `@`): only the whitespace-free runs around them are looked at
    // position by position; the rest of the text goes out in one piece.
    while let Some(found) = memchr::memchr3(
        LINK_MARKS[0],
        LINK_MARKS[1],
        LINK_MARKS[2],
        &text.as_bytes()[searched..],
    ) {
        let mark = searched + found;
        let run_start = text[..mark]
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        let run_end = text[mark..]
            .find(char::is_whitespace)
            .map_or(text.len(), |i| mark + i);
        // Where the trailing punctuation ending the run starts.
        let run_min_end = text[..run_end].trim_end_matches(TRAILING).len();
        let mut at = run_start.max(emitted);
        while at < run_end {
            if may_start(text, at)
                && let Some((end, href)) =
                    link_at(&text[..run_end], at, run_min_end.saturating_sub(at))
            {
                push_text_with_emoji(out, &text[emitted..at]);
                out.push_str("<a href=\"");
                escape_attr(out, &href);
                out.push_str("\">");
                escape_text(out, &text[at..end]);
                out.push_str("</a>");
                emitted = end;
                at = end;
                continue;
            }
            at += text[at..].chars().next().map_or(1, char::len_utf8);
        }
        searched = run_end;
    }
    push_text_with_emoji(out, &text[emitted..]);
}

/// Characters one of which every link holds (see [`push_linkified`]); ASCII, so a
/// byte equal to one is that character.
const LINK_MARKS: [u8; 3] = [b'.', b'@', b':'];

/// Zulip's `(?<![^\s'"\(,:<])`, plus a cheap check of the first character.
fn may_start(text: &str, at: usize) -> bool {
    let after = text[..at].chars().next_back();
    let boundary = after.is_none_or(|c| c.is_whitespace() || "'\"(,:<".contains(c));
    boundary && text[at..].chars().next().is_some_and(is_word)
}

/// Python's `\w` on text.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The link starting at `at` in `text`, a run without whitespace, which must reach at
/// least `min_end` bytes from `at` (all after that is trailing punctuation): where it
/// ends and its `href`.
fn link_at(text: &str, at: usize, min_end: usize) -> Option<(usize, String)> {
    let mut token = &text[at..];
    if token.len() > MAX_TOKEN {
        let cut = (0..=MAX_TOKEN).rev().find(|&i| token.is_char_boundary(i))?;
        token = &token[..cut];
    }
    if let Some(end) = web_link(token, min_end) {
        let shown = &token[..end];
        let href = if shown.starts_with("http://") || shown.starts_with("https://") {
            shown.to_owned()
        } else {
            format!("http://{shown}")
        };
        return Some((at + end, href));
    }
    let end = email(token, min_end)?;
    Some((at + end, format!("mailto:{}", &token[..end])))
}

/// End of a URL or bare domain at the start of `token`, if one ends at `min_end` or later.
fn web_link(token: &str, min_end: usize) -> Option<usize> {
    let scheme = ["https://", "http://"]
        .iter()
        .find(|scheme| token.starts_with(*scheme))
        .map(|scheme| scheme.len());
    if let Some(scheme) = scheme {
        let host = span(&token[scheme..], |c| is_word(c) || ".:@-".contains(c));
        // The host is lazy: the first length after which the link can end wins.
        return (scheme + 1..=scheme + host)
            .filter(|&end| token.is_char_boundary(end))
            .find_map(|end| end_after_host(token, end, scheme + host, min_end));
    }
    let run = span(token, |c| is_word(c) || c == '.' || c == '-');
    // Labels are greedy: the last dot followed by a known TLD that can end the link.
    let domain = &token[..run];
    if domain.starts_with('.') {
        return None;
    }
    // Labels before a dot are all non-empty while no `..` came before it.
    let first_empty = domain.find("..").unwrap_or(domain.len());
    domain
        .match_indices('.')
        .rev()
        .filter(|&(dot, _)| dot <= first_empty)
        .find_map(|(dot, _)| {
            let after = &domain[dot + 1..];
            let letters = span(after, |c| c.is_ascii_alphanumeric() || c == '-');
            (2..=letters.min(MAX_TLD_LEN))
                .rev()
                .filter(|&len| TLDS.contains(&after[..len]))
                .find_map(|len| {
                    let end = dot + 1 + len;
                    end_after_host(token, end, end, min_end)
                })
        })
}

/// Where the link ends when its host ends at `end`: through a path if the host is
/// whole and a `/` follows (Zulip tries the path first), else right there.
fn end_after_host(token: &str, end: usize, host_end: usize, min_end: usize) -> Option<usize> {
    if end == host_end
        && token[end..].starts_with('/')
        && let Some(path_end) = path_end(token, end + 1, min_end)
    {
        return Some(path_end);
    }
    (end >= min_end).then_some(end)
}

/// The first end of a path starting at `start` that is at or past `min_end`: only
/// where the parentheses opened so far are closed.
fn path_end(token: &str, start: usize, min_end: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut ends = std::iter::once(start).chain(
        token[start..]
            .char_indices()
            .map_while(|(i, c)| {
                match c {
                    '(' if depth < MAX_PAREN_DEPTH => depth += 1,
                    ')' if depth > 0 => depth -= 1,
                    '(' | ')' | '"' => return None,
                    _ => {}
                }
                Some((start + i + c.len_utf8(), depth))
            })
            .filter(|&(_, depth)| depth == 0)
            .map(|(end, _)| end),
    );
    ends.find(|&end| end >= min_end)
}

/// End of an address `[\w.-]+@[\w.-]+\.\w+` at the start of `token`, if it can end
/// the link.
fn email(token: &str, min_end: usize) -> Option<usize> {
    let local = span(token, |c| is_word(c) || c == '.' || c == '-');
    if local == 0 || !token[local..].starts_with('@') {
        return None;
    }
    let start = local + 1;
    let run = span(&token[start..], |c| is_word(c) || c == '.' || c == '-');
    // Only dots may follow the address inside the run (`-` cannot trail a link).
    let domain = token[start..start + run].trim_end_matches('.');
    let (host, top) = domain.rsplit_once('.')?;
    let valid = !host.is_empty() && !top.is_empty() && top.chars().all(is_word);
    let end = start + domain.len();
    (valid && end >= min_end).then_some(end)
}

/// Length of the prefix of `s` whose characters satisfy `keep`.
fn span(s: &str, keep: impl Fn(char) -> bool) -> usize {
    s.find(|c| !keep(c)).unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str) -> String {
        let mut out = String::new();
        push_linkified(&mut out, text);
        out
    }

    fn link(href: &str, shown: &str) -> String {
        format!("<a href=\"{href}\">{shown}</a>")
    }

    #[test]
    fn bare_url_becomes_link() {
        assert_eq!(
            render("see https://github.com now"),
            format!(
                "see {} now",
                link("https://github.com", "https://github.com")
            )
        );
    }

    #[test]
    fn trailing_punctuation_is_not_part_of_the_url() {
        assert_eq!(
            render("Visit http://a.org/x."),
            format!("Visit {}.", link("http://a.org/x", "http://a.org/x"))
        );
        let wiki = "https://a.org/wiki/A_(b)";
        assert_eq!(
            render(&format!("(see {wiki})")),
            format!("(see {})", link(wiki, wiki))
        );
    }

    #[test]
    fn scheme_must_start_a_word_and_have_a_host() {
        assert_eq!(render("xhttp://a.org"), "xhttp://a.org");
        assert_eq!(render("_http://a.org_"), "_http://a.org_");
        assert_eq!(
            render("(http://a.org)"),
            format!("({})", link("http://a.org", "http://a.org"))
        );
        assert_eq!(render("http://"), "http://");
        // Not a URL, so the emoji still renders, as in Zulip.
        assert!(render("https:smile:").starts_with("https<span"));
    }

    /// Words without `.`, `@` or `:` are skipped whole; a link later in the same text,
    /// or one after `(` or `:` inside a word, is still found.
    #[test]
    fn words_that_cannot_hold_a_link_leave_later_links_alone() {
        assert_eq!(
            render("Hello! I am happy (here)"),
            "Hello! I am happy (here)"
        );
        assert_eq!(
            render("hi there: a.org"),
            format!("hi there: {}", link("http://a.org", "a.org"))
        );
        assert_eq!(
            render("x(a.org)"),
            format!("x({})", link("http://a.org", "a.org"))
        );
        assert_eq!(
            render("see:bob@a.org"),
            format!("see:{}", link("mailto:bob@a.org", "bob@a.org"))
        );
    }

    #[test]
    fn bare_domains_with_known_tlds_and_addresses_are_linked() {
        assert_eq!(
            render("go to views.org please"),
            format!("go to {} please", link("http://views.org", "views.org"))
        );
        assert_eq!(render("a.b.com"), link("http://a.b.com", "a.b.com"));
        assert_eq!(render("readme.md and views.py"), "readme.md and views.py");
        assert_eq!(
            render("a.commandstuff() love...it"),
            "a.commandstuff() love...it"
        );
        assert_eq!(
            render("a@b.com."),
            format!("{}.", link("mailto:a@b.com", "a@b.com"))
        );
        assert_eq!(render("a@b.com/foo"), "a@b.com/foo");
        assert_eq!(
            render("javascript:foo.com"),
            format!("javascript:{}", link("http://foo.com", "foo.com"))
        );
        assert_eq!(render("javascript://foo.com"), "javascript://foo.com");
    }

    #[test]
    fn parentheses_pair_up_to_seven_deep() {
        let seven = format!("https://a.org/{}x{}", "(".repeat(7), ")".repeat(7));
        assert_eq!(render(&seven), link(&seven, &seven));
        let eight = format!("https://a.org/{}x{}", "(".repeat(8), ")".repeat(8));
        assert_eq!(render(&eight), eight);
    }

    #[test]
    fn urls_are_escaped_and_not_emojified() {
        let url = "https://a.org/:smile:/?a=1&b=2";
        assert_eq!(
            render(url),
            link(
                "https://a.org/:smile:/?a=1&amp;b=2",
                "https://a.org/:smile:/?a=1&amp;b=2"
            )
        );
        // A `"` ends the path and is not trailing punctuation before more text.
        assert_eq!(
            render("https://a.org/\"onmouseover=\"x"),
            "https://a.org/\"onmouseover=\"x"
        );
    }

    #[test]
    fn text_around_urls_still_gets_emoji() {
        let out = render(":tada: https://a.org :tada:");
        assert_eq!(out.matches("emoji-1f389").count(), 2);
        assert!(out.contains(&link("https://a.org", "https://a.org")));
    }

    #[test]
    fn only_trailing_punctuation_may_follow() {
        assert_eq!(
            render("a.com!?"),
            format!("{}!?", link("http://a.com", "a.com"))
        );
        assert_eq!(render("a.com!x"), "a.com!x");
        let long = format!("https://a.org/{}", "x".repeat(9000));
        assert_eq!(render(&long), long);
    }

    #[test]
    fn hosts_may_have_letters_beyond_ascii() {
        assert_eq!(render("http://é.org"), link("http://é.org", "http://é.org"));
        assert_eq!(
            render("http://éé!"),
            format!("{}!", link("http://éé", "http://éé"))
        );
    }

    #[test]
    fn multibyte_whitespace_is_a_boundary() {
        let text = "a\u{85}b.com";
        assert_eq!(
            render(text),
            format!("a\u{85}{}", link("http://b.com", "b.com"))
        );
    }

    #[test]
    fn long_runs_without_whitespace_stay_linear() {
        let text = format!("{}{}", "a,".repeat(4_000), ",".repeat(8_000));
        assert_eq!(render(&text), text);
        let text = "(http://x/".repeat(2_000);
        assert!(render(&text).len() >= text.len());
        let text = "a.".repeat(20_000);
        assert_eq!(render(&text), text);
    }
}
