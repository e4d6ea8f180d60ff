//! Zulip's fenced blocks (its `fenced_code.py`), found before any other Markdown as
//! Zulip finds them: a fence starts at the beginning of a line (`~~~` or three or
//! more backticks, then an optional language and header), and only a line that is
//! exactly the same fence closes it. Inside `quote`/`quoted`/`spoiler` blocks fences
//! nest; inside code nothing does. A block left open runs to the end of the message.
//! CommonMark differs on all of these (any longer fence closes, an inner `~~~ quote`
//! cannot open), which changes where nested quotes end.

/// A stretch of the message: Markdown, or one whole top-level fenced block.
pub(super) enum Chunk<'s> {
    Markdown(&'s str),
    Fenced {
        /// Lowercased, as Zulip's handlers see it; empty without one.
        lang: String,
        header: &'s str,
        /// The lines between the fences (code lines without trailing whitespace).
        body: String,
    },
}

/// A fence line: its fence, language and header.
struct Fence<'s> {
    fence: &'s str,
    lang: &'s str,
    header: &'s str,
}

impl Fence<'_> {
    fn nests(&self) -> bool {
        matches!(
            self.lang.to_ascii_lowercase().as_str(),
            "quote" | "quoted" | "spoiler"
        )
    }
}

/// Splits `source` into Markdown and top-level fenced blocks, in order.
pub(super) fn split_fences(source: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut lines = source.split_inclusive('\n').peekable();
    let mut offset = 0;
    let mut markdown_start = 0;
    while let Some(line) = lines.next() {
        let line_start = offset;
        offset += line.len();
        let Some(opener) = fence(strip_newline(line)) else {
            continue;
        };
        if markdown_start < line_start {
            chunks.push(Chunk::Markdown(&source[markdown_start..line_start]));
        }
        // Open fences, innermost last; the block ends when the opener closes.
        let mut stack = vec![(opener.fence, opener.nests())];
        let mut body: Vec<&str> = Vec::new();
        for inner in lines.by_ref() {
            offset += inner.len();
            let text = strip_newline(inner);
            let Some(&(open, nests)) = stack.last() else {
                break;
            };
            if text.trim_end() == open {
                stack.pop();
                if stack.is_empty() {
                    break;
                }
            } else if nests && let Some(nested) = fence(text) {
                stack.push((nested.fence, nested.nests()));
            }
            body.push(if opener.nests() {
                text
            } else {
                text.trim_end()
            });
        }
        markdown_start = offset;
        if !body.is_empty() {
            chunks.push(Chunk::Fenced {
                lang: opener.lang.to_ascii_lowercase(),
                header: opener.header,
                body: body.join("\n"),
            });
        }
    }
    if markdown_start < source.len() {
        chunks.push(Chunk::Markdown(&source[markdown_start..]));
    }
    chunks
}

fn strip_newline(line: &str) -> &str {
    line.strip_suffix('\n').unwrap_or(line)
}

/// Zulip's `FENCE_RE`: the fence at the very start of the line, then spaces, then
/// optionally `{`/`.`, a language of `[a-zA-Z0-9_+-./#]`, spaces and a header, with
/// no backtick or tilde anywhere after the fence.
fn fence(line: &str) -> Option<Fence<'_>> {
    let mark = line.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = line.len() - line.trim_start_matches(mark).len();
    if len < 3 {
        return None;
    }
    let (fence, rest) = line.split_at(len);
    if rest.contains(['`', '~']) {
        return None;
    }
    let rest = rest.trim_start_matches(' ');
    if rest.trim_end().is_empty() {
        return Some(Fence {
            fence,
            lang: "",
            header: "",
        });
    }
    let named = rest.strip_prefix('{').unwrap_or(rest);
    let named = named.strip_prefix('.').unwrap_or(named);
    let lang_len = named.len()
        - named
            .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || "_+-./#".contains(c))
            .len();
    if lang_len == 0 {
        return None;
    }
    let (lang, header) = named.split_at(lang_len);
    Some(Fence {
        fence,
        lang,
        header: header.trim(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(source: &str) -> Vec<String> {
        split_fences(source)
            .into_iter()
            .map(|chunk| match chunk {
                Chunk::Markdown(text) => format!("md:{text}"),
                Chunk::Fenced { lang, header, body } => format!("{lang}[{header}]:{body}"),
            })
            .collect()
    }

    #[test]
    fn fences_follow_zulips_rules() {
        assert_eq!(shape("a\n```py\nx  \n```\nb"), ["md:a\n", "py[]:x", "md:b"]);
        // Only the very same fence closes; a longer one is content.
        assert_eq!(shape("~~~\nx\n~~~~\n~~~"), ["[]:x\n~~~~"]);
        // Unclosed: to the end.
        assert_eq!(shape("```\nx\n\ny"), ["[]:x\n\ny"]);
        // Not fences: indented, or backticks after the fence.
        assert_eq!(shape(" ```\nx"), ["md: ```\nx"]);
        assert_eq!(shape("``` one ```"), ["md:``` one ```"]);
        assert_eq!(shape("``` :x:\ny"), ["md:``` :x:\ny"]);
    }

    #[test]
    fn quotes_nest_fences_and_code_does_not() {
        assert_eq!(
            shape("~~~ quote\na\n~~~ quote\nb\n~~~\nc\n~~~\nd"),
            ["quote[]:a\n~~~ quote\nb\n~~~\nc", "md:d"]
        );
        assert_eq!(shape("```\n~~~ quote\n```\nd"), ["[]:~~~ quote", "md:d"]);
        assert_eq!(
            shape("```spoiler Head *x*\nbody\n```"),
            ["spoiler[Head *x*]:body"]
        );
    }

    #[test]
    fn empty_blocks_vanish() {
        assert_eq!(shape("```\n```\nx"), ["md:x"]);
    }
}
