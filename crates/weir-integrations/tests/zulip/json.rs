//! `zerver/webhooks/json/tests.py` (zulip/zulip 3d8489b2): the JSON formatter. Zulip's
//! test computes the expected message from the fixture itself (`"```json\n" +
//! json.dumps(json.load(f), indent=2) + "\n```"`, topic `JSON`); the lengths and FNV-1a
//! digests below were computed with exactly that Python expression on these fixtures.

use super::{Case, Expect, replay};

fn digest(test: &'static str, fixture: &'static str, len: usize, fnv: u64) -> Case {
    Case::new(
        test,
        fixture,
        Expect::Digests(vec![("JSON".into(), len, fnv)]),
    )
}

#[test]
fn zulips_json_tests_pass() {
    replay(
        "json",
        &[
            digest(
                "test_json_github_push__1_commit_message",
                "json_github_push__1_commit",
                7586,
                0x7677_2834_b1b1_c712,
            ),
            digest(
                "test_json_pingdom_http_up_to_down_message",
                "json_pingdom_http_up_to_down",
                861,
                0x3650_e495_b261_6f0b,
            ),
            digest(
                "test_json_sentry_event_for_exception_js_message",
                "json_sentry_event_for_exception_js",
                4884,
                0x820c_d091_3c7d_0df7,
            ),
            Case::inline(
                "a small body, written out (Python's json.dumps, indent=2)",
                r#"{"b": [1.50, 0.00001, null], "a": "café"}"#,
                Expect::Messages(vec![(
                    "JSON".into(),
                    "```json\n{\n  \"b\": [\n    1.5,\n    1e-05,\n    null\n  ],\n  \"a\": \"caf\\u00e9\"\n}\n```"
                        .into(),
                )]),
            ),
            Case::inline(
                "a body that is not an object",
                "[1, 2]",
                Expect::Error("request is not a dict".into()),
            ),
        ],
    );
}
