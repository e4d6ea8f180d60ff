//! The message of each event (`EVENT_FUNCTION_MAPPER`'s functions), worded as Zulip's.
//!
//! `include_title`: the URL sets the topic, so messages about pull requests and issues
//! name the item's title (Zulip's `include_title`).

use serde_json::Value;

use super::{
    HandlerError, boolean, contains, events, field, integer, missing, optional_string, present,
    pulls, repository_full_name, repository_name, repository_url, sender_name, sender_url, string,
    title_if,
};
use crate::git::{self, Commit, IssueMilestoneEvent, PullRequestEvent, Push};

/// The body of `event`, one of Zulip's names ([`super::EVENT_TYPES`]).
pub(super) fn body(json: &Value, event: &str, include_title: bool) -> Result<String, HandlerError> {
    let sender = || sender_name(json);
    Ok(match event {
        pull if pull.contains("pull_request") => pulls::body(json, pull, include_title)?,
        "commit_comment" => commit_comment(json)?,
        "create" | "delete" => {
            let action = if event == "create" {
                "created"
            } else {
                "deleted"
            };
            let message = format!(
                "{} {action} {} {}.",
                sender()?,
                string(json, "ref_type")?,
                string(json, "ref")?
            );
            git::rstrip(&message).to_owned()
        }
        "check_run" => check_run(json)?,
        "deployment" => format!("{} created new deployment.", sender()?),
        "deployment_status" => format!(
            "Deployment changed status to {}.",
            string(field(json, "deployment_status")?, "state")?
        ),
        "discussion" => {
            let discussion = field(json, "discussion")?;
            format!(
                "{} created [discussion #{}]({}) in {}:\n\n~~~ quote\n### {}\n{}\n~~~",
                sender()?,
                integer(discussion, "number")?,
                string(discussion, "html_url")?,
                string(field(discussion, "category")?, "name")?,
                string(discussion, "title")?,
                string(discussion, "body")?,
            )
        }
        "discussion_comment" => {
            let discussion = field(json, "discussion")?;
            let action = comment_action(json)?;
            git::pull_request_message(&PullRequestEvent {
                user_name: sender()?,
                action: &action,
                url: string(discussion, "html_url")?,
                number: Some(integer(discussion, "number")?),
                message: Some(string(field(json, "comment")?, "body")?),
                kind: "discussion",
                title: title_if(discussion, include_title)?,
                ..PullRequestEvent::default()
            })
        }
        "fork" => {
            let forkee = field(json, "forkee")?;
            format!(
                "{} forked [{}]({}).",
                sender()?,
                string(forkee, "name")?,
                string(forkee, "html_url")?
            )
        }
        "gollum" => wiki_pages(json)?,
        "issue_comment" => {
            let comment = field(json, "comment")?;
            let issue = field(json, "issue")?;
            let action = comment_action(json)?;
            git::pull_request_message(&PullRequestEvent {
                user_name: sender()?,
                action: &action,
                url: string(issue, "html_url")?,
                number: Some(integer(issue, "number")?),
                message: Some(string(comment, "body")?),
                kind: if contains(issue, "pull_request") {
                    "PR"
                } else {
                    "issue"
                },
                title: title_if(issue, include_title)?,
                ..PullRequestEvent::default()
            })
        }
        "issue_labeled_or_unlabeled" => {
            let issue = field(json, "issue")?;
            git::issue_labeled_or_unlabeled_message(
                sender()?,
                sender_url(json)?,
                added_or_removed(json, "labeled")?,
                string(field(json, "label")?, "name")?,
                string(issue, "html_url")?,
                integer(issue, "number")?,
                title_if(issue, include_title)?,
            )
        }
        "issue_milestoned_or_demilestoned" => {
            let issue = field(json, "issue")?;
            let milestone = field(json, "milestone")?;
            git::issue_milestoned_or_demilestoned_message(&IssueMilestoneEvent {
                user_name: sender()?,
                action: added_or_removed(json, "milestoned")?,
                url: string(issue, "html_url")?,
                number: integer(issue, "number")?,
                milestone_name: string(milestone, "title")?,
                milestone_url: string(milestone, "html_url")?,
                user_url: sender_url(json)?,
                title: title_if(issue, include_title)?,
            })
        }
        "issues" => issue(json, include_title)?,
        "member" => {
            let member = field(json, "member")?;
            format!(
                "{} {} [{}]({}) to [{}]({}).",
                sender()?,
                string(json, "action")?,
                string(member, "login")?,
                string(member, "html_url")?,
                repository_name(json)?,
                repository_url(json)?
            )
        }
        "membership" => {
            let action = string(json, "action")?;
            let member = field(json, "member")?;
            let team = string(field(json, "team")?, "name")?;
            let preposition = if action == "removed" { "from" } else { "to" };
            format!(
                "{} {action} [{}]({}) {preposition} the {team} team.",
                sender()?,
                string(member, "login")?,
                string(member, "html_url")?
            )
        }
        "page_build" => page_build(json)?,
        "ping" => {
            let user = sender()?;
            if user.is_empty() {
                "GitHub webhook has been successfully configured.".to_owned()
            } else {
                format!("GitHub webhook has been successfully configured by {user}.")
            }
        }
        "public" => format!(
            "{} made the repository [{}]({}) public.",
            sender()?,
            repository_full_name(json)?,
            repository_url(json)?
        ),
        "push_commits" => push_commits(json)?,
        "push_tags" => {
            let action = if boolean(json, "created")? {
                "pushed"
            } else {
                "removed"
            };
            let tag = events::tag_name(string(json, "ref")?);
            git::push_tag_message(sender()?, tag, None, action)
        }
        "release" => {
            let release = field(json, "release")?;
            let tag_name = string(release, "tag_name")?;
            let release_name = match present(release, "name") {
                Some(_) => string(release, "name")?,
                None => {
                    field(release, "name")?;
                    tag_name
                }
            };
            git::release_message(
                sender()?,
                string(json, "action")?,
                tag_name,
                release_name,
                string(release, "html_url")?,
            )
        }
        "repository" => format!(
            "{} {} the repository [{}]({}).",
            sender()?,
            string(json, "action")?,
            repository_full_name(json)?,
            repository_url(json)?
        ),
        "star" => {
            let action = if string(json, "action")? == "created" {
                "starred"
            } else {
                "unstarred"
            };
            format!(
                "[{}]({}) {action} the repository [{}]({}).",
                sender()?,
                sender_url(json)?,
                repository_full_name(json)?,
                repository_url(json)?
            )
        }
        "status" => status(json)?,
        "team" => team(json)?,
        "team_add" => format!(
            "The repository [{}]({}) was added to team {}.",
            repository_full_name(json)?,
            repository_url(json)?,
            string(field(json, "team")?, "name")?
        ),
        "watch" => format!(
            "{} starred the repository [{}]({}).",
            sender()?,
            repository_full_name(json)?,
            repository_url(json)?
        ),
        sponsors => super::sponsors::body(json, sponsors)?,
    })
}

