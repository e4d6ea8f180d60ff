//! Line-level rewrites that make CommonMark's block structure (pulldown-cmark) come
//! out as Zulip's (Python-Markdown with Zulip's block processors) for lists and
//! quotes. One linear pass; fenced code is copied untouched.
//!
//! * Lists nest by indents of two spaces, whatever the marker: each item line gets the
//!   indent CommonMark needs for the same nesting (`1. a` / `  2. b` becomes
//!   `1. a` / `   2. b`), and an item whose bullet differs from its siblings' (`*`,
//!   `-`, `+`) gets theirs, so the list goes on.
//! * CommonMark lets only a list starting at 1 interrupt a paragraph, Zulip any
//!   list: a nested numbered list right under its parent's text is written `1.` and
//!   its real start kept aside ([`Blocks::starts`]) for the writer's `<ol start>`.
//! * A list right after a paragraph line starts a list (Zulip's `hanging_lists`), even
//!   an ordered one not starting at 1: a blank line is put before it.
//! * `1)` is no list marker in Zulip; it is escaped.
//! * A block of nothing but `>` is text, its last `>` literal (`>>>` is two quotes
//!   around `&gt;`), and empty `>` lines start a quote that takes in the lines after.

use std::borrow::Cow;

/// An open list item: its indent in the source, its content's column in the
/// rewritten text, and its bullet (`None` for a numbered item).
struct Level {
    indent: usize,
    content: usize,
    bullet: Option<char>,
}

/// The rewritten source, and the start numbers of the lists rewritten to start at 1.
pub(super) struct Blocks<'s> {
    pub(super) source: Cow<'s, str>,
    /// (offset of the marker in `source`, the list's start), in source order.
    pub(super) starts: Vec<(usize, u64)>,
}

/// `source` with Zulip's list and quote structure spelled the CommonMark way.
pub(super) fn zulip_blocks(source: &str) -> Blocks<'_> {
    if !source.lines().any(may_start_block) {
        return Blocks {
            source: Cow::Borrowed(source),
            starts: Vec::new(),
        };
    }
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let mut rewriter = Rewriter {
        out: String::with_capacity(source.len() + 16),
        levels: Vec::new(),
        quote_lazy: false,
        starts: Vec::new(),
    };
    let mut fence: Option<(char, usize)> = None;
    let mut previous_text = false;
    let mut index = 0;
    while let Some(&line) = lines.get(index) {
        index += 1;
        let content = line.trim();
        if let Some((mark, len)) = fence {
            let closes = fence_of(content).is_some_and(|(m, l)| {
                m == mark && l >= len && content.trim_start_matches(mark).trim().is_empty()
            });
            if closes {
                fence = None;
            }
            rewriter.out.push_str(line);
            continue;
        }
        if content.is_empty() || fence_of(content).is_some() {
            fence = fence_of(content);
            if fence.is_some() {
                rewriter.levels.clear();
            }
            rewriter.quote_lazy = false;
            previous_text = false;
            rewriter.out.push_str(line);
            continue;
        }
        let block_start = !previous_text;
        previous_text = true;
        if block_start && content.starts_with('>') {
            let block: Vec<&str> = lines[index - 1..]
                .iter()
                .take_while(|l| !l.trim().is_empty() && fence_of(l.trim()).is_none())
                .copied()
                .collect();
            if block
                .iter()
                .all(|l| l.trim().chars().all(|c| c == '>' || c == ' '))
            {
                rewriter.literal_markers(&block);
                index += block.len() - 1;
                previous_text = false;
                continue;
            }
            let empty = block.iter().take_while(|l| l.trim() == ">").count();
            rewriter.quote_lazy =
                empty > 0 && block.get(empty).is_some_and(|l| !l.trim().starts_with('>'));
        }
        rewriter.line(line, block_start);
    }
    Blocks {
        source: Cow::Owned(rewriter.out),
        starts: rewriter.starts,
    }
}

/// Whether a line may start what this pass rewrites: a list item (`*`, `-`, `+`, a
/// digit) or a quote (`>`). A source with no such line comes out unchanged.
fn may_start_block(line: &str) -> bool {
    line.trim_start()
        .starts_with(|c: char| matches!(c, '*' | '-' | '+' | '>') || c.is_ascii_digit())
}

struct Rewriter {
    out: String,
    levels: Vec<Level>,
    /// Lines of a quote that began with empty `>` lines: they belong to it.
    quote_lazy: bool,
    starts: Vec<(usize, u64)>,
}

