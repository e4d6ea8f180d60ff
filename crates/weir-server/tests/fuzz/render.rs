//! Markdown rendering: Zulip-flavoured Markdown with mentions, built from tokens that
//! meet each other in odd ways. The output must stay well-formed where it matters for
//! safety (no tag inside another tag's attributes, no script, no `javascript:` link),
//! stay proportionate to the input, and come within the budget.

use proptest::prelude::*;
use weir_server::render::{Directory, render_markdown, render_with_mentions};

use crate::support::{config, corpus, within_budget};

/// A fixed organization: two people and two channels.
struct Org;

impl Directory for Org {
    fn user(&self, name: &str, id: Option<i64>) -> Option<(i64, String)> {
        let people = [(7, "Olivia Owner"), (8, "Mark \"M\" <Member>")];
        people
            .iter()
            .find(|(uid, full)| *full == name && id.is_none_or(|id| id == *uid))
            .map(|(uid, full)| (*uid, (*full).to_owned()))
    }

    fn stream(&self, name: &str) -> Option<(i64, String)> {
        let streams = [(11, "general"), (12, "a&b <c> \"d\"")];
        streams
            .iter()
            .find(|(_, stream)| stream.eq_ignore_ascii_case(name))
            .map(|(id, stream)| (*id, (*stream).to_owned()))
    }
}

const TOKENS: &[&str] = &[
    "#**general**",
    "#**a&b <c> \"d\"**",
    "#**nowhere**",
    "@**Olivia Owner**",
    "@**Mark \"M\" <Member>**",
    "@_**Olivia Owner|7**",
    "@**Olivia Owner|8**",
    "@**",
    "#**",
    "**",
    "*",
    "_",
    "__",
    "~~",
    "`",
    "``",
    "```",
    "```python\n",
    "```#**general**\n",
    "~~~",
    ">",
    "> ",
    "\n",
    "\n\n",
    "    ",
    "- ",
    "1. ",
    "# ",
    "---",
    "|a|b|\n|-|-|\n",
    "[x](",
    "](",
    ")",
    "(",
    "[",
    "]",
    "[x](#**general**)",
    "[x](@**Olivia Owner**)",
    "[#**general**](https://x.test)",
    "<",
    ">",
    "&",
    "&amp;",
    "&#x3C;",
    "\"",
    "'",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "[y](javascript:alert(1))",
    "[z](JaVaScRiPt:alert(1))",
    "<https://x.test>",
    "https://x.test/a_b",
    "mailto:a@x.test",
    ":smile:",
    ":no_such_emoji:",
    "\u{E000}",
    "\u{E001}",
    "\u{202E}",
    "\u{0}",
    "é",
    "word",
    " ",
    "\\",
    "![i](https://x.test/i.png)",
    "$$x$$",
    "$$\\frac{a}{<b>}$$",
    "$$\\href{javascript:alert(1)}{x}$$",
    "$$\\error{x}$$",
    "$$",
    "\\$",
    "```math\n",
    "~~~math\n\\sqrt{x}\n~~~\n",
    "```js\n",
    "```tex\n",
    "```html\n",
    "[^1]",
    "<!-- c -->",
    "<a href=\"https://x.test\">a</a>",
];

fn markdown() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..120).prop_map(|parts| parts.concat())
}

