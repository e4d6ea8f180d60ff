//! GitLab, as Zulip's `gitlab` integration (`zerver/webhooks/gitlab/view.py`, at the
//! zulip/zulip commit whose tests Weir replays: `dac9e476`, June 2025).
//!
//! The event is Zulip's: the `X-GitLab-Event` header, completed as Zulip completes it
//! (`Issue Hook` + `object_attributes.action`, `Note Hook` + `noteable_type`; a
//! `System Hook` is renamed after its `event_name` or `object_kind`). Those full names
//! ([`EVENT_TYPES`]: `Merge Request Hook open`, `Note Hook Issue`, …) are what
//! `only_events`/`exclude_events` match; any other is `UnsupportedEvent` with its full
//! name. Wording comes from `git.rs` and [`bodies`], to the character.
//!
//! URL options, as the view reads them: `branches` (a push to another branch is
//! ignored), `use_merge_request_title` (a JSON boolean, default `true`: `false` leaves
//! merge request titles out of topics), and `topic`, which puts the item's title in the
//! message and the project's link in front of it.
//!
//! Topics are stripped, as Zulip's `check_stream_topic` strips them (a merge request
//! topic without its title would end in a space).

mod bodies;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::git;
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage,
};

/// Zulip's names for the events (the keys of its `EVENT_FUNCTION_MAPPER`, which it
/// reports as `all_event_types`), in its order.
const EVENT_TYPES: &[&str] = &[
    "Push Hook",
    "Tag Push Hook",
    "Test Hook",
    "Issue Hook open",
    "Issue Hook close",
    "Issue Hook reopen",
    "Issue Hook update",
    "Confidential Issue Hook open",
    "Confidential Issue Hook close",
    "Confidential Issue Hook reopen",
    "Confidential Issue Hook update",
    "Note Hook Commit",
    "Note Hook MergeRequest",
    "Note Hook Issue",
    "Confidential Note Hook Issue",
    "Note Hook DesignManagement::Design",
    "Confidential Note Hook DesignManagement::Design",
    "Note Hook Snippet",
    "Merge Request Hook approved",
    "Merge Request Hook unapproved",
    "Merge Request Hook approval",
    "Merge Request Hook unapproval",
    "Merge Request Hook open",
    "Merge Request Hook update",
    "Merge Request Hook merge",
    "Merge Request Hook close",
    "Merge Request Hook reopen",
    "Wiki Page Hook create",
    "Wiki Page Hook update",
    "Job Hook",
    "Build Hook",
    "Pipeline Hook",
    "Release Hook",
];

/// The header Zulip reads (and names when it is missing).
const HEADER: &str = "X-GitLab-Event";

macro_rules! fixture {
    ($name:literal, $event:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/gitlab/", $name, ".json")),
            headers: &[("X-Gitlab-Event", $event)],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("push", "Push Hook"),
    fixture!("tag_push", "Tag Push Hook"),
    fixture!("merge_request_opened", "Merge Request Hook"),
    fixture!("merge_request_merged", "Merge Request Hook"),
    fixture!("issue_opened", "Issue Hook"),
    fixture!("note_merge_request", "Note Hook"),
    fixture!("pipeline", "Pipeline Hook"),
    fixture!("job", "Job Hook"),
    fixture!("release", "Release Hook"),
];

pub fn integration() -> Integration {
    Integration {
        name: "gitlab",
        display_name: "GitLab",
        categories: &["version-control"],
        view_name: "GitLab",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::Header(HEADER),
        event_types: EVENT_TYPES,
        config_options: &[],
        url_options: &["branches", "use_merge_request_title"],
        fixtures: FIXTURES,
        handler,
    }
}

/// Zulip's `api_gitlab_webhook`: the event, its body (with the project's link when the
/// URL sets the topic), then its topic.
fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    // Zulip parses its URL parameters before it looks at the request.
    let use_merge_request_title = use_merge_request_title(payload.options)?;
    let json = payload.json;
    let header = payload.event_type.ok_or(HandlerError::MissingEventHeader)?;
    let branches = payload.options.get("branches").map(String::as_str);
    let Some(event) = event_name(json, header, branches)? else {
        return Err(HandlerError::Ignored);
    };
    let include_title = payload.topic.is_some();
    let mut content = bodies::body(&event, json, include_title)?;
    if payload.topic.is_some_and(|topic| !topic.is_empty()) {
        content = format!(
            "[[{}]({})] {content}",
            repo_name(json)?,
            project_homepage(json)?
        );
    }
    let topic = topic(&event, json, use_merge_request_title)?;
    Ok(HandlerOutput {
        event: Some(event),
        item_events: Vec::new(),
        messages: vec![WebhookMessage {
            topic: git::py_strip(&topic).to_owned(),
            content,
        }],
    })
}

