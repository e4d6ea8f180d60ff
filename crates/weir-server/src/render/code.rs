//! Zulip's code-block markup: the `codehilite` wrapper Pygments produces,
//! minus the syntax-highlighting spans (clients render fine without them).

use super::sanitize::{escape_attr, escape_code};

/// Appends a code block; `lang` is the fence's language tag, possibly empty.
pub(super) fn push_code_block(out: &mut String, lang: &str, text: &str) {
    out.push_str("<div class=\"codehilite\"");
    if !lang.is_empty() {
        out.push_str(" data-code-language=\"");
        escape_attr(out, pygments_name(lang).unwrap_or(lang));
        out.push('"');
    }
    out.push_str("><pre><span></span><code>");
    // Like Pygments: no leading/trailing blank lines, no trailing whitespace,
    // and always a final newline.
    for line in text.trim_matches(['\n', '\r']).split('\n') {
        escape_code(out, line.trim_end());
        out.push('\n');
    }
    out.push_str("</code></pre></div>\n");
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
    fn empty_block_still_has_a_line() {
        assert_eq!(
            render("", ""),
            "<div class=\"codehilite\"><pre><span></span><code>\n</code></pre></div>\n"
        );
    }
}
