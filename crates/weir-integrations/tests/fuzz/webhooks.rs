//! Webhook bodies and headers, per integration: each fixture mutated (a value swapped
//! for another of any type, a key dropped, nesting, long strings), or bytes that are not
//! JSON at all, with random event headers, `branches` and event filters; each body is
//! also sent as a form's `payload` field (Slack's convention). Processing answers an
//! outcome or a typed rejection, never panics, within the budget.

use std::collections::BTreeMap;

use http::{HeaderName, HeaderValue};
use proptest::prelude::*;
use serde_json::Value;
use weir_integrations::{
    EventFilter, EventSource, HeaderMap, Integration, Method, Outcome, Request, WebhookMessage,
    process, registry,
};

use crate::support::{config, corpus, within_budget};

/// Replacement values of every JSON type, some long or deeply nested.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[a-z#*@\\[\\]()`<>&\"' \n]{0,40}".prop_map(Value::String),
        (0usize..20_000).prop_map(|n| Value::String("x".repeat(n))),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// How one fixture is changed.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the value at the `n`-th path (of all paths, in order) with `Value`.
    Replace(usize, Value),
    /// Drop the `n`-th path.
    Remove(usize),
    /// Wrap the `n`-th value in `depth` arrays.
    Nest(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), json_value()).prop_map(|(n, v)| Mutation::Replace(n, v)),
        1 => any::<usize>().prop_map(Mutation::Remove),
        1 => (any::<usize>(), 1usize..64).prop_map(|(n, d)| Mutation::Nest(n, d)),
    ]
}

