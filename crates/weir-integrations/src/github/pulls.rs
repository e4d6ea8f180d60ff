//! Pull request events: opened, updated, closed, (un)assigned, reviewed, review
//! requested, locked, auto-merge, ready for review.

use serde_json::Value;

use super::{
    HandlerError, boolean, contains, field, integer, missing, optional_string, present,
    sender_name, string, title_if,
};
use crate::git::{self, PullRequestEvent};

/// The body of a pull request event (Zulip's names containing `pull_request`).
pub(super) fn body(json: &Value, event: &str, include_title: bool) -> Result<String, HandlerError> {
    Ok(match event {
        "closed_pull_request" => {
            let pull_request = field(json, "pull_request")?;
            let action = if boolean(pull_request, "merged")? {
                "merged"
            } else {
                "closed without merge"
            };
            git::pull_request_message(&PullRequestEvent {
                user_name: sender_name(json)?,
                action,
                url: string(pull_request, "html_url")?,
                number: Some(integer(pull_request, "number")?),
                kind: "PR",
                title: title_if(pull_request, include_title)?,
                ..PullRequestEvent::default()
            })
        }
        "opened_pull_request" | "updated_pull_request" => opened_or_updated(json, include_title)?,
        "assigned_or_unassigned_pull_request" => {
            let pull_request = field(json, "pull_request")?;
            let assignee = match present(pull_request, "assignee") {
                Some(assignee) => Some(string(assignee, "login")?),
                None => None,
            };
            let message = message_as_worded_then(
                &PullRequestEvent {
                    user_name: sender_name(json)?,
                    url: string(pull_request, "html_url")?,
                    number: Some(integer(pull_request, "number")?),
                    kind: "PR",
                    title: title_if(pull_request, include_title)?,
                    ..PullRequestEvent::default()
                },
                string(json, "action")?,
            );
            match assignee {
                // Zulip rewrites the first "assigned" of the message, as here.
                Some(login) => message.replacen("assigned", &format!("assigned {login} to"), 1),
                None => message,
            }
        }
        "pull_request_ready_for_review" => {
            let (number, url) = pull_request_link(json)?;
            format!(
                "**{}** has marked [PR #{number}]({url}) as ready for review.",
                sender_name(json)?
            )
        }
        "pull_request_review" => {
            let pull_request = field(json, "pull_request")?;
            let title = format!(
                "for #{} {}",
                integer(pull_request, "number")?,
                string(pull_request, "title")?
            );
            let review = field(json, "review")?;
            git::pull_request_message(&PullRequestEvent {
                user_name: sender_name(json)?,
                action: "submitted",
                url: string(review, "html_url")?,
                kind: "PR review",
                title: include_title.then_some(title.as_str()),
                message: optional_string(review, "body")?,
                ..PullRequestEvent::default()
            })
        }
        "pull_request_review_comment" => {
            let action = string(json, "action")?;
            let comment = field(json, "comment")?;
            let message = if action == "created" {
                Some(string(comment, "body")?)
            } else {
                None
            };
            let pull_request = field(json, "pull_request")?;
            let title = format!(
                "on #{} {}",
                integer(pull_request, "number")?,
                string(pull_request, "title")?
            );
            // The action is GitHub's, whichever it is: worded as Zulip's git.py then did.
            message_as_worded_then(
                &PullRequestEvent {
                    user_name: sender_name(json)?,
                    url: string(comment, "html_url")?,
                    message,
                    kind: "PR review comment",
                    title: include_title.then_some(title.as_str()),
                    ..PullRequestEvent::default()
                },
                action,
            )
        }
        "pull_request_review_requested" => review_requested(json, include_title)?,
        "pull_request_auto_merge" => {
            let verb = if string(json, "action")? == "auto_merge_disabled" {
                "disabled"
            } else {
                "enabled"
            };
            let (number, url) = pull_request_link(json)?;
            format!(
                "{} has {verb} auto merge for [PR #{number}]({url}).",
                sender_name(json)?
            )
        }
        "locked_or_unlocked_pull_request" => {
            let unlocked = string(json, "action")? == "unlocked";
            let pull_request = field(json, "pull_request")?;
            // Python formats a missing reason as `None`.
            let reason = match present(pull_request, "active_lock_reason") {
                Some(_) => string(pull_request, "active_lock_reason")?,
                None => {
                    field(pull_request, "active_lock_reason")?;
                    "None"
                }
            };
            let (number, url) = pull_request_link(json)?;
            let sender = sender_name(json)?;
            if unlocked {
                format!("{sender} has unlocked [PR #{number}]({url}).")
            } else {
                format!(
                    "{sender} has locked [PR #{number}]({url}) as {reason} and limited \
                     conversation to collaborators."
                )
            }
        }
        _ => return Err(missing("action")),
    })
}

