//! `:shortcode:` expansion into Zulip's emoji `<span>`.
//!
//! Names come from the `emojis` crate (GitHub's gemoji table), looked up in
//! O(1) through its compile-time map, so there is nothing to build at runtime.
//! Gemoji and Zulip mostly agree on names; where they differ gemoji wins
//! (e.g. `:smile:` is U+1F604 here, U+1F642 in current Zulip).

use std::fmt::Write as _;

use super::sanitize::{escape_attr, escape_text};

/// Zulip's names for 👍/👎, used by its clients' reactions and docs, which
/// gemoji only spells `+1`/`thumbsup` and `-1`/`thumbsdown`.
const ZULIP_ALIASES: &[(&str, &str)] = &[("thumbs_up", "+1"), ("thumbs_down", "-1")];

/// Names longer than any gemoji shortcode are not worth a lookup.
const MAX_NAME_LEN: usize = 64;

/// Looks an emoji name up as Zulip would resolve `:name:`.
fn lookup(name: &str) -> Option<&'static emojis::Emoji> {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return None;
    }
    emojis::get_by_shortcode(name).or_else(|| {
        ZULIP_ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .and_then(|(_, gemoji)| emojis::get_by_shortcode(gemoji))
    })
}

/// Characters Zulip accepts in an emoji name (`[\w\-\+]`, ASCII is enough:
/// no table name uses anything else).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+')
}

/// Appends `text`, escaped, with every known `:name:` turned into an emoji span.
/// Unknown names stay literal; scanning resumes at their closing colon so
/// `12:30:smile:` still finds `:smile:`.
pub(super) fn push_text_with_emoji(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut emitted = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b':' {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while end < bytes.len() && is_name_byte(bytes[end]) {
            end += 1;
        }
        if end == start || end >= bytes.len() || bytes[end] != b':' {
            i = end.max(start);
            continue;
        }
        // `start..end` is all ASCII, so these slices sit on char boundaries.
        let name = &text[start..end];
        match lookup(name) {
            Some(emoji) => {
                escape_text(out, &text[emitted..i]);
                push_span(out, name, emoji);
                emitted = end + 1;
                i = end + 1;
            }
            None => i = end,
        }
    }
    escape_text(out, &text[emitted..]);
}

/// Writes Zulip's markup for one emoji (attributes in Zulip's sorted order).
fn push_span(out: &mut String, name: &str, emoji: &emojis::Emoji) {
    let title = name.replace('_', " ");
    out.push_str("<span aria-label=\"");
    escape_attr(out, &title);
    out.push_str("\" class=\"emoji emoji-");
    push_codepoints(out, emoji.as_str());
    out.push_str("\" role=\"img\" title=\"");
    escape_attr(out, &title);
    out.push_str("\">:");
    escape_text(out, name);
    out.push_str(":</span>");
}

/// Zulip's emoji code: lowercase hex code points (at least 4 digits) joined by
/// `-`, without U+FE0F variation selectors.
fn push_codepoints(out: &mut String, emoji: &str) {
    let mut first = true;
    for c in emoji.chars().filter(|&c| c != '\u{fe0f}') {
        if !first {
            out.push('-');
        }
        first = false;
        // Writing into a String cannot fail.
        let _ = write!(out, "{:04x}", u32::from(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str) -> String {
        let mut out = String::new();
        push_text_with_emoji(&mut out, text);
        out
    }

    fn span(name: &str, code: &str) -> String {
        let title = name.replace('_', " ");
        format!(
            "<span aria-label=\"{title}\" class=\"emoji emoji-{code}\" role=\"img\" \
             title=\"{title}\">:{name}:</span>"
        )
    }

    #[test]
    fn known_name_becomes_span() {
        assert_eq!(render(":smile:"), span("smile", "1f604"));
    }

    #[test]
    fn adjacent_emoji_both_render() {
        let smile = span("smile", "1f604");
        assert_eq!(render(":smile::smile:"), format!("{smile}{smile}"));
    }

    #[test]
    fn unknown_name_stays_literal() {
        assert_eq!(render(":not_an_emoji:"), ":not_an_emoji:");
    }

    #[test]
    fn underscores_become_spaces_in_labels() {
        assert_eq!(render(":thumbs_up:"), span("thumbs_up", "1f44d"));
        assert_eq!(render(":+1:"), span("+1", "1f44d"));
    }

    #[test]
    fn variation_selectors_are_dropped_and_codes_padded() {
        assert_eq!(render(":heart:"), span("heart", "2764"));
        assert_eq!(render(":hash:"), span("hash", "0023-20e3"));
    }

    #[test]
    fn scanning_resumes_after_an_unknown_name() {
        assert_eq!(
            render("12:30:smile:"),
            format!("12:30{}", span("smile", "1f604"))
        );
        assert_eq!(
            render("x::y::z :wasted waste: :)"),
            "x::y::z :wasted waste: :)"
        );
    }

    #[test]
    fn surrounding_text_is_escaped() {
        assert_eq!(
            render("<b>:smile:</b>"),
            format!("&lt;b&gt;{}&lt;/b&gt;", span("smile", "1f604"))
        );
    }

    #[test]
    fn lone_and_trailing_colons_are_kept() {
        assert_eq!(render(":"), ":");
        assert_eq!(render("a: b:"), "a: b:");
        assert_eq!(render(":smile"), ":smile");
    }
}
