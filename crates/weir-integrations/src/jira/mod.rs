//! Jira, as Zulip's `jira` integration (`zerver/webhooks/jira/view.py`, the version of
//! Zulip main whose tests match the fixtures of zulip/zulip `dac9e47`).
//!
//! The event is the body's `webhookEvent` (or `jira:issue_updated` for a payload with
//! only a `transition`), and that name is what `only_events`/`exclude_events` match.
//! Sprint, worklog, link, version and attachment events are ignored; a payload with no
//! event at all is refused as anomalous; other events are unsupported. An issue update
//! is worded by what it carries (a comment, a changelog or a transition), and comments
//! in Jira's wiki markup are turned into Markdown (`markup.rs`).
//!
//! One difference: Zulip names Zulip users where it can find them in the organization
//! (the assignee by e-mail address, a `[~name]` mention by full name or address).
//! Handlers here see only the request, so they write what Zulip writes when no user
//! matches: the assignee's address and the mentioned name, both in bold.

mod markup;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::git::{ends_with_punctuation, rstrip};
use crate::wild::{at, str_at, truthy};
use crate::{
    AuthScheme, EventSource, Fixture, HandlerError, HandlerOutput, Integration, Payload,
    WebhookMessage, lookup,
};

/// Zulip's `ALL_EVENT_TYPES`: the events with a message.
const EVENT_TYPES: &[&str] = &[
    "jira:issue_created",
    "jira:issue_deleted",
    "jira:issue_updated",
    "comment_created",
    "comment_updated",
    "comment_deleted",
];

/// Events answered with success and no message (`IGNORED_EVENTS`).
const IGNORED_EVENTS: &[&str] = &[
    "attachment_created",
    "issuelink_created",
    "issuelink_deleted",
    "jira:version_released",
    "jira:worklog_updated",
    "sprint_closed",
    "sprint_started",
    "worklog_created",
    "worklog_updated",
];

/// The title of an issue that a comment event does not describe (old Jira versions).
const NO_TITLE: &str = "Upgrade Jira to get the issue title here.";

macro_rules! fixture {
    ($name:literal) => {
        Fixture {
            name: $name,
            body: include_str!(concat!("../fixtures/jira/", $name, ".json")),
            headers: &[],
        }
    };
}

const FIXTURES: &[Fixture] = &[
    fixture!("issue_created"),
    fixture!("issue_updated"),
    fixture!("issue_commented"),
    fixture!("comment_created"),
    fixture!("issue_deleted"),
];

pub fn integration() -> Integration {
    Integration {
        name: "jira",
        display_name: "Jira",
        categories: &["project-management"],
        view_name: "Jira",
        auth: AuthScheme::ApiKey,
        event_source: EventSource::BodyField("webhookEvent"),
        event_types: EVENT_TYPES,
        config_options: &[],
        url_options: &[],
        fixtures: FIXTURES,
        handler,
    }
}

/// `api_jira_webhook`.
fn handler(payload: &Payload<'_>) -> Result<HandlerOutput, HandlerError> {
    let json = payload.json;
    let event = event_type(json)?;
    if IGNORED_EVENTS.contains(&event) {
        return Err(HandlerError::Ignored);
    }
    let content: fn(&Value) -> Result<String, HandlerError> = match event {
        "jira:issue_created" => created,
        "jira:issue_deleted" => deleted,
        "jira:issue_updated" => updated,
        "comment_created" => |json| comment(json, "commented on", ""),
        "comment_updated" => |json| comment(json, "updated their comment on", ""),
        "comment_deleted" => |json| comment(json, "deleted their comment on", "~~"),
        other => return Err(HandlerError::UnsupportedEvent(other.to_owned())),
    };
    let topic = format!("{}: {}", issue_id(json)?, issue_title(json)?);
    let content = content(json)?;
    Ok(HandlerOutput {
        event: Some(event.to_owned()),
        item_events: Vec::new(),
        messages: vec![WebhookMessage {
            topic,
            // As Zulip stores a message (`normalize_body`).
            content: rstrip(&content).trim_start_matches('\n').to_owned(),
        }],
    })
}

