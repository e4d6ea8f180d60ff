//! Syntax highlighting of fenced code, as Zulip's Pygments does it: each token in a
//! `<span>` whose class is Pygments' short token name (`k`, `nf`, `s2`, `mi`, …), so
//! Zulip's stylesheets colour it. The tokens come from syntect (Sublime Text grammars,
//! pure-Rust regexes); [`TABLE`] (and [`TEX`] for TeX) map its TextMate scopes to
//! Pygments' names. The output is close to Pygments', not byte-identical (see
//! docs/zulip-compatibility.md).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, Instant};

use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};

use super::budget;
use super::sanitize::escape_code;

/// Lines longer than this are shown plain: grammar regexes can be superlinear on one
/// huge line, and nobody reads such a line for its colours.
const MAX_LINE_BYTES: usize = 2_000;

/// A block's first this-many bytes are highlighted, the rest shown plain: the most a
/// message holds, so in practice all of it, at a cost bounded however the text reads.
const MAX_BLOCK_BYTES: usize = 12_000;

/// Brackets open at once beyond which the rest of a block is shown plain: grammars for
/// regular expressions and Lisps push a context per bracket, and their matching grows
/// superlinearly with the depth (a ```` ```re ```` line of 999 nested parentheses took
/// 1.3 s; 64 take under a millisecond). Code people write stays far below.
const MAX_NESTING: usize = 64;

/// The most one block's highlighting may take, however its text reads (checked between
/// lines, each of them bounded by the caps above): the rest is shown plain. Past it, as
/// past the message's 5 s, the output depends on the machine's speed, so it is set far
/// above what the largest ordinary block takes, a grammar's first use (which compiles
/// its regexes) in a debug build on a busy machine included.
const BLOCK_BUDGET: Duration = Duration::from_secs(2);

/// The grammars syntect ships, loaded once (tens of milliseconds) on first use.
fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get()
        .unwrap_or_else(|| budget::excluding(|| SET.get_or_init(SyntaxSet::load_defaults_newlines)))
}

/// The grammar for a fence's language tag (`py`, `python`, `rs`…), or for Pygments'
/// name of it (`Python 2.x` → none, so `python` is tried through `alias`).
pub(super) fn find(tag: &str, alias: Option<&str>) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let lower = tag.to_ascii_lowercase();
    set.find_syntax_by_token(&lower)
        .or_else(|| alias.and_then(|name| set.find_syntax_by_token(name)))
        .filter(|syntax| syntax.name != "Plain Text")
}

/// Blocks whose highlighting went past its time and is still finishing a line on its
/// own thread; while this many are, further blocks are shown plain at once, so that
/// hostile code costs at most this many cores, for as long as one line takes.
const MAX_RUNAWAYS: usize = 2;

static RUNAWAYS: AtomicUsize = AtomicUsize::new(0);

/// Appends `lines` (already stripped as Pygments strips them) highlighted with
/// `syntax`. Past the block's caps (bytes, line length, nesting, time) or the message's
/// budget, or should the grammar engine fail, the rest is escaped plain text, as Zulip
/// shows code it does not highlight: a code block never loses its text.
///
/// A grammar's regexes can take seconds on one short line (syntect's Lisp grammar: 3 s
/// on 50 bytes of brackets, quotes and comment marks), and a line cannot be
/// interrupted; so the block is highlighted on a thread of its own, and when its time
/// is up the block is shown plain and that thread told to stop after its line.
pub(super) fn push_highlighted(out: &mut String, syntax: &'static SyntaxReference, lines: &[&str]) {
    let set = syntaxes();
    let limit = BLOCK_BUDGET.min(budget::remaining());
    let started = Instant::now();
    let highlighted = if RUNAWAYS.load(Ordering::Acquire) >= MAX_RUNAWAYS {
        None
    } else {
        on_own_thread(set, syntax, lines, started + limit)
    };
    let (html, plain_from) = highlighted.unwrap_or_default();
    out.push_str(&html);
    for line in lines.iter().skip(plain_from) {
        escape_code(out, line);
        out.push('\n');
    }
}

