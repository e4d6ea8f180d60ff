//! Bitbucket Cloud, as Zulip's `bitbucket2` integration (`zerver/webhooks/bitbucket2/view.py`).
//!
//! Messages follow Zulip's wording to the character (the shared templates are in
//! `git.rs`). The kind of event is decided as Zulip decides it: from the
//! payload's shape (`push`, `fork`, `comment` + `commit`, `commit_status`, `issue`), and
//! from the `X-Event-Key` header only for pull requests (`pullrequest:<action>`) and
//! `repo:updated`; anything else is `UnsupportedEvent(<X-Event-Key>)`.
//!
//! As in Zulip: `only_events`/`exclude_events` match Zulip's names for the events
//! ([`EVENT_TYPES`]: `push`, `pull_request_created`, …, not the `X-Event-Key` values); a
//! push with several changes is one message per change, each to its own topic; and when
//! the URL sets `topic`, pull request and issue messages name the item's title.
//!
//! One difference: a `repo:updated` that changes nothing shown is ignored (Zulip fails
//! on the empty message; nothing is sent either way).

mod events;
mod push;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

/// Zulip's names for the events the handler reports (its `ALL_EVENT_TYPES`).
const EVENT_TYPES: &[&str] = &[
    "change_commit_status",
    "pull_request_comment_created",
    "pull_request_updated",
    "pull_request_unapproved",
    "push",
    "pull_request_approved",
    "pull_request_fulfilled",
    "issue_created",
    "issue_commented",
    "fork",
    "pull_request_comment_updated",
    "pull_request_created",
    "pull_request_rejected",
    "repo:updated",
    "issue_updated",
    "commit_comment",
    "pull_request_comment_deleted",
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

fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let json = payload.json;
    let kind = kind_of(json, payload.event_type)?;
    let messages = match kind {
        Kind::Push => {
            let branches = payload.options.get("branches").map(String::as_str);
            push::messages(json, branches)?
        }
        kind => vec![events::message(json, kind, payload.topic.is_some())?],
    };
    Ok(HandlerOutput {
        event: Some(kind.event_name().to_owned()),
        item_events: Vec::new(),
        messages,
    })
}

/// Zulip's event types (`get_type`).
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

impl Kind {
    /// Zulip's name for the event (`get_type`), which the URL's filters match.
    fn event_name(self) -> &'static str {
        use PullRequestAction as A;
        match self {
            Self::Push => "push",
            Self::Fork => "fork",
            Self::CommitComment => "commit_comment",
            Self::CommitStatus => "change_commit_status",
            Self::IssueCreated => "issue_created",
            Self::IssueUpdated => "issue_updated",
            Self::IssueCommented => "issue_commented",
            Self::RepoUpdated => "repo:updated",
            Self::PullRequest(action) => match action {
                A::Approved => "pull_request_approved",
                A::Unapproved => "pull_request_unapproved",
                A::Created => "pull_request_created",
                A::Updated => "pull_request_updated",
                A::Rejected => "pull_request_rejected",
                A::Fulfilled => "pull_request_fulfilled",
                A::CommentCreated => "pull_request_comment_created",
                A::CommentUpdated => "pull_request_comment_updated",
                A::CommentDeleted => "pull_request_comment_deleted",
            },
        }
    }
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
