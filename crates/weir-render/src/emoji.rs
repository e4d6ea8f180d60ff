//! Emoji in message text, as Zulip renders them: typed names (`:smile:`), the
//! `:zulip:` logo, emoticons (`:)`, when the sender translates them) and Unicode
//! emoji characters all become Zulip's emoji markup.
//!
//! Names come from Zulip's own table (`table.rs`); a name it lacks stays text, even
//! where GitHub's gemoji knows it (`:white_check_mark:`). The passes run in Zulip's
//! order: names first, then emoticons, then Unicode characters, each on the text the
//! earlier ones left.

mod emoticons;
mod table;
mod unicode;

pub(crate) use emoticons::with_emoticons;

use super::sanitize::{escape_attr, escape_text};

/// Where Zulip's `:zulip:` logo lives on every Zulip server.
const ZULIP_LOGO: &str = "/static/generated/emoji/images/emoji/unicode/zulip.png";

/// Characters Zulip accepts in a typed name (`[\w\-\+]`, Unicode `\w`: a few names
/// hold accented letters or kana).
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '+')
}

/// The first `:name:` at or after byte `from`: the byte range of the name inside
/// the colons.
fn next_name(text: &str, from: usize) -> Option<(usize, usize)> {
    let mut search = from;
    while let Some(offset) = text.get(search..)?.find(':') {
        let start = search + offset + 1;
        let len = text[start..]
            .find(|c: char| !is_name_char(c))
            .unwrap_or(text.len() - start);
        let end = start + len;
        if len > 0 && text[end..].starts_with(':') {
            return Some((start, end));
        }
        // No colon sits inside a name, so the next candidate starts at `end`.
        search = end;
    }
    None
}

/// Appends `text`, escaped, with its emoji rendered as Zulip renders them.
///
/// As in Zulip, every `:name:` is consumed whether known or not: an unknown one stays
/// text and its colons cannot start another name (`12:30:smile:` is all text).
pub(super) fn push_text_with_emoji(out: &mut String, text: &str) {
    let mut emitted = 0;
    while let Some((start, end)) = next_name(text, emitted) {
        push_plain(out, &text[emitted..start - 1], emitted == 0, false);
        let name = &text[start..end];
        if name == "zulip" {
            push_zulip_logo(out);
        } else if let Some(code) = table::table().code(name) {
            push_span(out, name, code);
        } else {
            escape_text(out, &text[start - 1..=end]);
        }
        emitted = end + 1;
    }
    push_plain(out, &text[emitted..], emitted == 0, true);
}

/// Text without typed names: emoticons (when on), then Unicode emoji.
fn push_plain(out: &mut String, text: &str, open_start: bool, open_end: bool) {
    if !emoticons::enabled() {
        push_unicode(out, text);
        return;
    }
    let mut rest = text;
    let mut open = open_start;
    while let Some((start, end, name)) = emoticons::find(rest, open, open_end) {
        push_unicode(out, &rest[..start]);
        match table::table().code(name) {
            Some(code) => push_span(out, name, code),
            None => escape_text(out, &rest[start..end]),
        }
        rest = &rest[end..];
        open = false;
    }
    push_unicode(out, rest);
}

/// Text with its known Unicode emoji wrapped.
fn push_unicode(out: &mut String, text: &str) {
    let mut emitted = 0;
    let table = table::table();
    for found in unicode::find(text) {
        if let Some(name) = table.canonical_name(&found.code) {
            escape_text(out, &text[emitted..found.start]);
            push_span(out, name, &found.code);
            emitted = found.end;
        }
    }
    escape_text(out, &text[emitted..]);
}

/// Zulip's markup for one emoji (attributes in Zulip's sorted order).
fn push_span(out: &mut String, name: &str, code: &str) {
    let title = name.replace('_', " ");
    out.push_str("<span aria-label=\"");
    escape_attr(out, &title);
    out.push_str("\" class=\"emoji emoji-");
    escape_attr(out, code);
    out.push_str("\" role=\"img\" title=\"");
    escape_attr(out, &title);
    out.push_str("\">:");
    escape_text(out, name);
    out.push_str(":</span>");
}

/// `:zulip:` is not a Unicode emoji: Zulip shows its logo image.
fn push_zulip_logo(out: &mut String) {
    out.push_str("<img alt=\":zulip:\" class=\"emoji\" src=\"");
    out.push_str(ZULIP_LOGO);
    out.push_str("\" title=\"zulip\">");
}

#[cfg(test)]
mod tests;
