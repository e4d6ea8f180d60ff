//! Gitea, as Zulip's `gitea` integration: `zerver/webhooks/gitea/view.py`, which runs
//! the Gogs view's `gogs_webhook_main` (`zerver/webhooks/gogs/view.py`) with Gitea's own
//! wording of pull requests.
//!
//! Followed: the Gogs view at zulip/zulip `4f77fa9c` (it adds `delete` events and pull
//! request comments, told apart by the `X-Gitea-Event-Type: pull_request_comment`
//! header), and Gitea's `format_pull_request_event` as in Zulip main (the sender, not
//! the pull request's author, is who acted). Messages use the shared templates of
//! `git.rs`.
//!
//! The event is the `X-Gitea-Event` header, and that value is also what
//! `only_events`/`exclude_events` match (Zulip's Gitea view declares no event types of
//! its own; [`EVENT_TYPES`] lists those the handler knows). Zulip reads
//! `repository.name` before the header, so a payload without it is a missing argument
//! even without the header. A push to a branch left out by the URL's `branches` is
//! ignored. One difference: a `delete` of something neither a branch nor a tag fails
//! in Zulip (an internal error); here it is an unsupported event.

#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::git::{self, Commit, PullRequestEvent, Push};
use crate::wild::{at, bool_at, int_at, str_at, truthy};
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

/// The `X-Gitea-Event` values the handler knows (the Gogs view's `ALL_EVENT_TYPES`).
const EVENT_TYPES: &[&str] = &[
    "issue_comment",
    "issues",
    "create",
    "pull_request",
    "push",
    "release",
    "delete",
];

/// Tells a comment on a pull request from one on an issue (both `issue_comment`).
const EVENT_TYPE_HEADER: &str = "X-Gitea-Event-Type";

macro_rules! fixture {
    ($name:literal, $event:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/gitea/", $name, ".json")),
            headers: &[("X-Gitea-Event", $event)],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("push", "push"),
    fixture!("create", "create"),
    fixture!("delete", "delete"),
    fixture!("pull_request_opened", "pull_request"),
    fixture!("pull_request_merged", "pull_request"),
    fixture!("issues_opened", "issues"),
    fixture!("issue_comment", "issue_comment"),
    fixture!("release", "release"),
];

pub fn integration() -> Integration {
    Integration {
        name: "gitea",
        display_name: "Gitea",
        categories: &["version-control"],
        view_name: "Gitea",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::Header("X-Gitea-Event"),
        event_types: EVENT_TYPES,
        config_options: &[],
        url_options: &["branches"],
        fixtures: FIXTURES,
        handler,
    }
}

/// `gogs_webhook_main`.
fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let json = payload.json;
    let repo = str_at(json, "/repository/name")?;
    let event = payload.event_type.ok_or(HandlerError::MissingEventHeader)?;
    let include_title = payload.topic.is_some();
    let (topic, content) = match event {
        "push" => {
            let branch = str_at(json, "/ref")?.replace("refs/heads/", "");
            let branches = payload.options.get("branches").map(String::as_str);
            if !git::is_branch_name_notifiable(&branch, branches) {
                return Err(HandlerError::Ignored);
            }
            let content = push_message(json)?;
            (git::topic_with_branch(repo, &branch), content)
        }
        "create" => {
            let branch = str_at(json, "/ref")?;
            let url = format!("{}/src/{branch}", str_at(json, "/repository/html_url")?);
            let user = str_at(json, "/sender/username")?;
            let content = git::create_branch_message(user, Some(&url), branch);
            (git::topic_with_branch(repo, branch), content)
        }
        "pull_request" => {
            let content = pull_request_message(json, include_title)?;
            let id = int_at(json, "/pull_request/id")?;
            let title = str_at(json, "/pull_request/title")?;
            (git::topic_with_pr_or_issue(repo, "PR", id, title), content)
        }
        "issues" => {
            let content = issue_message(json, include_title)?;
            let number = int_at(json, "/issue/number")?;
            let title = str_at(json, "/issue/title")?;
            (
                git::topic_with_pr_or_issue(repo, "issue", number, title),
                content,
            )
        }
        "issue_comment" => {
            let on_pull_request = payload
                .headers
                .get(EVENT_TYPE_HEADER)
                .is_some_and(|value| value.as_bytes() == b"pull_request_comment");
            comment(json, on_pull_request, include_title)?
        }
        "release" => {
            let user = str_at(json, "/release/author/username")?;
            let action = str_at(json, "/action")?;
            let tag = str_at(json, "/release/tag_name")?;
            let name = str_at(json, "/release/name")?;
            let url = str_at(json, "/repository/html_url")?;
            let content = git::release_message(user, action, tag, name, url);
            (git::topic_with_release(repo, tag, name), content)
        }
        "delete" => delete(json)?,
        other => return Err(HandlerError::UnsupportedEvent(other.to_owned())),
    };
    Ok(HandlerOutput::one(WebhookMessage { topic, content }))
}

/// `format_push_event`.
fn push_message(json: &Value) -> Result<String, HandlerError> {
    let user_name = str_at(json, "/sender/username")?;
    let compare_url = str_at(json, "/compare_url")?;
    let branch_name = str_at(json, "/ref")?.replace("refs/heads/", "");
    let commits = at(json, "/commits")?
        .as_array()
        .ok_or_else(|| HandlerError::MissingKey("commits".into()))?
        .iter()
        .map(commit)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(git::push_commits_message(&Push {
        user_name,
        compare_url: Some(compare_url),
        branch_name: &branch_name,
        commits: &commits,
        is_truncated: false,
        deleted: false,
        force_push: false,
    }))
}

