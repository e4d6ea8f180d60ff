//! Syntax highlighting of fenced code, as Zulip's Pygments does it: each token in a
//! `<span>` whose class is Pygments' short token name (`k`, `nf`, `s2`, `mi`, …), so
//! Zulip's stylesheets colour it. The tokens come from syntect (Sublime Text grammars,
//! pure-Rust regexes); [`pygments_class`] maps its TextMate scopes to Pygments' names.
//! The output is close to Pygments', not byte-identical (see docs/zulip-compatibility.md).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};

use super::budget;
use super::sanitize::escape_code;

/// Lines longer than this are shown plain: grammar regexes can be superlinear on one
/// huge line, and nobody reads such a line for its colours.
const MAX_LINE_BYTES: usize = 2_000;

/// The grammars syntect ships, loaded once (tens of milliseconds) on first use.
fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
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

/// Appends `lines` (already stripped as Pygments strips them) highlighted with
/// `syntax`. Past the message's budget, or should the grammar engine fail, the rest
/// is escaped plain text: a code block never loses its text.
pub(super) fn push_highlighted(out: &mut String, syntax: &SyntaxReference, lines: &[&str]) {
    let set = syntaxes();
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let python = syntax.name == "Python";
    let mut plain_from = lines.len();
    for (index, line) in lines.iter().enumerate() {
        if budget::exhausted() || line.len() > MAX_LINE_BYTES {
            plain_from = index;
            break;
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
                python,
            )
        }));
        if !matches!(parsed, Ok(true)) {
            plain_from = index;
            break;
        }
        out.push_str(&html);
    }
    for line in lines.iter().skip(plain_from) {
        escape_code(out, line);
        out.push('\n');
    }
}

/// One line with its newline; `false` when the grammar engine refused it.
fn push_line(
    out: &mut String,
    line: &str,
    set: &SyntaxSet,
    state: &mut ParseState,
    stack: &mut ScopeStack,
    state_is_python: bool,
) -> bool {
    let Ok(ops) = state.parse_line(line, set) else {
        return false;
    };
    let mut tokens = Tokens {
        runs: Vec::new(),
        python: state_is_python,
    };
    let mut at = 0;
    for (offset, op) in ops {
        let offset = offset.min(line.len());
        if offset > at {
            tokens.push(line.get(at..offset).unwrap_or_default(), class_of(stack));
            at = offset;
        }
        if stack.apply(&op).is_err() {
            return false;
        }
    }
    tokens.push(line.get(at..).unwrap_or_default(), class_of(stack));
    tokens.write(out);
    true
}

