use super::*;

pub(super) fn highlight(tag: &str, code: &str) -> String {
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

/// Zulip's corpus case `tex_fenced_tex`.
#[test]
fn tex_matches_pygments_on_zulips_example() {
    assert_eq!(
        highlight("tex", "\\pi \\textbf{ is not } 3.14"),
        "<span class=\"k\">\\pi</span> <span class=\"k\">\\textbf</span><span \
         class=\"nb\">{</span> is not <span class=\"nb\">}</span> 3.14\n"
    );
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
fn deep_nesting_stays_plain_whole_and_quick() {
    let deep = format!("{}x{}", "(".repeat(999), ")".repeat(999));
    let started = Instant::now();
    let html = highlight("re", &format!("a|b\n{deep}\nc"));
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
    assert!(html.ends_with(&format!("{deep}\nc\n")), "{html}");
    assert!(html.starts_with("<span"));
    // Nesting opened over many lines counts too.
    let stairs = "(\n".repeat(MAX_NESTING + 10);
    let html = highlight("re", &stairs);
    assert!(html.ends_with(&"(\n".repeat(10)));
    assert_eq!(nesting("(a[b]{c})", 0), (2, 0));
    assert_eq!(nesting("([{x}])", 0), (3, 0));
    assert_eq!(nesting("))(", 2), (2, 1));
}

/// One short line on which syntect's Lisp grammar spends seconds on a loaded machine:
/// the block is answered within its time plus one step, the rest plain once the time is
/// up (on a fast machine the grammar may finish first and the block is highlighted).
#[test]
fn a_line_the_grammar_takes_seconds_over_is_cut_at_the_blocks_time() {
    let line = "/*[\\/*\"?j.[\"\"[(/*(*x\"[/*[n.{({[\\[)o([)[[\"\\<a {\")['";
    let started = Instant::now();
    let html = highlight("lisp", &format!("a\n{line}\nb"));
    assert!(started.elapsed() < BLOCK_BUDGET + Duration::from_millis(500));
    let last_line_kept = html.ends_with("\nb\n") || html.ends_with(">b</span>\n");
    assert!(last_line_kept, "{html}");
}

#[test]
fn a_spent_budget_leaves_the_code_plain() {
    let _scope = budget::start();
    budget::force_exhausted();
    assert_eq!(highlight("python", "x = '<'"), "x = &#39;&lt;&#39;\n");
}