impl Rewriter {
    fn line(&mut self, line: &str, block_start: bool) {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        if body.starts_with('>') {
            self.levels.clear();
            self.out.push_str(line);
            return;
        }
        if self.quote_lazy {
            self.out.push_str("> ");
            self.out.push_str(line);
            return;
        }
        let Some((bullet, mut width)) =
            item(body).filter(|_| indent < 4 || !self.levels.is_empty())
        else {
            if indent == 0 && block_start {
                self.levels.clear();
            }
            let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let paren_item = digits > 0
                && digits <= 9
                && body[digits..].starts_with(") ")
                && (indent < 4 || !self.levels.is_empty());
            if paren_item {
                // `1)` starts a list in CommonMark only: Zulip shows it as text.
                self.out.push_str(&line[..indent + digits]);
                self.out.push('\\');
                self.out.push_str(&body[digits..]);
            } else {
                self.out.push_str(line);
            }
            return;
        };
        let mut sibling = None;
        while let Some(level) = self.levels.pop_if(|level| level.indent >= indent) {
            sibling = Some(level);
        }
        let in_list = sibling.is_some() || !self.levels.is_empty();
        let sibling = sibling.filter(|level| level.indent < indent + 2);
        let first_nested = sibling.is_none() && !self.levels.is_empty();
        let sibling_bullet = sibling.and_then(|level| level.bullet);
        if !block_start && !in_list {
            self.out.push('\n');
        }
        let new_indent = self.levels.last().map_or(0, |level| level.content);
        self.out.extend(std::iter::repeat_n(' ', new_indent));
        let bullet = bullet.map(|own| sibling_bullet.unwrap_or(own));
        let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match bullet {
            Some(mark) => {
                self.out.push(mark);
                self.out.push_str(&body[1..]);
            }
            // The first item of a numbered list nested right under its parent's text.
            None if first_nested && !block_start && !body.starts_with("1.") => {
                let start = body[..digits].parse().unwrap_or(1);
                self.starts.push((self.out.len(), start));
                self.out.push('1');
                self.out.push_str(&body[digits..]);
                width = width + 1 - digits;
            }
            None => self.out.push_str(body),
        }
        self.levels.push(Level {
            indent,
            content: new_indent + width,
            bullet,
        });
    }

    /// A block of `>` only: each line's last `>` escaped, so it shows as text.
    fn literal_markers(&mut self, block: &[&str]) {
        for line in block {
            let last = line.rfind('>').unwrap_or(0);
            self.out.push_str(&line[..last]);
            self.out.push('\\');
            self.out.push_str(&line[last..]);
        }
        self.levels.clear();
    }
}

/// A list item's bullet (`None` when numbered) and the width of its marker and the
/// spaces after it, for a line without its indent: `[*+-] +` or `\d+\. +` (Zulip's
/// list patterns), followed by text.
fn item(body: &str) -> Option<(Option<char>, usize)> {
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (bullet, marker) = match body.chars().next()? {
        mark @ ('*' | '+' | '-') => (Some(mark), 1),
        _ if digits > 0 && digits <= 9 && body[digits..].starts_with('.') => (None, digits + 1),
        _ => return None,
    };
    let rest = &body[marker..];
    let spaces = rest.len() - rest.trim_start_matches(' ').len();
    // CommonMark counts at most four spaces as the marker's; more start code.
    (spaces > 0 && spaces <= 4 && !rest.trim().is_empty()).then_some((bullet, marker + spaces))
}

/// The fence a trimmed line opens or closes: its character and length.
fn fence_of(content: &str) -> Option<(char, usize)> {
    let mark = content.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = content.len() - content.trim_start_matches(mark).len();
    (len >= 3).then_some((mark, len))
}

#[cfg(test)]
mod tests {
    use super::zulip_blocks;

    fn rewrite(source: &str) -> String {
        zulip_blocks(source).source.into_owned()
    }

    #[test]
    fn ordered_lists_nest_at_two_spaces() {
        assert_eq!(
            rewrite("1. a\n  2. b\n    3. c\n  4. d\n5. e"),
            "1. a\n   1. b\n      1. c\n   4. d\n5. e"
        );
        assert_eq!(
            zulip_blocks("1. a\n  2. b\n    3. c").starts,
            [(8, 2), (19, 3)]
        );
    }

    #[test]
    fn mixed_bullets_continue_the_list() {
        assert_eq!(rewrite("* a\n- b\n+ c"), "* a\n* b\n* c");
        assert_eq!(rewrite("* a\n  - b\n  + c"), "* a\n  - b\n  - c");
    }

    #[test]
    fn a_list_after_a_paragraph_line_starts_a_list() {
        assert_eq!(rewrite("text\n3. a"), "text\n\n3. a");
    }

    #[test]
    fn parenthesised_numbers_are_text() {
        assert_eq!(rewrite("1) a\n    2) b"), "1\\) a\n    2) b");
    }

    #[test]
    fn quotes_of_markers_only_are_text() {
        assert_eq!(rewrite(">"), "\\>");
        assert_eq!(rewrite(">>>>>"), ">>>>\\>");
        assert_eq!(rewrite(">\n>\ntext"), ">\n>\n> text");
        assert_eq!(rewrite("> a\n>"), "> a\n>");
    }

    #[test]
    fn fenced_code_is_untouched() {
        let source = "```\n1. a\n  2. b\n>\n```\n  2. c";
        assert_eq!(rewrite(source), "```\n1. a\n  2. b\n>\n```\n2. c");
    }
}
