//! Bitbucket Cloud, as Zulip's `bitbucket2` integration (`zerver/webhooks/bitbucket2/view.py`).
//!
//! Messages follow Zulip's wording to the character (the shared templates are in
//! `git.rs`). The kind of event is decided as Zulip decides it: from the
//! payload's shape (`push`, `fork`, `comment` + `commit`, `commit_status`, `issue`), and
//! from the `X-Event-Key` header only for pull requests (`pullrequest:<action>`) and
//! `repo:updated`; anything else is `UnsupportedEvent(<X-Event-Key>)`.
//!
//! Differences from Zulip, all forced by Weir's one-message-per-request endpoint or its
//! handler interface:
//! - A push with several changes is one message: see [`push`].
//! - Zulip puts the PR/issue title in the link text when the URL sets `topic`; the
//!   endpoint does not tell handlers about `topic`, so the title is never added.
//! - `only_events`/`exclude_events` match the `X-Event-Key` value (`repo:push`,
//!   `pullrequest:created`, …), not Zulip's internal names (`push`,
//!   `pull_request_created`, …).

mod events;
mod push;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::{AuthScheme, EventSource, Fixture, HandlerError, Integration, Payload, WebhookMessage};

/// The `X-Event-Key` values whose payloads the handler turns into messages.
const EVENT_TYPES: &[&str] = &[
    "repo:push",
    "repo:fork",
    "repo:updated",
    "repo:commit_comment_created",
    "repo:commit_status_created",
    "repo:commit_status_updated",
    "issue:created",
    "issue:updated",
    "issue:comment_created",
    "pullrequest:created",
    "pullrequest:updated",
    "pullrequest:approved",
    "pullrequest:unapproved",
    "pullrequest:fulfilled",
    "pullrequest:rejected",
    "pullrequest:comment_created",
    "pullrequest:comment_updated",
    "pullrequest:comment_deleted",
];

macro_rules! fixture {
    ($name:literal, $event:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/bitbucket2/", $name, ".json")),
            headers: &[("X-Event-Key", $event)],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("push", "repo:push"),
    fixture!("push_multiple_committers", "repo:push"),
    fixture!("push_truncated", "repo:push"),
    fixture!("push_branch_created", "repo:push"),
    fixture!("push_branch_deleted", "repo:push"),
    fixture!("push_force", "repo:push"),
    fixture!("push_tag", "repo:push"),
    fixture!("push_multiple_changes", "repo:push"),
    fixture!("pullrequest_created", "pullrequest:created"),
    fixture!("pullrequest_updated", "pullrequest:updated"),
    fixture!("pullrequest_approved", "pullrequest:approved"),
    fixture!("pullrequest_fulfilled", "pullrequest:fulfilled"),
    fixture!("pullrequest_rejected", "pullrequest:rejected"),
    fixture!("pullrequest_comment_created", "pullrequest:comment_created"),
    fixture!("issue_created", "issue:created"),
    fixture!("issue_commented", "issue:comment_created"),
    fixture!("issue_updated", "issue:updated"),
    fixture!("fork", "repo:fork"),
    fixture!("commit_comment_created", "repo:commit_comment_created"),
    fixture!("commit_status_updated", "repo:commit_status_updated"),
    fixture!("repo_updated", "repo:updated"),
];

pub fn integration() -> Integration {
    Integration {
        name: "bitbucket2",
        display_name: "Bitbucket",
        categories: &["version-control"],
        view_name: "Bitbucket2",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::Header("X-Event-Key"),
        event_types: EVENT_TYPES,
        config_options: &[],
        url_options: &["branches"],
        fixtures: FIXTURES,
        handler,
    }
}

fn handler(payload: &Payload<'_>) -> Result<WebhookMessage, HandlerError> {
    let json = payload.json;
    match kind_of(json, payload.event_type)? {
        Kind::Push => {
            let branches = payload.options.get("branches").map(String::as_str);
            push::message(json, branches)
        }
        kind => events::message(json, kind),
    }
}

/// Zulip's event types (`get_type`), minus `push`'s per-change detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Push,
    Fork,
    CommitComment,
    CommitStatus,
    IssueCreated,
    IssueUpdated,
    IssueCommented,
    PullRequest(PullRequestAction),
    RepoUpdated,
}

