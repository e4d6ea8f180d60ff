//! Turns pulldown-cmark's CommonMark events into the HTML Zulip stores,
//! applying Zulip's dialect on top: Zulip's fenced blocks are split off first
//! (`fences.rs`) and list/quote lines respelled (`blocks.rs`); newlines are line
//! breaks, raw HTML is shown as text, `_`/`__` are not emphasis, emphasis stays
//! within a line, there are no setext headings and no reference links, fenced
//! `quote`/`spoiler` blocks nest Markdown, and code blocks use Zulip's
//! `codehilite` wrapper.

use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{
    Alignment, CodeBlockKind, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd,
};

use super::blocks::zulip_blocks;
use super::code::push_code_block;
use super::emoji::push_text_with_emoji;
use super::fences::{Chunk, split_fences};
use super::inline::push_with_zulip_inline;
use super::linkify::push_linkified;
use super::mentions::{Mention, push_with_mentions, restore};
use super::sanitize::{escape_attr, escape_text, is_safe_url};

/// Zulip has `~~strike~~` and tables, but no footnotes or smart punctuation.
const OPTIONS: Options = Options::ENABLE_STRIKETHROUGH.union(Options::ENABLE_TABLES);

/// How often fenced quotes/spoilers and raw-HTML blocks may re-enter the
/// parser; deeper content degrades to code/plain text, so hostile nesting
/// costs at most this many linear passes and never deep recursion.
const MAX_DEPTH: usize = 8;

/// Renders a whole message; blocks are separated by single newlines.
pub(super) fn render(source: &str) -> String {
    render_with(source, &[])
}

/// Renders a message whose mentions were swapped for placeholders (see `mentions.rs`).
pub(super) fn render_with(source: &str, mentions: &[Mention]) -> String {
    // Rendered HTML is typically two to three times its source (an emoji is ~110 bytes
    // of markup): sized so that a short message's output is not copied as it grows.
    let mut out = String::with_capacity(source.len().saturating_mul(2).saturating_add(160));
    render_into(&mut out, source, 0, mentions);
    let len = out.trim_end_matches('\n').len();
    out.truncate(len);
    out
}

/// Renders `source` as a block sequence appended to `out`, each block ending in `\n`.
fn render_into(out: &mut String, source: &str, depth: usize, mentions: &[Mention]) {
    for chunk in split_fences(source) {
        match chunk {
            Chunk::Markdown(markdown) => render_markdown_into(out, markdown, depth, mentions),
            Chunk::Fenced { lang, header, body } => {
                let code = Code {
                    info: format!("{lang} {header}"),
                    text: body,
                    not_a_fence: None,
                };
                Writer::new(out, "", depth, mentions, &[]).code_block(&code);
            }
        }
    }
}

/// Renders Markdown without Zulip fences (see `fences.rs`) appended to `out`.
fn render_markdown_into(out: &mut String, source: &str, depth: usize, mentions: &[Mention]) {
    let blocks = zulip_blocks(source);
    let source = blocks.source.as_ref();
    let mut writer = Writer::new(out, source, depth, mentions, &blocks.starts);
    let parser = Parser::new_ext(source, OPTIONS);
    writer.definitions = parser
        .reference_definitions()
        .iter()
        .map(|(_, definition)| definition.span.clone())
        .collect();
    // Latest first, so the next one to show is popped off the end.
    writer
        .definitions
        .sort_by_key(|span| std::cmp::Reverse(span.start));
    for (event, range) in parser.into_offset_iter() {
        match &event {
            Event::Start(_) | Event::Rule => writer.definitions_before(range.start),
            Event::End(TagEnd::BlockQuote(_) | TagEnd::Item | TagEnd::List(_)) => {
                writer.definitions_before(range.end);
            }
            _ => {}
        }
        writer.whitespace(&event, &range);
        writer.event(event, range);
    }
    writer.definitions_before(usize::MAX);
    writer.flush_text();
}

