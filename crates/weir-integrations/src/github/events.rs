//! Zulip's name for a GitHub event (`get_zulip_event_name`) and its topic
//! (`get_topic_based_on_type`).

use serde_json::Value;

use super::{EVENT_TYPES, HandlerError, contains, field, integer, repository_name, string};
use crate::git;

/// Events Zulip accepts and sends nothing for (`IGNORED_EVENTS`).
const IGNORED_EVENTS: &[&str] = &[
    "check_suite",
    "label",
    "meta",
    "milestone",
    "organization",
    "project_card",
    "push__merge_queue",
    "repository_vulnerability_alert",
];

/// `IGNORED_PULL_REQUEST_ACTIONS`.
const IGNORED_PULL_REQUEST_ACTIONS: &[&str] = &[
    "approved",
    "converted_to_draft",
    "labeled",
    "review_request_removed",
    "unlabeled",
];

/// `IGNORED_TEAM_ACTIONS`: documented by GitHub, not handled by Zulip.
const IGNORED_TEAM_ACTIONS: &[&str] = &[
    "added_to_repository",
    "created",
    "deleted",
    "removed_from_repository",
];

/// GitHub Sponsors' events (`SPONSORS_EVENT_TYPES`), all under the topic `sponsors`.
const SPONSORS_EVENT_TYPES: &[&str] = &[
    "cancelled",
    "created",
    "edited",
    "pending_cancellation",
    "pending_tier_change",
    "tier_changed",
];

/// Zulip's event name for the header and payload, one of [`EVENT_TYPES`]; `Ignored` for
/// the events Zulip skips, `UnsupportedEvent` for the others.
pub(super) fn zulip_event(
    header: &str,
    json: &Value,
    branches: Option<&str>,
) -> Result<&'static str, HandlerError> {
    let action = || string(json, "action");
    match header {
        "pull_request" => {
            let action = action()?;
            let event = match action {
                "opened" | "reopened" => "opened_pull_request",
                "synchronize" | "edited" => "updated_pull_request",
                "assigned" | "unassigned" => "assigned_or_unassigned_pull_request",
                "closed" => "closed_pull_request",
                "review_requested" => "pull_request_review_requested",
                "ready_for_review" => "pull_request_ready_for_review",
                "locked" | "unlocked" => "locked_or_unlocked_pull_request",
                "auto_merge_enabled" | "auto_merge_disabled" => "pull_request_auto_merge",
                ignored if IGNORED_PULL_REQUEST_ACTIONS.contains(&ignored) => {
                    return Err(HandlerError::Ignored);
                }
                _ => return Err(unsupported(header, json)?),
            };
            Ok(event)
        }
        "push" => {
            let reference = string(json, "ref")?;
            if reference.starts_with("refs/heads/gh-readonly-queue/") {
                return Err(HandlerError::Ignored);
            }
            if !reference.starts_with("refs/heads/") {
                return Ok("push_tags");
            }
            if !git::is_branch_name_notifiable(branch_name(reference), branches) {
                return Err(HandlerError::Ignored);
            }
            Ok("push_commits")
        }
        "check_run" => {
            if string(field(json, "check_run")?, "status")? != "completed" {
                return Err(HandlerError::Ignored);
            }
            Ok("check_run")
        }
        "team" => match action()? {
            "edited" => Ok("team"),
            ignored if IGNORED_TEAM_ACTIONS.contains(&ignored) => Err(HandlerError::Ignored),
            // GitHub added an action Zulip does not know.
            other => Err(HandlerError::UnsupportedEvent(format!(
                "unsupported team action {other}"
            ))),
        },
        "issues" => Ok(match action()? {
            "labeled" | "unlabeled" => "issue_labeled_or_unlabeled",
            "milestoned" | "demilestoned" => "issue_milestoned_or_demilestoned",
            _ => "issues",
        }),
        other => match EVENT_TYPES.iter().find(|event| **event == other) {
            Some(event) => Ok(event),
            None if IGNORED_EVENTS.contains(&other) => Err(HandlerError::Ignored),
            None => Err(unsupported(header, json)?),
        },
    }
}

/// Zulip's name for an event it does not handle: `<header>:<action>`, `???` for a
/// payload without an action.
fn unsupported(header: &str, json: &Value) -> Result<HandlerError, HandlerError> {
    let action = match json.get("action") {
        None => "???",
        Some(_) => string(json, "action")?,
    };
    Ok(HandlerError::UnsupportedEvent(format!("{header}:{action}")))
}

/// `get_branch_name_from_ref`.
pub(super) fn branch_name(reference: &str) -> &str {
    reference.strip_prefix("refs/heads/").unwrap_or(reference)
}

/// `get_tag_name_from_ref`.
pub(super) fn tag_name(reference: &str) -> &str {
    reference.strip_prefix("refs/tags/").unwrap_or(reference)
}

/// Zulip's topic for the event (`get_topic_based_on_type`); its tests are on the event
/// name's text, as Zulip's are.
pub(super) fn topic(json: &Value, event: &str) -> Result<String, HandlerError> {
    if event.contains("pull_request") {
        let pull_request = field(json, "pull_request")?;
        return Ok(git::topic_with_pr_or_issue(
            repository_name(json)?,
            "PR",
            integer(pull_request, "number")?,
            string(pull_request, "title")?,
        ));
    }
    if event.starts_with("issue") {
        let issue = field(json, "issue")?;
        let kind = if contains(issue, "pull_request") {
            "PR"
        } else {
            "issue"
        };
        return Ok(git::topic_with_pr_or_issue(
            repository_name(json)?,
            kind,
            integer(issue, "number")?,
            string(issue, "title")?,
        ));
    }
    if event.starts_with("deployment") {
        let environment = string(field(json, "deployment")?, "environment")?;
        return Ok(format!(
            "{} / Deployment on {environment}",
            repository_name(json)?
        ));
    }
    if event.starts_with("discussion") {
        let discussion = field(json, "discussion")?;
        return Ok(format!(
            "{} discussion #{}: {}",
            repository_name(json)?,
            integer(discussion, "number")?,
            string(discussion, "title")?
        ));
    }
    let topic = match event {
        "membership" => format!("{} organization", organization_name(json)?),
        "team" => format!("team {}", string(field(json, "team")?, "name")?),
        "push_commits" => {
            git::topic_with_branch(repository_name(json)?, branch_name(string(json, "ref")?))
        }
        "gollum" => git::topic_with_branch(repository_name(json)?, "wiki pages"),
        "ping"
            if json
                .get("repository")
                .is_none_or(|value| !super::truthy(value)) =>
        {
            organization_name(json)?.to_owned()
        }
        "check_run" => format!("{} / checks", repository_name(json)?),
        sponsors if SPONSORS_EVENT_TYPES.contains(&sponsors) => "sponsors".to_owned(),
        _ => repository_name(json)?.to_owned(),
    };
    Ok(topic)
}

fn organization_name(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "organization")?, "login")
}
