//! Zulip's limits on what a message may carry, and how it cuts what is longer: shared by
//! the server (every path that sends) and by the integrations' replay of Zulip's own
//! tests, which compare what Zulip stores, cut.

/// Zulip's `MAX_TOPIC_NAME_LENGTH`.
pub const MAX_TOPIC_CHARS: usize = 60;
/// Zulip's `max_message_length` (the realm key Zulip's `register` reports).
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