/// `get_event_type`: `webhookEvent`, or an update when there is only a transition.
fn event_type(json: &Value) -> Result<&str, HandlerError> {
    let Value::Object(fields) = json else {
        return Err(HandlerError::MissingKey("webhookEvent".into()));
    };
    match fields.get("webhookEvent") {
        Some(Value::String(event)) => Ok(event),
        None | Some(Value::Null) if fields.get("transition").is_some_and(truthy) => {
            Ok("jira:issue_updated")
        }
        None | Some(Value::Null) => Err(HandlerError::AnomalousPayload),
        Some(_) => Err(HandlerError::MissingKey("webhookEvent".into())),
    }
}

/// Zulip's `get_in(...).tame(check_string)`: a string at the pointer, `default` when any
/// step is absent or not an object, an error when the value is not a string.
fn get_in<'a>(json: &'a Value, pointer: &str, default: &'a str) -> Result<&'a str, HandlerError> {
    match lookup(json, pointer) {
        None => Ok(default),
        Some(_) => str_at(json, pointer),
    }
}

fn has_issue(json: &Value) -> bool {
    json.get("issue").is_some()
}

/// `get_issue_id`: the issue's key, or else the issue number in the comment's URL.
fn issue_id(json: &Value) -> Result<String, HandlerError> {
    if has_issue(json) {
        return get_in(json, "/issue/key", "").map(str::to_owned);
    }
    let url = str_at(json, "/comment/self")?;
    let parts: Vec<&str> = url.split('/').collect();
    match parts.len().checked_sub(3) {
        Some(index) => Ok(parts[index].to_owned()),
        // Zulip fails on a URL with fewer parts.
        None => Err(HandlerError::MissingKey("self".into())),
    }
}

/// `get_issue_title`.
fn issue_title(json: &Value) -> Result<&str, HandlerError> {
    match has_issue(json) {
        true => get_in(json, "/issue/fields/summary", ""),
        false => Ok(NO_TITLE),
    }
}

/// `get_issue_string`: `key: title`, linked to `/browse/<key>` beside the issue's REST
/// URL when it has one.
fn issue_string(json: &Value, issue_id: &str) -> Result<String, HandlerError> {
    let text = format!("{issue_id}: {}", issue_title(json)?);
    let rest_url = get_in(json, "/issue/self", "")?;
    Ok(match base_url(rest_url) {
        Some(base) => format!("[{text}]({base}/browse/{issue_id})"),
        None => text,
    })
}

/// `re.match(r"(.*)\/rest\/api/.*", url).group(1)`: the first line up to its last
/// `/rest/api/`.
fn base_url(url: &str) -> Option<&str> {
    let line = url.split('\n').next().unwrap_or_default();
    line.rfind("/rest/api/").map(|end| &line[..end])
}

/// `get_issue_author`.
fn author(json: &Value) -> Result<&str, HandlerError> {
    get_in(json, "/user/displayName", "")
}

/// `get_assignee_mention`, as Zulip writes it when no user has the address.
fn assignee_mention(email: &str) -> String {
    match email {
        "" => String::new(),
        email => format!("**{email}**"),
    }
}

/// `handle_created_issue_event`.
fn created(json: &Value) -> Result<String, HandlerError> {
    let author = author(json)?;
    let issue = issue_string(json, &issue_id(json)?)?;
    let priority = get_in(json, "/issue/fields/priority/name", "")?;
    let assignee = get_in(json, "/issue/fields/assignee/displayName", "no one")?;
    Ok(format!(
        "{author} created {issue}:\n\n* **Priority**: {priority}\n* **Assignee**: {assignee}"
    ))
}

/// `handle_deleted_issue_event`.
fn deleted(json: &Value) -> Result<String, HandlerError> {
    let punctuation = match ends_with_punctuation(issue_title(json)?) {
        true => "",
        false => ".",
    };
    let author = author(json)?;
    let issue = issue_string(json, &issue_id(json)?)?;
    Ok(format!("{author} deleted {issue}{punctuation}"))
}

