//! Replays of Zulip's own webhook tests: each integration's fixtures (Zulip's files, in
//! `shared/reference/fixtures/<name>/` beside the repository, never in it) must give the
//! topics and messages that `zerver/webhooks/<name>/tests.py` expects, byte for byte, cut
//! as Zulip cuts them. The fixtures are found by path (or in `$WEIR_ZULIP_FIXTURES`, for a
//! checkout that is not beside `shared/`, such as a git worktree); where they are absent
//! each replay says loudly that Zulip's fixtures were not checked.

mod alertmanager;
mod bitbucket2;
mod gitea;
mod github;
mod gitlab;
mod grafana;
mod helloworld;
mod jira;
mod json;
mod pagerduty;
mod sentry;
mod slack_incoming;

use std::collections::BTreeMap;
use std::path::PathBuf;

use weir_integrations::limits::{truncate_content, truncate_topic};
use weir_integrations::{
    EventFilter, HeaderMap, Method, Outcome, Rejection, Request, find, process,
};

/// Where Zulip's fixtures for `integration` are, if this checkout has them beside it:
/// `$WEIR_ZULIP_FIXTURES/<integration>`, or else `shared/reference/fixtures/<integration>`
/// beside the repository or beside any folder above it (a worktree in `wt/<name>/`).
pub fn fixtures_dir(integration: &str) -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../../../shared/reference/fixtures");
    let dir = root.join(integration);
    let from_env =
        std::env::var_os("WEIR_ZULIP_FIXTURES").map(|root| PathBuf::from(root).join(integration));
    let above = manifest
        .ancestors()
        .map(|folder| folder.join("shared/reference/fixtures").join(integration));
    if let Some(found) = from_env.into_iter().chain(above).find(|dir| dir.is_dir()) {
        return Some(found);
    }
    eprintln!(
        "\n*** ZULIP'S FIXTURES NOT CHECKED for {integration}: {} is absent ***\n",
        dir.display()
    );
    None
}

/// What Zulip's test expects of one fixture.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// The messages sent, in order: (topic, content), as Zulip stores them.
    Messages(Vec<(String, String)>),
    /// At least one message, the last being (topic, content): all Zulip's `check_webhook`
    /// looks at when a payload sends several.
    Last(String, String),
    /// Plain success, nothing sent (Zulip's `check_webhook_ignored` / `expect_noop`).
    Ignored,
    /// A refusal whose message contains this text (e.g. Zulip's `UnsupportedWebhookEventTypeError`).
    Error(String),
    /// The messages sent, each as (topic, length in bytes, FNV-1a 64 of the content):
    /// for tests whose expected text Zulip computes from the fixture itself (the JSON
    /// formatter's), fingerprinted once with Zulip's own expression rather than copied.
    Digests(Vec<(String, usize, u64)>),
}