/// Every JSON pointer in `value`, root first.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(fields) => {
            for (key, child) in fields {
                let key = key.replace('~', "~0").replace('/', "~1");
                pointers(child, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

fn apply(json: &mut Value, mutation: &Mutation) {
    let mut all = Vec::new();
    pointers(json, String::new(), &mut all);
    let pick = |n: usize| all[n % all.len()].clone();
    match mutation {
        Mutation::Replace(n, value) => {
            if let Some(slot) = json.pointer_mut(&pick(*n)) {
                *slot = value.clone();
            }
        }
        Mutation::Remove(n) => {
            let pointer = pick(*n);
            if let Some((parent, key)) = pointer.rsplit_once('/')
                && let Some(parent) = json.pointer_mut(parent)
            {
                match parent {
                    Value::Object(fields) => {
                        fields.remove(&key.replace("~1", "/").replace("~0", "~"));
                    }
                    Value::Array(items) => {
                        if let Ok(index) = key.parse::<usize>()
                            && index < items.len()
                        {
                            items.remove(index);
                        }
                    }
                    _ => {}
                }
            }
        }
        Mutation::Nest(n, depth) => {
            if let Some(slot) = json.pointer_mut(&pick(*n)) {
                let mut value = slot.take();
                for _ in 0..*depth {
                    value = Value::Array(vec![value]);
                }
                *slot = value;
            }
        }
    }
}

/// Runs one request through `integration` (body, event header, `branches`, event
/// filters) and checks what comes out.
fn check(
    integration: &Integration,
    body: &[u8],
    event: Option<&str>,
    branches: Option<&str>,
    filter: &EventFilter,
    topic: Option<&str>,
) {
    check_as(integration, body, false, event, branches, filter, topic);
}

/// [`check`], the body declared a form (`application/x-www-form-urlencoded`) if `form`.
fn check_as(
    integration: &Integration,
    body: &[u8],
    form: bool,
    event: Option<&str>,
    branches: Option<&str>,
    filter: &EventFilter,
    topic: Option<&str>,
) {
    let mut headers = HeaderMap::new();
    for (name, value) in base_headers(integration) {
        headers.insert(name, value);
    }
    if form {
        headers.insert(
            http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
    }
    if let (EventSource::Header(name), Some(event)) = (integration.event_source, event)
        && let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(event),
        )
    {
        headers.insert(name, value);
    }
    let mut options = BTreeMap::new();
    if let Some(branches) = branches {
        options.insert("branches".to_owned(), branches.to_owned());
    }
    let what = format!("{} with event {event:?}", integration.name);
    let request = Request {
        method: &Method::POST,
        headers: &headers,
        body,
        options: &options,
        filter,
        topic,
    };
    let outcome = within_budget(&what, || process(integration, &request));
    if let Ok(Outcome::Messages(messages)) = &outcome {
        assert!(
            !messages.is_empty(),
            "{what}: a message list without messages"
        );
        if let Some(topic) = topic {
            assert!(
                messages.iter().all(|m| m.topic == topic),
                "{what}: {messages:?}"
            );
        }
    }
    if let Err(rejection) = &outcome {
        assert!(!rejection.to_string().is_empty(), "{what}");
    }
    if let Ok(Outcome::Messages(messages)) = &outcome {
        assert_bounded(&what, messages, body.len());
    }
    if integration.name == "github"
        && let Ok(Outcome::Messages(messages)) = &outcome
    {
        // GitHub's messages quote each payload value at most twice (a comment's link and
        // the commit's link within it) and list at most COMMITS_LIMIT commits.
        let bound = 3 * body.len() + 1024;
        for message in messages {
            assert!(
                message.content.len() <= bound,
                "{what}: {} bytes of message from {} of body",
                message.content.len(),
                body.len()
            );
        }
    }
}

/// How much text a handler may make of each byte of body, and what it may add to any
/// body: its templates, and the JSON formatter's indentation of 128 nested levels.
const OUTPUT_PER_BODY_BYTE: usize = 4;
const OUTPUT_SLACK: usize = 64 * 1024;

/// Every integration's output is linear in its body: at most one message per item (an
/// item is at least two bytes of JSON, `{}`), and text within [`OUTPUT_PER_BODY_BYTE`]
/// times the body, before the server cuts each message to Zulip's limits.
#[track_caller]
fn assert_bounded(what: &str, messages: &[WebhookMessage], body: usize) {
    assert!(
        messages.len() <= body / 2 + 1,
        "{what}: {} messages from {body} bytes",
        messages.len()
    );
    let text: usize = messages
        .iter()
        .map(|m| m.topic.len() + m.content.len())
        .sum();
    assert!(
        text <= OUTPUT_PER_BODY_BYTE * body + OUTPUT_SLACK,
        "{what}: {text} bytes of messages from {body} bytes of body"
    );
}

/// The headers every request to `integration` carries: its fixtures' own, but the event
/// header (Slack's `Content-Type: application/json`, without which it reads a form).
fn base_headers(integration: &Integration) -> Vec<(HeaderName, HeaderValue)> {
    let Some(fixture) = integration.fixtures.first() else {
        return Vec::new();
    };
    fixture
        .headers
        .iter()
        .filter(|(name, _)| {
            !matches!(integration.event_source, EventSource::Header(h) if h.eq_ignore_ascii_case(name))
        })
        .filter_map(|(name, value)| {
            Some((
                HeaderName::from_bytes(name.as_bytes()).ok()?,
                HeaderValue::from_str(value).ok()?,
            ))
        })
        .collect()
}

/// One request: a fixture index and its mutations (or raw bytes instead), an event
/// header, a `branches` option and `only_events`/`exclude_events` patterns.
#[derive(Debug, Clone)]
struct Case {
    fixture: usize,
    mutations: Vec<Mutation>,
    raw: Option<Vec<u8>>,
    event: Option<String>,
    branches: Option<String>,
    only: Option<Vec<String>>,
    exclude: Option<Vec<String>>,
    topic: Option<String>,
}

fn patterns() -> impl Strategy<Value = Option<Vec<String>>> {
    prop::option::of(prop::collection::vec(
        prop_oneof![
            3 => "[a-z:*?\\[\\]!-]{0,30}",
            1 => (0usize..128).prop_map(|n| format!("{}b", "*".repeat(n))),
        ],
        0..8,
    ))
}

fn case() -> impl Strategy<Value = Case> {
    (
        any::<usize>(),
        prop::collection::vec(mutation(), 0..5),
        prop::option::weighted(0.1, prop::collection::vec(any::<u8>(), 0..200)),
        prop::option::of(prop_oneof![
            3 => "[a-z:_]{0,30}",
            1 => (0usize..300).prop_map(|n| format!("pullrequest:{}", "a".repeat(n))),
        ]),
        prop::option::of("[a-z,*/ -]{0,20}"),
        patterns(),
        patterns(),
        prop::option::of("[a-zA-Z #*]{1,20}"),
    )
        .prop_map(
            |(fixture, mutations, raw, event, branches, only, exclude, topic)| Case {
                fixture,
                mutations,
                raw,
                event,
                branches,
                only,
                exclude,
                topic,
            },
        )
}

fn run_case(integration: &Integration, case: &Case) {
    let fixture = &integration.fixtures[case.fixture % integration.fixtures.len()];
    let mut json: Value = serde_json::from_str(fixture.body).unwrap();
    for mutation in &case.mutations {
        apply(&mut json, mutation);
    }
    let body = case
        .raw
        .clone()
        .unwrap_or_else(|| json.to_string().into_bytes());
    let Ok(filter) = EventFilter::new(case.only.as_deref(), case.exclude.as_deref()) else {
        return; // refused lists are the server's 400
    };
    let fixture_event = fixture
        .headers
        .iter()
        .find(|(name, _)| matches!(integration.event_source, EventSource::Header(h) if h.eq_ignore_ascii_case(name)))
        .map(|(_, value)| *value);
    let event = case.event.as_deref().or(fixture_event);
    check(
        integration,
        &body,
        event,
        case.branches.as_deref(),
        &filter,
        case.topic.as_deref(),
    );
    // The same JSON as Slack's form field `payload`, after another field.
    let form: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("text", "x")
        .append_pair("payload", &String::from_utf8_lossy(&body))
        .finish();
    check_as(
        integration,
        form.as_bytes(),
        true,
        event,
        None,
        &filter,
        case.topic.as_deref(),
    );
}

proptest! {
    #![proptest_config(config("webhooks", 48))]

    #[test]
    fn every_integration_survives_mutated_fixtures(case in case()) {
        for integration in registry() {
            run_case(integration, &case);
        }
    }
}

#[test]
fn every_fixture_as_is_and_with_every_event_type() {
    for integration in registry() {
        for fixture in integration.fixtures {
            let body = fixture.body.as_bytes();
            let all = EventFilter::default();
            check(integration, body, None, None, &all, None);
            for event in integration.event_types {
                check(
                    integration,
                    body,
                    Some(event),
                    Some("master,main"),
                    &all,
                    None,
                );
                let only = EventFilter::new(Some(&[format!("{event}*")]), None).unwrap();
                check(integration, body, Some(event), None, &only, Some("A topic"));
            }
        }
    }
}

#[test]
fn corpus_bodies_are_handled_within_the_budget() {
    // Each file: `<integration> <event or ->` on the first line, the JSON body after.
    for (name, content) in corpus("webhooks") {
        let (head, body) = content.split_once('\n').unwrap();
        let (integration, event) = head.split_once(' ').unwrap();
        let integration = registry()
            .iter()
            .find(|i| i.name == integration)
            .unwrap_or_else(|| panic!("{name}: no integration {integration:?}"));
        let event = (event != "-").then_some(event);
        let filter = EventFilter::new(Some(&["*".to_owned()]), None).unwrap();
        check(integration, body.as_bytes(), event, None, &filter, None);
    }
}

/// A push of 1,000 commits lists `COMMITS_LIMIT` (20) of them and counts the rest, so
/// the message stays small however many commits GitHub sends.
#[test]
fn a_github_push_of_a_thousand_commits_gives_a_bounded_message() {
    let integration = registry().iter().find(|i| i.name == "github").unwrap();
    let commits: Vec<Value> = (0..1000)
        .map(|n| {
            serde_json::json!({
                "id": format!("{n:040x}"),
                "message": format!("Change {n}\n\n{}", "detail ".repeat(100)),
                "url": format!("https://github.com/o/r/commit/{n:040x}"),
                "author": {"name": format!("Author {n}"), "username": ""},
            })
        })
        .collect();
    let body = serde_json::json!({
        "ref": "refs/heads/main",
        "compare": "https://github.com/o/r/compare/a...b",
        "commits": commits,
        "deleted": false,
        "forced": false,
        "repository": {"name": "r", "private": false},
        "sender": {"login": "user0"},
    })
    .to_string();
    let mut headers = HeaderMap::new();
    headers.insert("x-github-event", HeaderValue::from_static("push"));
    let options = BTreeMap::new();
    let filter = EventFilter::default();
    let request = Request {
        method: &Method::POST,
        headers: &headers,
        body: body.as_bytes(),
        options: &options,
        filter: &filter,
        topic: None,
    };
    let outcome = within_budget("github push of 1,000 commits", || {
        process(integration, &request)
    });
    let Ok(Outcome::Messages(messages)) = outcome else {
        panic!("{outcome:?}");
    };
    let content = &messages[0].content;
    assert_eq!(content.matches("\n* Change ").count(), 20, "{content}");
    assert!(content.ends_with("\n[and 980 more commit(s)]"), "{content}");
    assert!(
        content.contains("Commits by Author 0 (1), Author 1 (1), Author 10 (1) and others (997).")
    );
    assert!(content.len() < 3_000, "{} bytes", content.len());
    assert!(body.len() > 500_000);
}