/// `handle_comment_{created,updated,deleted}_event`; `strike` wraps a deleted comment.
fn comment(json: &Value, verb: &str, strike: &str) -> Result<String, HandlerError> {
    let author = str_at(json, "/comment/author/displayName")?;
    let issue = issue_string(json, &issue_id(json)?)?;
    // Jira escapes `!` as `\!` (`normalize_comment`).
    let body = str_at(json, "/comment/body")?.replace("\\!", "!");
    Ok(format!(
        "{author} {verb} {issue}\n``` quote\n{strike}{body}{strike}\n```\n"
    ))
}

/// `get_sub_event_for_update_issue`.
fn sub_event(json: &Value) -> Result<&str, HandlerError> {
    let sub_event = match json.get("issue_event_type_name") {
        None => "",
        Some(_) => str_at(json, "/issue_event_type_name")?,
    };
    if sub_event.is_empty() {
        if json.get("comment").is_some_and(truthy) {
            return Ok("issue_commented");
        }
        if json.get("transition").is_some_and(truthy) {
            return Ok("issue_transited");
        }
    }
    Ok(sub_event)
}

/// `check_none_or(check_string)` on an optional field of an object.
fn optional_str<'a>(json: &'a Value, key: &str) -> Result<Option<&'a str>, HandlerError> {
    match json.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(HandlerError::MissingKey(key.to_owned())),
    }
}

/// `add_change_info`: a field Zulip could not name is `None`, as Python prints it.
fn change_info(content: &mut String, field: Option<&str>, from: Option<&str>, to: &str) {
    content.push_str(&format!("* Changed {}", field.unwrap_or("None")));
    if let Some(from) = from.filter(|from| !from.is_empty()) {
        content.push_str(&format!(" from **{from}**"));
    }
    if !to.is_empty() {
        content.push_str(&format!(" to {to}\n"));
    }
}

/// `handle_updated_issue_event`: a comment added, edited or deleted, or the changes
/// made (from the changelog, or else the transition).
fn updated(json: &Value) -> Result<String, HandlerError> {
    let issue_id = get_in(json, "/issue/key", "")?;
    let issue = issue_string(json, issue_id)?;
    let assignee = assignee_mention(get_in(json, "/issue/fields/assignee/emailAddress", "")?);
    let assignee_blurb = match assignee.as_str() {
        "" => String::new(),
        mention => format!(" (assigned to {mention})"),
    };
    let sub_event = sub_event(json)?;
    if sub_event.contains("comment") {
        let verb = match sub_event {
            "issue_commented" => "commented on",
            "issue_comment_edited" => "edited a comment on",
            _ => "deleted a comment from",
        };
        let author = match optional_str(json, "webhookEvent")? {
            Some("comment_created") => str_at(json, "/comment/author/displayName")?,
            _ => author(json)?,
        };
        let content = format!("{author} {verb} {issue}{assignee_blurb}");
        let body = get_in(json, "/comment/body", "")?;
        return Ok(match body {
            "" => format!("{content}."),
            body => format!("{content}:\n\n``` quote\n{}\n```", markup::convert(body)),
        });
    }
    let mut content = format!("{} updated {issue}{assignee_blurb}:\n\n", author(json)?);
    match json.get("changelog") {
        Some(changelog) if truthy(changelog) => {
            let items = at(changelog, "/items")?
                .as_array()
                .ok_or_else(|| HandlerError::MissingKey("items".into()))?;
            for item in items {
                if !item.is_object() {
                    return Err(HandlerError::MissingKey("items".into()));
                }
                let field = optional_str(item, "field")?;
                let to = match field {
                    Some("assignee") if !assignee.is_empty() => assignee.clone(),
                    _ => format!("**{}**", optional_str(item, "toString")?.unwrap_or("None")),
                };
                let from = optional_str(item, "fromString")?;
                change_info(&mut content, field, from, &to);
            }
        }
        _ if sub_event == "issue_transited" => {
            let from = get_in(json, "/transition/from_status", "")?;
            let to = format!("**{}**", get_in(json, "/transition/to_status", "")?);
            change_info(&mut content, Some("status"), Some(from), &to);
        }
        _ => {}
    }
    Ok(content)
}
