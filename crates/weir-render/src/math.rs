//! Zulip's math: `$$…$$` inline and ```` ```math ```` blocks become KaTeX's HTML
//! (`katex.rs`); a formula KaTeX refuses is shown as `<span class="tex-error">` with
//! its source, as Zulip shows it.
//!
//! Inline math is found before Markdown parsing (so `$$\text{**a**}$$` is not read as
//! bold) and swapped for the same placeholders mentions use: the formula's HTML lands
//! only where the placeholder ends up in text, and code spans, code blocks and link
//! destinations get the source back.

use super::katex;
use super::mentions::{Mention, restore};
use super::sanitize::escape_text;

/// Swaps each inline formula of `marked` (a source whose mentions, if any, are already
/// placeholders) for a placeholder, appending its HTML to `spans`.
pub(super) fn mark_inline(marked: String, mut spans: Vec<Mention>) -> (String, Vec<Mention>) {
    if !marked.contains("$$") {
        return (marked, spans);
    }
    let mut out = String::with_capacity(marked.len());
    let mut fence: Option<&str> = None;
    for line in marked.split_inclusive('\n') {
        // Code and math fences are left alone: their text is not inline Markdown.
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if let Some(open) = fence {
            if indent < 4 && trimmed.trim_end().starts_with(open) && is_fence(trimmed) == Some(open)
            {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if indent < 4
            && let Some(open) = is_fence(trimmed)
        {
            fence = Some(open);
            out.push_str(line);
            continue;
        }
        mark_line(&mut out, line, &mut spans);
    }
    (out, spans)
}

/// The fence run (```` ``` ````, `~~~~`…) a line opens or closes with, if any.
fn is_fence(line: &str) -> Option<&str> {
    let first = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = line.len() - line.trim_start_matches(first).len();
    (run >= 3).then(|| &line[..run])
}

fn mark_line(out: &mut String, line: &str, spans: &mut Vec<Mention>) {
    let mut at = 0;
    let mut copied = 0;
    while at < line.len() {
        let rest = &line[at..];
        if rest.starts_with('`') {
            // A code span: skip to its matching run of backticks.
            let ticks = rest.len() - rest.trim_start_matches('`').len();
            let end = rest[ticks..]
                .find(&rest[..ticks])
                .map_or(rest.len(), |found| ticks + found + ticks);
            at += end;
            continue;
        }
        if rest.starts_with("$$")
            && let Some(len) = inline_len(line, at)
        {
            out.push_str(&line[copied..at]);
            let source = restore(&line[at..at + len], spans).into_owned();
            let body = &source[2..source.len() - 2];
            let html = match katex::render(body, false) {
                Some(html) => html,
                None => {
                    let mut html = String::from("<span class=\"tex-error\">");
                    escape_text(&mut html, &source);
                    html.push_str("</span>");
                    html
                }
            };
            out.push_str(&Mention::placeholder(spans.len()));
            spans.push(Mention::new(html, source));
            at += len;
            copied = at;
            continue;
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    out.push_str(&line[copied..]);
}

/// Python's `\w`: what `\B` looks at around the `$$` delimiters.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The length of the inline formula starting at `line[at..]`, by Zulip's pattern
/// `\B(?<!\$)\$\$(?P<body>[^\n_$](\\\$|[^$\n])*)\$\$(?!\$)\B`: not glued to a word
/// or another `$`, a first character other than `_`, no newline, `\$` allowed inside.
fn inline_len(line: &str, at: usize) -> Option<usize> {
    let before = line[..at].chars().next_back();
    if before.is_some_and(|c| c == '$' || is_word(c)) {
        return None;
    }
    let body = &line[at + 2..];
    let first = body.chars().next()?;
    if matches!(first, '\n' | '\r' | '_' | '$') {
        return None;
    }
    // Greedy scan, remembering where an escaped `\$` could instead have ended the
    // body (the regex backtracks to those, latest first).
    let mut ends = Vec::new();
    let mut i = first.len_utf8();
    let bytes = body.as_bytes();
    loop {
        match bytes.get(i) {
            Some(b'\\') if bytes.get(i + 1) == Some(&b'$') => {
                ends.push(i + 1);
                i += 2;
            }
            Some(b'$' | b'\n') | None => break,
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => break,
            Some(_) => i += body[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    ends.push(i);
    ends.into_iter()
        .rev()
        .find(|&end| closes_at(body, end))
        .map(|end| 2 + end + 2)
}

/// Whether `$$` at `body[end..]` closes a formula: not followed by `$` or a word.
fn closes_at(body: &str, end: usize) -> bool {
    body.get(end..).is_some_and(|tail| tail.starts_with("$$"))
        && body[end + 2..]
            .chars()
            .next()
            .is_none_or(|c| c != '$' && !is_word(c))
}

/// A ```` ```math ```` block: each blank-line-separated paragraph is one display
/// formula in its own `<p>`.
pub(super) fn push_display(out: &mut String, text: &str) {
    let text = text.strip_suffix('\n').unwrap_or(text);
    for paragraph in text.split("\n\n") {
        out.push_str("<p>");
        match katex::render(paragraph, true) {
            Some(html) => out.push_str(&html),
            None => {
                out.push_str("<span class=\"tex-error\">");
                escape_django(out, paragraph);
                out.push_str("</span>");
            }
        }
        out.push_str("</p>\n");
    }
}

/// Django's `escape`, which Zulip applies to a failed display formula.
fn escape_django(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            other => out.push(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str) -> Option<&str> {
        let at = line.find("$$")?;
        inline_len(line, at).map(|len| &line[at..at + len])
    }

    #[test]
    fn inline_delimiters_follow_zulips_pattern() {
        assert_eq!(found("$$1 \\oplus 0 = 1$$"), Some("$$1 \\oplus 0 = 1$$"));
        assert_eq!(
            found("($$x \\approx 500\\$$$)"),
            Some("$$x \\approx 500\\$$$")
        );
        assert_eq!(found("$$    x =  7   $$"), Some("$$    x =  7   $$"));
        assert_eq!(found("$$_$$ is a smiley"), None);
        assert_eq!(found("some $$$ or $$$$!"), None);
        assert_eq!(found("$foo is$$"), None);
        assert_eq!(found("a$$x$$"), None);
        assert_eq!(found("$$x$$b"), None);
        assert_eq!(found("$$x=3\ny=4$$"), None);
        // The regex backtracks: `\` alone ends the body.
        assert_eq!(found("$$x\\$$"), Some("$$x\\$$"));
    }

    #[test]
    fn formulas_in_code_and_fences_are_left_alone() {
        let (marked, spans) = mark_inline("`$$a$$` and\n```\n$$b$$\n```\n$$c$$".into(), Vec::new());
        assert_eq!(spans.len(), 1);
        assert!(marked.starts_with("`$$a$$` and\n```\n$$b$$\n```\n"));
        assert!(!marked.contains("$$c$$"));
    }

    #[test]
    fn refused_formulas_show_their_escaped_source() {
        let (_, spans) = mark_inline("$$\\error{<b>}$$".into(), Vec::new());
        assert_eq!(
            spans[0].html(),
            "<span class=\"tex-error\">$$\\error{&lt;b&gt;}$$</span>"
        );
        let mut out = String::new();
        push_display(&mut out, "\\error{'<b>'}");
        assert_eq!(
            out,
            "<p><span class=\"tex-error\">\\error{&#x27;&lt;b&gt;&#x27;}</span></p>\n"
        );
    }

    /// Zulip's corpus case `tex_inline`, whole (KaTeX 0.16.4 matches Zulip's output).
    #[test]
    fn inline_formula_renders_exactly_as_zulip() {
        assert_eq!(
            crate::render_markdown("$$1 \\oplus 0 = 1$$"),
            "<p><span class=\"katex\"><span class=\"katex-mathml\"><math \
             xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow><mn>1</mn><mo>⊕</mo>\
             <mn>0</mn><mo>=</mo><mn>1</mn></mrow><annotation encoding=\"application/x-tex\">1 \
             \\oplus 0 = 1</annotation></semantics></math></span><span class=\"katex-html\" \
             aria-hidden=\"true\"><span class=\"base\"><span class=\"strut\" \
             style=\"height:0.7278em;vertical-align:-0.0833em;\"></span><span class=\"mord\">1\
             </span><span class=\"mspace\" style=\"margin-right:0.2222em;\"></span><span \
             class=\"mbin\">⊕</span><span class=\"mspace\" style=\"margin-right:0.2222em;\">\
             </span></span><span class=\"base\"><span class=\"strut\" style=\"height:0.6444em;\">\
             </span><span class=\"mord\">0</span><span class=\"mspace\" \
             style=\"margin-right:0.2778em;\"></span><span class=\"mrel\">=</span><span \
             class=\"mspace\" style=\"margin-right:0.2778em;\"></span></span><span \
             class=\"base\"><span class=\"strut\" style=\"height:0.6444em;\"></span><span \
             class=\"mord\">1</span></span></span></span></p>"
        );
        assert_eq!(
            crate::render_markdown("$$\\text{**a**}$$ `$$a$$`")
                .matches("<strong>")
                .count(),
            0
        );
    }

    #[test]
    fn display_paragraphs_are_separate_formulas() {
        let mut out = String::new();
        push_display(&mut out, "a\n\nb\n");
        assert_eq!(out.matches("<p><span class=\"katex-display\">").count(), 2);
    }
}