/// What an inline tag's end event must emit, decided when it started.
enum Inline {
    /// Closing markup such as `</em>`.
    Markup(&'static str),
    /// A delimiter Zulip does not treat as markup (`_`, `__`, single `~`).
    Literal(&'static str),
    /// The source after a link's text, for a link Zulip shows as written.
    LiteralSource(String),
    /// A link, and where its text starts in the output.
    Link { href: String, content_start: usize },
    /// A setext heading shown as a paragraph, followed by its underline.
    Setext(String),
}

/// Buffered fenced or indented code block.
struct Code {
    info: String,
    text: String,
    /// Source of a fence Zulip does not accept as one (see [`is_zulip_fence`]).
    not_a_fence: Option<Range<usize>>,
}

struct Writer<'o, 's, 'm> {
    out: &'o mut String,
    src: &'s str,
    depth: usize,
    /// Mentions whose placeholders the source holds: HTML in text, source elsewhere.
    mentions: &'m [Mention],
    /// Adjacent text events joined, so emoji names and URLs the parser split
    /// (at `_`, `!`, `[` …) are matched whole.
    text: String,
    inline: Vec<Inline>,
    /// Inside link text bare URLs are not linked again.
    link_depth: usize,
    code: Option<Code>,
    html: Option<String>,
    table: Table,
    /// Source range of the innermost `*emphasis*` just opened, to spot `***x***`.
    emphasis: Option<Range<usize>>,
    /// Link reference definitions not yet shown, latest first: CommonMark drops
    /// them from the output, Zulip (which has no reference links) shows them.
    definitions: Vec<Range<usize>>,
    /// Starts of numbered lists written `1.` for CommonMark (see `blocks.rs`).
    starts: &'s [(usize, u64)],
    /// Where the last inline content ended, for the spaces after it.
    text_end: Option<usize>,
    /// Where the line after a line break starts, for its indent.
    line_start: Option<usize>,
    /// Whether the current paragraph keeps its lines' indents: Python-Markdown
    /// strips them only from the blocks of a list item after its first.
    keep_indent: bool,
    /// Lists open around the current event.
    lists: usize,
}

/// The table being written: its column alignments and where a row is.
#[derive(Default)]
struct Table {
    align: Vec<Alignment>,
    cell: usize,
    head: bool,
}

impl<'o, 's, 'm> Writer<'o, 's, 'm> {
    fn new(
        out: &'o mut String,
        src: &'s str,
        depth: usize,
        mentions: &'m [Mention],
        starts: &'s [(usize, u64)],
    ) -> Self {
        Writer {
            out,
            src,
            depth,
            mentions,
            text: String::new(),
            inline: Vec::new(),
            link_depth: 0,
            code: None,
            html: None,
            table: Table::default(),
            emphasis: None,
            definitions: Vec::new(),
            starts,
            text_end: None,
            line_start: None,
            keep_indent: true,
            lists: 0,
        }
    }

    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => match &mut self.code {
                Some(code) => code.text.push_str(&text),
                None => self.text.push_str(&text),
            },
            // Raw HTML is never interpreted: it is shown as the text it is.
            Event::InlineHtml(html) => self.text.push_str(&html),
            Event::Html(html) => match &mut self.html {
                Some(buffer) => buffer.push_str(&html),
                None => self.text.push_str(&html),
            },
            Event::Code(code) => {
                self.flush_text();
                self.out.push_str("<code>");
                // Zulip keeps a code span's edge spaces, which CommonMark strips.
                let raw = self.slice(range);
                let inner = raw.trim_start_matches('`').trim_end_matches('`');
                let text = if !inner.is_empty() && !inner.contains('\n') {
                    inner
                } else {
                    &code
                };
                escape_text(self.out, &restore(text, self.mentions));
                self.out.push_str("</code>");
            }
            Event::SoftBreak | Event::HardBreak => {
                self.flush_text();
                self.out.push_str("<br>\n");
            }
            Event::Rule => self.open_block("<hr>\n"),
            // Not produced with OPTIONS; kept as text should that change.
            Event::InlineMath(text) | Event::DisplayMath(text) | Event::FootnoteReference(text) => {
                self.text.push_str(&text);
            }
            Event::TaskListMarker(_) => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        match tag {
            Tag::Paragraph => self.open_block("<p>"),
            Tag::Heading { level, .. } => self.open_heading(level, range),
            Tag::BlockQuote(_) => self.open_block("<blockquote>\n"),
            Tag::CodeBlock(kind) => {
                self.flush_text();
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                let not_a_fence = (!is_zulip_fence(&info)).then_some(range);
                self.code = Some(Code {
                    info,
                    text: String::new(),
                    not_a_fence,
                });
            }
            Tag::HtmlBlock => {
                self.flush_text();
                self.html = Some(String::new());
            }
            // No newline first: in a tight item the list follows the item's
            // text directly (`<li>a<ul>`), as Zulip emits; elsewhere the
            // previous block already ended with one.
            Tag::List(start) => {
                self.flush_text();
                let start = start.map(|start| self.list_start(start, range.start));
                match start {
                    None => self.out.push_str("<ul>\n"),
                    Some(1) => self.out.push_str("<ol>\n"),
                    // Writing into a String cannot fail.
                    Some(n) => {
                        let _ = writeln!(self.out, "<ol start=\"{n}\">");
                    }
                }
            }
            Tag::Item => self.open_block("<li>"),
            Tag::Emphasis => {
                self.emphasis = Some(range.clone());
                self.open_span(range, "<em>", "</em>", "_", "*");
            }
            Tag::Strong => self.open_strong(range),
            Tag::Strikethrough => {
                let source = self.slice(range);
                if source.starts_with("~~") && !source.contains('\n') && self.link_depth == 0 {
                    self.flush_text();
                    self.out.push_str("<del>");
                    self.inline.push(Inline::Markup("</del>"));
                } else if source.starts_with("~~") {
                    self.literal("~~");
                } else {
                    self.literal("~");
                }
            }
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => self.open_link(link_type, &restore(&dest_url, self.mentions), range, false),
            Tag::Image {
                link_type,
                dest_url,
                ..
            } => self.open_link(link_type, &restore(&dest_url, self.mentions), range, true),
            Tag::Table(align) => {
                self.open_block("<table>\n<thead>\n<tr>\n");
                self.table = Table {
                    align,
                    cell: 0,
                    head: true,
                };
            }
            Tag::TableHead | Tag::TableRow => {
                self.table.cell = 0;
                if !self.table.head {
                    self.close_block("<tr>\n");
                }
            }
            Tag::TableCell => self.open_cell(),
            // Footnotes, definition lists, metadata, super/subscript are not
            // enabled; their content would still render as text.
            _ => {}
        }
    }

