//! Hostile math and code: each message renders within its limits, formulas past theirs
//! become `tex-error`, code past its caps is shown plain and whole, and memory stays
//! bounded.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use weir_render::render_markdown;

use crate::support::config;

/// The most one message of one formula may take: its 0.5 s, the engine's rebuild after
/// an interrupted formula (which the next formula may wait for, not count), and margin
/// for a debug build on a busy two-core machine.
const FORMULA_MESSAGE: Duration = Duration::from_millis(2_500);

/// The most one code block may take: its 2 s cap and margin.
const CODE_MESSAGE: Duration = Duration::from_millis(3_500);

/// Resident memory the process may gain over the whole run, after KaTeX and the
/// grammars are loaded: the engine's heap is capped at 64 MiB and rebuilt when it stays
/// large, so hostile formulas cannot accumulate.
const MEMORY_GROWTH_KIB: u64 = 160 * 1024;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("VmRSS:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Loads KaTeX and the grammars, then takes the memory baseline.
fn baseline() -> u64 {
    static BASELINE: OnceLock<u64> = OnceLock::new();
    *BASELINE.get_or_init(|| {
        render_markdown("$$x$$\n\n```re\n(a|b)\n```\n\n```python\nx = 1\n```");
        rss_kib()
    })
}

#[track_caller]
fn timed(what: &str, limit: Duration, source: &str) -> String {
    let started = Instant::now();
    let html = render_markdown(source);
    let elapsed = started.elapsed();
    assert!(
        elapsed <= limit,
        "{what} took {elapsed:?}, over {limit:?}: {source:.200}"
    );
    html
}

/// TeX built from pieces that cost KaTeX the most: macro definitions and their uses,
/// nesting, scripts, long text.
fn formula() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\\def\\a{xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}".to_owned()),
        Just("\\a\\a\\a\\a\\a\\a\\a\\a".to_owned()),
        Just("\\edef\\b{\\a\\a}".to_owned()),
        Just("\\b\\b\\b\\b".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("\\sqrt{".to_owned()),
        Just("\\frac{x}{".to_owned()),
        Just("x^".to_owned()),
        Just("_{i}".to_owned()),
        Just("\\text{long text here}".to_owned()),
        Just("\\left(".to_owned()),
        Just("\\right)".to_owned()),
        "[a-z0-9+=]{1,8}",
    ];
    (proptest::collection::vec(piece, 1..60), 1usize..40).prop_map(|(pieces, repeat)| {
        // Zulip's inline math starts with anything but `_`.
        let tex: String = pieces.concat().repeat(repeat).chars().take(9_000).collect();
        format!("x{tex}")
    })
}

/// Code that grammars find hardest: brackets opened deep, long lines, quotes.
fn code() -> impl Strategy<Value = (String, String)> {
    let lang = prop_oneof![
        Just("re"),
        Just("python"),
        Just("lisp"),
        Just("js"),
        Just("html"),
        Just("tex"),
        Just("rust"),
    ];
    let piece = prop_oneof![
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just("[".to_owned()),
        Just("{".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("\\".to_owned()),
        Just("\n".to_owned()),
        Just("<a ".to_owned()),
        Just("/*".to_owned()),
        "[a-z|*+?.]{1,6}",
    ];
    (lang, proptest::collection::vec(piece, 1..80), 1usize..80).prop_map(
        |(lang, pieces, repeat)| {
            let body: String = pieces.concat().repeat(repeat).chars().take(9_000).collect();
            (lang.to_owned(), body)
        },
    )
}

proptest! {
    #![proptest_config(config("math_code", 48))]

    #[test]
    fn hostile_formulas_render_within_their_time_and_memory(tex in formula()) {
        let base = baseline();
        let html = timed("one formula", FORMULA_MESSAGE, &format!("$${tex}$$"));
        prop_assert!(html.contains("katex") || html.contains("tex-error"), "{html:.300}");
        let now = rss_kib();
        prop_assert!(now <= base + MEMORY_GROWTH_KIB,
            "RSS {now} KiB, {base} KiB after start-up");
        // The next formula renders normally.
        let next = timed("a formula after it", FORMULA_MESSAGE, "$$e^{i\\pi}+1=0$$");
        prop_assert!(next.contains("katex") && !next.contains("tex-error"), "{next}");
    }

    #[test]
    fn hostile_code_renders_within_its_caps_and_whole((lang, body) in code()) {
        baseline();
        let html = timed(&format!("```{lang} block"), CODE_MESSAGE, &format!("```{lang}\n{body}\n```"));
        prop_assert!(html.contains("codehilite"), "{html:.300}");
    }
}

/// Zulip's math bomb and a ```` ```re ```` block of 999 nested parentheses, the issue's
/// worst cases, and many bombs in a row for memory.
#[test]
fn the_issues_worst_cases_stay_within_time_and_memory() {
    let base = baseline();
    let bomb = format!("$$\\def\\a{{{}}}{}$$", "x".repeat(150), "\\a".repeat(999));
    for _ in 0..12 {
        let html = timed("the math bomb", FORMULA_MESSAGE, &bomb);
        assert!(html.contains("tex-error"), "{html:.300}");
    }
    let nested = format!("```re\n{}x{}\n```", "(".repeat(999), ")".repeat(999));
    timed("nested parentheses", CODE_MESSAGE, &nested);
    let now = rss_kib();
    assert!(
        now <= base + MEMORY_GROWTH_KIB,
        "RSS {now} KiB, {base} KiB after start-up"
    );
}
