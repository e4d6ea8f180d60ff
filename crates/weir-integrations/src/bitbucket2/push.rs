//! `repo:push`: commits pushed, branches created, deleted and force-pushed, tags pushed
//! and removed.
//!
//! As Zulip does, a push is one message per change, in the payload's order, each to its
//! own topic (`<repo> / <branch>`, or `<repo>` for tags).
//!
//! The `branches` URL option (comma-separated names, each trimmed) works as in Zulip: it
//! looks at the **last** change only, and when that change is a branch not in the list
//! the whole push is dropped; a push whose last change is a tag is never dropped.

use serde_json::Value;

use super::{
    HandlerError, WebhookMessage, actor, array, boolean, field, html_url, ignored, missing,
    repository_name, string, truthy, user_info,
};
use crate::git::{self, Commit, Push};

pub(super) fn messages(
    json: &Value,
    branches: Option<&str>,
) -> Result<Vec<WebhookMessage>, HandlerError> {
    let changes = array(field(json, "push")?, "changes")?;
    let Some(last) = changes.last() else {
        // Zulip ignores pushes without changes.
        return Err(ignored());
    };
    if let Some(branch) = filtered_branch(last)?
        && !branch.is_empty()
        && !git::is_branch_name_notifiable(branch, branches)
    {
        return Err(ignored());
    }
    let repo = repository_name(json)?;
    let user = actor(json)?;
    changes
        .iter()
        .map(|change| {
            let (topic, content) = change_message(change, repo, user)?;
            Ok(WebhookMessage { topic, content })
        })
        .collect()
}

/// `change["new"] or change["old"]`: the ref after the push, or before it if it is gone.
fn new_or_old(change: &Value) -> Result<&Value, HandlerError> {
    let new = field(change, "new")?;
    if truthy(new) {
        Ok(new)
    } else {
        field(change, "old")
    }
}

/// Zulip's `get_branch_name_for_push_event`: the branch a change is about, `None` for tags.
fn filtered_branch(change: &Value) -> Result<Option<&str>, HandlerError> {
    let reference = new_or_old(change)?;
    if string(reference, "type")? == "tag" {
        return Ok(None);
    }
    string(reference, "name").map(Some)
}

/// The topic and body Zulip sends for one change.
fn change_message(
    change: &Value,
    repo: &str,
    user: &str,
) -> Result<(String, String), HandlerError> {
    if string(new_or_old(change)?, "type")? == "tag" {
        return Ok((repo.to_owned(), tag_body(change, user)?));
    }
    let new = field(change, "new")?;
    let branch = string(new_or_old(change)?, "name")?;
    let topic = git::topic_with_branch(repo, branch);
    let body = if new.is_null() {
        git::remove_branch_message(user, string(field(change, "old")?, "name")?)
    } else if boolean(change, "forced")? {
        git::force_push_message(
            user,
            html_url(change)?,
            string(new, "name")?,
            string(field(new, "target")?, "hash")?,
        )
    } else {
        normal_push_body(change, new, user)?
    };
    Ok((topic, body))
}

fn tag_body(change: &Value, user: &str) -> Result<String, HandlerError> {
    let present = |key| change.get(key).filter(|value| truthy(value));
    let (tag, action) = match (present("new"), present("old")) {
        (Some(new), _) => (new, "pushed"),
        (None, Some(old)) => (old, "removed"),
        (None, None) => return Err(missing("old")),
    };
    let url = html_url(tag)?;
    Ok(git::push_tag_message(
        user,
        string(tag, "name")?,
        Some(url),
        action,
    ))
}

/// Commits pushed to a branch (`get_normal_push_body`). A branch created without new
/// commits reads "pushed the branch".
fn normal_push_body(change: &Value, new: &Value, user: &str) -> Result<String, HandlerError> {
    let commits = array(change, "commits")?
        .iter()
        .map(|commit| {
            Ok(Commit {
                name: author_name(commit)?,
                sha: string(commit, "hash")?,
                url: html_url(commit)?,
                message: string(commit, "message")?,
            })
        })
        .collect::<Result<Vec<_>, HandlerError>>()?;
    // Zulip requires this link; without it the message is simply not linked.
    let compare_url = html_url(change).ok();
    Ok(git::push_commits_message(&Push {
        user_name: user,
        compare_url,
        branch_name: string(new, "name")?,
        commits: &commits,
        is_truncated: boolean(change, "truncated")?,
        deleted: false,
        force_push: false,
    }))
}

/// The author's Bitbucket name, else the first word of the Git author (`Ada <a@x>`).
fn author_name(commit: &Value) -> Result<String, HandlerError> {
    let author = field(commit, "author")?;
    if let Some(user) = author.get("user") {
        return user_info(user, "user").map(str::to_owned);
    }
    string(author, "raw")?
        .split(git::is_py_space)
        .find(|word| !word.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| missing("raw"))
}