    /// Zulip keeps the spaces CommonMark trims: at the end of a line, and the indent
    /// of a paragraph's continuation lines. Called before each event is written.
    fn whitespace(&mut self, event: &Event<'_>, range: &Range<usize>) {
        match event {
            Event::Start(Tag::Item) => self.keep_indent = true,
            Event::Start(Tag::Paragraph) => {
                // What precedes the paragraph on its line: indent, `>`s, or the
                // marker of the item it is the first block of.
                let before = self.slice(0..range.start);
                let prefix = before[before.rfind('\n').map_or(0, |at| at + 1)..].trim_end();
                self.keep_indent = self.lists == 0 || prefix.ends_with(['*', '-', '+', '.']);
            }
            Event::Text(_) if self.code.is_none() => {
                if let Some(start) = self.line_start.take() {
                    let indent = self.slice(start..range.start);
                    if self.keep_indent && indent.bytes().all(|b| b == b' ') {
                        self.text.push_str(indent);
                    }
                }
                self.text_end = Some(range.end);
            }
            Event::SoftBreak | Event::HardBreak => {
                self.trailing_spaces();
                if self.slice(range.clone()).starts_with('\\') {
                    self.text.push('\\');
                }
                let rest = self.slice(range.start..self.src.len());
                self.line_start = rest.find('\n').map(|at| range.start + at + 1);
            }
            Event::Code(_)
            | Event::InlineHtml(_)
            | Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Link
                | TagEnd::Image,
            ) => self.text_end = Some(range.end),
            Event::End(TagEnd::Paragraph | TagEnd::Item) => self.trailing_spaces(),
            Event::Start(Tag::List(_)) => {
                self.trailing_spaces();
                self.lists += 1;
            }
            Event::End(TagEnd::List(_)) => self.lists = self.lists.saturating_sub(1),
            _ => {}
        }
    }

    /// The spaces between the last inline content and the end of its line, as text.
    fn trailing_spaces(&mut self) {
        let Some(end) = self.text_end.take() else {
            return;
        };
        let rest = self.slice(end..self.src.len());
        let spaces = &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()];
        let at_line_end =
            rest[spaces.len()..].is_empty() || rest[spaces.len()..].starts_with(['\n', '\r']);
        if at_line_end {
            self.text.push_str(spaces);
        }
    }

    /// A numbered list's real start: the one `blocks.rs` put aside for the list
    /// whose first marker is at `at` (after any indent), else `start`.
    fn list_start(&self, start: u64, at: usize) -> u64 {
        if start != 1 {
            return start;
        }
        let marker = at + self.slice(at..self.src.len()).len()
            - self.slice(at..self.src.len()).trim_start_matches(' ').len();
        self.starts
            .binary_search_by_key(&marker, |&(offset, _)| offset)
            .map_or(start, |found| self.starts[found].1)
    }

    /// Python-Markdown's cell markup: alignment as an inline style.
    fn open_cell(&mut self) {
        self.flush_text();
        self.out
            .push_str(if self.table.head { "<th" } else { "<td" });
        match self.table.align.get(self.table.cell) {
            Some(Alignment::Left) => self.out.push_str(" style=\"text-align: left;\""),
            Some(Alignment::Center) => self.out.push_str(" style=\"text-align: center;\""),
            Some(Alignment::Right) => self.out.push_str(" style=\"text-align: right;\""),
            Some(Alignment::None) | None => {}
        }
        self.out.push('>');
        self.table.cell += 1;
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.close_block("</p>\n"),
            TagEnd::BlockQuote(_) => {
                self.flush_text();
                self.block_start();
                self.out.push_str("</blockquote>\n");
            }
            TagEnd::List(ordered) => self.close_block(if ordered { "</ol>\n" } else { "</ul>\n" }),
            TagEnd::Item => self.close_block("</li>\n"),
            TagEnd::Table => self.close_block("</tbody>\n</table>\n"),
            TagEnd::TableHead => {
                self.table.head = false;
                self.close_block("</tr>\n</thead>\n<tbody>\n");
            }
            TagEnd::TableRow => self.close_block("</tr>\n"),
            TagEnd::TableCell => {
                let head = self.table.head;
                self.close_block(if head { "</th>\n" } else { "</td>\n" });
            }
            TagEnd::CodeBlock => match self.code.take() {
                Some(Code {
                    not_a_fence: Some(range),
                    ..
                }) => self.not_a_fence(range),
                Some(code) => self.code_block(&code),
                None => {}
            },
            TagEnd::HtmlBlock => {
                if let Some(html) = self.html.take() {
                    self.html_block(&html);
                }
            }
            TagEnd::Heading(_)
            | TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Link
            | TagEnd::Image => self.close_inline(),
            _ => {}
        }
    }

    fn slice(&self, range: Range<usize>) -> &'s str {
        self.src.get(range).unwrap_or_default()
    }

    /// Separates a new block from whatever precedes it on the same line.
    fn block_start(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn open_block(&mut self, markup: &str) {
        self.flush_text();
        self.block_start();
        self.out.push_str(markup);
    }

    fn close_block(&mut self, markup: &str) {
        self.flush_text();
        self.out.push_str(markup);
    }

    /// ATX headings as `<hN>`; setext ones become a paragraph ending in their
    /// underline, since Zulip only knows `# Heading`.
    fn open_heading(&mut self, level: HeadingLevel, range: Range<usize>) {
        self.flush_text();
        self.block_start();
        let source = self.slice(range);
        if source.trim_start().starts_with('#') {
            let (open, close) = match level {
                HeadingLevel::H1 => ("<h1>", "</h1>\n"),
                HeadingLevel::H2 => ("<h2>", "</h2>\n"),
                HeadingLevel::H3 => ("<h3>", "</h3>\n"),
                HeadingLevel::H4 => ("<h4>", "</h4>\n"),
                HeadingLevel::H5 => ("<h5>", "</h5>\n"),
                HeadingLevel::H6 => ("<h6>", "</h6>\n"),
            };
            self.out.push_str(open);
            self.inline.push(Inline::Markup(close));
        } else {
            let underline = source.trim_end().lines().last().unwrap_or_default().trim();
            let underline = restore(underline, self.mentions).into_owned();
            self.out.push_str("<p>");
            self.inline.push(Inline::Setext(underline));
        }
    }

    /// `*x*`/`**x**` become markup; Zulip ignores `_x_`/`__x__` (they are
    /// usually identifiers), so those delimiters stay literal text.
    /// Zulip's emphasis never spans a line break, so such delimiters stay text.
    fn open_span(
        &mut self,
        range: Range<usize>,
        open: &str,
        close: &'static str,
        underscore: &'static str,
        star: &'static str,
    ) {
        let source = self.slice(range);
        // Zulip's link text takes no `*`/`**` emphasis (its link pattern runs
        // before those and leaves the text atomic), only `***strong em***`.
        let in_link = self.link_depth > 0 && !source.starts_with("***");
        if source.starts_with('_') {
            self.literal(underscore);
        } else if source.contains('\n') || in_link {
            self.literal(star);
        } else {
            self.flush_text();
            self.out.push_str(open);
            self.inline.push(Inline::Markup(close));
        }
    }

    /// `***x***` is `<strong><em>` in Zulip, where CommonMark nests the other way:
    /// a strong span right inside an emphasis one with the same content swaps them.
    fn open_strong(&mut self, range: Range<usize>) {
        let swap = self
            .emphasis
            .as_ref()
            .is_some_and(|outer| outer.start + 1 == range.start && outer.end == range.end + 1)
            && self.text.is_empty()
            && self.out.ends_with("<em>")
            && matches!(self.inline.last(), Some(Inline::Markup("</em>")));
        if swap && !self.slice(range.clone()).contains('\n') {
            self.out.truncate(self.out.len() - "<em>".len());
            self.out.push_str("<strong><em>");
            if let Some(last) = self.inline.last_mut() {
                *last = Inline::Markup("</strong>");
            }
            self.inline.push(Inline::Markup("</em>"));
            return;
        }
        self.open_span(range, "<strong>", "</strong>", "__", "**");
    }

    fn literal(&mut self, delimiter: &'static str) {
        self.literal_pair(delimiter, delimiter);
    }

    fn literal_pair(&mut self, open: &str, close: &'static str) {
        self.text.push_str(open);
        self.inline.push(Inline::Literal(close));
    }

    /// Links become `<a href>` when the URL passes the scheme policy.
    ///
    /// Zulip (10) has no image syntax, no `<url>` autolinks (its linkifier links
    /// the URL between the brackets) and no reference-style links, and shows a
    /// link whose URL it refuses as the source it was; the text in all these is
    /// still Markdown.
    fn open_link(&mut self, link_type: LinkType, dest: &str, range: Range<usize>, image: bool) {
        let source = self.slice(range);
        let open = if image { "![" } else { "[" };
        match link_type {
            LinkType::Autolink | LinkType::Email => {
                self.literal_pair("<", ">");
                return;
            }
            LinkType::Inline | LinkType::WikiLink { .. } => {}
            _ => {
                let rest = source.rfind("][").map_or("]", |at| &source[at..]);
                self.text.push_str(open);
                self.inline.push(Inline::LiteralSource(rest.to_owned()));
                return;
            }
        }
        if image || !is_safe_url(dest) {
            let rest = source.rfind("](").map_or("]", |at| &source[at..]);
            self.text.push_str(open);
            self.inline.push(Inline::LiteralSource(rest.to_owned()));
            return;
        }
        self.flush_text();
        self.link_depth += 1;
        self.out.push_str("<a href=\"");
        escape_attr(self.out, dest);
        self.out.push_str("\">");
        self.inline.push(Inline::Link {
            href: dest.to_owned(),
            content_start: self.out.len(),
        });
    }

    fn close_inline(&mut self) {
        match self.inline.pop() {
            Some(Inline::Literal(delimiter)) => self.text.push_str(delimiter),
            Some(Inline::LiteralSource(rest)) => self.text.push_str(&rest),
            Some(Inline::Markup(close)) => self.close_block(close),
            Some(Inline::Link {
                href,
                content_start,
            }) => {
                self.flush_text();
                self.link_depth = self.link_depth.saturating_sub(1);
                // Zulip shows the URL when the link text is empty.
                let empty = self
                    .out
                    .get(content_start..)
                    .is_some_and(|t| t.trim().is_empty());
                if empty {
                    self.out.truncate(content_start);
                    escape_text(self.out, &href);
                }
                self.out.push_str("</a>");
            }
            Some(Inline::Setext(underline)) => {
                self.flush_text();
                // Zulip still reads a `---` underline as a rule.
                let dashes = underline.matches('-').count();
                if dashes >= 3 && underline.chars().all(|c| c == '-' || c == ' ') {
                    self.out.push_str("</p>\n<hr>\n");
                } else {
                    self.out.push_str("<br>\n");
                    escape_text(self.out, &underline);
                    self.out.push_str("</p>\n");
                }
            }
            None => self.flush_text(),
        }
    }

    /// Writes buffered text: escaped, with emoji, and with bare URLs linked
    /// unless already inside a link.
    fn flush_text(&mut self) {
        if self.text.is_empty() {
            return;
        }
        let (in_link, plain): (bool, fn(&mut String, &str)) = if self.link_depth > 0 {
            (true, push_text_with_emoji)
        } else {
            (false, |out, text| {
                push_with_zulip_inline(out, text, push_linkified)
            })
        };
        push_with_mentions(self.out, &self.text, self.mentions, in_link, plain);
        self.text.clear();
    }

    /// Fenced `quote`/`spoiler` blocks hold Markdown; everything else is code.
    fn code_block(&mut self, code: &Code) {
        let info = restore(&code.info, self.mentions);
        let mut words = info.split_whitespace();
        let lang = words
            .next()
            .unwrap_or_default()
            .trim_start_matches(['{', '.'])
            .trim_end_matches('}');
        let nested = self.depth < MAX_DEPTH;
        self.block_start();
        if nested && (lang.eq_ignore_ascii_case("quote") || lang.eq_ignore_ascii_case("quoted")) {
            self.out.push_str("<blockquote>\n");
            render_into(self.out, &code.text, self.depth + 1, self.mentions);
            self.block_start();
            self.out.push_str("</blockquote>\n");
        } else if nested && lang.eq_ignore_ascii_case("spoiler") {
            let header = words.collect::<Vec<_>>().join(" ");
            self.out
                .push_str("<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n");
            render_into(self.out, &header, self.depth + 1, self.mentions);
            self.block_start();
            self.out
                .push_str("</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n");
            render_into(self.out, &code.text, self.depth + 1, self.mentions);
            self.block_start();
            self.out.push_str("</div></div>\n");
        } else if lang.eq_ignore_ascii_case("math") {
            super::math::push_display(self.out, &restore(&code.text, self.mentions));
        } else {
            push_code_block(self.out, lang, &restore(&code.text, self.mentions));
        }
    }

    /// Shows the reference definitions that start before `pos` as the text they
    /// are, adjacent ones as one paragraph.
    fn definitions_before(&mut self, pos: usize) {
        while let Some(first) = self.definitions.pop_if(|span| span.start < pos) {
            let mut end = first.end;
            while let Some(next) = self.definitions.last().filter(|next| {
                next.start < pos
                    && self
                        .src
                        .get(end..next.start)
                        .is_some_and(|gap| gap.trim().is_empty() && gap.matches('\n').count() <= 1)
            }) {
                end = next.end;
                self.definitions.pop();
            }
            self.literal_definitions(first.start..end);
        }
    }

    /// Renders definitions again with each line's `[` escaped, so they are text.
    fn literal_definitions(&mut self, range: Range<usize>) {
        self.flush_text();
        self.block_start();
        let source = self.slice(range).trim_end();
        if self.depth >= MAX_DEPTH {
            self.out.push_str("<p>");
            escape_text(self.out, &restore(source, self.mentions));
            self.out.push_str("</p>\n");
            return;
        }
        let mut escaped = String::with_capacity(source.len() + 8);
        for line in source.split_inclusive('\n') {
            let body = line.trim_start_matches(' ');
            if body.starts_with('[') {
                escaped.push_str(&line[..line.len() - body.len()]);
                escaped.push('\\');
                escaped.push_str(body);
            } else {
                escaped.push_str(line);
            }
        }
        render_into(self.out, &escaped, self.depth + 1, self.mentions);
    }

    /// A fence line Zulip does not read as one is text, and the lines after it
    /// are Markdown again: the source is parsed anew with its first character
    /// escaped, so no text is lost.
    fn not_a_fence(&mut self, range: Range<usize>) {
        let source = self.slice(range);
        let body = source.trim_start_matches(' ');
        let indent = source.len() - body.len();
        let mut escaped = String::with_capacity(source.len() + 1);
        escaped.push_str(&source[..indent]);
        escaped.push('\\');
        escaped.push_str(body);
        self.block_start();
        if self.depth >= MAX_DEPTH {
            self.out.push_str("<p>");
            escape_text(self.out, &restore(source, self.mentions));
            self.out.push_str("</p>\n");
            return;
        }
        render_into(self.out, &escaped, self.depth + 1, self.mentions);
    }

    /// CommonMark treats lines starting with a tag as raw HTML blocks; Zulip
    /// shows them as text and still renders Markdown inside. Escaping each
    /// line-leading `<` and parsing again gives exactly that.
    fn html_block(&mut self, html: &str) {
        self.block_start();
        if self.depth >= MAX_DEPTH {
            self.out.push_str("<p>");
            for (i, line) in html.trim_end().lines().enumerate() {
                if i > 0 {
                    self.out.push_str("<br>\n");
                }
                escape_text(self.out, &restore(line, self.mentions));
            }
            self.out.push_str("</p>\n");
            return;
        }
        let mut source = String::with_capacity(html.len() + 16);
        for line in html.split_inclusive('\n') {
            let body = line.trim_start_matches(' ');
            let indent = line.len() - body.len();
            // Four spaces would make an indented code block, where `\` shows.
            if indent < 4 && body.starts_with('<') {
                source.push_str(&line[..indent]);
                source.push('\\');
                source.push_str(body);
            } else {
                source.push_str(line);
            }
        }
        render_into(self.out, &source, self.depth + 1, self.mentions);
    }
}

