//! Bare `http://` / `https://` URLs in text become links, as Zulip's autolinker
//! makes them (integrations often paste raw URLs rather than Markdown links).
//! Text around the URLs gets emoji expansion; the URLs themselves never do.

use super::emoji::push_text_with_emoji;
use super::sanitize::{escape_attr, escape_text};

/// Appends escaped `text`, linking bare web URLs and expanding `:emoji:`.
pub(super) fn push_linkified(out: &mut String, text: &str) {
    let mut emitted = 0;
    while let Some((start, end)) = find_url(text, emitted) {
        push_text_with_emoji(out, &text[emitted..start]);
        let url = &text[start..end];
        out.push_str("<a href=\"");
        escape_attr(out, url);
        out.push_str("\">");
        escape_text(out, url);
        out.push_str("</a>");
        emitted = end;
    }
    push_text_with_emoji(out, &text[emitted..]);
}

/// Finds the next URL at or after byte `from`, as a byte range of `text`.
fn find_url(text: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        // Only an ASCII `h` can start a URL, so `i` is a char boundary here.
        if bytes[i].eq_ignore_ascii_case(&b'h') && !preceded_by_word(text, i) {
            let end = scheme_len(&bytes[i..]).and_then(|len| url_end(text, i, i + len));
            if let Some(end) = end {
                return Some((i, end));
            }
        }
        i += 1;
    }
    None
}

/// Zulip only links a URL at the start of the text or after whitespace or
/// one of `'"(,:<`, so `xhttp://…` or `_http://…_` stay text.
fn preceded_by_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| !(c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ',' | ':' | '<')))
}

/// Length of a leading `http://` or `https://` (any case), if present.
fn scheme_len(bytes: &[u8]) -> Option<usize> {
    ["http://", "https://"].iter().find_map(|scheme| {
        let candidate = bytes.get(..scheme.len())?;
        candidate
            .eq_ignore_ascii_case(scheme.as_bytes())
            .then_some(scheme.len())
    })
}

/// End of the URL whose host starts at `body`: up to whitespace or a character
/// that cannot be in a pasted URL, minus trailing sentence punctuation and
/// unbalanced closing brackets (`(see https://x.org/a_(b))`).
fn url_end(text: &str, start: usize, body: usize) -> Option<usize> {
    let rest = &text[body..];
    // Checked first so a rejected candidate costs O(1): scanning the rest for
    // every `http://` that has no host would make the whole pass quadratic.
    if !rest.chars().next().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let len = rest
        .char_indices()
        .find(|&(_, c)| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '`'))
        .map_or(rest.len(), |(i, _)| i);
    let mut url = &text[start..body + len];
    let mut opens = [url.matches('(').count(), url.matches('[').count()];
    let mut closes = [url.matches(')').count(), url.matches(']').count()];
    while let Some(last) = url.chars().next_back() {
        let trim = match last {
            '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '*' => true,
            ')' | ']' => {
                let kind = usize::from(last == ']');
                let unbalanced = closes[kind] > opens[kind];
                if unbalanced {
                    closes[kind] -= 1;
                }
                unbalanced
            }
            '(' | '[' => {
                let kind = usize::from(last == '[');
                opens[kind] = opens[kind].saturating_sub(1);
                true
            }
            _ => false,
        };
        if !trim {
            break;
        }
        url = &url[..url.len() - last.len_utf8()];
    }
    // The alphanumeric host start is never trimmed, so `url` still ends past it.
    Some(start + url.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str) -> String {
        let mut out = String::new();
        push_linkified(&mut out, text);
        out
    }

    fn link(url: &str) -> String {
        format!("<a href=\"{url}\">{url}</a>")
    }

    #[test]
    fn bare_url_becomes_link() {
        assert_eq!(
            render("see https://github.com now"),
            format!("see {} now", link("https://github.com"))
        );
    }

    #[test]
    fn trailing_punctuation_is_not_part_of_the_url() {
        assert_eq!(
            render("Visit http://a.org/x."),
            format!("Visit {}.", link("http://a.org/x"))
        );
        assert_eq!(
            render("(see https://a.org/wiki/A_(b))"),
            format!("(see {})", link("https://a.org/wiki/A_(b)"))
        );
    }

    #[test]
    fn scheme_must_start_a_word_and_have_a_host() {
        assert_eq!(render("xhttp://a.org"), "xhttp://a.org");
        assert_eq!(render("_http://a.org_"), "_http://a.org_");
        assert_eq!(
            render("(http://a.org)"),
            format!("({})", link("http://a.org"))
        );
        assert_eq!(render("http://"), "http://");
        // Not a URL, so the emoji still renders, as in Zulip.
        assert!(render("https:smile:").starts_with("https<span"));
    }

    #[test]
    fn urls_are_escaped_and_not_emojified() {
        assert_eq!(
            render("https://a.org/:smile:/?a=1&b=2"),
            link("https://a.org/:smile:/?a=1&amp;b=2")
        );
        assert_eq!(
            render("https://a.org/\"onmouseover=\"x"),
            format!("{}\"onmouseover=\"x", link("https://a.org/"))
        );
    }

    #[test]
    fn text_around_urls_still_gets_emoji() {
        let out = render(":tada: https://a.org :tada:");
        assert_eq!(out.matches("emoji-1f389").count(), 2);
        assert!(out.contains(&link("https://a.org")));
    }
}
