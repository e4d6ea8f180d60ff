//! Zulip-dialect Markdown rendering for `rendered_content`.
//!
//! Messages (mostly from integrations) arrive as Zulip Markdown and clients
//! display the stored HTML as-is, so this module is both a formatter and the
//! XSS boundary: raw HTML is always shown as text and only `http(s)`,
//! `mailto`, `tel`, `sms` and relative URLs ever become `href`s (see `sanitize.rs`).
//!
//! Pure: no I/O, no async, no storage. The [`Directory`] trait is how it asks the
//! organization for people, groups and channels; the server's lookups run on its render
//! pool, never on an async worker or in the database writer ([`renders_quickly`] tells
//! which sources it may render anywhere).

mod blocks;
mod budget;
mod civil;
mod code;
mod emoji;
mod fences;
mod group_mentions;
mod highlight;
mod inline;
mod isolation;
mod katex;
mod katex_check;
mod katex_engine;
mod linkify;
mod markdown;
mod math;
mod mentions;
mod quoted_mentions;
mod sanitize;
mod timestamp;

pub use civil::civil_from_days;
pub use isolation::{QUICK_MAX_BYTES, renders_quickly};
pub use mentions::{Directory, render_with_mentions};

/// Renders Zulip-flavoured Markdown to the HTML Zulip stores in `rendered_content`,
/// for an organization nobody can be mentioned in.
pub fn render_markdown(source: &str) -> String {
    render_with_mentions(source, &NoOne)
}

/// The directory of [`render_markdown`]: `<time:…>` still resolves, mentions do not.
struct NoOne;

impl Directory for NoOne {
    fn user(&self, _: &str, _: Option<i64>) -> Option<(i64, String)> {
        None
    }

    fn stream(&self, _: &str) -> Option<(i64, String)> {
        None
    }
}

/// [`render_with_mentions`] for a sender with Zulip's `translate_emoticons` setting on
/// or off (`:)` becomes `:smile:` only for those who turned it on).
pub fn render_for_sender(
    source: &str,
    directory: &dyn Directory,
    translate_emoticons: bool,
) -> String {
    emoji::with_emoticons(translate_emoticons, || {
        render_with_mentions(source, directory)
    })
}

#[cfg(test)]
mod tests {
    use super::render_markdown;

    #[test]
    fn hello_world_integration_renders_exactly() {
        let source = "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for \
                      today is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**";
        let expected = "<p>Hello! I am happy to be here! <span aria-label=\"smile\" class=\"emoji \
                        emoji-1f642\" role=\"img\" title=\"smile\">:smile:</span><br>\nThe \
                        Wikipedia featured article for today is <strong><a \
                        href=\"https://en.wikipedia.org/wiki/Marilyn_Monroe\">Marilyn \
                        Monroe</a></strong></p>";
        assert_eq!(render_markdown(source), expected);
    }

    #[test]
    fn script_tags_are_escaped() {
        assert_eq!(
            render_markdown("<script>alert(1)</script>"),
            "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
        );
        assert_eq!(
            render_markdown("hi <script>alert(1)</script>"),
            "<p>hi &lt;script&gt;alert(1)&lt;/script&gt;</p>"
        );
        assert_eq!(
            render_markdown("<<script>script>evil()<</script>/script>"),
            "<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>"
        );
    }

    #[test]
    fn img_onerror_is_escaped() {
        assert_eq!(
            render_markdown("<img src=x onerror=alert(1)>"),
            "<p>&lt;img src=x onerror=alert(1)&gt;</p>"
        );
        assert_eq!(
            render_markdown("a <img src=x onerror=alert(1)> b"),
            "<p>a &lt;img src=x onerror=alert(1)&gt; b</p>"
        );
    }

