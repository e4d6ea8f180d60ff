//! The message of each event (Zulip's `EVENT_FUNCTION_MAPPER` and its `get_*_body`
//! functions), reading the payload in Zulip's order so that the first key missing is
//! the one Zulip names.

use serde_json::Value;

use super::{
    HandlerError, array, branch_name, field, get, has, integer, issue_user_name, missing,
    project_homepage, repo_name, string, truthy,
};
use crate::git::{self, Commit, PullRequestEvent, Push};

/// `EMPTY_SHA`: the `after` of a push that deletes the branch.
const EMPTY_SHA: &str = "0000000000000000000000000000000000000000";

/// The body of `event` (one of [`super::EVENT_TYPES`]); `include_title`: the URL sets
/// the topic, so the item's title goes in the message.
pub(super) fn body(event: &str, json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let t = include_title;
    match event {
        "Push Hook" => push(json),
        "Tag Push Hook" => tag_push(json),
        "Test Hook" => Ok(format!(
            "Webhook for **{}** has been configured successfully! :tada:",
            repo_name(json)?
        )),
        "Issue Hook open" | "Confidential Issue Hook open" => issue_created(json, t),
        "Issue Hook close" | "Confidential Issue Hook close" => issue(json, "closed", t),
        "Issue Hook reopen" | "Confidential Issue Hook reopen" => issue(json, "reopened", t),
        "Issue Hook update" | "Confidential Issue Hook update" => issue(json, "updated", t),
        "Note Hook Commit" => commit_note(json),
        "Note Hook MergeRequest" => item_note(json, "merge_request", "MR", "iid", t),
        "Note Hook Issue" | "Confidential Note Hook Issue" => {
            item_note(json, "issue", "issue", "iid", t)
        }
        "Note Hook DesignManagement::Design"
        | "Confidential Note Hook DesignManagement::Design" => design_note(json),
        "Note Hook Snippet" => snippet_note(json, t),
        "Merge Request Hook approved" => merge_request(json, "approved", t),
        "Merge Request Hook unapproved" => merge_request(json, "unapproved", t),
        "Merge Request Hook approval" => merge_request(json, "approval", t),
        "Merge Request Hook unapproval" => merge_request(json, "unapproval", t),
        "Merge Request Hook open" => merge_request_open_or_updated(json, "created", t),
        "Merge Request Hook update" => {
            if get(field(json, "object_attributes")?, "oldrev")?.is_some_and(truthy) {
                merge_request(json, "added commit(s) to", t)
            } else {
                merge_request_open_or_updated(json, "updated", t)
            }
        }
        "Merge Request Hook merge" => merge_request(json, "merged", t),
        "Merge Request Hook close" => merge_request(json, "closed", t),
        "Merge Request Hook reopen" => merge_request(json, "reopened", t),
        "Wiki Page Hook create" => wiki_page(json, "created"),
        "Wiki Page Hook update" => wiki_page(json, "updated"),
        "Job Hook" | "Build Hook" => build(json),
        "Pipeline Hook" => pipeline(json),
        "Release Hook" => release(json),
        other => Err(HandlerError::UnsupportedEvent(other.to_owned())),
    }
}

/// `get_push_event_body`: a push, or the deletion of the branch.
fn push(json: &Value) -> Result<String, HandlerError> {
    if let Some(after) = get(json, "after")?.filter(|after| truthy(after)) {
        let after = after.as_str().ok_or_else(|| missing("after"))?;
        if after == EMPTY_SHA {
            return Ok(git::remove_branch_message(
                string(json, "user_name")?,
                &branch_name(json)?,
            ));
        }
    }
    let compare_url = format!(
        "{}/-/compare/{}...{}",
        project_homepage(json)?,
        string(json, "before")?,
        string(json, "after")?
    );
    let commits = array(json, "commits")?
        .iter()
        .map(|commit| {
            Ok(Commit {
                name: string(field(commit, "author")?, "name")?.to_owned(),
                sha: string(commit, "id")?,
                message: string(commit, "message")?,
                url: string(commit, "url")?,
            })
        })
        .collect::<Result<Vec<_>, HandlerError>>()?;
    Ok(git::push_commits_message(&Push {
        user_name: string(json, "user_name")?,
        compare_url: Some(&compare_url),
        branch_name: &branch_name(json)?,
        commits: &commits,
        is_truncated: false,
        deleted: false,
        force_push: false,
    }))
}