/// `added` for `positive` (`labeled`, `milestoned`), else `removed`.
fn added_or_removed(json: &Value, positive: &str) -> Result<&'static str, HandlerError> {
    Ok(if string(json, "action")? == positive {
        "added"
    } else {
        "removed"
    })
}

/// `get_comment_action`: `[commented](url) on`, or `<action> a [comment](url) on`.
fn comment_action(json: &Value) -> Result<String, HandlerError> {
    let action = string(json, "action")?;
    let url = string(field(json, "comment")?, "html_url")?;
    Ok(if action == "created" {
        format!("[commented]({url}) on")
    } else {
        format!("{action} a [comment]({url}) on")
    })
}

fn commit_comment(json: &Value) -> Result<String, HandlerError> {
    let comment = field(json, "comment")?;
    let comment_url = string(comment, "html_url")?;
    let commit_url = comment_url.split('#').next().unwrap_or(comment_url);
    Ok(git::commits_comment_action_message(
        sender_name(json)?,
        &format!("[commented]({comment_url})"),
        commit_url,
        string(comment, "commit_id")?,
        Some(string(comment, "body")?),
    ))
}

fn check_run(json: &Value) -> Result<String, HandlerError> {
    let run = field(json, "check_run")?;
    let head = string(run, "head_sha")?;
    Ok(format!(
        "Check [{}]({}) {} ({}). ([{}]({}/commit/{head}))",
        string(run, "name")?,
        string(run, "html_url")?,
        string(run, "status")?,
        string(run, "conclusion")?,
        git::short_sha(head),
        repository_url(json)?,
    ))
}

fn wiki_pages(json: &Value) -> Result<String, HandlerError> {
    let pages = field(json, "pages")?
        .as_array()
        .ok_or_else(|| missing("pages"))?;
    let mut list = String::new();
    for page in pages {
        list.push_str(&format!(
            "* {} [{}]({})\n",
            string(page, "action")?,
            string(page, "title")?,
            string(page, "html_url")?
        ));
    }
    Ok(format!("{}:\n{}", sender_name(json)?, git::rstrip(&list)))
}

