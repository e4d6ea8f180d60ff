//! A channel's `topics_policy` (Zulip 11, feature levels 392 and 404): whether messages
//! may go to the empty topic ("general chat"), must, or follow the organization, whose
//! policy in Weir is Zulip's default, `allow_empty_topic`.

use rusqlite::Connection;

use crate::error::{ApiError, Error};
use crate::store::{self, StreamRow, UserRow};

/// `topics_policy` exists on channels, subscribe and `PATCH /streams/{id}`.
pub const TOPICS_POLICY_LEVEL: u32 = 392;
/// `empty_topic_only` ("general chat" channels) is a value from this level.
pub const EMPTY_TOPIC_ONLY_LEVEL: u32 = 404;

/// The organization's policy, as `register` reports it (`realm_topics_policy`).
pub const REALM_TOPICS_POLICY: &str = "allow_empty_topic";

/// Zulip's name for the empty topic, in texts.
const EMPTY_TOPIC_NAME: &str = "general chat";

/// A policy's API spelling, checked against the values of `level`
/// (Zulip's `parse_enum_from_string_value`).
pub fn parse(raw: &str, level: u32) -> Result<&'static str, ApiError> {
    let known: &[&'static str] = if level >= EMPTY_TOPIC_ONLY_LEVEL {
        &[
            "inherit",
            "allow_empty_topic",
            "disable_empty_topic",
            "empty_topic_only",
        ]
    } else {
        &["inherit", "allow_empty_topic", "disable_empty_topic"]
    };
    known
        .iter()
        .find(|value| **value == raw)
        .copied()
        .ok_or_else(|| ApiError::bad_request("Invalid topics_policy"))
}

/// The policy as a channel object shows it (`inherit` when none is stored).
pub fn wire(stream: &StreamRow) -> String {
    stream
        .topics_policy
        .clone()
        .unwrap_or_else(|| "inherit".to_owned())
}

/// Who may set a policy other than `inherit`: the organization's
/// `can_set_topics_policy_group`, Zulip's default `role:members`.
pub fn check_may_set(caller: &UserRow) -> Result<(), Error> {
    if caller.is_guest() {
        return Err(ApiError::bad_request("Insufficient permission").into());
    }
    Ok(())
}

/// A channel may become `empty_topic_only` only when all its messages are in the
/// empty topic already.
pub fn check_may_become_empty_only(conn: &Connection, stream_id: i64) -> Result<(), Error> {
    if store::stream_has_named_topics(conn, stream_id)? {
        return Err(ApiError::bad_request(format!(
            "To enable this configuration, all messages in this channel must be in the \
             {EMPTY_TOPIC_NAME} topic. Consider renaming or deleting other topics."
        ))
        .into());
    }
    Ok(())
}

/// Refuses a message a channel's policy (`None`: `inherit`) does not let into `topic`,
/// in Zulip's words (`MessagesNotAllowedInEmptyTopicError`, `TopicsNotAllowedError`).
pub fn check_topic(policy: Option<&str>, topic: &str, level: u32) -> Result<(), Error> {
    if level < TOPICS_POLICY_LEVEL {
        return Ok(());
    }
    let policy = policy
        .filter(|policy| *policy != "inherit")
        .unwrap_or(REALM_TOPICS_POLICY);
    let refusal = match policy {
        "disable_empty_topic" if topic.is_empty() => format!(
            "Sending messages to the {EMPTY_TOPIC_NAME} topic is not allowed in this channel."
        ),
        "empty_topic_only" if !topic.is_empty() => {
            format!("Only the {EMPTY_TOPIC_NAME} topic is allowed in this channel.")
        }
        _ => return Ok(()),
    };
    Err(ApiError::bad_request(refusal).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_topic_only_is_a_value_from_its_level() {
        assert_eq!(
            parse("empty_topic_only", 404).ok(),
            Some("empty_topic_only")
        );
        assert!(parse("empty_topic_only", 403).is_err());
        assert!(parse("Inherit", 421).is_err());
        assert_eq!(
            parse("disable_empty_topic", 392).ok(),
            Some("disable_empty_topic")
        );
    }
}