/// The highlighted HTML of the first lines and how many it covers, from a thread of its
/// own; `None` when it is not done by `deadline` (or cannot start).
fn on_own_thread(
    set: &'static SyntaxSet,
    syntax: &'static SyntaxReference,
    lines: &[&str],
    deadline: Instant,
) -> Option<(String, usize)> {
    let owned: Vec<String> = lines.iter().map(|line| (*line).to_owned()).collect();
    // Set by whichever side is first done with the other: the thread when it finishes,
    // the caller when it stops waiting (which also tells the thread to stop).
    let over = Arc::new(AtomicBool::new(false));
    let (reply, answer) = mpsc::sync_channel(1);
    let thread_over = Arc::clone(&over);
    std::thread::Builder::new()
        .name("weir-highlight".into())
        .spawn(move || {
            let _ = reply.send(highlight_lines(set, syntax, &owned, deadline, &thread_over));
            if thread_over.swap(true, Ordering::AcqRel) {
                RUNAWAYS.fetch_sub(1, Ordering::AcqRel);
            }
        })
        .ok()?;
    match answer.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(done) => Some(done),
        Err(_) => {
            // Counted first, so that the thread's decrement never comes before it.
            RUNAWAYS.fetch_add(1, Ordering::AcqRel);
            if over.swap(true, Ordering::AcqRel) {
                RUNAWAYS.fetch_sub(1, Ordering::AcqRel);
            }
            None
        }
    }
}

/// Highlights `lines` until a cap, `deadline` or `stop`; the HTML and the index of the
/// first line left plain.
fn highlight_lines(
    set: &SyntaxSet,
    syntax: &SyntaxReference,
    lines: &[String],
    deadline: Instant,
    stop: &AtomicBool,
) -> (String, usize) {
    let mut out = String::new();
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let flavor = Flavor::of(syntax);
    let mut bytes = 0usize;
    let mut depth = 0usize;
    for (index, line) in lines.iter().enumerate() {
        bytes = bytes.saturating_add(line.len() + 1);
        let (deepest, after) = nesting(line, depth);
        depth = after;
        if stop.load(Ordering::Acquire)
            || Instant::now() >= deadline
            || line.len() > MAX_LINE_BYTES
            || bytes > MAX_BLOCK_BYTES
            || deepest > MAX_NESTING
        {
            return (out, index);
        }
        let with_newline = format!("{line}\n");
        let mut html = String::with_capacity(line.len() * 2);
        let parsed = catch_unwind(AssertUnwindSafe(|| {
            push_line(
                &mut html,
                &with_newline,
                set,
                &mut state,
                &mut stack,
                flavor,
            )
        }));
        if !matches!(parsed, Ok(true)) {
            return (out, index);
        }
        out.push_str(&html);
    }
    (out, lines.len())
}

