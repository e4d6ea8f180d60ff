//! Every event but pushes: pull requests, issues, forks, commit comments, commit
//! statuses and repository updates. One message each, as in Zulip; when the URL sets
//! the topic, pull request and issue messages name the item's title instead.

use serde_json::Value;

use super::{
    HandlerError, Kind, PullRequestAction, WebhookMessage, actor, field, html_url, ignored,
    integer, repository_name, string, truthy, user_info,
};
use crate::git::{self, PullRequestEvent};

/// `include_title`: the URL sets the topic (Zulip's `user_specified_topic`).
pub(super) fn message(
    json: &Value,
    kind: Kind,
    include_title: bool,
) -> Result<WebhookMessage, HandlerError> {
    let topic = topic(json, kind)?;
    let content = match kind {
        Kind::PullRequest(action) => pull_request_body(json, action, include_title)?,
        Kind::IssueCreated | Kind::IssueUpdated | Kind::IssueCommented => {
            issue_body(json, kind, include_title)?
        }
        Kind::Fork => fork_body(json)?,
        Kind::CommitComment => commit_comment_body(json)?,
        Kind::CommitStatus => commit_status_body(json)?,
        Kind::RepoUpdated => repo_updated_body(json)?,
        Kind::Push => return Err(ignored()),
    };
    Ok(WebhookMessage { topic, content })
}

/// Zulip's `get_topic_based_on_type`.
fn topic(json: &Value, kind: Kind) -> Result<String, HandlerError> {
    let (key, label) = match kind {
        Kind::PullRequest(_) => ("pullrequest", "PR"),
        Kind::IssueCreated | Kind::IssueUpdated | Kind::IssueCommented => ("issue", "issue"),
        _ => return repository_name(json).map(str::to_owned),
    };
    let repo = repository_name(json)?;
    let item = field(json, key)?;
    let id = integer(item, "id")?;
    Ok(git::topic_with_pr_or_issue(
        repo,
        label,
        id,
        string(item, "title")?,
    ))
}

fn pull_request_body(
    json: &Value,
    action: PullRequestAction,
    include_title: bool,
) -> Result<String, HandlerError> {
    use PullRequestAction as A;
    let pull_request = field(json, "pullrequest")?;
    let branch = |side: &str| string(field(field(pull_request, side)?, "branch")?, "name");
    let event = PullRequestEvent {
        user_name: actor(json)?,
        url: html_url(pull_request)?,
        number: Some(integer(pull_request, "id")?),
        kind: "PR",
        title: title_if(pull_request, include_title)?,
        ..PullRequestEvent::default()
    };
    let comment_action;
    let event = match action {
        A::Created | A::Updated => {
            let reviewers = field(pull_request, "reviewers")?;
            let assignee = if truthy(reviewers) {
                let first = reviewers
                    .get(0)
                    .ok_or_else(|| super::missing("reviewers"))?;
                Some(user_info(first, "reviewers")?)
            } else {
                None
            };
            let (target_branch, base_branch) = if action == A::Created {
                (Some(branch("source")?), Some(branch("destination")?))
            } else {
                (None, None)
            };
            PullRequestEvent {
                action: if action == A::Created {
                    "created"
                } else {
                    "updated"
                },
                target_branch,
                base_branch,
                message: Some(string(pull_request, "description")?),
                assignee,
                ..event
            }
        }
        A::Approved | A::Unapproved | A::Rejected => PullRequestEvent {
            action: match action {
                A::Approved => "approved",
                A::Unapproved => "unapproved",
                _ => "rejected",
            },
            ..event
        },
        A::Fulfilled => PullRequestEvent {
            action: "merged",
            target_branch: Some(branch("source")?),
            base_branch: Some(branch("destination")?),
            ..event
        },
        A::CommentCreated | A::CommentUpdated | A::CommentDeleted => {
            let comment = field(json, "comment")?;
            let url = html_url(comment)?;
            comment_action = match action {
                A::CommentCreated => format!("[commented]({url}) on"),
                A::CommentUpdated => format!("updated a [comment]({url}) on"),
                _ => format!("deleted a [comment]({url}) on"),
            };
            PullRequestEvent {
                action: &comment_action,
                message: Some(string(field(comment, "content")?, "raw")?),
                ..event
            }
        }
    };
    Ok(git::pull_request_message(&event))
}

