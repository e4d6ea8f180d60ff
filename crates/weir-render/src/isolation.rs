//! Which messages must render away from a server's async workers: those that can reach
//! KaTeX or a highlighting grammar (seconds for a crafted formula or line, bounded only
//! by their own time limits) or are long. Everything else is passes over at most
//! [`QUICK_MAX_BYTES`]: microseconds for a typical message (less than handing it to
//! another thread costs), a few milliseconds for the most nested one.

/// The longest source [`renders_quickly`] accepts: Hello World is 150 bytes, a GitHub
/// push of 20 commits about 3 KiB.
pub const QUICK_MAX_BYTES: usize = 4 * 1024;

/// Whether rendering `source` can neither run KaTeX nor highlight code, and is short:
/// then it takes microseconds, and may run where the caller is (an async worker).
///
/// Conservative: math needs `$$` (inline) or a fence (```` ```math ````), highlighting a
/// fence with a language; a source with `$$`, ```` ``` ```` or `~~~` anywhere answers
/// `false` even where no fence can open.
pub fn renders_quickly(source: &str) -> bool {
    source.len() <= QUICK_MAX_BYTES && !has_costly_markup(source.as_bytes())
}

fn has_costly_markup(source: &[u8]) -> bool {
    memchr::memmem::find(source, b"$$").is_some()
        || memchr::memmem::find(source, b"```").is_some()
        || memchr::memmem::find(source, b"~~~").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render_markdown;

    #[test]
    fn math_and_fences_are_not_quick() {
        for source in [
            "$$x$$",
            "a $$\\def\\a{x}\\a$$ b",
            "```math\nx\n```",
            "```python\nx = 1\n```",
            "~~~lisp\n(a)\n~~~",
            "> ```re\n> (a)\n> ```",
            "```spoiler hi\n$$x$$\n```",
        ] {
            assert!(!renders_quickly(source), "{source}");
        }
        assert!(!renders_quickly(&"a".repeat(QUICK_MAX_BYTES + 1)));
    }

    #[test]
    fn plain_markdown_is_quick() {
        for source in [
            "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today \
             is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**",
            "@**Iago** see #**general>topic** and `code`, $5 and ~~strike~~",
            "    indented code\n",
            "",
        ] {
            assert!(renders_quickly(source), "{source}");
        }
        assert!(renders_quickly(&"a".repeat(QUICK_MAX_BYTES)));
    }

    /// Whatever a quick source holds, its rendering has no formula and no highlighted
    /// block: random sources built from the markup that leads there.
    #[test]
    fn a_quick_source_never_reaches_katex_or_a_grammar() {
        const ATOMS: [&str; 16] = [
            "$",
            "$$",
            "`",
            "``",
            "```",
            "~",
            "~~",
            "~~~",
            "math",
            "python",
            "\n",
            " ",
            "\\sqrt{x}",
            "x",
            "> ",
            "    ",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let (mut quick, mut costly) = (0, 0);
        for _ in 0..4000 {
            let len = below(24);
            let source: String = (0..len).map(|_| ATOMS[below(ATOMS.len())]).collect();
            let html = render_markdown(&source);
            let reached = html.contains("katex")
                || html.contains("tex-error")
                || html.contains("data-code-language");
            if renders_quickly(&source) {
                quick += 1;
                assert!(!reached, "{source:?} -> {html}");
            } else if reached {
                costly += 1;
            }
        }
        assert!(
            quick > 100 && costly > 100,
            "{quick} quick, {costly} costly"
        );
    }

    /// The longest quick sources that stress the passes (nesting, emphasis, links,
    /// mentions) stay far from stalling a server: on the loaded 2-core machine a debug
    /// build took at most 26 ms (4,096 nested quotes), a release build a tenth of that.
    /// The bound is loose for loaded test machines; a superlinear pass would take
    /// seconds here.
    #[test]
    fn the_longest_quick_sources_are_cheap() {
        let n = QUICK_MAX_BYTES;
        for source in [
            ">".repeat(n),
            "[".repeat(n),
            "*".repeat(n),
            "- ".repeat(n / 2),
            "<div>\n> ".repeat(n / 8),
            "![".repeat(n / 6) + &"](x)".repeat(n / 6),
            format!("{}x{}", "**".repeat(n / 4 - 1), "**".repeat(n / 4 - 1)),
            "@**a** #**b** ".repeat(n / 14),
            "https://a.example/x ".repeat(n / 20),
            ":smile: ".repeat(n / 8),
            "<time:2024-01-01T00:00:00Z> ".repeat(n / 28),
        ] {
            assert!(renders_quickly(&source));
            let started = std::time::Instant::now();
            let html = render_markdown(&source);
            let spent = started.elapsed();
            assert!(!html.is_empty());
            assert!(
                spent < std::time::Duration::from_millis(250),
                "{spent:?} for {:?}…",
                &source[..20]
            );
        }
    }
}