/// Zulip's `get_event`: the full event name, `None` for a push to a branch the URL's
/// `branches` leaves out.
fn event_name(
    json: &Value,
    header: &str,
    branches: Option<&str>,
) -> Result<Option<String>, HandlerError> {
    let mut event = header.to_owned();
    if event == "System Hook" {
        let name = if has(json, "event_name") {
            string(json, "event_name")?
        } else {
            string(json, "object_kind")?
        };
        let first = name.split("__").next().unwrap_or_default();
        event = format!("{} Hook", py_title(&first.replace('_', " ")));
    }
    match event.as_str() {
        "Confidential Issue Hook" | "Issue Hook" | "Merge Request Hook" | "Wiki Page Hook" => {
            let attributes = field(json, "object_attributes")?;
            let action = match get(attributes, "action")? {
                Some(action) => action.as_str().ok_or_else(|| missing("action"))?,
                None => "open",
            };
            event = format!("{event} {action}");
        }
        "Confidential Note Hook" | "Note Hook" => {
            let noteable = string(field(json, "object_attributes")?, "noteable_type")?;
            event = format!("{event} {noteable}");
        }
        "Push Hook" if branch_left_out(json, branches)? => return Ok(None),
        _ => {}
    }
    if EVENT_TYPES.contains(&event.as_str()) {
        Ok(Some(event))
    } else {
        Err(HandlerError::UnsupportedEvent(event))
    }
}

/// A push to a branch the URL's `branches` does not list.
fn branch_left_out(json: &Value, branches: Option<&str>) -> Result<bool, HandlerError> {
    Ok(branches.is_some() && !git::is_branch_name_notifiable(&branch_name(json)?, branches))
}

/// Zulip's `get_topic_based_on_event`.
fn topic(event: &str, json: &Value, use_merge_request_title: bool) -> Result<String, HandlerError> {
    let item_topic = |key: &str, kind: &str, id_key: &str, with_title: bool| {
        let item = field(json, key)?;
        let repo = repo_name(json)?;
        let id = integer(item, id_key)?;
        let title = if with_title {
            string(item, "title")?
        } else {
            ""
        };
        Ok(git::topic_with_pr_or_issue(repo, kind, id, title))
    };
    match event {
        "Push Hook" => Ok(git::topic_with_branch(
            repo_name(json)?,
            &branch_name(json)?,
        )),
        "Job Hook" | "Build Hook" => {
            let repo = string(field(json, "repository")?, "name")?;
            Ok(git::topic_with_branch(repo, &branch_name(json)?))
        }
        "Pipeline Hook" => {
            let repo = repo_name(json)?;
            let reference = string(field(json, "object_attributes")?, "ref")?;
            Ok(git::topic_with_branch(
                repo,
                &reference.replace("refs/heads/", ""),
            ))
        }
        _ if event.starts_with("Merge Request Hook") => {
            item_topic("object_attributes", "MR", "iid", use_merge_request_title)
        }
        _ if event.starts_with("Issue Hook") || event.starts_with("Confidential Issue Hook") => {
            item_topic("object_attributes", "issue", "iid", true)
        }
        "Note Hook Issue" | "Confidential Note Hook Issue" => {
            item_topic("issue", "issue", "iid", true)
        }
        "Note Hook DesignManagement::Design"
        | "Confidential Note Hook DesignManagement::Design" => {
            let position = field(field(json, "object_attributes")?, "position")?;
            let path = string(position, "new_path")?;
            let design = path.rsplit('/').next().unwrap_or_default();
            Ok(format!("{} / design {design}", repo_name(json)?))
        }
        "Note Hook MergeRequest" => {
            item_topic("merge_request", "MR", "iid", use_merge_request_title)
        }
        "Note Hook Snippet" => item_topic("snippet", "snippet", "id", true),
        _ => repo_name(json).map(str::to_owned),
    }
}