/// Safety properties of rendered HTML; the reason when one fails.
fn unsafe_html(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    if lower.contains("<script") {
        return Some("a <script> tag".into());
    }
    if lower.contains("href=\"javascript:") || lower.contains("src=\"javascript:") {
        return Some("a javascript: URL".into());
    }
    if lower.contains(" onerror=") || lower.contains(" onload=") {
        // Only inside a tag, outside a quoted value, would it be an attribute: text has
        // it escaped as `&lt;img ...`, and `href="img onerror=x"` is just a value.
        let mut in_tag = false;
        let mut quote: Option<char> = None;
        for (index, c) in lower.char_indices() {
            match c {
                '"' | '\'' if in_tag => match quote {
                    None => quote = Some(c),
                    Some(open) if open == c => quote = None,
                    Some(_) => {}
                },
                '<' if quote.is_none() => in_tag = true,
                '>' if quote.is_none() => in_tag = false,
                ' ' if in_tag
                    && quote.is_none()
                    && (lower[index..].starts_with(" onerror=")
                        || lower[index..].starts_with(" onload=")) =>
                {
                    return Some("an event-handler attribute".into());
                }
                _ => {}
            }
        }
    }
    // A tag never opens inside another tag (an attribute broken out of).
    let mut open: Option<usize> = None;
    for (index, c) in html.char_indices() {
        match c {
            '<' if open.is_some() => {
                let start = open.unwrap_or_default();
                let end = (index + 40).min(html.len());
                let shown: String = html[start..].chars().take(end - start).collect();
                return Some(format!("a tag inside a tag: {shown:?}"));
            }
            '<' => open = Some(index),
            '>' => open = None,
            _ => {}
        }
    }
    None
}

/// Pays the one-time start-up (loading KaTeX, compiling the grammars' regexes on first
/// use) before any input is timed: the budget is for the work an input causes.
fn warm_up() {
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(|| {
        let mut source = String::from("$$x$$\n\n```math\nx\n```\n");
        for lang in ["python", "js", "tex", "html"] {
            source.push_str(&format!(
                "```{lang}\nx = \"a\" # <b> /* c */ \\pi {{}}\n```\n"
            ));
        }
        render_markdown(&source);
    });
}

/// Rendered output may grow (escapes, mention markup), but only by a bounded factor.
const GROWTH: usize = 64;

/// A formula's KaTeX markup is larger (a few hundred bytes for `$$x$$`): allowed per
/// `$$` or `math` fence in the source.
const PER_FORMULA: usize = 4_096;

/// The most HTML `source` may render to.
fn growth_limit(source: &str) -> usize {
    let formulas = source.matches("$$").count() + source.matches("math").count();
    GROWTH * source.len() + 64 + PER_FORMULA * formulas
}

proptest! {
    #![proptest_config(config("render", 128))]

    #[test]
    fn rendering_with_mentions_is_safe_and_proportionate(source in markdown()) {
        warm_up();
        let html = within_budget(&format!("render {} chars", source.len()), || {
            render_with_mentions(&source, &Org)
        });
        prop_assert!(unsafe_html(&html).is_none(),
            "{:?} for {:?}:\n{}", unsafe_html(&html), source, html);
        prop_assert!(html.len() <= growth_limit(&source),
            "{} bytes of HTML for {} of Markdown", html.len(), source.len());
    }

    #[test]
    fn rendering_arbitrary_text_never_panics(source in any::<String>()) {
        warm_up();
        let html = within_budget("render arbitrary text", || render_markdown(&source));
        prop_assert!(unsafe_html(&html).is_none(), "{:?}: {}", source, html);
    }
}

#[test]
fn corpus_renders_safely_within_the_budget() {
    warm_up();
    for (name, source) in corpus("render") {
        let html = within_budget(&name, || render_with_mentions(&source, &Org));
        assert!(
            unsafe_html(&html).is_none(),
            "{name}: {:?}\n{html}",
            unsafe_html(&html)
        );
    }
}

#[test]
fn the_checker_sees_what_it_is_for() {
    assert!(unsafe_html("<a href=\"<span>x</span>\">x</a>").is_some());
    assert!(unsafe_html("<p>&lt;script&gt;</p>").is_none());
    assert!(unsafe_html("<img src=x onerror=alert(1)>").is_some());
    assert!(unsafe_html("<p>&lt;img src=x onerror=alert(1)&gt;</p>").is_none());
    assert!(unsafe_html("<a href=\"img src=x onerror=alert(1)\">x</a>").is_none());
    assert!(unsafe_html("<a href=\"x\" onerror=alert(1)>x</a>").is_some());
}