/// FNV-1a, 64 bits, of `text`'s UTF-8 bytes.
pub fn fnv1a64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One of Zulip's test cases.
#[derive(Debug, Clone)]
pub struct Case {
    /// The test's name in `tests.py`, for the report.
    pub test: &'static str,
    /// The fixture's file name without `.json` (or other extension given in `file`).
    pub fixture: &'static str,
    /// The file's extension: `json` unless the fixture is another format.
    pub extension: &'static str,
    pub headers: Vec<(&'static str, String)>,
    /// Query parameters of the URL (URL options, `topic`, `only_events`, ...).
    pub query: Vec<(&'static str, String)>,
    /// The body is sent form-encoded (`application/x-www-form-urlencoded`), as is.
    pub form: bool,
    /// A body the test writes itself (Zulip's tests that post a small inline payload):
    /// sent instead of the fixture file.
    pub body: Option<String>,
    pub expect: Expect,
}

// Not every integration's replay uses every builder.
#[allow(dead_code)]
impl Case {
    /// A case expecting one message.
    pub fn message(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Self {
        Self::new(
            test,
            fixture,
            Expect::Messages(vec![(topic.to_owned(), content.to_owned())]),
        )
    }

    /// A case whose payload sends several messages, of which Zulip's test checks the last.
    pub fn last_message(
        test: &'static str,
        fixture: &'static str,
        topic: &str,
        content: &str,
    ) -> Self {
        Self::new(
            test,
            fixture,
            Expect::Last(topic.to_owned(), content.to_owned()),
        )
    }

    pub fn new(test: &'static str, fixture: &'static str, expect: Expect) -> Self {
        Self {
            test,
            fixture,
            extension: "json",
            headers: Vec::new(),
            query: Vec::new(),
            form: false,
            body: None,
            expect,
        }
    }

    /// Declares the body `application/x-www-form-urlencoded`, as Zulip's test does.
    pub fn form(mut self) -> Self {
        self.form = true;
        self
    }

    /// The fixture file's extension, when it is not `json`.
    pub fn extension(mut self, extension: &'static str) -> Self {
        self.extension = extension;
        self
    }

    /// A case whose body is `body` rather than a fixture file.
    pub fn inline(test: &'static str, body: &str, expect: Expect) -> Self {
        Self {
            body: Some(body.to_owned()),
            ..Self::new(test, "(inline)", expect)
        }
    }

    /// Sends `body` instead of the fixture's file.
    pub fn body(mut self, body: &str) -> Self {
        self.body = Some(body.to_owned());
        self
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }

    pub fn query(mut self, name: &'static str, value: &str) -> Self {
        self.query.push((name, value.to_owned()));
        self
    }
}

/// Replays `cases` against the integration; panics listing every case that differs, and
/// prints how many of Zulip's cases pass.
pub fn replay(integration: &str, cases: &[Case]) {
    let Some(dir) = fixtures_dir(integration) else {
        return;
    };
    let registered = find(integration).unwrap_or_else(|| panic!("{integration} is not registered"));
    let mut failures = Vec::new();
    for case in cases {
        let body = match &case.body {
            Some(body) => body.clone().into_bytes(),
            None => {
                let path = dir.join(format!("{}.{}", case.fixture, case.extension));
                std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            }
        };
        let mut headers = HeaderMap::new();
        for (name, value) in &case.headers {
            headers.insert(*name, value.parse().unwrap());
        }
        if case.form {
            headers.insert(
                "content-type",
                "application/x-www-form-urlencoded".parse().unwrap(),
            );
        }
        let list = |key: &str| -> Option<Vec<String>> {
            let (_, value) = case.query.iter().find(|(name, _)| *name == key)?;
            Some(serde_json::from_str(value).unwrap())
        };
        let (only, exclude) = (list("only_events"), list("exclude_events"));
        let filter = EventFilter::new(only.as_deref(), exclude.as_deref()).unwrap();
        let mut options: BTreeMap<String, String> = BTreeMap::new();
        let mut topic = None;
        for (name, value) in &case.query {
            match *name {
                "topic" => topic = Some(value.as_str()),
                "only_events" | "exclude_events" => {}
                _ => {
                    options.insert((*name).to_owned(), value.clone());
                }
            }
        }
        let request = Request {
            method: &Method::POST,
            headers: &headers,
            body: &body,
            options: &options,
            filter: &filter,
            topic,
        };
        let got = match process(registered, &request) {
            Ok(Outcome::Messages(messages)) => Expect::Messages(
                messages
                    .into_iter()
                    .map(|message| {
                        (
                            truncate_topic(&message.topic),
                            truncate_content(&message.content),
                        )
                    })
                    .collect(),
            ),
            Ok(Outcome::Ignored) => Expect::Ignored,
            // Zulip's success text for it, then the outcome as Rust prints it.
            Ok(Outcome::Unsupported { event }) => Expect::Error(format!(
                "The '{event}' event isn't currently supported by the {} webhook; ignoring \
                 ({:?})",
                registered.view_name,
                Outcome::Unsupported {
                    event: event.clone()
                },
            )),
            Ok(other) => Expect::Error(format!("{other:?}")),
            Err(rejection) => Expect::Error(describe(&rejection)),
        };
        let got = match (&case.expect, got) {
            (Expect::Digests(_), Expect::Messages(messages)) => Expect::Digests(
                messages
                    .into_iter()
                    .map(|(topic, content)| (topic, content.len(), fnv1a64(&content)))
                    .collect(),
            ),
            (_, got) => got,
        };
        let matches = match (&case.expect, &got) {
            (Expect::Error(wanted), Expect::Error(said)) => said.contains(wanted.as_str()),
            (Expect::Last(topic, content), Expect::Messages(sent)) => {
                sent.last() == Some(&(topic.clone(), content.clone()))
            }
            (wanted, got) => wanted == got,
        };
        if !matches {
            failures.push(format!(
                "{} ({}.{}):\n  got      {got:?}\n  expected {:?}",
                case.test, case.fixture, case.extension, case.expect
            ));
        }
    }
    println!(
        "{integration}: {} of {} of Zulip's cases pass",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A refusal as the sender reads it (Zulip's `msg`).
fn describe(rejection: &Rejection) -> String {
    rejection.to_string()
}