/// `_transform_commits_list_to_common_format`: the author's username, or else the first
/// word of their name.
fn commit(json: &Value) -> Result<Commit<'_>, HandlerError> {
    let username = str_at(json, "/author/username")?;
    let name = match username {
        "" => str_at(json, "/author/name")?
            .split(git::is_py_space)
            .find(|word| !word.is_empty())
            // Zulip fails on a blank name (`split()[0]`).
            .ok_or_else(|| HandlerError::MissingKey("name".into()))?,
        username => username,
    };
    Ok(Commit {
        name: name.to_owned(),
        sha: str_at(json, "/id")?,
        url: str_at(json, "/url")?,
        message: str_at(json, "/message")?,
    })
}

/// Gitea's `format_pull_request_event`.
fn pull_request_message(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let assignee = at(json, "/pull_request/assignee")?;
    let (user_name, action) = if bool_at(json, "/pull_request/merged")? {
        (str_at(json, "/pull_request/merged_by/username")?, "merged")
    } else {
        (str_at(json, "/sender/username")?, str_at(json, "/action")?)
    };
    let url = str_at(json, "/pull_request/html_url")?;
    let number = int_at(json, "/pull_request/number")?;
    let pull_request = at(json, "/pull_request")?;
    let (mut target_branch, mut base_branch) = (None, None);
    if action != "edited" {
        if pull_request.get("head").is_some() {
            target_branch = Some(str_at(pull_request, "/head/ref")?);
        }
        if pull_request.get("base").is_some() {
            base_branch = Some(str_at(pull_request, "/base/ref")?);
        }
    }
    let title = match include_title {
        true => Some(str_at(json, "/pull_request/title")?),
        false => None,
    };
    let assignee = match truthy(assignee) {
        true => Some(str_at(assignee, "/login")?),
        false => None,
    };
    Ok(git::pull_request_message(&PullRequestEvent {
        user_name,
        action,
        url,
        number: Some(number),
        target_branch,
        base_branch,
        assignee,
        assignee_updated: assignee.filter(|_| action == "assigned"),
        kind: "PR",
        title,
        ..PullRequestEvent::default()
    }))
}

/// `format_issues_event`.
fn issue_message(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let number = int_at(json, "/issue/number")?;
    let assignee = at(json, "/issue/assignee")?;
    let assignee = match truthy(assignee) {
        true => Some(str_at(assignee, "/login")?),
        false => None,
    };
    let action = str_at(json, "/action")?;
    let user_name = str_at(json, "/sender/login")?;
    let url = issue_url(json, number)?;
    let message = str_at(json, "/issue/body")?;
    let title = match include_title {
        true => Some(str_at(json, "/issue/title")?),
        false => None,
    };
    Ok(git::issue_message(&PullRequestEvent {
        user_name,
        action,
        url: &url,
        number: Some(number),
        message: Some(message),
        assignee,
        assignee_updated: assignee.filter(|_| action == "assigned"),
        title,
        ..PullRequestEvent::default()
    }))
}

/// An `issue_comment`: on a pull request (worded as one, its title always named) or on
/// an issue (`format_issue_comment_event`).
fn comment(
    json: &Value,
    on_pull_request: bool,
    include_title: bool,
) -> Result<(String, String), HandlerError> {
    let number = int_at(json, "/issue/number")?;
    let issue_title = str_at(json, "/issue/title")?;
    let repo = str_at(json, "/repository/name")?;
    let action = match str_at(json, "/action")? {
        "created" => "[commented]".to_owned(),
        other => format!("{other} a [comment]"),
    };
    let action = format!("{action}({}) on", str_at(json, "/comment/html_url")?);
    let user_name = str_at(json, "/sender/login")?;
    let (content, kind) = if on_pull_request {
        let content = git::pull_request_message(&PullRequestEvent {
            user_name,
            action: &action,
            url: str_at(json, "/issue/html_url")?,
            number: Some(number),
            message: Some(str_at(json, "/comment/body")?),
            kind: "PR",
            title: Some(issue_title),
            ..PullRequestEvent::default()
        });
        (content, "PR")
    } else {
        let url = issue_url(json, number)?;
        let content = git::issue_message(&PullRequestEvent {
            user_name,
            action: &action,
            url: &url,
            number: Some(number),
            message: Some(str_at(json, "/comment/body")?),
            title: include_title.then_some(issue_title),
            ..PullRequestEvent::default()
        });
        (content, "issue")
    };
    let topic = git::topic_with_pr_or_issue(repo, kind, number, issue_title);
    Ok((topic, content))
}

/// A deleted branch or tag: the topic is the sentence, the message names it in code.
fn delete(json: &Value) -> Result<(String, String), HandlerError> {
    let ref_type = str_at(json, "/ref_type")?;
    let user = str_at(json, "/sender/login")?;
    let name = str_at(json, "/ref")?;
    match ref_type {
        "branch" => Ok((
            git::remove_branch_message(user, name),
            git::remove_branch_message(user, &format!("`{name}`")),
        )),
        "tag" => Ok((
            git::remove_tag_message(user, name),
            git::remove_tag_message(user, &format!("`{name}`")),
        )),
        _ => Err(HandlerError::UnsupportedEvent("delete".into())),
    }
}

/// `get_issue_url`.
fn issue_url(json: &Value, number: i64) -> Result<String, HandlerError> {
    Ok(format!(
        "{}/issues/{number}",
        str_at(json, "/repository/html_url")?
    ))
}