/// `get_issue_body`: Zulip rewrites the first `assigned`/`unassigned` of the message to
/// name the assignee.
fn issue(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let action = string(json, "action")?;
    let issue = field(json, "issue")?;
    let message = if matches!(action, "assigned" | "unassigned") {
        None
    } else {
        optional_string(issue, "body")?
    };
    let base = pulls::message_as_worded_then(
        &PullRequestEvent {
            user_name: sender_name(json)?,
            url: string(issue, "html_url")?,
            number: Some(integer(issue, "number")?),
            message,
            kind: "issue",
            title: title_if(issue, include_title)?,
            ..PullRequestEvent::default()
        },
        action,
    );
    if !contains(json, "assignee") {
        return Ok(base);
    }
    let assignee = string(field(json, "assignee")?, "login")?;
    Ok(match action {
        "assigned" => base.replacen("assigned", &format!("assigned {assignee} to"), 1),
        "unassigned" => base.replacen("unassigned", &format!("unassigned {assignee} from"), 1),
        _ => base,
    })
}

fn page_build(json: &Value) -> Result<String, HandlerError> {
    let build = field(json, "build")?;
    let status = string(build, "status")?;
    let mut action = match status {
        "null" => "has yet to be built".to_owned(),
        "building" => "is being built".to_owned(),
        "errored" => "has failed: {}".to_owned(),
        "built" => "has finished building".to_owned(),
        other => format!("is {other}"),
    };
    let error = field(build, "error")?;
    if present(error, "message").is_some() {
        let quoted = format!("\n~~~ quote\n{}\n~~~", string(error, "message")?);
        if status == "errored" {
            action = action.replacen("{}", &quoted, 1);
        }
    } else {
        field(error, "message")?;
    }
    Ok(format!(
        "GitHub Pages build, triggered by {}, {action}.",
        string(field(build, "pusher")?, "login")?
    ))
}

fn status(json: &Value) -> Result<String, HandlerError> {
    let state = string(json, "state")?;
    let status = match present(json, "target_url") {
        Some(_) => format!("[{state}]({})", string(json, "target_url")?),
        None => {
            field(json, "target_url")?;
            state.to_owned()
        }
    };
    Ok(format!(
        "[{}]({}) changed its status to {status}.",
        git::short_sha(string(json, "sha")?),
        string(field(json, "commit")?, "html_url")?
    ))
}

/// `get_team_body`: what changed, or (for changes Zulip does not describe) their names.
fn team(json: &Value) -> Result<String, HandlerError> {
    let changes = field(json, "changes")?;
    let team = field(json, "team")?;
    if contains(changes, "description") {
        return Ok(format!(
            "**{}** changed the team description to:\n\n~~~ quote\n{}\n~~~",
            sender_name(json)?,
            string(team, "description")?
        ));
    }
    if contains(changes, "name") {
        return Ok(format!(
            "Team `{}` was renamed to `{}`.",
            string(field(changes, "name")?, "from")?,
            string(team, "name")?
        ));
    }
    if contains(changes, "privacy") {
        return Ok(format!(
            "Team visibility changed to `{}`",
            string(team, "privacy")?
        ));
    }
    let mut keys: Vec<&str> = changes
        .as_object()
        .ok_or_else(|| missing("changes"))?
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    Ok(format!("Team has changes to `{}` data.", keys.join("/")))
}

/// `get_push_commits_body`: each commit's author is their GitHub username, else their
/// Git name.
fn push_commits(json: &Value) -> Result<String, HandlerError> {
    let commits = field(json, "commits")?
        .as_array()
        .ok_or_else(|| missing("commits"))?
        .iter()
        .map(|commit| {
            let author = field(commit, "author")?;
            let name = match present(author, "username") {
                Some(_) => string(author, "username")?,
                None => string(author, "name")?,
            };
            Ok(Commit {
                name: name.to_owned(),
                sha: string(commit, "id")?,
                url: string(commit, "url")?,
                message: string(commit, "message")?,
            })
        })
        .collect::<Result<Vec<_>, HandlerError>>()?;
    Ok(git::push_commits_message(&Push {
        user_name: sender_name(json)?,
        compare_url: Some(string(json, "compare")?),
        branch_name: events::branch_name(string(json, "ref")?),
        commits: &commits,
        is_truncated: false,
        deleted: boolean(json, "deleted")?,
        force_push: boolean(json, "forced")?,
    }))
}