/// `get_issue_action_body`: the description and assignee only for a new issue.
fn issue_body(json: &Value, kind: Kind, include_title: bool) -> Result<String, HandlerError> {
    let issue = field(json, "issue")?;
    let commented;
    let action = match kind {
        Kind::IssueCreated => "created",
        Kind::IssueUpdated => "updated",
        _ => {
            commented = format!("[commented]({}) on", html_url(field(json, "comment")?)?);
            &commented
        }
    };
    let (assignee, message) = if kind == Kind::IssueCreated {
        let assignee = field(issue, "assignee")?;
        let assignee = if truthy(assignee) {
            Some(user_info(assignee, "assignee")?)
        } else {
            None
        };
        (assignee, Some(string(field(issue, "content")?, "raw")?))
    } else {
        (None, None)
    };
    Ok(git::issue_message(&PullRequestEvent {
        user_name: actor(json)?,
        action,
        url: html_url(issue)?,
        number: Some(integer(issue, "id")?),
        message,
        assignee,
        title: title_if(issue, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// The item's `title` when the message must name it.
fn title_if(item: &Value, include_title: bool) -> Result<Option<&str>, HandlerError> {
    if include_title {
        string(item, "title").map(Some)
    } else {
        Ok(None)
    }
}

/// `BITBUCKET_FORK_BODY`.
fn fork_body(json: &Value) -> Result<String, HandlerError> {
    let fork = field(json, "fork")?;
    Ok(format!(
        "{actor} forked the repository into [{name}]({url}).",
        actor = actor(json)?,
        name = string(fork, "full_name")?,
        url = html_url(fork)?,
    ))
}

fn commit_comment_body(json: &Value) -> Result<String, HandlerError> {
    let comment = field(json, "comment")?;
    let action = format!("[commented]({})", html_url(comment)?);
    let commit = field(comment, "commit")?;
    Ok(git::commits_comment_action_message(
        actor(json)?,
        &action,
        html_url(commit)?,
        string(commit, "hash")?,
        Some(string(field(comment, "content")?, "raw")?),
    ))
}

/// `BITBUCKET_COMMIT_STATUS_CHANGED_BODY`; the commit is the last segment of the
/// status's API link.
fn commit_status_body(json: &Value) -> Result<String, HandlerError> {
    let status = field(json, "commit_status")?;
    let api_url = string(field(field(status, "links")?, "commit")?, "href")?;
    let commit_id = api_url.rsplit('/').next().unwrap_or_default();
    let repo_url = html_url(field(json, "repository")?)?;
    Ok(format!(
        "[System {key}]({system_url}) changed status of [{short}]({repo_url}/commits/{commit_id}) \
         to {state}.",
        key = string(status, "key")?,
        system_url = string(status, "url")?,
        short = git::short_sha(commit_id),
        state = string(status, "state")?,
    ))
}

/// `get_repo_updated_body`: a line per field that has a new value, in Zulip's order.
fn repo_updated_body(json: &Value) -> Result<String, HandlerError> {
    let repo_name = string(field(json, "repository")?, "name")?;
    let user = actor(json)?;
    let changes = field(json, "changes")?;
    let mut body = String::new();
    for change in [
        "website",
        "name",
        "links",
        "language",
        "full_name",
        "description",
    ] {
        let entry = field(changes, change)?;
        let new = field(entry, "new")?;
        let old = field(entry, "old")?;
        if !truthy(new) {
            continue;
        }
        let label = if change == "full_name" {
            "full name"
        } else {
            change
        };
        let new = python_str(new);
        let mut line = if truthy(old) {
            format!(
                "{user} changed the {label} of the **{repo_name}** repo from **{}** to **{new}**",
                python_str(old)
            )
        } else {
            format!("{user} changed the {label} of the **{repo_name}** repo to **{new}**")
        };
        if !git::ends_with_punctuation(&new) {
            line.push('.');
        }
        body.push_str(&line);
        body.push('\n');
    }
    if body.is_empty() {
        // Zulip fails on the empty message; nothing is sent either way.
        return Err(ignored());
    }
    Ok(git::rstrip(&body).to_owned())
}

/// Python's `str()` of a JSON value, as Zulip formats changed fields. Object keys come
/// out sorted (serde_json's map), where Python keeps the payload's order.
fn python_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => python_repr(other),
    }
}

fn python_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(number) => number.to_string(),
        Value::String(text) => python_string_repr(text),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(key, value)| format!("{}: {}", python_string_repr(key), python_repr(value)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
    }
}

/// Python's `repr()` of a string: single quotes unless only double quotes avoid
/// escaping, control characters escaped.
fn python_string_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut repr = String::with_capacity(text.len() + 2);
    repr.push(quote);
    for c in text.chars() {
        match c {
            '\\' => repr.push_str("\\\\"),
            '\n' => repr.push_str("\\n"),
            '\r' => repr.push_str("\\r"),
            '\t' => repr.push_str("\\t"),
            c if c == quote => {
                repr.push('\\');
                repr.push(c);
            }
            c if (c as u32) < 0x20 || ('\u{7f}'..='\u{a0}').contains(&c) => {
                repr.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => repr.push(c),
        }
    }
    repr.push(quote);
    repr
}
