//! `only_events` / `exclude_events` patterns: shell-style matching against event types,
//! as Zulip does with Python's `fnmatch`. Patterns of `*`, `?` and literals are checked
//! against a plain dynamic-programming matcher; every pattern (brackets included) must
//! answer within the budget, however many `*` it has.

use proptest::prelude::*;
use weir_integrations::{EventFilter, MAX_PATTERN_CHARS, fnmatch};

use crate::support::{config, corpus, within_budget};

/// `pattern` (only `*`, `?` and literals) against `text`, in O(len × len).
fn reference(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    // matches[j]: pattern[..i] matches text[..j].
    let mut matches = vec![false; text.len() + 1];
    matches[0] = true;
    for &p in &pattern {
        let mut next = vec![false; text.len() + 1];
        for j in 0..=text.len() {
            next[j] = match p {
                '*' => matches[j] || (j > 0 && next[j - 1]),
                '?' => j > 0 && matches[j - 1],
                literal => j > 0 && matches[j - 1] && text[j - 1] == literal,
            };
        }
        matches = next;
    }
    matches[text.len()]
}

fn simple_pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![Just('*'), Just('?'), Just('a'), Just('b'), Just(':')],
        0..40,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn event_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![Just('a'), Just('b'), Just(':')], 0..220)
        .prop_map(|chars| chars.into_iter().collect())
}

fn any_pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => Just("*".to_owned()),
            1 => Just("?".to_owned()),
            1 => Just("[".to_owned()),
            1 => Just("]".to_owned()),
            1 => Just("!".to_owned()),
            1 => Just("-".to_owned()),
            2 => "[a-z:]{1,3}",
            1 => any::<char>().prop_map(String::from),
        ],
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(config("filters", 256))]

    #[test]
    fn star_and_question_patterns_match_like_the_reference(
        pattern in simple_pattern(),
        text in event_text(),
    ) {
        let got = within_budget(&format!("fnmatch({pattern:?}, {} chars)", text.len()), || {
            fnmatch(&pattern, &text)
        });
        prop_assert_eq!(got, reference(&pattern, &text), "pattern {:?} text {:?}", pattern, text);
    }

    #[test]
    fn any_pattern_answers_within_the_budget(pattern in any_pattern(), text in event_text()) {
        within_budget(&format!("fnmatch({pattern:?}, {text:?})"), || fnmatch(&pattern, &text));
    }
}

#[test]
fn the_issues_worst_cases_answer_within_the_budget() {
    let text = "a".repeat(200);
    for stars in [4, 8, 16, 64, 255] {
        let pattern = format!("{}b", "*".repeat(stars));
        let got = within_budget(&format!("{stars} stars then b"), || {
            fnmatch(&pattern, &text)
        });
        assert!(!got);
    }
    let long = format!("{}b", "*a".repeat(120));
    within_budget("alternating *a", || fnmatch(&long, &text));
    // The largest lists a URL may give, against a long event type.
    let patterns: Vec<String> = (0..weir_integrations::MAX_EVENT_PATTERNS)
        .map(|n| format!("{}{n}", "*a".repeat(MAX_PATTERN_CHARS / 2 - 2)))
        .collect();
    let filter = EventFilter::new(Some(&patterns), Some(&patterns)).unwrap();
    within_budget("the largest filter", || filter.allows(&"a".repeat(256)));
}

#[test]
fn corpus_patterns_answer_within_the_budget() {
    // Each file: a pattern on the first line, the event types to try on the others.
    for (name, content) in corpus("filters") {
        let mut lines = content.lines();
        let pattern = lines.next().unwrap_or_default();
        for text in lines {
            within_budget(&format!("{name}: {text:?}"), || fnmatch(pattern, text));
        }
    }
}

#[test]
fn the_reference_agrees_with_known_answers() {
    assert!(reference("repo:*", "repo:push"));
    assert!(reference("*", ""));
    assert!(!reference("?", ""));
    assert!(reference("a*b?", "axxbc"));
    assert!(!reference("a*b", "axxbc"));
}
