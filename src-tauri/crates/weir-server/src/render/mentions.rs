//! Zulip's mention and channel-link syntax: `@**Full Name**`, `@**Full Name|42**`,
//! silent `@_**Full Name**`, and `#**channel**`. They need the organization's data, so
//! the caller supplies a [`Directory`]. Markdown would read `**…**` as bold, so each
//! recognised mention is swapped for a placeholder before rendering and its HTML put in
//! afterwards; code spans and fenced blocks are left alone, and a source that already
//! holds the placeholder characters is rendered without mentions.

use super::sanitize::{escape_attr, escape_text};

/// Looks up the people and channels that mentions name.
pub trait Directory {
    /// The user `@**name**` (or `@**name|id**`) names: `(user_id, full_name)`.
    fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)>;
    /// The channel `#**name**` names: `(stream_id, name)`.
    fn stream(&self, name: &str) -> Option<(i64, String)>;
}

const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

/// Renders `source` with its mentions resolved through `directory`.
pub fn render_with_mentions(source: &str, directory: &dyn Directory) -> String {
    if source.contains(OPEN) || source.contains(CLOSE) {
        return super::render_markdown(source);
    }
    let (marked, replacements) = mark_mentions(source, directory);
    let mut html = super::render_markdown(&marked);
    for (index, replacement) in replacements.iter().enumerate() {
        html = html.replace(&format!("{OPEN}{index}{CLOSE}"), replacement);
    }
    html
}

fn mark_mentions(source: &str, directory: &dyn Directory) -> (String, Vec<String>) {
    let mut out = String::with_capacity(source.len());
    let mut replacements = Vec::new();
    let mut in_fence = false;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if in_fence || trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            out.push_str(line);
        } else {
            mark_line(line, directory, &mut out, &mut replacements);
        }
    }
    (out, replacements)
}

fn mark_line(
    line: &str,
    directory: &dyn Directory,
    out: &mut String,
    replacements: &mut Vec<String>,
) {
    let mut rest = line;
    while !rest.is_empty() {
        // Inline code: copy through the matching run of backticks untouched.
        if rest.starts_with('`') {
            let ticks = rest.len() - rest.trim_start_matches('`').len();
            let fence = &rest[..ticks];
            let after = &rest[ticks..];
            let end = after
                .find(fence)
                .map_or(rest.len(), |at| ticks + at + ticks);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        if let Some((html, used)) = mention_at(rest, directory) {
            out.push(OPEN);
            out.push_str(&replacements.len().to_string());
            out.push(CLOSE);
            replacements.push(html);
            rest = &rest[used..];
            continue;
        }
        let next = rest.chars().next().map_or(1, char::len_utf8);
        out.push_str(&rest[..next]);
        rest = &rest[next..];
    }
}

/// A mention starting at the beginning of `text`: its HTML and how many bytes it used.
fn mention_at(text: &str, directory: &dyn Directory) -> Option<(String, usize)> {
    let (prefix, silent, is_stream) = if text.starts_with("@_**") {
        ("@_**", true, false)
    } else if text.starts_with("@**") {
        ("@**", false, false)
    } else if text.starts_with("#**") {
        ("#**", false, true)
    } else {
        return None;
    };
    let inner_end = text[prefix.len()..].find("**")?;
    let inner = &text[prefix.len()..prefix.len() + inner_end];
    if inner.is_empty() || inner.contains('\n') {
        return None;
    }
    let used = prefix.len() + inner_end + 2;
    let mut html = String::new();
    if is_stream {
        let (id, name) = directory.stream(inner)?;
        let slug = encode_hash_component(&name.replace(' ', "-"));
        html.push_str(&format!(
            "<a class=\"stream\" data-stream-id=\"{id}\" href=\"/#narrow/channel/{id}-"
        ));
        escape_attr(&mut html, &slug);
        html.push_str("\">#");
        escape_text(&mut html, &name);
        html.push_str("</a>");
    } else {
        let (name, id) = match inner.rsplit_once('|') {
            Some((name, id)) => (name, Some(id.parse().ok()?)),
            None => (inner, None),
        };
        let (user_id, full_name) = directory.user(name, id)?;
        let class = if silent {
            "user-mention silent"
        } else {
            "user-mention"
        };
        html.push_str(&format!(
            "<span class=\"{class}\" data-user-id=\"{user_id}\">"
        ));
        if !silent {
            html.push('@');
        }
        escape_text(&mut html, &full_name);
        html.push_str("</span>");
    }
    Some((html, used))
}

/// Zulip's `encode_hash_component`: URI-component encoding with `.` for `%`.
fn encode_hash_component(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_~!*'()".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!(".{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Org;

    impl Directory for Org {
        fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)> {
            let known = [(8, "Ada Okafor"), (9, "Bruno <b>")];
            known
                .iter()
                .find(|(uid, full)| {
                    full.eq_ignore_ascii_case(name) && id.is_none_or(|id| id == *uid)
                })
                .map(|(uid, full)| (*uid, (*full).to_owned()))
        }

        fn stream(&self, name: &str) -> Option<(i64, String)> {
            name.eq_ignore_ascii_case("design team")
                .then(|| (3, "Design team".to_owned()))
        }
    }

    #[test]
    fn user_mentions_become_zulips_spans() {
        assert_eq!(
            render_with_mentions("@**Ada Okafor|8** subscribed you", &Org),
            "<p><span class=\"user-mention\" data-user-id=\"8\">@Ada Okafor</span> subscribed you</p>"
        );
        assert_eq!(
            render_with_mentions("hi @_**ada okafor**", &Org),
            "<p>hi <span class=\"user-mention silent\" data-user-id=\"8\">Ada Okafor</span></p>"
        );
    }

    #[test]
    fn channel_links_point_at_the_narrow() {
        assert_eq!(
            render_with_mentions("* #**design team**", &Org),
            "<ul>\n<li><a class=\"stream\" data-stream-id=\"3\" href=\"/#narrow/channel/3-Design-team\">#Design team</a></li>\n</ul>"
        );
    }

    #[test]
    fn unknown_names_ids_that_do_not_match_and_code_stay_as_written() {
        assert_eq!(
            render_with_mentions("#**nope**", &Org),
            "<p>#<strong>nope</strong></p>"
        );
        assert_eq!(
            render_with_mentions("@**Ada Okafor|9**", &Org),
            "<p>@<strong>Ada Okafor|9</strong></p>"
        );
        assert_eq!(
            render_with_mentions("`@**Ada Okafor**`", &Org),
            "<p><code>@**Ada Okafor**</code></p>"
        );
    }

    #[test]
    fn names_are_escaped() {
        let html = render_with_mentions("@**Bruno <b>**", &Org);
        assert!(html.contains("@Bruno &lt;b&gt;</span>"), "{html}");
    }

    #[test]
    fn placeholder_characters_in_the_source_disable_mentions() {
        let html = render_with_mentions("\u{E000}0\u{E001} @**Ada Okafor**", &Org);
        assert!(!html.contains("user-mention"), "{html}");
    }
}