    /// Zulip shows a link whose URL it refuses as the source it was, never as a link.
    #[test]
    fn javascript_links_render_as_their_source() {
        for source in [
            "[x](javascript:alert(1))",
            "[x](JaVaScRiPt:alert(1))",
            "[x](&#106;avascript:alert(1))",
            "[x](&#x6A;avascript&colon;alert(1))",
            "[x](<java\tscript:alert(1)>)",
            "[x](data:text/html;base64,PHNjcmlwdD4=)",
            "[x](vbscript:msgbox)",
            "[x]( javascript:alert(1) )",
        ] {
            let html = render_markdown(source);
            assert!(
                html.starts_with("<p>[x](") && !html.contains("<a"),
                "{source}: {html}"
            );
        }
    }

    #[test]
    fn hostile_image_sources_render_as_their_source() {
        assert_eq!(
            render_markdown("![x](javascript:alert(1))"),
            "<p>![x](javascript:alert(1))</p>"
        );
        assert_eq!(
            render_markdown("![x](data:image/png;base64,AAAA)"),
            "<p>![x](data:image/png;base64,AAAA)</p>"
        );
    }

    #[test]
    fn quotes_in_urls_cannot_break_the_attribute() {
        assert_eq!(
            render_markdown("[x](<https://a.org/\"onmouseover=\"alert(1)>)"),
            "<p><a href=\"https://a.org/&quot;onmouseover=&quot;alert(1)\">x</a></p>"
        );
        assert_eq!(
            render_markdown("[x](https://a.org/&quot;onclick=&quot;alert(1))"),
            "<p><a href=\"https://a.org/&quot;onclick=&quot;alert(1)\">x</a></p>"
        );
    }

    #[test]
    fn hostile_markup_in_link_text_and_code_is_escaped() {
        assert_eq!(
            render_markdown("[<b>x</b>](https://a.org)"),
            "<p><a href=\"https://a.org\">&lt;b&gt;x&lt;/b&gt;</a></p>"
        );
        assert_eq!(
            render_markdown("```\n</code></pre><script>x</script>\n```"),
            "<div class=\"codehilite\"><pre><span></span><code>&lt;/code&gt;&lt;/pre&gt;\
             &lt;script&gt;x&lt;/script&gt;\n</code></pre></div>"
        );
        assert_eq!(
            render_markdown("```\"><script>\nx\n```"),
            "<div class=\"codehilite\" data-code-language=\"&quot;&gt;&lt;script&gt;\"><pre>\
             <span></span><code>x\n</code></pre></div>"
        );
    }

