//! GitHub, as Zulip's `github` integration (`zerver/webhooks/github/view.py`, the version
//! that Zulip's tests at commit 73a1652 check).
//!
//! GitHub names the event in the `X-GitHub-Event` header; like Zulip, the handler refines
//! it with the payload into Zulip's own event names ([`EVENT_TYPES`]: a `pull_request`
//! header becomes `opened_pull_request`, `closed_pull_request`, …; `push` becomes
//! `push_commits` or `push_tags`), which are what `only_events`/`exclude_events` match.
//! Events Zulip knows and skips (`IGNORED_EVENTS`, some pull request and team actions, an
//! unfinished check run, a merge-queue push, a branch the URL leaves out) are ignored;
//! any other event is unsupported, named `<header>:<action>` as Zulip names it.
//!
//! URL options: `branches` (pushes to other branches are ignored; names compared whole,
//! as Zulip's `is_branch_name_notifiable` does), `ignore_private_repositories` (as later
//! Zulip versions do) and `include_repository_name` (accepted, not yet used: see
//! `docs/zulip-compatibility.md`). With the URL's `topic`, messages about pull requests
//! and issues name the item's title, as Zulip's do.

mod bodies;
mod events;
mod pulls;
mod sponsors;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

/// The header GitHub names its events in.
const EVENT_HEADER: &str = "X-GitHub-Event";

/// Zulip's names for the events (`EVENT_FUNCTION_MAPPER`'s keys, its `ALL_EVENT_TYPES`).
/// The last six are GitHub Sponsors' events, which Zulip also accepts here.
const EVENT_TYPES: &[&str] = &[
    "commit_comment",
    "closed_pull_request",
    "create",
    "check_run",
    "delete",
    "deployment",
    "deployment_status",
    "discussion",
    "discussion_comment",
    "fork",
    "gollum",
    "issue_comment",
    "issue_labeled_or_unlabeled",
    "issue_milestoned_or_demilestoned",
    "issues",
    "member",
    "membership",
    "opened_pull_request",
    "updated_pull_request",
    "assigned_or_unassigned_pull_request",
    "page_build",
    "ping",
    "public",
    "pull_request_ready_for_review",
    "pull_request_review",
    "pull_request_review_comment",
    "pull_request_review_requested",
    "pull_request_auto_merge",
    "locked_or_unlocked_pull_request",
    "push_commits",
    "push_tags",
    "release",
    "repository",
    "star",
    "status",
    "team",
    "team_add",
    "watch",
    "cancelled",
    "created",
    "edited",
    "pending_cancellation",
    "pending_tier_change",
    "tier_changed",
];

macro_rules! fixture {
    ($name:literal, $event:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/github/", $name, ".json")),
            headers: &[(EVENT_HEADER, $event)],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("ping", "ping"),
    fixture!("push", "push"),
    fixture!("push_tag", "push"),
    fixture!("pull_request_opened", "pull_request"),
    fixture!("pull_request_closed", "pull_request"),
    fixture!("issues_opened", "issues"),
    fixture!("issue_comment", "issue_comment"),
    fixture!("release", "release"),
];

pub fn integration() -> Integration {
    Integration {
        name: "github",
        display_name: "GitHub",
        categories: &[
            "version-control",
            "continuous-integration",
            "project-management",
        ],
        view_name: "GitHub",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::Header(EVENT_HEADER),
        event_types: EVENT_TYPES,
        config_options: &[],
        url_options: &[
            "branches",
            "ignore_private_repositories",
            "include_repository_name",
        ],
        fixtures: FIXTURES,
        handler,
    }
}

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let header = payload.event_type.ok_or(HandlerError::MissingEventHeader)?;
    let json = payload.json;
    if option_is_true(payload, "ignore_private_repositories")
        && json.get("repository").is_some()
        && boolean(field(json, "repository")?, "private")?
    {
        return Err(HandlerError::Ignored);
    }
    let branches = payload.options.get("branches").map(String::as_str);
    let event = events::zulip_event(header, json, branches)?;
    let topic = events::topic(json, event)?;
    let content = bodies::body(json, event, payload.topic.is_some())?;
    Ok(HandlerOutput {
        event: Some(event.to_owned()),
        item_events: Vec::new(),
        messages: vec![WebhookMessage { topic, content }],
    })
}

/// A boolean URL option, sent as JSON (`true`, as Zulip's `Json[bool]` reads it; `1`
/// too). Anything else counts as false.
fn option_is_true(payload: &Payload<'_>, key: &str) -> bool {
    payload.options.get(key).is_some_and(|value| {
        matches!(serde_json::from_str::<Value>(value), Ok(Value::Bool(true))) || value.trim() == "1"
    })
}

// Reading the payload as Zulip's `WildValue` does: a key that is absent or of the wrong
// type is named in the error.

fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, HandlerError> {
    value.get(key).ok_or_else(|| missing(key))
}

fn string<'a>(value: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    field(value, key)?.as_str().ok_or_else(|| missing(key))
}

/// `check_none_or(check_string)`: a string, or `None` for JSON null.
fn optional_string<'a>(value: &'a Value, key: &str) -> Result<Option<&'a str>, HandlerError> {
    match field(value, key)? {
        Value::Null => Ok(None),
        Value::String(text) => Ok(Some(text)),
        _ => Err(missing(key)),
    }
}

fn integer(value: &Value, key: &str) -> Result<i64, HandlerError> {
    field(value, key)?.as_i64().ok_or_else(|| missing(key))
}

fn boolean(value: &Value, key: &str) -> Result<bool, HandlerError> {
    field(value, key)?.as_bool().ok_or_else(|| missing(key))
}

/// Python's `key in value` for a JSON value: a key of an object, an item of a list, a
/// substring of a string.
fn contains(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(fields) => fields.contains_key(key),
        Value::Array(items) => items.iter().any(|item| item.as_str() == Some(key)),
        Value::String(text) => text.contains(key),
        _ => false,
    }
}

/// Python's truthiness of a JSON value, which Zulip's `if value:` tests use.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(value) => *value,
        Value::Number(number) => number.as_f64().is_some_and(|number| number != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(fields) => !fields.is_empty(),
    }
}

/// `payload.get(key)` when the value is truthy.
fn present<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    value.get(key).filter(|value| truthy(value))
}

/// The item's title when the URL sets the topic.
pub(super) fn title_if(item: &Value, include_title: bool) -> Result<Option<&str>, HandlerError> {
    if include_title {
        string(item, "title").map(Some)
    } else {
        Ok(None)
    }
}

/// `sender.login`, who caused the event (`get_sender_name`).
fn sender_name(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "sender")?, "login")
}

fn sender_url(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "sender")?, "html_url")
}

fn repository_name(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "repository")?, "name")
}

fn repository_full_name(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "repository")?, "full_name")
}

fn repository_url(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "repository")?, "html_url")
}