/// The deepest bracket nesting within `line`, starting `depth` deep, and the depth after
/// it (strings and comments are not told apart: a cap, not a parser).
fn nesting(line: &str, mut depth: usize) -> (usize, usize) {
    let mut deepest = depth;
    for byte in line.bytes() {
        match byte {
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (deepest, depth)
}

/// One line with its newline; `false` when the grammar engine refused it.
fn push_line(
    out: &mut String,
    line: &str,
    set: &SyntaxSet,
    state: &mut ParseState,
    stack: &mut ScopeStack,
    flavor: Flavor,
) -> bool {
    let Ok(ops) = state.parse_line(line, set) else {
        return false;
    };
    let mut tokens = Tokens {
        runs: Vec::new(),
        flavor,
    };
    let mut at = 0;
    for (offset, op) in ops {
        let offset = offset.min(line.len());
        if offset > at {
            tokens.push(
                line.get(at..offset).unwrap_or_default(),
                class_of(stack, flavor),
            );
            at = offset;
        }
        if stack.apply(&op).is_err() {
            return false;
        }
    }
    tokens.push(line.get(at..).unwrap_or_default(), class_of(stack, flavor));
    tokens.write(out);
    true
}

/// Adjacent text of one class merged, as Pygments merges a token's pieces.
struct Tokens {
    runs: Vec<(String, Option<&'static str>)>,
    flavor: Flavor,
}

/// Where Pygments' lexers differ by family of language.
#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    Code,
    /// Pygments' Python lexer marks `self` and `cls` as builtins (`bp`) everywhere.
    Python,
    /// Markup (HTML, Markdown…): prose is plain text, not names.
    Markup,
    /// TeX: commands are keywords (`k`), braces builtins (`nb`), the rest plain.
    Tex,
}

impl Flavor {
    fn of(syntax: &SyntaxReference) -> Self {
        let scope = syntax.scope.build_string();
        if syntax.name == "Python" {
            Self::Python
        } else if scope.starts_with("text.tex") {
            Self::Tex
        } else if scope.starts_with("text.") {
            Self::Markup
        } else {
            Self::Code
        }
    }
}

impl Tokens {
    fn push(&mut self, text: &str, class: Option<&'static str>) {
        if text.is_empty() {
            return;
        }
        // Unclassified words are names (`n`), as Pygments' lexers make them.
        let code = !matches!(self.flavor, Flavor::Markup | Flavor::Tex);
        if code && (class.is_none() || class == Some("n")) {
            for piece in split_words(text) {
                let word = piece.chars().next().is_some_and(is_word_char);
                self.push_run(piece, word.then_some("n"));
            }
            return;
        }
        self.push_run(text, class);
    }

    fn push_run(&mut self, text: &str, class: Option<&'static str>) {
        let class = match class {
            Some("n") if self.flavor == Flavor::Python && matches!(text, "self" | "cls") => {
                Some("bp")
            }
            other => other,
        };
        match self.runs.last_mut() {
            Some((run, last)) if *last == class => run.push_str(text),
            _ => self.runs.push((text.to_owned(), class)),
        }
    }

    /// Whitespace at a token's edges stays outside its span (Pygments' `Text`), except
    /// in strings and comments, whose spaces are part of them.
    fn write(&self, out: &mut String) {
        for (text, class) in &self.runs {
            let Some(class) = class else {
                escape_code(out, text);
                continue;
            };
            let keeps_spaces = class.starts_with('s') || class.starts_with('c');
            let (lead, body, trail) = if keeps_spaces {
                let body = text.trim_end_matches(['\n', '\r']);
                ("", body, &text[body.len()..])
            } else {
                split_edges(text)
            };
            escape_code(out, lead);
            if !body.is_empty() {
                out.push_str("<span class=\"");
                out.push_str(class);
                out.push_str("\">");
                escape_code(out, body);
                out.push_str("</span>");
            }
            escape_code(out, trail);
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` cut into alternating runs of word and non-word characters.
fn split_words(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let word = is_word_char(first);
        let end = rest
            .char_indices()
            .find(|(_, c)| is_word_char(*c) != word)
            .map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}

/// `(leading whitespace, body, trailing whitespace)`.
fn split_edges(text: &str) -> (&str, &str, &str) {
    let body = text.trim_start();
    let lead = &text[..text.len() - body.len()];
    let trimmed = body.trim_end();
    let trail = &body[trimmed.len()..];
    (lead, trimmed, trail)
}

/// The Pygments class of the innermost scope that has one.
fn class_of(stack: &ScopeStack, flavor: Flavor) -> Option<&'static str> {
    for scope in stack.as_slice().iter().rev() {
        let name = scope.build_string();
        let found = match flavor {
            Flavor::Tex => lookup(TEX, &name),
            _ => lookup(TABLE, &name),
        };
        match found {
            Some(Class::Is(class)) => return Some(class),
            Some(Class::Defer) | None => {}
        }
    }
    None
}

/// What a scope says about its text.
#[derive(Clone, Copy)]
enum Class {
    Is(&'static str),
    /// A delimiter that takes its class from the enclosing string or comment.
    Defer,
}

/// The first entry that is `scope` or a dotted prefix of it.
fn lookup(table: &[(&str, Class)], scope: &str) -> Option<Class> {
    table
        .iter()
        .find(|(prefix, _)| {
            scope == *prefix
                || scope
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
        .map(|(_, class)| *class)
}

/// Pygments' TeX lexer: `\command` is `k`, `{`/`}` are `nb`, `%…` is `c`.
const TEX: &[(&str, Class)] = &[
    ("punctuation.definition.backslash", Class::Defer),
    ("support.function", Class::Is("k")),
    ("keyword", Class::Is("k")),
    ("storage", Class::Is("k")),
    ("punctuation.definition.group", Class::Is("nb")),
    ("punctuation.section.group", Class::Is("nb")),
    ("comment", Class::Is("c")),
    ("string.other.math", Class::Is("s")),
];

/// TextMate scopes to Pygments' short classes, specific prefixes before general ones.
const TABLE: &[(&str, Class)] = &[
    ("punctuation.definition.string", Class::Defer),
    ("punctuation.definition.comment", Class::Defer),
    ("punctuation.section.interpolation", Class::Is("si")),
    ("punctuation.definition.tag", Class::Is("p")),
    ("comment.line", Class::Is("c1")),
    ("comment.block.documentation", Class::Is("cs")),
    ("comment.block", Class::Is("cm")),
    ("comment", Class::Is("c")),
    ("constant.character.escape", Class::Is("se")),
    ("string.quoted.docstring", Class::Is("sd")),
    ("comment.block.documentation.python", Class::Is("sd")),
    ("string.quoted.double.block", Class::Is("sd")),
    ("string.quoted.single.block", Class::Is("sd")),
    ("string.quoted.double", Class::Is("s2")),
    ("string.quoted.single", Class::Is("s1")),
    ("string.quoted.other", Class::Is("sb")),
    ("string.regexp", Class::Is("sr")),
    ("string.interpolated", Class::Is("si")),
    ("string.unquoted", Class::Is("s")),
    ("string", Class::Is("s")),
    ("constant.numeric.integer.hexadecimal", Class::Is("mh")),
    ("constant.numeric.hex", Class::Is("mh")),
    ("constant.numeric.integer.octal", Class::Is("mo")),
    ("constant.numeric.octal", Class::Is("mo")),
    ("constant.numeric.integer.binary", Class::Is("mb")),
    ("constant.numeric.binary", Class::Is("mb")),
    ("constant.numeric.float", Class::Is("mf")),
    ("constant.numeric.integer", Class::Is("mi")),
    ("constant.numeric", Class::Is("m")),
    ("constant.language", Class::Is("kc")),
    ("constant.character", Class::Is("sc")),
    ("constant.other.placeholder", Class::Is("si")),
    ("constant", Class::Is("no")),
    ("keyword.operator.word", Class::Is("ow")),
    ("keyword.operator.logical.python", Class::Is("ow")),
    ("keyword.operator", Class::Is("o")),
    ("keyword.control.import", Class::Is("kn")),
    ("keyword.other.import", Class::Is("kn")),
    ("keyword.declaration", Class::Is("kd")),
    ("keyword", Class::Is("k")),
    ("storage.type.function", Class::Is("k")),
    ("storage.type.class", Class::Is("k")),
    ("storage.modifier", Class::Is("kd")),
    ("storage.type.js", Class::Is("kd")),
    ("storage.type", Class::Is("kt")),
    ("storage", Class::Is("k")),
    ("entity.name.function", Class::Is("nf")),
    ("entity.name.class", Class::Is("nc")),
    ("entity.name.struct", Class::Is("nc")),
    ("entity.name.enum", Class::Is("nc")),
    ("entity.name.type", Class::Is("nc")),
    ("entity.other.inherited-class", Class::Is("nc")),
    ("entity.name.namespace", Class::Is("nn")),
    ("entity.name.tag", Class::Is("nt")),
    ("entity.name.label", Class::Is("nl")),
    ("entity.name.constant", Class::Is("no")),
    ("entity.other.attribute-name", Class::Is("na")),
    ("entity.name", Class::Is("n")),
    ("support.type.exception", Class::Is("ne")),
    ("support.function", Class::Is("nb")),
    ("support.type", Class::Is("nb")),
    ("support.class", Class::Is("nc")),
    ("support.constant", Class::Is("no")),
    ("support", Class::Is("nb")),
    ("variable.language", Class::Is("bp")),
    ("variable.other.constant", Class::Is("no")),
    ("variable", Class::Is("n")),
    ("markup.heading", Class::Is("gh")),
    ("markup.inserted", Class::Is("gi")),
    ("markup.deleted", Class::Is("gd")),
    ("markup.bold", Class::Is("gs")),
    ("markup.italic", Class::Is("ge")),
    ("meta.diff.header", Class::Is("gu")),
    ("meta.annotation", Class::Is("nd")),
    ("punctuation", Class::Is("p")),
    ("invalid", Class::Is("err")),
];

#[cfg(test)]
mod tests;