/// The `use_merge_request_title` option, a JSON boolean read as pydantic reads a
/// `Json[bool]` (also `0`/`1` and `"yes"`, `"off"`, …). Another value is refused, as
/// Zulip refuses it (with its own wording).
fn use_merge_request_title(options: &BTreeMap<String, String>) -> Result<bool, HandlerError> {
    let Some(text) = options.get("use_merge_request_title") else {
        return Ok(true);
    };
    let invalid = || missing("use_merge_request_title");
    let value: Value = serde_json::from_str(text).map_err(|_| invalid())?;
    match value {
        Value::Bool(flag) => Ok(flag),
        Value::Number(number) => match number.as_f64() {
            Some(0.0) => Ok(false),
            Some(1.0) => Ok(true),
            _ => Err(invalid()),
        },
        Value::String(word) => match word.to_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
            _ => Err(invalid()),
        },
        _ => Err(invalid()),
    }
}

/// Python's `str.title()`: a letter after a letter is lowered, any other raised.
fn py_title(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut after_letter = false;
    for c in text.chars() {
        let cased = c.is_lowercase() || c.is_uppercase();
        if cased && after_letter {
            out.extend(c.to_lowercase());
        } else if cased {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        after_letter = cased;
    }
    out
}

// Reading the payload as Zulip's `WildValue` does: a key that is absent, or of the
// wrong type, is named in the error.

fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

/// `value[key]`.
fn field<'a>(value: &'a Value, key: &str) -> Result<&'a Value, HandlerError> {
    value.get(key).ok_or_else(|| missing(key))
}

/// `value.get(key)`: absent is `None`; a value that is not an object cannot be asked.
fn get<'a>(value: &'a Value, key: &str) -> Result<Option<&'a Value>, HandlerError> {
    match value {
        Value::Object(fields) => Ok(fields.get(key)),
        _ => Err(missing(key)),
    }
}

/// `key in value`.
fn has(value: &Value, key: &str) -> bool {
    value
        .as_object()
        .is_some_and(|fields| fields.contains_key(key))
}

/// `value[key].tame(check_string)`.
fn string<'a>(value: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    field(value, key)?.as_str().ok_or_else(|| missing(key))
}

/// `value[key].tame(check_int)`.
fn integer(value: &Value, key: &str) -> Result<i64, HandlerError> {
    field(value, key)?.as_i64().ok_or_else(|| missing(key))
}

fn array<'a>(value: &'a Value, key: &str) -> Result<&'a [Value], HandlerError> {
    field(value, key)?
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| missing(key))
}

/// Python's truthiness, which Zulip's `if value:` tests use.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(flag) => *flag,
        Value::Number(number) => number.as_f64().is_some_and(|number| number != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(fields) => !fields.is_empty(),
    }
}

/// `get_repo_name`: the project's name; job payloads have only a `repository`.
fn repo_name(json: &Value) -> Result<&str, HandlerError> {
    if has(json, "project") {
        string(field(json, "project")?, "name")
    } else {
        string(field(json, "repository")?, "name")
    }
}

/// `get_project_homepage`.
fn project_homepage(json: &Value) -> Result<&str, HandlerError> {
    if has(json, "project") {
        string(field(json, "project")?, "web_url")
    } else {
        string(field(json, "repository")?, "homepage")
    }
}

/// `get_branch_name`: `ref` without `refs/heads/`.
fn branch_name(json: &Value) -> Result<String, HandlerError> {
    Ok(string(json, "ref")?.replace("refs/heads/", ""))
}

/// `get_issue_user_name`.
fn issue_user_name(json: &Value) -> Result<&str, HandlerError> {
    string(field(json, "user")?, "name")
}