/// `get_pull_request_event_message` as Zulip's git.py worded it when its tests were
/// written: `assigned`/`unassigned` were actions like the others (the view then names
/// the assignee itself). Today's wording adds the assignee, so the message is built
/// without the action, which is then put back in its place after the user's name.
pub(super) fn message_as_worded_then(event: &PullRequestEvent<'_>, action: &str) -> String {
    let message = git::pull_request_message(&PullRequestEvent {
        action: "",
        ..*event
    });
    let user = format!("{} ", event.user_name);
    match message.strip_prefix(&user) {
        Some(rest) => format!("{user}{action}{rest}"),
        None => message,
    }
}

fn pull_request_link(json: &Value) -> Result<(i64, &str), HandlerError> {
    let pull_request = field(json, "pull_request")?;
    Ok((
        integer(pull_request, "number")?,
        string(pull_request, "html_url")?,
    ))
}

/// `get_opened_or_update_pull_request_body`.
fn opened_or_updated(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let pull_request = field(json, "pull_request")?;
    let action = match string(json, "action")? {
        "synchronize" => "updated",
        other => other,
    };
    let assignee = match present(pull_request, "assignee") {
        Some(assignee) => Some(string(assignee, "login")?),
        None => None,
    };
    let body_changed = json
        .get("changes")
        .is_some_and(|changes| contains(changes, "body"));
    let description = if body_changed || action == "opened" {
        optional_string(pull_request, "body")?
    } else {
        None
    };
    let (target_branch, base_branch) = if matches!(action, "opened" | "merged") {
        (
            Some(string(field(pull_request, "head")?, "label")?),
            Some(string(field(pull_request, "base")?, "label")?),
        )
    } else {
        (None, None)
    };
    Ok(git::pull_request_message(&PullRequestEvent {
        user_name: sender_name(json)?,
        action,
        url: string(pull_request, "html_url")?,
        target_branch,
        base_branch,
        message: description,
        assignee,
        number: Some(integer(pull_request, "number")?),
        kind: "PR",
        title: title_if(pull_request, include_title)?,
        ..PullRequestEvent::default()
    }))
}

fn review_requested(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let sender = sender_name(json)?;
    let pull_request = field(json, "pull_request")?;
    let number = integer(pull_request, "number")?;
    let url = string(pull_request, "html_url")?;
    let reviewers = if contains(json, "requested_reviewer") {
        let reviewer = field(json, "requested_reviewer")?;
        format!(
            "[{}]({})",
            string(reviewer, "login")?,
            string(reviewer, "html_url")?
        )
    } else {
        let team = field(json, "requested_team")?;
        format!("[{}]({})", string(team, "name")?, string(team, "html_url")?)
    };
    let title = if include_title {
        format!(" {}", string(pull_request, "title")?)
    } else {
        String::new()
    };
    Ok(format!(
        "**{sender}** requested {reviewers} for a review on [PR #{number}{title}]({url})."
    ))
}
