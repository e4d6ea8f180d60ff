//! `zerver/webhooks/gitlab/tests.py` at zulip/zulip `dac9e476` (June 2025), the version
//! the fixtures in `shared/reference/fixtures/gitlab/` match: every test whose fixture is
//! there, with Zulip's expected topics and messages transcribed, by the shared replay
//! (`tests/zulip/mod.rs`). All 83 pass; none is left out.
//!
//! As in Zulip's `check_webhook`, each fixture is sent with the `X-Gitlab-Event` header
//! `fixture_to_headers` derives from its name (`merge_request_hook__…` → `Merge Request
//! Hook`), except the `build_*` fixtures, whose tests name the header themselves.

mod issues;
mod merge_requests;
mod notes;
mod others;
mod pushes;

use super::{Case, replay};

pub(super) const AWESOME: &str = "https://gitlab.com/tomaszkolek0/my-awesome-project";
pub(super) const EESHAN: &str = "https://gitlab.com/eeshangarg/my-awesome-project";
pub(super) const SATYAM: &str = "https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration";
pub(super) const JOE: &str = "https://gitlab.example.co.uk/joe.bloggs/testing";
pub(super) const ADAM: &str = "https://gitlab.com/adambirds/zulip-gitlab-test";
pub(super) const KOLEK: &str = "https://gitlab.com/TomaszKolek/my-awesome-project";
pub(super) const RELEASE: &str = "https://example.com/gitlab-org/release-webhook-example";
/// Zulip's `COMMITS_LIMIT`.
pub(super) const COMMITS_LIMIT: usize = 20;

/// The header Zulip's `fixture_to_headers` gives a fixture: the part of its name before
/// `__`, `_` as spaces, in title case (none for `build_*`).
fn zulip_header(fixture: &str) -> Option<String> {
    if fixture.starts_with("build") {
        return None;
    }
    let first = fixture.split("__").next().unwrap_or_default();
    let words: Vec<String> = first
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        })
        .collect();
    Some(words.join(" "))
}

/// A test of `check_webhook(fixture, topic, message)`.
pub(super) fn case(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Case {
    let case = Case::message(test, fixture, topic, content);
    match zulip_header(fixture) {
        Some(header) => case.header("X-Gitlab-Event", &header),
        None => case,
    }
}

#[test]
fn zulips_gitlab_tests_pass() {
    let cases: Vec<Case> = [
        pushes::push_cases(),
        issues::issue_cases(),
        notes::note_cases(),
        merge_requests::merge_request_cases(),
        others::other_cases(),
    ]
    .concat();
    assert_eq!(
        cases.len(),
        83,
        "one case per test of tests.py with its fixture present"
    );
    replay("gitlab", &cases);
}

#[test]
fn fixture_headers_are_zulips() {
    assert_eq!(
        zulip_header("merge_request_hook__merge_request_closed").as_deref(),
        Some("Merge Request Hook")
    );
    assert_eq!(zulip_header("push_hook").as_deref(), Some("Push Hook"));
    assert_eq!(zulip_header("build_created"), None);
}