/// Adjacent text of one class merged, as Pygments merges a token's pieces.
struct Tokens {
    runs: Vec<(String, Option<&'static str>)>,
    /// Pygments' Python lexer marks `self` and `cls` as builtins (`bp`) everywhere.
    python: bool,
}

impl Tokens {
    fn push(&mut self, text: &str, class: Option<&'static str>) {
        if text.is_empty() {
            return;
        }
        // Unclassified words are names (`n`), as Pygments' lexers make them.
        if class.is_none() || class == Some("n") {
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
            Some("n") if self.python && matches!(text, "self" | "cls") => Some("bp"),
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
fn class_of(stack: &ScopeStack) -> Option<&'static str> {
    let scopes = stack.as_slice();
    for scope in scopes.iter().rev() {
        if let Some(Some(class)) = pygments_class(&scope.build_string()) {
            return Some(class);
        }
    }
    None
}

/// Maps one TextMate scope to a Pygments short class. `None` (no entry) or
/// `Some(None)` (a delimiter that takes its class from the enclosing string or
/// comment): ask the enclosing scope.
fn pygments_class(scope: &str) -> Option<Option<&'static str>> {
    // Longest prefix first: the table is ordered from specific to general.
    const TABLE: &[(&str, Option<&str>)] = &[
        ("punctuation.definition.string", None),
        ("punctuation.definition.comment", None),
        ("punctuation.section.interpolation", Some("si")),
        ("punctuation.definition.tag", Some("p")),
        ("comment.line", Some("c1")),
        ("comment.block.documentation", Some("cs")),
        ("comment.block", Some("cm")),
        ("comment", Some("c")),
        ("constant.character.escape", Some("se")),
        ("string.quoted.docstring", Some("sd")),
        ("comment.block.documentation.python", Some("sd")),
        ("string.quoted.double.block", Some("sd")),
        ("string.quoted.single.block", Some("sd")),
        ("string.quoted.double", Some("s2")),
        ("string.quoted.single", Some("s1")),
        ("string.quoted.other", Some("sb")),
        ("string.regexp", Some("sr")),
        ("string.interpolated", Some("si")),
        ("string.unquoted", Some("s")),
        ("string", Some("s")),
        ("constant.numeric.integer.hexadecimal", Some("mh")),
        ("constant.numeric.hex", Some("mh")),
        ("constant.numeric.integer.octal", Some("mo")),
        ("constant.numeric.octal", Some("mo")),
        ("constant.numeric.integer.binary", Some("mb")),
        ("constant.numeric.binary", Some("mb")),
        ("constant.numeric.float", Some("mf")),
        ("constant.numeric.integer", Some("mi")),
        ("constant.numeric", Some("m")),
        ("constant.language", Some("kc")),
        ("constant.character", Some("sc")),
        ("constant.other.placeholder", Some("si")),
        ("constant", Some("no")),
        ("keyword.operator.word", Some("ow")),
        ("keyword.operator.logical.python", Some("ow")),
        ("keyword.operator", Some("o")),
        ("keyword.control.import", Some("kn")),
        ("keyword.other.import", Some("kn")),
        ("keyword.declaration", Some("kd")),
        ("keyword", Some("k")),
        ("storage.type.function", Some("k")),
        ("storage.type.class", Some("k")),
        ("storage.modifier", Some("kd")),
        ("storage.type.js", Some("kd")),
        ("storage.type", Some("kt")),
        ("storage", Some("k")),
        ("entity.name.function", Some("nf")),
        ("entity.name.class", Some("nc")),
        ("entity.name.struct", Some("nc")),
        ("entity.name.enum", Some("nc")),
        ("entity.name.type", Some("nc")),
        ("entity.other.inherited-class", Some("nc")),
        ("entity.name.namespace", Some("nn")),
        ("entity.name.tag", Some("nt")),
        ("entity.name.label", Some("nl")),
        ("entity.name.constant", Some("no")),
        ("entity.other.attribute-name", Some("na")),
        ("entity.name", Some("n")),
        ("support.type.exception", Some("ne")),
        ("support.function", Some("nb")),
        ("support.type", Some("nb")),
        ("support.class", Some("nc")),
        ("support.constant", Some("no")),
        ("support", Some("nb")),
        ("variable.language", Some("bp")),
        ("variable.other.constant", Some("no")),
        ("variable", Some("n")),
        ("markup.heading", Some("gh")),
        ("markup.inserted", Some("gi")),
        ("markup.deleted", Some("gd")),
        ("markup.bold", Some("gs")),
        ("markup.italic", Some("ge")),
        ("meta.diff.header", Some("gu")),
        ("meta.annotation", Some("nd")),
        ("punctuation", Some("p")),
        ("invalid", Some("err")),
    ];
    TABLE
        .iter()
        .find(|(prefix, _)| {
            scope == *prefix
                || scope
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
        .map(|(_, class)| *class)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn highlight(tag: &str, code: &str) -> String {
        let syntax = find(tag, None).expect("a grammar");
        let lines: Vec<&str> = code.lines().collect();
        let mut out = String::new();
        push_highlighted(&mut out, syntax, &lines);
        out
    }

    #[test]
    fn python_matches_pygments_on_zulips_example() {
        assert_eq!(
            highlight("python", "def speak(self):\n    x = 1"),
            "<span class=\"k\">def</span> <span class=\"nf\">speak</span><span class=\"p\">(\
             </span><span class=\"bp\">self</span><span class=\"p\">):</span>\n    \
             <span class=\"n\">x</span> <span class=\"o\">=</span> <span class=\"mi\">1</span>\n"
        );
    }

    #[test]
    fn strings_comments_and_markup_are_escaped_inside_spans() {
        let html = highlight("js", "let s = \"<b>\"; // </code>");
        assert!(
            html.contains("<span class=\"s2\">&quot;&lt;b&gt;&quot;</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"c1\">// &lt;/code&gt;"),
            "{html}"
        );
        assert!(!html.contains("<b>") && !html.contains("</code>"), "{html}");
    }

    #[test]
    fn unknown_tags_have_no_grammar() {
        assert!(find("inventedlanguage", None).is_none());
        assert!(find("text", None).is_none());
        assert!(find("py2", Some("python")).is_some());
    }

    #[test]
    fn over_long_lines_stay_plain_and_whole() {
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        let html = highlight("python", &format!("a = 1\n{long}\nb = 2"));
        assert!(html.starts_with("<span class=\"n\">a</span>"));
        assert!(html.ends_with(&format!("{long}\nb = 2\n")));
    }

    #[test]
    fn a_spent_budget_leaves_the_code_plain() {
        let _scope = budget::start();
        budget::force_exhausted();
        assert_eq!(highlight("python", "x = '<'"), "x = &#39;&lt;&#39;\n");
    }
}
