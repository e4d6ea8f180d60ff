//! Zulip's `BlockQuoteProcessor.clean`: every mention inside a quote (`>` lines and
//! ```` ```quote ```` blocks) is made silent before rendering, so quoting a message
//! notifies nobody again, and a quoted group mention needs no `can_mention_group`.
//!
//! Weir finds mentions before it parses blocks, so this is done on the HTML instead:
//! inside `<blockquote>`, a mention's span gets the `silent` class and loses its `@`,
//! exactly as Zulip renders a silent mention. Only the renderer writes these tags and
//! spans (everything a person writes is escaped), so matching them is exact.

/// The opening of each mention span that Zulip silences, as Weir renders it aloud.
const ALOUD: [&str; 4] = [
    "<span class=\"user-mention\"",
    "<span class=\"user-mention channel-wildcard-mention\"",
    "<span class=\"topic-mention\"",
    "<span class=\"user-group-mention\"",
];

const OPEN_QUOTE: &str = "<blockquote>";
const CLOSE_QUOTE: &str = "</blockquote>";

/// `html` with the mentions inside quotes made silent.
pub(super) fn silence_quoted_mentions(html: String) -> String {
    if !html.contains(OPEN_QUOTE) || !html.contains("mention\"") {
        return html;
    }
    let mut out = String::with_capacity(html.len() + 16);
    let mut depth = 0usize;
    let mut rest = html.as_str();
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with(OPEN_QUOTE) {
            depth += 1;
        } else if rest.starts_with(CLOSE_QUOTE) {
            depth = depth.saturating_sub(1);
        } else if depth > 0
            && let Some(used) = silenced(rest, &mut out)
        {
            rest = &rest[used..];
            continue;
        }
        out.push('<');
        rest = &rest[1..];
    }
    out.push_str(rest);
    out
}

/// If `rest` starts with a mention span rendered aloud, appends its silent opening tag
/// to `out` and says how much of `rest` that replaced (the `@` after the tag included).
fn silenced(rest: &str, out: &mut String) -> Option<usize> {
    let opening = ALOUD.iter().find(|opening| rest.starts_with(**opening))?;
    // The class attribute ends just before the opening's last character (`"`).
    let class_end = opening.len() - 1;
    let tag_end = rest.find('>')?;
    if rest.get(tag_end + 1..tag_end + 2) != Some("@") {
        return None;
    }
    out.push_str(&rest[..class_end]);
    out.push_str(" silent");
    out.push_str(&rest[class_end..=tag_end]);
    Some(tag_end + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_inside_quotes_become_silent_and_others_stay() {
        let html = "<p><span class=\"user-group-mention\" data-user-group-id=\"3\">@ops</span></p>\n\
                    <blockquote>\n<p><span class=\"user-group-mention\" data-user-group-id=\"3\">@ops</span> \
                    <span class=\"user-mention\" data-user-id=\"8\">@Ada</span> \
                    <span class=\"user-mention channel-wildcard-mention\" data-user-id=\"*\">@all</span> \
                    <span class=\"topic-mention\">@topic</span> \
                    <span class=\"user-mention silent\" data-user-id=\"9\">Bo</span></p>\n\
                    <blockquote>\n<p><span class=\"user-mention\" data-user-id=\"8\">@Ada</span></p>\n\
                    </blockquote>\n</blockquote>\n\
                    <p><span class=\"user-mention\" data-user-id=\"8\">@Ada</span></p>";
        let expected = "<p><span class=\"user-group-mention\" data-user-group-id=\"3\">@ops</span></p>\n\
                    <blockquote>\n<p><span class=\"user-group-mention silent\" data-user-group-id=\"3\">ops</span> \
                    <span class=\"user-mention silent\" data-user-id=\"8\">Ada</span> \
                    <span class=\"user-mention channel-wildcard-mention silent\" data-user-id=\"*\">all</span> \
                    <span class=\"topic-mention silent\">topic</span> \
                    <span class=\"user-mention silent\" data-user-id=\"9\">Bo</span></p>\n\
                    <blockquote>\n<p><span class=\"user-mention silent\" data-user-id=\"8\">Ada</span></p>\n\
                    </blockquote>\n</blockquote>\n\
                    <p><span class=\"user-mention\" data-user-id=\"8\">@Ada</span></p>";
        assert_eq!(silence_quoted_mentions(html.to_owned()), expected);
    }

    #[test]
    fn escaped_text_is_never_taken_for_a_tag() {
        let html =
            "<blockquote>\n<p>&lt;span class=&quot;user-mention&quot;&gt;@x</p>\n</blockquote>";
        assert_eq!(silence_quoted_mentions(html.to_owned()), html);
        let unclosed = "<blockquote><span class=\"user-mention\"";
        assert_eq!(silence_quoted_mentions(unclosed.to_owned()), unclosed);
    }
}
