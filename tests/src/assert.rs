//! Assertions: on one response ([`Resp`]'s methods: Zulip successes and errors of an
//! exact shape) and on the JSON the suites compare (id sets, multisets of names, maps
//! keyed by user id). Each failure message carries the request and the whole response.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::api::Resp;

impl Resp {
    /// Asserts a Zulip success (200, `result` success, `msg` empty) and returns the body.
    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(
            self.status == 200
                && self.json["result"] == "success"
                && self.json["msg"] == ""
                && self.json.is_object(),
            "expected a Zulip success\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts a Zulip error with exactly this status, code and message; returns the body.
    #[track_caller]
    pub fn err(&self, status: u16, code: &str, msg: &str) -> &Value {
        assert!(
            self.status == status
                && self.json["result"] == "error"
                && self.json["code"] == code
                && self.json["msg"] == msg,
            "expected error {status} {code} {msg:?}\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts a 400 `BAD_REQUEST` error with this message.
    #[track_caller]
    pub fn bad_request(&self, msg: &str) -> &Value {
        self.err(400, "BAD_REQUEST", msg)
    }

    /// Asserts a 401 REST authentication failure with this message and the
    /// `WWW-Authenticate: Basic realm="zulip"` header.
    #[track_caller]
    pub fn unauthorized(&self, msg: &str) -> &Value {
        self.err(401, "UNAUTHORIZED", msg);
        assert_eq!(
            self.header("www-authenticate").as_deref(),
            Some("Basic realm=\"zulip\""),
            "401 without `WWW-Authenticate: Basic realm=\"zulip\"`\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts `STREAM_DOES_NOT_EXIST` naming `name` (Weir's documented shape).
    #[track_caller]
    pub fn stream_does_not_exist(&self, name: &str) -> &Value {
        self.err(
            400,
            "STREAM_DOES_NOT_EXIST",
            &format!("Channel '{name}' does not exist"),
        );
        assert_eq!(
            self.json["stream"],
            name,
            "`stream` field\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts a Zulip-shaped error with a 4xx status (any code and message).
    #[track_caller]
    pub fn any_zulip_error(&self) -> &Value {
        assert!(
            (400..500).contains(&self.status)
                && self.json["result"] == "error"
                && self.json["msg"].as_str().is_some_and(|m| !m.is_empty())
                && self.json["code"].is_string(),
            "expected a Zulip-shaped 4xx JSON error ({{result: error, msg, code}})\n{}",
            self.context()
        );
        self.assert_json_content_type();
        &self.json
    }

    /// Asserts a Zulip-shaped error with exactly this status (any message), code given.
    #[track_caller]
    pub fn error_status_code(&self, status: u16, code: &str) -> &Value {
        self.any_zulip_error();
        assert!(
            self.status == status && self.json["code"] == code,
            "expected a {status} {code} error\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts that the response declares a JSON content type.
    #[track_caller]
    pub fn assert_json_content_type(&self) {
        let ct = self.header("content-type").unwrap_or_default();
        assert!(
            ct.starts_with("application/json"),
            "content-type is {ct:?}, expected application/json\n{}",
            self.context()
        );
    }

    /// Asserts the status is not 5xx.
    #[track_caller]
    pub fn not_5xx(&self) {
        assert!(self.status < 500, "server error (5xx)\n{}", self.context());
    }
}

/// A JSON array of integers as a set.
#[track_caller]
pub fn ids(v: &Value) -> BTreeSet<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected a list of ids, got {v}"))
        .iter()
        .map(|x| {
            x.as_u64()
                .unwrap_or_else(|| panic!("expected an integer id, got {x}"))
        })
        .collect()
}

/// Set of ids from a literal.
pub fn set(items: &[u64]) -> BTreeSet<u64> {
    items.iter().copied().collect()
}

/// A JSON array of strings as a multiset.
#[track_caller]
pub fn multiset(v: &Value) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for x in v
        .as_array()
        .unwrap_or_else(|| panic!("expected a list of strings, got {v}"))
    {
        let s = x
            .as_str()
            .unwrap_or_else(|| panic!("expected a string, got {x}"));
        *m.entry(s.to_string()).or_insert(0) += 1;
    }
    m
}

/// Asserts that a JSON list of strings equals `expected` as a multiset.
#[track_caller]
pub fn assert_multiset(v: &Value, expected: &[&str], what: &str) {
    let mut want = BTreeMap::new();
    for s in expected {
        *want.entry(s.to_string()).or_insert(0usize) += 1;
    }
    assert_eq!(multiset(v), want, "{what}: got {v}");
}

/// Asserts an unsubscribe success with these `removed` / `not_removed` multisets.
#[track_caller]
pub fn assert_unsubscribed(r: &Resp, removed: &[&str], not_removed: &[&str]) {
    let body = r.ok();
    assert!(
        body["removed"].is_array(),
        "no `removed` list\n{}",
        r.debug()
    );
    assert!(
        body["not_removed"].is_array(),
        "no `not_removed` list\n{}",
        r.debug()
    );
    assert_multiset(
        &body["removed"],
        removed,
        &format!("`removed`\n{}", r.debug()),
    );
    assert_multiset(
        &body["not_removed"],
        not_removed,
        &format!("`not_removed`\n{}", r.debug()),
    );
}

/// A `{"<user id>": [names]}` map as `user id -> sorted names`.
#[track_caller]
pub fn by_user(v: &Value) -> BTreeMap<u64, Vec<String>> {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("expected an object keyed by user id: {v}"));
    obj.iter()
        .map(|(k, names)| {
            let id: u64 = k
                .parse()
                .unwrap_or_else(|_| panic!("key {k:?} is not a user id"));
            let mut names: Vec<String> = names
                .as_array()
                .unwrap_or_else(|| panic!("expected a list of names: {names}"))
                .iter()
                .map(|n| {
                    n.as_str()
                        .unwrap_or_else(|| panic!("not a name: {n}"))
                        .to_string()
                })
                .collect();
            names.sort();
            (id, names)
        })
        .collect()
}

/// Expected `by_user` map from literals.
pub fn user_map(items: &[(u64, &[&str])]) -> BTreeMap<u64, Vec<String>> {
    items
        .iter()
        .map(|(id, names)| {
            let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            v.sort();
            (*id, v)
        })
        .collect()
}

/// Asserts that a response given for a hidden name is exactly the response given for a
/// name that does not exist, once the names are swapped: nothing tells them apart.
#[track_caller]
pub fn assert_indistinguishable(
    hidden: &Resp,
    hidden_name: &str,
    missing: &Resp,
    missing_name: &str,
) {
    let normalized = missing.text.replace(missing_name, hidden_name);
    let a: Value = serde_json::from_str(&normalized).unwrap_or(Value::Null);
    assert!(
        hidden.status == missing.status && hidden.json == a && hidden.json != Value::Null,
        "a hidden private stream is distinguishable from a missing one\n--- hidden ({hidden_name}) ---\n{}\n--- missing ({missing_name}) ---\n{}",
        hidden.debug(),
        missing.debug()
    );
}

/// Whether `text` looks like a Rust panic or backtrace.
pub fn looks_like_panic(text: &str) -> bool {
    text.contains("panicked at")
        || text.contains("RUST_BACKTRACE")
        || text.contains("stack backtrace")
}