    /// Tiny deterministic PRNG so the garbage corpus is reproducible.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).unwrap_or(0)
        }
    }

    /// No tag may be emitted except the ones the renderer itself produces.
    fn assert_only_known_tags(html: &str, source: &str) {
        const ALLOWED: &str = "p br hr strong em del a code pre span div ul ol li blockquote h1 h2 h3 h4 h5 h6 \
             table thead tbody tr th td time \
             math semantics annotation mrow mi mn mo ms mtext mspace msup msub msubsup mfrac \
             msqrt mroot mover munder munderover mtable mtr mtd mstyle mpadded mphantom \
             menclose svg path line";
        for piece in html.split('<').skip(1) {
            let name: String = piece
                .trim_start_matches('/')
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            assert!(
                ALLOWED.split(' ').any(|tag| tag == name),
                "tag {name:?} from {source:?}"
            );
        }
        for href in html.split("href=\"").skip(1) {
            let lower = href.to_ascii_lowercase();
            assert!(
                !lower.starts_with("javascript") && !lower.starts_with("data"),
                "href {href:?} from {source:?}"
            );
        }
    }

    #[test]
    fn garbage_input_never_panics_or_injects_markup() {
        const ATOMS: &[&str] = &[
            "*",
            "**",
            "_",
            "__",
            "~~",
            "~",
            "`",
            "```",
            "~~~",
            "[",
            "]",
            "(",
            ")",
            "![",
            "<",
            ">",
            "</",
            "<script>",
            "<img src=x onerror=alert(1)>",
            "<div>",
            "\n",
            "\n\n",
            " ",
            "    ",
            "\t",
            "\0",
            "#",
            "# ",
            "> ",
            ">>>>>>",
            "[[[[",
            "]]]]",
            "- ",
            "1. ",
            ":",
            ":smile:",
            ":+1:",
            "::",
            "http://",
            "https://a.org/",
            "javascript:",
            "&#106;",
            "&amp;",
            "&",
            "\"",
            "'",
            "\\",
            "|",
            "---",
            "===",
            "quote",
            "spoiler",
            "é",
            "😀",
            "\u{fe0f}",
            "\r\n",
            "x",
            "word",
            "(javascript:alert(1))",
            "](",
            "<!--",
            "-->",
            "<https://",
            "@**",
            "$$",
            "\u{85}",
            "\u{3000}",
            "http://é",
            "x.com",
            "a@b.co",
            "<time:1>",
            "<time:",
            "1) ",
            "  2. ",
            "```quote\n",
            "~~~\n",
            "| a |\n|---|\n",
            "[r]: https://a.org\n",
            "#**a>b**",
        ];
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..4000 {
            let len = rng.below(40);
            let source: String = (0..len).map(|_| ATOMS[rng.below(ATOMS.len())]).collect();
            let html = render_markdown(&source);
            assert_only_known_tags(&html, &source);
        }
        for _ in 0..500 {
            let len = rng.below(200);
            let bytes: Vec<u8> = (0..len).map(|_| (rng.next() & 0xff) as u8).collect();
            let source = String::from_utf8_lossy(&bytes);
            assert_only_known_tags(&render_markdown(&source), &source);
        }
    }

    /// Text with the tags taken out and the escapes undone, to check none was lost.
    fn text_of(html: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn largest_code_blocks_render_whole() {
        for (lang, unit) in [
            ("python", "def f(x): return x + '<' # c\n"),
            ("js", "var s = \"a\\\"b\"; /* </code> */\n"),
            ("python", "'''\n"),
            ("html", "<a href=\"\n"),
            ("rust", "fn main() { let x: u8 = 0x1f; }\n"),
        ] {
            let code = unit.repeat(9_900 / unit.len());
            let html = render_markdown(&format!("```{lang}\n{code}```"));
            assert_only_known_tags(&html, lang);
            assert_eq!(text_of(&html), code, "{lang}");
        }
        // One line longer than any the highlighter takes on.
        let line = "x = (".repeat(2_000);
        let html = render_markdown(&format!("```python\n{line}\n```"));
        assert_eq!(text_of(&html), format!("{line}\n"));
    }

    #[test]
    fn largest_and_hostile_formulas_render_or_fail_cleanly() {
        let sum: String = (0..700).map(|i| format!("x_{{{i}}} + ")).collect();
        for source in [
            format!("```math\n{sum}1\n```"),
            format!("$${sum}1$$"),
            format!("```math\n{}x{}\n```", "{".repeat(4_000), "}".repeat(4_000)),
            format!("$${}$$", "\\sqrt{".repeat(1_000)),
            "$$\\def\\a{\\a\\a}\\a$$".to_owned(),
            "$$\\href{javascript:alert(1)}{x}$$ $$\\htmlStyle{color:red}{x}$$".to_owned(),
            "$$x$$ ".repeat(300),
        ] {
            let html = render_markdown(&source);
            assert_only_known_tags(&html, "math");
            assert!(html.contains("katex") || html.contains("tex-error"));
            assert!(!html.contains("javascript:") || !html.contains("href=\"javascript"));
        }
    }

    #[test]
    fn deep_nesting_is_handled() {
        for source in [
            ">".repeat(20_000),
            "[".repeat(20_000),
            "*".repeat(20_000),
            "- ".repeat(5_000),
            "~~~quote\n".repeat(2_000),
            "<div>\n> ".repeat(2_000),
            "![".repeat(5_000) + &"](x)".repeat(5_000),
            format!("{}x{}", "**".repeat(5_000), "**".repeat(5_000)),
        ] {
            let html = render_markdown(&source);
            assert_only_known_tags(&html, "deep nesting");
        }
    }
}
