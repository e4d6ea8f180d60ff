//! Sending messages from inside a write: rendering, truncation, Notification Bot.

use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::render::render_markdown;
use crate::store::{self, NewMessage};

/// Zulip's limits on what a message may carry.
pub const MAX_TOPIC_CHARS: usize = 60;
pub const MAX_CONTENT_CHARS: usize = 10_000;
const TRUNCATION_MARKER: &str = "\n[message truncated]";

/// Cuts a topic to 60 characters, ending in `...` when cut.
pub fn truncate_topic(topic: &str) -> String {
    if topic.chars().count() <= MAX_TOPIC_CHARS {
        return topic.to_owned();
    }
    let kept: String = topic.chars().take(MAX_TOPIC_CHARS - 3).collect();
    format!("{kept}...")
}

/// Cuts a body so that, with the marker, it is exactly 10000 characters.
pub fn truncate_content(content: &str) -> String {
    if content.chars().count() <= MAX_CONTENT_CHARS {
        return content.to_owned();
    }
    let keep = MAX_CONTENT_CHARS - TRUNCATION_MARKER.chars().count();
    let kept: String = content.chars().take(keep).collect();
    format!("{kept}{TRUNCATION_MARKER}")
}

/// Stores a message with its rendering; returns its id.
pub fn send(conn: &Connection, mut message: NewMessage) -> Result<i64> {
    message.topic = truncate_topic(&message.topic);
    message.content = truncate_content(&message.content);
    message.rendered_content = render_markdown(&message.content);
    store::insert_message(conn, &message)
}

/// A direct message from Notification Bot to `recipient_id`.
pub fn notify(conn: &Connection, recipient_id: i64, content: &str, now: i64) -> Result<i64> {
    let bot = store::user_by_email(conn, store::seed::NOTIFICATION_BOT_EMAIL)?
        .ok_or_else(|| Error::Internal("Notification Bot is missing".into()))?;
    send(
        conn,
        NewMessage {
            sender_id: bot.user_id,
            stream_id: None,
            recipient_id: Some(recipient_id),
            topic: String::new(),
            content: content.to_owned(),
            rendered_content: String::new(),
            client: "Internal".into(),
            timestamp: now,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_topics_end_in_an_ellipsis_at_sixty_characters() {
        let cut = truncate_topic(&"t".repeat(61));
        assert_eq!(cut.chars().count(), 60);
        assert!(cut.ends_with("...") && cut.starts_with(&"t".repeat(57)));
        assert_eq!(truncate_topic(&"t".repeat(60)), "t".repeat(60));
    }

    #[test]
    fn long_bodies_are_exactly_ten_thousand_characters_with_the_marker() {
        let cut = truncate_content(&"é".repeat(10_001));
        assert_eq!(cut.chars().count(), 10_000);
        assert!(cut.ends_with("\n[message truncated]"));
        assert_eq!(truncate_content(&"x".repeat(10_000)).len(), 10_000);
    }
}