/// The `pullrequest:<action>` keys Zulip handles (`PULL_REQUEST_SUPPORTED_ACTIONS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PullRequestAction {
    Approved,
    Unapproved,
    Created,
    Updated,
    Rejected,
    Fulfilled,
    CommentCreated,
    CommentUpdated,
    CommentDeleted,
}

impl PullRequestAction {
    fn parse(action: &str) -> Option<Self> {
        Some(match action {
            "approved" => Self::Approved,
            "unapproved" => Self::Unapproved,
            "created" => Self::Created,
            "updated" => Self::Updated,
            "rejected" => Self::Rejected,
            "fulfilled" => Self::Fulfilled,
            "comment_created" => Self::CommentCreated,
            "comment_updated" => Self::CommentUpdated,
            "comment_deleted" => Self::CommentDeleted,
            _ => return None,
        })
    }
}

/// Zulip's `get_type`: the payload's top-level keys first; the header only where they do
/// not tell (pull requests, repository updates), so a push needs no header.
fn kind_of(json: &Value, event_key: Option<&str>) -> Result<Kind, HandlerError> {
    let has = |key: &str| json.get(key).is_some();
    let kind = if has("push") {
        Kind::Push
    } else if has("fork") {
        Kind::Fork
    } else if has("comment") && has("commit") {
        Kind::CommitComment
    } else if has("commit_status") {
        Kind::CommitStatus
    } else if has("issue") {
        if has("changes") {
            Kind::IssueUpdated
        } else if has("comment") {
            Kind::IssueCommented
        } else {
            Kind::IssueCreated
        }
    } else if has("pullrequest") {
        let event_key = event_key.ok_or(HandlerError::MissingEventHeader)?;
        match event_key
            .strip_prefix("pullrequest:")
            .and_then(PullRequestAction::parse)
        {
            Some(action) => Kind::PullRequest(action),
            None => return Err(unsupported(event_key)),
        }
    } else {
        match event_key.ok_or(HandlerError::MissingEventHeader)? {
            "repo:updated" => Kind::RepoUpdated,
            other => return Err(unsupported(other)),
        }
    };
    Ok(kind)
}

fn unsupported(event_key: &str) -> HandlerError {
    HandlerError::UnsupportedEvent(event_key.to_owned())
}

/// A request Zulip accepts without sending anything (an empty push, a filtered branch).
fn ignored() -> HandlerError {
    HandlerError::Ignored
}

// Reading the payload. Every accessor names the key it wanted when the key is absent or
// has the wrong type, as Zulip's `WildValue` does.

fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, HandlerError> {
    value.get(key).ok_or_else(|| missing(key))
}

fn string<'a>(value: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    field(value, key)?.as_str().ok_or_else(|| missing(key))
}

fn integer(value: &Value, key: &str) -> Result<i64, HandlerError> {
    field(value, key)?.as_i64().ok_or_else(|| missing(key))
}

fn boolean(value: &Value, key: &str) -> Result<bool, HandlerError> {
    field(value, key)?.as_bool().ok_or_else(|| missing(key))
}

fn array<'a>(value: &'a Value, key: &str) -> Result<&'a [Value], HandlerError> {
    field(value, key)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| missing(key))
}

/// `links.html.href`, Bitbucket's web address of any object.
fn html_url(value: &Value) -> Result<&str, HandlerError> {
    string(field(field(value, "links")?, "html")?, "href")
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

/// Zulip's `get_user_info`: `display_name`, else `nickname` (Bitbucket sends no
/// usernames since GDPR), else `Unknown user`. `key` names the user object when it is
/// not an object at all.
fn user_info<'a>(user: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    if !user.is_object() {
        return Err(missing(key));
    }
    for name in ["display_name", "nickname"] {
        if user.get(name).is_some() {
            return string(user, name);
        }
    }
    Ok("Unknown user")
}

/// Who caused the event.
fn actor(json: &Value) -> Result<&str, HandlerError> {
    user_info(field(json, "actor")?, "actor")
}

/// `repository.name`, the topic of repository-wide events.
fn repository_name(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "repository")?, "name")
}