/// Zulip's fence info (`FENCE_RE` in its `fenced_code.py`) never holds a tilde or
/// backtick; CommonMark accepts any info after a `~~~` fence.
fn is_zulip_fence(info: &str) -> bool {
    !info.contains(['~', '`'])
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn a_fence_zulip_refuses_stays_text() {
        assert_eq!(render("~~~a~~~\nb"), "<p>~~~a~~~<br>\nb</p>");
        assert_eq!(render("~~~x~\n# h"), "<p>~~~x~</p>\n<h1>h</h1>");
    }

    #[test]
    fn paragraph_newlines_become_breaks() {
        assert_eq!(render("test\nbar"), "<p>test<br>\nbar</p>");
    }

    #[test]
    fn blocks_are_joined_with_newlines() {
        assert_eq!(render("one\n\ntwo"), "<p>one</p>\n<p>two</p>");
    }

    #[test]
    fn empty_input_renders_nothing() {
        assert_eq!(render(""), "");
        assert_eq!(render("\n\n  \n"), "");
    }

    #[test]
    fn star_emphasis_and_strong() {
        assert_eq!(render("*foo*"), "<p><em>foo</em></p>");
        assert_eq!(render("**foo**"), "<p><strong>foo</strong></p>");
        assert_eq!(render("***foo***"), "<p><strong><em>foo</em></strong></p>");
    }

    #[test]
    fn underscores_are_not_emphasis() {
        assert_eq!(render("_foo_"), "<p>_foo_</p>");
        assert_eq!(render("__foo__"), "<p>__foo__</p>");
        assert_eq!(render("_a *b* c_"), "<p>_a <em>b</em> c_</p>");
    }

    #[test]
    fn double_tilde_strikes_through_single_does_not() {
        assert_eq!(
            render("I like ~~software~~ hardware"),
            "<p>I like <del>software</del> hardware</p>"
        );
        assert_eq!(render("~foo~"), "<p>~foo~</p>");
    }

    #[test]
    fn inline_link() {
        assert_eq!(
            render("[hello](https://github.com)"),
            "<p><a href=\"https://github.com\">hello</a></p>"
        );
    }

    #[test]
    fn link_without_text_shows_url() {
        assert_eq!(
            render("[](https://github.com)"),
            "<p><a href=\"https://github.com\">https://github.com</a></p>"
        );
    }

    #[test]
    fn relative_fragment_and_mailto_links_are_kept() {
        assert_eq!(render("[a](/x/y)"), "<p><a href=\"/x/y\">a</a></p>");
        assert_eq!(
            render("[a](#narrow/stream/1-Denmark)"),
            "<p><a href=\"#narrow/stream/1-Denmark\">a</a></p>"
        );
        assert_eq!(
            render("[mail](mailto:a@b.org)"),
            "<p><a href=\"mailto:a@b.org\">mail</a></p>"
        );
        // Zulip has no `<…>` autolinks: its linkifier links what the brackets hold.
        assert_eq!(
            render("<a@b.org>"),
            "<p>&lt;<a href=\"mailto:a@b.org\">a@b.org</a>&gt;</p>"
        );
    }

    #[test]
    fn bare_and_angle_bracket_urls_are_linked() {
        assert_eq!(
            render("https://github.com"),
            "<p><a href=\"https://github.com\">https://github.com</a></p>"
        );
        assert_eq!(
            render("<https://github.com>"),
            "<p>&lt;<a href=\"https://github.com\">https://github.com</a>&gt;</p>"
        );
    }

    #[test]
    fn refused_angle_bracket_autolink_stays_literal() {
        assert_eq!(
            render("<javascript:alert(1)>"),
            "<p>&lt;javascript:alert(1)&gt;</p>"
        );
        assert_eq!(
            render("<time:1496701800>"),
            "<p>&lt;time:1496701800&gt;</p>"
        );
    }

    #[test]
    fn reference_links_stay_literal() {
        assert_eq!(
            render("Hello [world][r] [x]\n\n[x]: https://a.org\n[r]: https://b.org"),
            "<p>Hello [world][r] [x]</p>\n<p>[x]: <a href=\"https://a.org\">https://a.org</a><br>\n\
             [r]: <a href=\"https://b.org\">https://b.org</a></p>"
        );
    }

    #[test]
    fn spaces_zulip_keeps() {
        assert_eq!(render("test  "), "<p>test  </p>");
        assert_eq!(render("a  \nb"), "<p>a  <br>\nb</p>");
        assert_eq!(render("* a \n  b"), "<ul>\n<li>a <br>\n  b</li>\n</ul>");
        assert_eq!(
            render("* a\n\n  b\n  c"),
            "<ul>\n<li>\n<p>a</p>\n<p>b<br>\nc</p>\n</li>\n</ul>"
        );
    }

    #[test]
    fn link_text_takes_no_emphasis_but_strong_em_and_code() {
        assert_eq!(
            render("[**a** *b* ~~c~~ ***d*** `e`](https://x.org)"),
            "<p><a href=\"https://x.org\">**a** *b* ~~c~~ <strong><em>d</em></strong> \
             <code>e</code></a></p>"
        );
    }

    /// Zulip 10 has no image syntax (zulip/zulip#28912): the source stays, its URL
    /// linked like any other.
    #[test]
    fn image_syntax_is_text() {
        assert_eq!(
            render("![logo](https://example.com/a.png)"),
            "<p>![logo](<a href=\"https://example.com/a.png\">https://example.com/a.png</a>)</p>"
        );
        assert_eq!(
            render("[![alt](https://i.org/a.png)](https://x.org)"),
            "<p><a href=\"https://x.org\">![alt](https://i.org/a.png)</a></p>"
        );
    }

    #[test]
    fn inline_code_is_escaped_verbatim() {
        assert_eq!(
            render("`<&nbsp;>`"),
            "<p><code>&lt;&amp;nbsp;&gt;</code></p>"
        );
    }

    #[test]
    fn fenced_code_without_language() {
        assert_eq!(
            render(
                "Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n~~~~\nAnd all was good."
            ),
            "<p>Hamlet once said</p>\n<div class=\"codehilite\"><pre><span></span><code>\
             def func():\n    x = 1\n\n    y = 2\n</code></pre></div>\n<p>And all was good.</p>"
        );
    }

    #[test]
    fn fenced_code_with_language_is_tagged() {
        assert_eq!(
            render("``` python\nprint('<hi>')\n```"),
            "<div class=\"codehilite\" data-code-language=\"Python\"><pre><span></span><code>\
             <span class=\"nb\">print</span><span class=\"p\">(</span><span class=\"s1\">&#39;\
             &lt;hi&gt;&#39;</span><span class=\"p\">)</span>\n</code></pre></div>"
        );
        assert_eq!(
            render("```inventedlanguage\nx\n```"),
            "<div class=\"codehilite\" data-code-language=\"inventedlanguage\"><pre><span></span>\
             <code>x\n</code></pre></div>"
        );
    }

    #[test]
    fn indented_code_block() {
        assert_eq!(
            render("    def foo(): pass"),
            "<div class=\"codehilite\"><pre><span></span><code>def foo(): pass\n</code></pre></div>"
        );
    }

    #[test]
    fn bullet_list() {
        assert_eq!(
            render("Some text with a list:\n* One item\n* Two items"),
            "<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>"
        );
    }

    #[test]
    fn numbered_list_keeps_its_start() {
        assert_eq!(render("1. A\n2. B"), "<ol>\n<li>A</li>\n<li>B</li>\n</ol>");
        assert_eq!(
            render("3. A\n3. B"),
            "<ol start=\"3\">\n<li>A</li>\n<li>B</li>\n</ol>"
        );
    }

    #[test]
    fn tables_are_python_markdowns() {
        assert_eq!(
            render("a | b | c\n:- | :-: | -:\n<x> | `y` | z"),
            "<table>\n<thead>\n<tr>\n<th style=\"text-align: left;\">a</th>\n\
             <th style=\"text-align: center;\">b</th>\n<th style=\"text-align: right;\">c</th>\n\
             </tr>\n</thead>\n<tbody>\n<tr>\n<td style=\"text-align: left;\">&lt;x&gt;</td>\n\
             <td style=\"text-align: center;\"><code>y</code></td>\n\
             <td style=\"text-align: right;\">z</td>\n</tr>\n</tbody>\n</table>"
        );
    }

    #[test]
    fn code_spans_keep_edge_spaces_and_links_take_tel_and_sms() {
        assert_eq!(render("` a `"), "<p><code> a </code></p>");
        assert_eq!(
            render("[c](tel:+1) [s](sms:+1)"),
            "<p><a href=\"tel:+1\">c</a> <a href=\"sms:+1\">s</a></p>"
        );
    }

    #[test]
    fn emphasis_stays_within_a_line() {
        assert_eq!(render("**a\nb**"), "<p>**a<br>\nb**</p>");
        assert_eq!(render("*a\nb*"), "<p>*a<br>\nb*</p>");
        assert_eq!(render("~~a\nb~~"), "<p>~~a<br>\nb~~</p>");
    }

    #[test]
    fn only_dotted_numbers_make_lists() {
        assert_eq!(render("1) A\n2) B"), "<p>1) A<br>\n2) B</p>");
    }

    #[test]
    fn nested_list_follows_item_text() {
        assert_eq!(
            render("* outer\n  * inner"),
            "<ul>\n<li>outer<ul>\n<li>inner</li>\n</ul>\n</li>\n</ul>"
        );
    }

    #[test]
    fn loose_list_items_hold_paragraphs() {
        assert_eq!(
            render("* Alpha\n\n* Beta"),
            "<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>"
        );
    }

    #[test]
    fn block_quote() {
        assert_eq!(
            render("> Hello World!\n\n> Hello Universe!"),
            "<blockquote>\n<p>Hello World!</p>\n</blockquote>\n\
             <blockquote>\n<p>Hello Universe!</p>\n</blockquote>"
        );
    }

    #[test]
    fn fenced_quote_renders_markdown_inside() {
        assert_eq!(
            render("Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~"),
            "<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n\
             <p>That is the question</p>\n</blockquote>"
        );
    }

    #[test]
    fn fenced_spoiler() {
        assert_eq!(
            render("```spoiler header\ncontent\n```\noutside spoiler\n"),
            "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>header</p>\n\
             </div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>content</p>\n\
             </div></div>\n<p>outside spoiler</p>"
        );
    }

    #[test]
    fn hash_headings_need_a_space() {
        assert_eq!(render("# Hello world"), "<h1>Hello world</h1>");
        assert_eq!(render("###### Hello world"), "<h6>Hello world</h6>");
        assert_eq!(render("#Hello world"), "<p>#Hello world</p>");
        assert_eq!(render("####### Hello world"), "<p>####### Hello world</p>");
    }

    #[test]
    fn setext_headings_are_paragraphs() {
        assert_eq!(render("Title\n==="), "<p>Title<br>\n===</p>");
        assert_eq!(render("Title\n---"), "<p>Title</p>\n<hr>");
    }

    #[test]
    fn horizontal_rule() {
        assert_eq!(render("a\n\n---\n\nb"), "<p>a</p>\n<hr>\n<p>b</p>");
    }

    #[test]
    fn emoji_in_bold_and_link_text() {
        assert_eq!(
            render("**:smile:** [:tada:](https://x.org)"),
            "<p><strong><span aria-label=\"smile\" class=\"emoji emoji-1f642\" role=\"img\" \
             title=\"smile\">:smile:</span></strong> <a href=\"https://x.org\"><span \
             aria-label=\"tada\" class=\"emoji emoji-1f389\" role=\"img\" \
             title=\"tada\">:tada:</span></a></p>"
        );
    }

    #[test]
    fn emoji_name_split_by_parser_still_matches() {
        assert!(render("a :thumbs_up: b").contains("class=\"emoji emoji-1f44d\""));
    }

    #[test]
    fn emoji_not_expanded_in_code_or_urls() {
        assert_eq!(render("`:smile:`"), "<p><code>:smile:</code></p>");
        assert_eq!(
            render("```\n:smile:\n```"),
            "<div class=\"codehilite\"><pre><span></span><code>:smile:\n</code></pre></div>"
        );
        assert_eq!(
            render("[x](https://a.org/:smile:)"),
            "<p><a href=\"https://a.org/:smile:\">x</a></p>"
        );
    }

    #[test]
    fn html_block_is_text_with_markdown_inside() {
        assert_eq!(
            render("<h1>**bold**</h1>"),
            "<p>&lt;h1&gt;<strong>bold</strong>&lt;/h1&gt;</p>"
        );
        assert_eq!(
            render("<div>\nline\n</div>"),
            "<p>&lt;div&gt;<br>\nline<br>\n&lt;/div&gt;</p>"
        );
    }
}
