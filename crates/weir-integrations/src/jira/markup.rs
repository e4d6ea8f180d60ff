//! Zulip's `convert_jira_markup`: Jira's wiki markup in a comment turned into Markdown
//! by the same regular expressions, applied in the same order (the `regex` crate
//! chooses the same matches as Python's `re` for these patterns, which need no
//! backtracking features).

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// One substitution: a pattern and what a match becomes.
struct Rule {
    pattern: LazyLock<Result<Regex, regex::Error>>,
    replace: fn(&Captures<'_>) -> String,
}

fn group<'a>(captures: &'a Captures<'_>, name: &str) -> &'a str {
    captures.name(name).map_or("", |found| found.as_str())
}

fn first<'a>(captures: &'a Captures<'_>) -> &'a str {
    captures.get(1).map_or("", |found| found.as_str())
}

macro_rules! rule {
    ($pattern:literal, $replace:expr) => {
        Rule {
            pattern: LazyLock::new(|| Regex::new($pattern)),
            replace: $replace,
        }
    };
}

static RULES: [Rule; 9] = [
    // *word* is bold.
    rule!(r"\*([^*]+)\*", |c| format!("**{}**", first(c))),
    // {{word}} is monospace.
    rule!(r"\{\{([^*]+?)\}\}", |c| format!("`{}`", first(c))),
    // "bq. " quotes the rest of the line.
    rule!(r"bq\. (.*)", |c| format!("> {}", first(c))),
    rule!(r"(?s)\{quote\}(.*?)\{quote\}", |c| format!(
        "~~~ quote\n{}\n~~~",
        first(c)
    )),
    rule!(r"(?s)\{noformat\}(.*?)\{noformat\}", |c| format!(
        "~~~\n{}\n~~~",
        first(c)
    )),
    rule!(r"(?s)\{code[^\n]*\}(.*?)\{code\}", |c| format!(
        "~~~\n{}\n~~~",
        first(c)
    )),
    // [https://x] is a bare link (no | inside).
    rule!(r"\[([^|~]+?)\]", |c| format!("[{0}]({0})", first(c))),
    // [Title|https://x] is a titled link.
    rule!(r"\[(?:(?P<title>[^|~]+)\|)(?P<url>[^\]]*)\]", |c| format!(
        "[{}]({})",
        group(c, "title"),
        group(c, "url")
    )),
    // [~name] mentions a Jira user: Zulip names the Zulip user it guesses from the
    // name, or else the name; Weir has no users to guess from (see `mod.rs`).
    rule!(r"\[~(.*?)\]", |c| format!("**{}**", first(c))),
];

/// `convert_jira_markup`, without the guess of a Zulip user for a mention.
pub fn convert(content: &str) -> String {
    RULES.iter().fold(content.to_owned(), |text, rule| {
        match &*rule.pattern {
            Ok(pattern) => pattern.replace_all(&text, rule.replace).into_owned(),
            // Not reached: every pattern compiles (tested).
            Err(_) => text,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        for rule in &RULES {
            assert!(rule.pattern.is_ok(), "{:?}", *rule.pattern);
        }
    }

    #[test]
    fn converts_as_zulip_does() {
        assert_eq!(convert("a *b* c *d"), "a **b** c *d");
        assert_eq!(convert("{{x}} and {{}}}}"), "`x` and `}`}");
        assert_eq!(convert("bq. quoted\nnext"), "> quoted\nnext");
        assert_eq!(convert("{quote}a\nb{quote}"), "~~~ quote\na\nb\n~~~");
        assert_eq!(convert("{noformat}x{noformat}"), "~~~\nx\n~~~");
        // The opening tag runs to the last `}` that still leaves a closing tag after it.
        assert_eq!(convert("{code:py}f(){code}"), "~~~\nf()\n~~~");
        assert_eq!(convert("{code}x{code}"), "~~~\nx\n~~~");
        assert_eq!(
            convert("[http://a.test] and [A|http://a.test]"),
            "[http://a.test](http://a.test) and [A](http://a.test)"
        );
        assert_eq!(convert("hi [~othello]!"), "hi **othello**!");
    }
}
