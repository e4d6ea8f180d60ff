//! Zulip's code-block markup: the `codehilite` wrapper Pygments produces, with
//! the code highlighted (`highlight.rs`) when the fence names a known language.

use super::highlight::{find, push_highlighted};
use super::sanitize::{escape_attr, escape_code};

/// Appends a code block; `lang` is the fence's language tag, possibly empty.
pub(super) fn push_code_block(out: &mut String, lang: &str, text: &str) {
    // Zulip lower-cases the tag; an unknown one is still shown, as typed.
    let lang = lang.to_lowercase();
    out.push_str("<div class=\"codehilite\"");
    if !lang.is_empty() {
        out.push_str(" data-code-language=\"");
        escape_attr(out, pygments_name(&lang).unwrap_or(&lang));
        out.push('"');
    }
    out.push_str("><pre><span></span><code>");
    // Like Pygments: no leading/trailing blank lines, no trailing whitespace,
    // and always a final newline.
    let lines: Vec<&str> = text
        .trim_matches(['\n', '\r'])
        .split('\n')
        .map(str::trim_end)
        .collect();
    let grammar = if lang.is_empty() {
        None
    } else {
        find(&lang, grammar_alias(&lang))
    };
    match grammar {
        Some(syntax) => push_highlighted(out, syntax, &lines),
        None => {
            for line in lines {
                escape_code(out, line);
                out.push('\n');
            }
        }
    }
    out.push_str("</code></pre></div>\n");
}

/// The grammar to try for tags whose own name syntect does not know.
fn grammar_alias(lang: &str) -> Option<&'static str> {
    Some(match lang {
        "py2" | "python2" | "py3" | "python3" => "python",
        "console" | "shell-session" | "zsh" | "shell" => "bash",
        "latex" => "tex",
        "golang" => "go",
        "c++" => "cpp",
        "c#" | "csharp" => "cs",
        _ => return None,
    })
}

/// Pygments' display name for common language tags, which Zulip puts in
/// `data-code-language`; unknown tags are shown as written, as Zulip does.
fn pygments_name(lang: &str) -> Option<&'static str> {
    let name = match lang.to_ascii_lowercase().as_str() {
        "python" | "py" | "python3" | "py3" => "Python",
        "py2" | "python2" => "Python 2.x",
        "javascript" | "js" => "JavaScript",
        "typescript" | "ts" => "TypeScript",
        "rust" | "rs" => "Rust",
        "go" | "golang" => "Go",
        "java" => "Java",
        "kotlin" => "Kotlin",
        "swift" => "Swift",
        "c" => "C",
        "cpp" | "c++" => "C++",
        "csharp" | "c#" | "cs" => "C#",
        "ruby" | "rb" => "Ruby",
        "php" => "PHP",
        "bash" | "sh" | "shell" | "zsh" => "Bash",
        "console" | "shell-session" => "Bash Session",
        "sql" => "SQL",
        "json" => "JSON",
        "yaml" | "yml" => "YAML",
        "toml" => "TOML",
        "ini" | "cfg" => "INI",
        "xml" => "XML",
        "html" => "HTML",
        "css" => "CSS",
        "markdown" | "md" => "Markdown",
        "diff" | "patch" => "Diff",
        "dockerfile" | "docker" => "Docker",
        "tex" | "latex" => "TeX",
        "text" | "txt" => "Text only",
        _ => return None,
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(lang: &str, text: &str) -> String {
        let mut out = String::new();
        push_code_block(&mut out, lang, text);
        out
    }

    #[test]
    fn known_aliases_get_pygments_names() {
        assert_eq!(pygments_name("py"), Some("Python"));
        assert_eq!(pygments_name("JS"), Some("JavaScript"));
        assert_eq!(pygments_name("inventedlanguage"), None);
    }

    #[test]
    fn blank_edges_and_trailing_whitespace_are_stripped() {
        assert_eq!(
            render("", "\n\nx = 1  \n\n  y\t\n\n"),
            "<div class=\"codehilite\"><pre><span></span><code>x = 1\n\n  y\n</code></pre></div>\n"
        );
    }

    #[test]
    fn known_languages_are_highlighted_unknown_ones_tagged_as_typed() {
        assert!(render("py", "x = 1").contains("<span class=\"mi\">1</span>"));
        assert!(render("py2", "x = 1").contains("data-code-language=\"Python 2.x\""));
        assert!(render("py2", "x = 1").contains("<span class=\"mi\">1</span>"));
        assert_eq!(
            render("InventedLanguage", "x = 1"),
            "<div class=\"codehilite\" data-code-language=\"inventedlanguage\"><pre><span>\
             </span><code>x = 1\n</code></pre></div>\n"
        );
        assert!(!render("text", "x = 1").contains("<span class"));
    }

    #[test]
    fn empty_block_still_has_a_line() {
        assert_eq!(
            render("", ""),
            "<div class=\"codehilite\"><pre><span></span><code>\n</code></pre></div>\n"
        );
    }
}