/// `get_tag_push_event_body`: pushed when there is a `checkout_sha`, else removed.
fn tag_push(json: &Value) -> Result<String, HandlerError> {
    let user_name = string(json, "user_name")?;
    let tag = string(json, "ref")?.replace("refs/tags/", "");
    let action = if get(json, "checkout_sha")?.is_some_and(truthy) {
        "pushed"
    } else {
        "removed"
    };
    Ok(git::push_tag_message(user_name, &tag, None, action))
}

/// `get_issue_created_event_body`: the description quoted, without its HTML comments.
fn issue_created(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let attributes = field(json, "object_attributes")?;
    let description = match get(attributes, "description")?.filter(|d| truthy(d)) {
        Some(description) => {
            let text = description.as_str().ok_or_else(|| missing("description"))?;
            Some(git::rstrip(&strip_html_comments(text)).to_owned())
        }
        None => None,
    };
    let user_name = issue_user_name(json)?;
    let url = string(attributes, "url")?;
    let number = integer(attributes, "iid")?;
    let assignees = assignee_names(json)?;
    let assignees: Vec<&str> = assignees.iter().map(String::as_str).collect();
    Ok(git::issue_message(&PullRequestEvent {
        user_name,
        action: "created",
        url,
        number: Some(number),
        message: description.as_deref(),
        assignees: &assignees,
        title: title_if(attributes, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// `get_issue_event_body`.
fn issue(json: &Value, action: &str, include_title: bool) -> Result<String, HandlerError> {
    let attributes = field(json, "object_attributes")?;
    Ok(git::issue_message(&PullRequestEvent {
        user_name: issue_user_name(json)?,
        action,
        url: string(attributes, "url")?,
        number: Some(integer(attributes, "iid")?),
        title: title_if(attributes, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// `get_merge_request_event_body`: the branches only when merged.
fn merge_request(json: &Value, action: &str, include_title: bool) -> Result<String, HandlerError> {
    let request = field(json, "object_attributes")?;
    let (target_branch, base_branch) = if action == "merged" {
        (
            Some(string(request, "source_branch")?),
            Some(string(request, "target_branch")?),
        )
    } else {
        (None, None)
    };
    Ok(git::pull_request_message(&PullRequestEvent {
        user_name: issue_user_name(json)?,
        action,
        url: string(request, "url")?,
        number: Some(integer(request, "iid")?),
        target_branch,
        base_branch,
        kind: "MR",
        title: title_if(request, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// `get_merge_request_open_or_updated_body`: description and assignees; the branches
/// only when created.
fn merge_request_open_or_updated(
    json: &Value,
    action: &str,
    include_title: bool,
) -> Result<String, HandlerError> {
    let request = field(json, "object_attributes")?;
    let user_name = issue_user_name(json)?;
    let url = string(request, "url")?;
    let number = integer(request, "iid")?;
    let (target_branch, base_branch) = if action == "created" {
        (
            Some(string(request, "source_branch")?),
            Some(string(request, "target_branch")?),
        )
    } else {
        (None, None)
    };
    let description = match field(request, "description")? {
        Value::Null => None,
        value => Some(value.as_str().ok_or_else(|| missing("description"))?),
    };
    let assignees = assignee_names(json)?;
    let assignees: Vec<&str> = assignees.iter().map(String::as_str).collect();
    Ok(git::pull_request_message(&PullRequestEvent {
        user_name,
        action,
        url,
        number: Some(number),
        target_branch,
        base_branch,
        message: description,
        assignees: &assignees,
        kind: "MR",
        title: title_if(request, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// `get_assignees` + `replace_assignees_username_with_name`: the names of `assignees`,
/// or of the single `assignee` when there is no list.
fn assignee_names(json: &Value) -> Result<Vec<String>, HandlerError> {
    let list = get(json, "assignees")?.filter(|list| truthy(list));
    let single = match list {
        Some(_) => None,
        None => get(json, "assignee")?.filter(|one| truthy(one)),
    };
    let assignees: Vec<&Value> = match (list, single) {
        (Some(list), _) => list
            .as_array()
            .ok_or_else(|| missing("assignees"))?
            .iter()
            .collect(),
        (None, Some(one)) => vec![one],
        (None, None) => Vec::new(),
    };
    assignees
        .into_iter()
        .map(|assignee| string(assignee, "name").map(str::to_owned))
        .collect()
}

/// `get_commented_commit_event_body`.
fn commit_note(json: &Value) -> Result<String, HandlerError> {
    let comment = field(json, "object_attributes")?;
    let action = format!("[commented]({})", string(comment, "url")?);
    let user_name = issue_user_name(json)?;
    let commit = field(json, "commit")?;
    Ok(git::commits_comment_action_message(
        user_name,
        &action,
        string(commit, "url")?,
        string(commit, "id")?,
        Some(string(comment, "note")?),
    ))
}

/// `get_commented_merge_request_event_body` and `get_commented_issue_event_body`: a
/// comment on the item under `key`, linked by its `url`.
fn item_note(
    json: &Value,
    key: &str,
    kind: &str,
    id_key: &str,
    include_title: bool,
) -> Result<String, HandlerError> {
    let comment = field(json, "object_attributes")?;
    let action = format!("[commented]({}) on", string(comment, "url")?);
    let item = field(json, key)?;
    let url = string(item, "url")?;
    Ok(git::pull_request_message(&PullRequestEvent {
        user_name: issue_user_name(json)?,
        action: &action,
        url,
        number: Some(integer(item, id_key)?),
        message: Some(string(comment, "note")?),
        kind,
        title: title_if(item, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// `get_commented_snippet_event_body`: older GitLab (before 16.1) sends no snippet URL.
fn snippet_note(json: &Value, include_title: bool) -> Result<String, HandlerError> {
    let comment = field(json, "object_attributes")?;
    let action = format!("[commented]({}) on", string(comment, "url")?);
    let snippet = field(json, "snippet")?;
    if !snippet.is_object() {
        return Err(missing("snippet"));
    }
    let url = if has(snippet, "url") {
        string(snippet, "url")?.to_owned()
    } else {
        let web_url = string(field(json, "project")?, "web_url")?;
        format!("{web_url}/-/snippets/{}", integer(snippet, "id")?)
    };
    Ok(git::pull_request_message(&PullRequestEvent {
        user_name: issue_user_name(json)?,
        action: &action,
        url: &url,
        number: Some(integer(snippet, "id")?),
        message: Some(string(comment, "note")?),
        kind: "snippet",
        title: title_if(snippet, include_title)?,
        ..PullRequestEvent::default()
    }))
}

/// `get_commented_design_event_body`: the design's issue and name come from its path
/// (`designs/issue-1/Screenshot.png`), as payloads about designs name no issue.
fn design_note(json: &Value) -> Result<String, HandlerError> {
    let comment = field(json, "object_attributes")?;
    let repository_url = string(field(json, "repository")?, "homepage")?;
    let note_id = integer(comment, "id")?;
    let path = string(field(comment, "position")?, "new_path")?;
    // Zulip unpacks exactly three parts (and fails on any other path).
    let [_, issue_part, design_name] = path.split('/').collect::<Vec<_>>()[..] else {
        return Err(missing("new_path"));
    };
    let issue_number = issue_part.rsplit('-').next().unwrap_or_default();
    let design_url = format!("{repository_url}/-/issues/{issue_number}/designs/{design_name}");
    let note = string(comment, "note")?;
    Ok(format!(
        "{user} [commented]({design_url}#note_{note_id}) on design [{design_name}]({design_url}):\n{quote}",
        user = issue_user_name(json)?,
        quote = git::quote(note),
    ))
}

/// `get_wiki_page_event_body`.
fn wiki_page(json: &Value, action: &str) -> Result<String, HandlerError> {
    let user_name = issue_user_name(json)?;
    let page = field(json, "object_attributes")?;
    Ok(format!(
        "{user_name} {action} [wiki page \"{}\"]({}).",
        string(page, "title")?,
        string(page, "url")?
    ))
}

/// `get_build_hook_event_body`: a job of a pipeline.
fn build(json: &Value) -> Result<String, HandlerError> {
    let action = status_action(string(json, "build_status")?, "created");
    Ok(format!(
        "Build {} from {} stage {action}.",
        string(json, "build_name")?,
        string(json, "build_stage")?
    ))
}

/// `get_pipeline_event_body`: the pipeline and a line per job, with its artifact.
fn pipeline(json: &Value) -> Result<String, HandlerError> {
    let attributes = field(json, "object_attributes")?;
    let action = status_action(string(attributes, "status")?, "pending");
    let homepage = project_homepage(json)?;
    let id = integer(attributes, "id")?;
    let mut builds = String::new();
    for build in array(json, "builds")? {
        let build_url = format!("{homepage}/-/jobs/{}", integer(build, "id")?);
        let artifact = match get(build, "artifacts_file")? {
            Some(file) => get(file, "filename")?.filter(|name| truthy(name)),
            None => None,
        };
        let artifact = match artifact {
            Some(name) => format!(
                "  * built artifact: *{}* [[Browse]({build_url}/artifacts/browse)|\
                 [Download]({build_url}/artifacts/download)]\n",
                name.as_str().ok_or_else(|| missing("filename"))?
            ),
            None => String::new(),
        };
        builds.push_str(&format!(
            "* [{}]({build_url}) - {}\n{artifact}",
            string(build, "name")?,
            string(build, "status")?
        ));
    }
    builds.pop();
    Ok(format!(
        "[Pipeline ({id})]({homepage}/-/pipelines/{id}) {action} with build(s):\n{builds}."
    ))
}

/// How a job or pipeline status reads: `was created` (for `created`, the status a job
/// starts in, or `pending`, a pipeline's), `started`, `changed status to …`.
fn status_action(status: &str, created: &str) -> String {
    match status {
        _ if status == created => "was created".to_owned(),
        "running" => "started".to_owned(),
        other => format!("changed status to {other}"),
    }
}

/// `get_release_event_body`: `RELEASE_MESSAGE_TEMPLATE_WITHOUT_USER_NAME`, unlinked
/// once deleted, with the description quoted.
fn release(json: &Value) -> Result<String, HandlerError> {
    let action = string(json, "action")?;
    let name = string(json, "name")?;
    let tag = string(json, "tag")?;
    let done = format!("{action}d");
    if action == "delete" {
        return Ok(git::release_message_without_user_name(
            name, None, tag, &done,
        ));
    }
    let url = string(json, "url")?;
    let mut body = git::release_message_without_user_name(name, Some(url), tag, &done);
    if has(json, "description") {
        body.push_str(&git::quote(string(json, "description")?));
    }
    Ok(body)
}

/// The item's `title` when the URL sets the topic.
fn title_if(item: &Value, include_title: bool) -> Result<Option<&str>, HandlerError> {
    include_title.then(|| string(item, "title")).transpose()
}

/// `re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)`: each comment up to the first
/// `-->` after it; an unclosed one stays.
pub(super) fn strip_html_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        let Some(length) = rest[start + 4..].find("-->") else {
            break;
        };
        out.push_str(&rest[..start]);
        rest = &rest[start + 4 + length + 3..];
    }
    out.push_str(rest);
    out
}
