//! Zulip's own Markdown corpus (`tests/data/zulip/`, see its README) through
//! `POST /messages/render`: every case must render byte for byte as Zulip stores it,
//! except the cases `docs/zulip-compatibility.md` lists with a reason under "Markdown
//! corpus: known differences". A listed case that now passes fails the test too, so the
//! list stays true.
//!
//! Flags: `translate_emoticons` cases are rendered for an author with that setting on;
//! `backend_only_rendering` and `marked_expected_output` concern Zulip's web client's
//! local echo, so they change nothing here (the server's HTML is what is compared).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use weir_tests::*;

const CORPUS: &str = include_str!("../../data/zulip/markdown_test_cases.json");
const COMPATIBILITY: &str = include_str!("../../../docs/zulip-compatibility.md");
const SECTION: &str = "### Markdown corpus: known differences";

/// The case names the compatibility document lists, with their reasons.
fn known_differences() -> BTreeMap<String, String> {
    let section = COMPATIBILITY
        .split_once(SECTION)
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("docs/zulip-compatibility.md has no {SECTION:?} section"));
    let mut listed = BTreeMap::new();
    for line in section.lines().skip(1) {
        if line.starts_with('#') {
            break;
        }
        let Some(entry) = line.strip_prefix("- `") else {
            continue;
        };
        let (name, reason) = entry
            .split_once("`: ")
            .unwrap_or_else(|| panic!("no reason for {line:?}"));
        assert!(!reason.trim().is_empty(), "no reason for {name}");
        let duplicate = listed.insert(name.to_owned(), reason.to_owned());
        assert!(duplicate.is_none(), "{name} is listed twice");
    }
    listed
}

/// What Zulip's test expects for a linkify case: `%s` in the reference stands for the
/// link, whose `href` is the URL, `mailto:` for an address, `http://` for a bare domain.
fn linkify_expected(reference: &str, url: &str) -> String {
    if !reference.contains("%s") {
        return reference.to_owned();
    }
    let href = if url.starts_with("http") {
        url.to_owned()
    } else if url.contains('@') {
        format!("mailto:{url}")
    } else {
        format!("http://{url}")
    };
    reference.replacen("%s", &format!("<a href=\"{href}\">{url}</a>"), 1)
}

/// One corpus case: its name (`linkify_tests[N]` for the N-th, unnamed, autolink
/// case), its input, the HTML Zulip renders, and whether its author translates emoticons.
struct Case {
    name: String,
    linkify: bool,
    input: String,
    expected: String,
    translate_emoticons: bool,
}

fn cases() -> Vec<Case> {
    let corpus: Value = serde_json::from_str(CORPUS).expect("corpus is JSON");
    let mut cases = Vec::new();
    for test in corpus["regular_tests"].as_array().expect("regular_tests") {
        cases.push(Case {
            name: test["name"].as_str().expect("name").to_owned(),
            linkify: false,
            input: test["input"].as_str().expect("input").to_owned(),
            expected: test["expected_output"].as_str().expect("output").to_owned(),
            translate_emoticons: test["translate_emoticons"] == true,
        });
    }
    for (index, test) in corpus["linkify_tests"]
        .as_array()
        .expect("linkify_tests")
        .iter()
        .enumerate()
    {
        let field = |i: usize| test[i].as_str().expect("linkify field");
        cases.push(Case {
            name: format!("linkify_tests[{index}]"),
            linkify: true,
            input: field(0).to_owned(),
            expected: linkify_expected(field(1), field(2)),
            translate_emoticons: false,
        });
    }
    cases
}

#[tokio::test]
async fn zulips_markdown_corpus_renders_as_zulip_renders_it() {
    // Zulip's test realm is `http://zulip.testserver`; the corpus links into it.
    let mut seed = standard_seed();
    seed["realm"]["url"] = json!("http://zulip.testserver");
    let server = TestServer::start(seed, &[]);
    let mark = server.as_user(&MEMBER);
    // Cases flagged `translate_emoticons` are rendered for an author who turned the
    // setting on (if the server does not know the setting, they differ and are listed).
    let nina = server.as_user(&MEMBER2);
    nina.patch("/settings", &[("translate_emoticons", json!(true))])
        .await;

    let cases = cases();
    assert_eq!(cases.len(), 175 + 73, "the corpus is Zulip's, whole");
    let listed = known_differences();
    let names: BTreeSet<&str> = cases.iter().map(|case| case.name.as_str()).collect();
    for name in listed.keys() {
        assert!(
            names.contains(name.as_str()),
            "{name} is listed but not in the corpus"
        );
    }

    let mut unexpected = Vec::new();
    let mut now_passing = Vec::new();
    let mut passing = [0, 0];
    for case in &cases {
        let author = if case.translate_emoticons {
            &nina
        } else {
            &mark
        };
        let r = author
            .post("/messages/render", &[("content", json!(case.input))])
            .await;
        let rendered = r.ok()["rendered"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", r.debug()));
        let same = rendered == case.expected;
        passing[usize::from(case.linkify)] += usize::from(same);
        match (same, listed.contains_key(&case.name)) {
            (false, false) => unexpected.push(format!(
                "{}\n  input:    {:?}\n  expected: {:?}\n  rendered: {:?}",
                case.name, case.input, case.expected, rendered
            )),
            (true, true) => now_passing.push(case.name.clone()),
            _ => {}
        }
    }
    eprintln!(
        "Zulip's corpus: {}/175 regular cases and {}/73 linkify cases render exactly",
        passing[0], passing[1]
    );
    assert!(
        unexpected.is_empty() && now_passing.is_empty(),
        "{} cases differ from Zulip and are not in docs/zulip-compatibility.md:\n{}\n\n\
         {} listed cases now render as Zulip does; remove them from the list: {}",
        unexpected.len(),
        unexpected.join("\n"),
        now_passing.len(),
        now_passing.join(" ")
    );
}

#[test]
fn linkify_expectations_follow_zulips_test() {
    assert_eq!(
        linkify_expected("<p>see %s</p>", "example.com"),
        "<p>see <a href=\"http://example.com\">example.com</a></p>"
    );
    assert_eq!(
        linkify_expected("<p>%s</p>", "a@b.org"),
        "<p><a href=\"mailto:a@b.org\">a@b.org</a></p>"
    );
    assert_eq!(
        linkify_expected("<p>%s</p>", "https://x.org"),
        "<p><a href=\"https://x.org\">https://x.org</a></p>"
    );
    assert_eq!(linkify_expected("<p>plain</p>", "x.org"), "<p>plain</p>");
}
