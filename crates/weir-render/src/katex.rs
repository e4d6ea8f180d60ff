//! The real KaTeX (0.16.47, the UI's npm package, embedded by `build.rs`) run in QuickJS, as Zulip's
//! server runs KaTeX in node, on one engine thread (`katex_engine.rs`).
//!
//! As in Zulip, each formula may take 0.5 s and a message's formulas 5 s in all
//! (`budget.rs`); a formula past its time is interrupted and shown as Zulip shows one
//! it cannot render. Only the engine's work on a message's formulas counts against the
//! message, not its wait behind other messages' formulas, so a message renders the same
//! whether the engine was busy or not. KaTeX's `maxExpand` bounds macro expansion
//! (releases before 0.16.10 did not: CVE-2024-28243 and -28244, hence not the 0.16.4 the
//! `katex` crate embeds).

use std::time::{Duration, Instant};

use super::budget;
use super::katex_check::is_safe_katex;
use super::katex_engine;

/// Formulas longer than this are not rendered (a message holds at most 10,000
/// characters; this bounds one call however the budget stands).
const MAX_TEX_BYTES: usize = 20_000;

/// The most one formula may take, as Zulip's `MAX_MARKDOWN_RENDERING_TIME`-bound KaTeX
/// call (its `katex_timeout`).
pub(super) const FORMULA_BUDGET: Duration = Duration::from_millis(500);

/// The longest a formula waits for the engine behind others' formulas before it is given
/// up (a safety net: with the engine's own limits the queue drains far sooner).
const MAX_WAIT: Duration = Duration::from_secs(60);

/// KaTeX's HTML for `tex`, or `None` when KaTeX refuses it (a TeX error), its time or
/// the message's is spent, or the output fails the allow-list.
pub(super) fn render(tex: &str, display: bool) -> Option<String> {
    if tex.len() > MAX_TEX_BYTES || budget::exhausted() {
        return None;
    }
    let queue = budget::excluding(katex_engine::queue)?;
    let limit = budget::remaining().min(FORMULA_BUDGET);
    let asked = Instant::now();
    let answer = queue.run(tex, display, limit, asked + MAX_WAIT);
    // The wait in the queue is not the message's: only the engine's work on it is.
    let waited = asked.elapsed();
    budget::extend(waited.saturating_sub(answer.as_ref().map_or(waited, |a| a.ran)));
    let html = answer?.html?;
    is_safe_katex(&html).then_some(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_inline_and_display_math() {
        let inline = render("1 \\oplus 0 = 1", false).expect("rendered");
        assert!(inline.starts_with("<span class=\"katex\"><span class=\"katex-mathml\">"));
        assert!(inline.contains("<mo>⊕</mo>"));
        let display = render("a^2", true).expect("rendered");
        assert!(display.starts_with("<span class=\"katex-display\">"));
        assert!(display.contains("display=\"block\""));
    }

    /// KaTeX's whole vocabulary passes the allow-list (a refusal would show as an error).
    #[test]
    fn rich_formulas_pass_the_allow_list() {
        for tex in [
            "\\sqrt{\\frac{a}{b}} \\sqrt[3]{x}",
            "\\xrightarrow{f} \\overrightarrow{AB} \\vec{v} \\widehat{xy}",
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "\\begin{array}{c|c}a&b\\\\\\hline c&d\\end{array}",
            "\\color{red}{x} \\colorbox{yellow}{y} \\fcolorbox{red}{blue}{z}",
            "\\overbrace{ab}^{n} \\underbrace{cd}_{m} \\cancel{x} \\boxed{y}",
            "\\binom{n}{k} \\mathbb{R} \\operatorname{sin} x \\not= \\left( \\frac{1}{2} \\right)",
            "\\sum_{i=0}^{\\infty} \\int_a^b f \\, dx \\lim_{x \\to 0}",
        ] {
            for display in [false, true] {
                assert!(render(tex, display).is_some(), "{tex}");
            }
        }
    }

    #[test]
    fn tex_errors_and_trust_needing_commands_are_refused() {
        assert_eq!(render("\\error{x}", false), None);
        assert_eq!(render("\\frac{", false), None);
        // Untrusted commands are drawn as red source text, never as what they ask for.
        for tex in [
            "\\href{javascript:alert(1)}{x}",
            "\\url{https://evil.test}",
            "\\htmlStyle{color:red}{x}",
            "\\htmlData{foo=bar}{x}",
            "\\includegraphics{x.png}",
        ] {
            let html = render(tex, false).unwrap_or_default();
            assert!(!html.contains("href=") && !html.contains("<img") && !html.contains("data-"));
        }
    }

    #[test]
    fn runaway_macros_and_deep_nesting_end_in_an_error() {
        assert_eq!(render("\\def\\a{\\a\\a}\\a", false), None);
        let deep = format!("{}x{}", "{".repeat(5_000), "}".repeat(5_000));
        // Rendered or refused, but answered.
        let _ = render(&deep, false);
        assert_eq!(render(&"x^".repeat(5_000), true), None);
    }

    /// KaTeX before 0.16.10 looped here without end (CVE-2024-28243, CVE-2024-28244).
    #[test]
    fn expansion_limits_cannot_be_bypassed() {
        assert_eq!(render("\\def\\a{\\a}\\edef\\b{\\a}", false), None);
        let doubling = format!("\\edef\\a{{aa}}{}\\a", "\\edef\\a{\\a\\a}".repeat(40));
        assert_eq!(render(&doubling, false), None);
        assert_eq!(render("\\def\\a{\\a}x^{\\a}x²", false), None);
    }

    /// Zulip's math bomb: macro expansion within `maxExpand` that takes KaTeX seconds.
    fn bomb() -> String {
        format!("\\def\\a{{{}}}{}", "x".repeat(150), "\\a".repeat(999))
    }

    #[test]
    fn a_slow_formula_is_cut_at_its_limit_and_the_next_renders() {
        let _scope = budget::start();
        let started = Instant::now();
        assert_eq!(render(&bomb(), false), None);
        // The message is charged the formula's own time, not its wait for the engine
        // (other tests' formulas run beside this one).
        let charged = budget::MESSAGE_BUDGET.saturating_sub(budget::remaining());
        assert!(
            charged < FORMULA_BUDGET * 2,
            "{charged:?} of {:?}",
            started.elapsed()
        );
        assert!(render("e^{i\\pi}+1=0", false).is_some());
    }

    /// Messages rendering at once each get their own time: a bomb in one does not cost
    /// the other its formulas.
    #[test]
    fn a_busy_engine_does_not_cost_another_message_its_math() {
        let bombs = std::thread::spawn(|| {
            let _scope = budget::start();
            for _ in 0..4 {
                let _ = render(&bomb(), true);
            }
        });
        let _scope = budget::start();
        for _ in 0..20 {
            assert!(render("\\sqrt{x}", false).is_some());
        }
        assert!(bombs.join().is_ok());
    }

    #[test]
    fn over_long_formulas_are_not_sent() {
        assert_eq!(render(&"x".repeat(MAX_TEX_BYTES + 1), false), None);
    }
}
