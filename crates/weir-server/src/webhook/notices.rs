//! Notification Bot's texts about a webhook's missing channel, shared by the endpoint
//! (which sends them) and the app's dry run (which shows the one a send would cause).

use crate::webhook::plan::is_stream_id;

/// What the bot's owner is told when `stream` (the URL's `stream`, as sent) names no
/// channel the bot can post to: Zulip's texts, by id or by name. The name is quoted
/// escaped ([`escape_markdown`]).
pub fn missing_channel_notice(bot_email: &str, stream: &str) -> String {
    if is_stream_id(stream) {
        format!(
            "Your bot `{bot_email}` tried to send a message to channel ID {stream}, but there \
             is no channel with that ID."
        )
    } else {
        format!(
            "Your bot `{bot_email}` tried to send a message to channel #**{}**, but that \
             channel does not exist. Click [here](#channels/new) to create it.",
            escape_markdown(stream.trim())
        )
    }
}

/// Backslash-escapes a name's ASCII punctuation, so that a name quoted in a notice
/// cannot carry Markdown (links, emphasis, mentions) into a system bot's message.
/// Zulip quotes it as it came: a deliberate difference.
pub fn escape_markdown(name: &str) -> String {
    let mut escaped = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_punctuation() {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_get_zulips_texts() {
        assert_eq!(
            missing_channel_notice("relay-bot@x.test", " genral "),
            "Your bot `relay-bot@x.test` tried to send a message to channel #**genral**, but \
             that channel does not exist. Click [here](#channels/new) to create it."
        );
        assert_eq!(
            missing_channel_notice("relay-bot@x.test", "77"),
            "Your bot `relay-bot@x.test` tried to send a message to channel ID 77, but there \
             is no channel with that ID."
        );
        assert!(missing_channel_notice("b@x", "a*b").contains("#**a\\*b**"));
    }
}
