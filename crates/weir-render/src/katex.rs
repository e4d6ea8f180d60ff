//! The real KaTeX (0.16.47, the UI's npm package, embedded by `build.rs`) run in QuickJS, as Zulip's
//! server runs KaTeX in node. One dedicated thread owns the JavaScript engine (its
//! start-up costs a hundred milliseconds and megabytes, so not one per blocking thread);
//! callers wait at most the message's remaining budget, so a slow formula costs a
//! message its math, never its rendering. KaTeX's `maxExpand` bounds macro expansion
//! (releases before 0.16.10 did not: CVE-2024-28243 and -28244, hence not the 0.16.4 the
//! `katex` crate embeds) and the engine's memory
//! is capped, so no formula keeps the thread busy for long.

use std::sync::OnceLock;
use std::sync::mpsc::{self, Sender, SyncSender};
use std::time::Duration;

use super::budget;
use super::katex_check::is_safe_katex;

/// Formulas longer than this are not rendered (a message holds at most 10,000
/// characters; this bounds one call however the budget stands).
const MAX_TEX_BYTES: usize = 20_000;

/// The JavaScript engine's thread needs room for KaTeX's recursion on deep input;
/// QuickJS raises a stack-overflow error well before this is used up.
const STACK_BYTES: usize = 16 * 1024 * 1024;

/// KaTeX itself, and the function the engine calls: Zulip's options are KaTeX's
/// defaults (HTML and MathML output, untrusted input, `maxExpand` 1000) with errors
/// thrown rather than drawn in red.
const KATEX_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/katex.min.js"));
const ENTRY_JS: &str = "globalThis.weirKatex = function (tex, display) {\
    return katex.renderToString(tex, { displayMode: display, throwOnError: true, trust: false });\
};";

/// The engine's heap: KaTeX needs a few megabytes; a formula that wants more fails.
const MEMORY_BYTES: usize = 256 * 1024 * 1024;

/// How long loading KaTeX may take before math is given up for the process.
const START_TIMEOUT: Duration = Duration::from_secs(60);

struct Job {
    tex: String,
    display: bool,
    reply: SyncSender<Option<String>>,
}

/// KaTeX's HTML for `tex`, or `None` when KaTeX refuses it (a TeX error), the budget
/// is spent, or the output fails the allow-list.
pub(super) fn render(tex: &str, display: bool) -> Option<String> {
    if tex.len() > MAX_TEX_BYTES {
        return None;
    }
    if budget::exhausted() {
        return None;
    }
    let worker = budget::excluding(worker)?;
    let wait = budget::remaining();
    let (reply, answer) = mpsc::sync_channel(1);
    worker
        .send(Job {
            tex: tex.to_owned(),
            display,
            reply,
        })
        .ok()?;
    let html = answer.recv_timeout(wait).ok()??;
    is_safe_katex(&html).then_some(html)
}

/// The engine thread's queue, started on first use; `None` if it cannot start.
/// The first caller waits for KaTeX to load (outside any message's budget, so the
/// first formula renders like every later one).
fn worker() -> Option<&'static Sender<Job>> {
    static WORKER: OnceLock<Option<Sender<Job>>> = OnceLock::new();
    WORKER
        .get_or_init(|| {
            let (jobs, queue) = mpsc::channel::<Job>();
            let (ready, loaded) = mpsc::sync_channel(1);
            std::thread::Builder::new()
                .name("weir-katex".into())
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    let Some(engine) = Engine::start() else {
                        let _ = ready.send(false);
                        return;
                    };
                    let _ = ready.send(engine.run("x", false).is_some());
                    for job in queue {
                        let _ = job.reply.send(engine.run(&job.tex, job.display));
                    }
                })
                .ok()?;
            loaded
                .recv_timeout(START_TIMEOUT)
                .ok()
                .filter(|ok| *ok)
                .map(|_| jobs)
        })
        .as_ref()
}

/// QuickJS with KaTeX loaded.
struct Engine(quick_js::Context);

impl Engine {
    fn start() -> Option<Self> {
        let context = quick_js::Context::builder()
            .memory_limit(MEMORY_BYTES)
            .build()
            .ok()?;
        context.eval(KATEX_JS).ok()?;
        context.eval(ENTRY_JS).ok()?;
        Some(Self(context))
    }

    /// One KaTeX call; `None` for a TeX error (or any engine failure).
    fn run(&self, tex: &str, display: bool) -> Option<String> {
        let args = vec![
            quick_js::JsValue::String(tex.to_owned()),
            quick_js::JsValue::Bool(display),
        ];
        match self.0.call_function("weirKatex", args) {
            Ok(quick_js::JsValue::String(html)) => Some(html),
            _ => None,
        }
    }
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

    #[test]
    fn over_long_formulas_are_not_sent() {
        assert_eq!(render(&"x".repeat(MAX_TEX_BYTES + 1), false), None);
    }
}
