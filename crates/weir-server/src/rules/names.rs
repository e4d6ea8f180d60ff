//! Validation of the names users type: stream names, people's and bots' full names, and
//! bots' short names, by Zulip's rules.

use crate::error::ApiError;

/// Zulip's `Stream.MAX_NAME_LENGTH`.
pub const MAX_STREAM_NAME_CHARS: usize = 60;

/// Zulip's `Stream.MAX_DESCRIPTION_LENGTH` (`max_stream_description_length`).
pub const MAX_STREAM_DESCRIPTION_CHARS: usize = 1_024;

/// Zulip's `UserProfile.MIN_NAME_LENGTH` and `MAX_NAME_LENGTH`, for people and bots.
pub const MIN_FULL_NAME_CHARS: usize = 2;
pub const MAX_FULL_NAME_CHARS: usize = 100;

/// Zulip's `UserProfile.NAME_INVALID_CHARS`: they would break mention syntax or markup.
const NAME_INVALID_CHARS: [char; 6] = ['*', '`', '\\', '>', '"', '@'];

/// Zulip's `MAX_EMAIL_LENGTH`: a bot's `<short name>-bot@<domain>` must fit.
const MAX_EMAIL_CHARS: usize = 254;

/// Trims a stream name and checks it as Zulip's `check_stream_name` does.
pub fn check_stream_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request("Channel name can't be empty."));
    }
    if name.chars().count() > MAX_STREAM_NAME_CHARS {
        return Err(ApiError::bad_request(format!(
            "Channel name too long (limit: {MAX_STREAM_NAME_CHARS} characters)."
        )));
    }
    // Weir decision: bidirectional overrides are refused too (Zulip allows them), so that
    // no channel name can display as another.
    if let Some(position) = name
        .chars()
        .position(|c| !is_printable(c) || is_bidi_control(c))
    {
        return Err(ApiError::bad_request(format!(
            "Invalid character in channel name, at position {}.",
            position + 1
        )));
    }
    Ok(name.to_owned())
}

/// Zulip's `check_stream_topic`: no control characters or noncharacters, reported
/// by 1-based position in the trimmed topic. Bidirectional overrides are allowed, as
/// in Zulip.
pub fn check_topic(topic: &str) -> Result<(), ApiError> {
    match topic.trim().chars().position(|c| !is_printable(c)) {
        Some(position) => Err(ApiError::bad_request(format!(
            "Invalid character in topic, at position {}!",
            position + 1
        ))),
        None => Ok(()),
    }
}

/// Zulip's `check_full_name`: trimmed, 2 to 100 characters, no control or format
/// characters (Unicode category C: bidirectional overrides, zero-width characters,
/// private use, noncharacters), none of `` *`\>"@ ``, and no trailing `|<digits>`
/// (which mention syntax would read as a user id).
pub fn check_full_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    let length = name.chars().count();
    if length > MAX_FULL_NAME_CHARS {
        return Err(ApiError::bad_request("Name too long!"));
    }
    if length < MIN_FULL_NAME_CHARS {
        return Err(ApiError::bad_request("Name too short!"));
    }
    if name
        .chars()
        .any(|c| is_unicode_other(c) || NAME_INVALID_CHARS.contains(&c))
    {
        return Err(ApiError::bad_request("Invalid characters in name!"));
    }
    if let Some((_, id)) = raw.rsplit_once('|')
        && !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ApiError::bad_request("Invalid format!"));
    }
    Ok(name.to_owned())
}

/// A bot's short name, trimmed and lower-cased: it must make `<short>-bot@<domain>` a
/// valid address no longer than Zulip's 254 characters (ASCII letters, digits and
/// `-_.`, no leading or doubled dot), else Zulip's `Bad name or username`.
pub fn check_short_name(raw: &str, bot_domain: &str) -> Result<String, ApiError> {
    let short = raw.trim().to_lowercase();
    let valid = !short.is_empty()
        && short
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && !short.starts_with('.')
        && !short.contains("..")
        && short.len() + "-bot@".len() + bot_domain.len() <= MAX_EMAIL_CHARS;
    if !valid {
        return Err(ApiError::bad_request("Bad name or username"));
    }
    Ok(short)
}

/// The explicit directional formatting characters (embeddings, overrides, isolates and
/// their terminators), which reorder the text that follows them.
fn is_bidi_control(c: char) -> bool {
    matches!(u32::from(c), 0x202A..=0x202E | 0x2066..=0x2069)
}

/// Unicode's general category C that a name may hold: control (Cc), format (Cf),
/// private use (Co) and noncharacters. (Rust strings hold no surrogates, Cs; other
/// unassigned code points, Cn, would need Unicode's tables and are let through.)
fn is_unicode_other(c: char) -> bool {
    let code = u32::from(c);
    !is_printable(c)
        || matches!(
            code,
            0x00AD
                | 0x0600..=0x0605
                | 0x061C
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x180E
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
                | 0xE000..=0xF8FF
                | 0xF0000..=0xFFFFD
                | 0x100000..=0x10FFFD
        )
}

/// Zulip's `is_character_printable`: no control characters (Cc) and none of Unicode's 66
/// noncharacters (U+FDD0..U+FDEF and the last two code points of every plane). Rust strings
/// cannot hold surrogates (Cs), the third category Zulip refuses.
fn is_printable(c: char) -> bool {
    let code = u32::from(c);
    !(c.is_control() || (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(raw: &str) -> Option<String> {
        check_stream_name(raw).err().map(|error| error.msg)
    }

    fn full_name_error(raw: &str) -> Option<String> {
        check_full_name(raw).err().map(|error| error.msg)
    }

    #[test]
    fn topics_refuse_control_characters_and_noncharacters_by_position() {
        let error = |topic: &str| check_topic(topic).err().map(|error| error.msg);
        assert_eq!(
            error("Test\n\rTopic").as_deref(),
            Some("Invalid character in topic, at position 5!")
        );
        assert_eq!(
            error("Test\u{FFFE}Topic").as_deref(),
            Some("Invalid character in topic, at position 5!")
        );
        assert_eq!(
            error(" a\0").as_deref(),
            Some("Invalid character in topic, at position 2!")
        );
        assert!(check_topic("\u{202E}reversed").is_ok());
        assert!(check_topic(" padded\n").is_ok());
    }

    #[test]
    fn full_names_follow_zulips_rules() {
        assert_eq!(
            check_full_name("  Ada Okafor ").ok().as_deref(),
            Some("Ada Okafor")
        );
        assert!(check_full_name("Nina's Bot").is_ok());
        assert!(check_full_name(&"é".repeat(100)).is_ok());
        assert_eq!(
            full_name_error(&"é".repeat(101)).as_deref(),
            Some("Name too long!")
        );
        assert_eq!(full_name_error(" a ").as_deref(), Some("Name too short!"));
        for hostile in [
            "Ada\0Okafor",
            "Ada\u{7}",
            "\u{202E}gnp.exe",
            "Ada\u{2066}x",
            "zero\u{200B}width",
            "priv\u{E000}ate",
            "<b>*bold*</b>",
            "@**Ada Okafor**",
            "a`b",
            "quote\"d",
            "back\\slash",
        ] {
            assert_eq!(
                full_name_error(hostile).as_deref(),
                Some("Invalid characters in name!"),
                "{hostile:?}"
            );
        }
        assert_eq!(
            full_name_error("Ada|15").as_deref(),
            Some("Invalid format!")
        );
        assert!(check_full_name("Ada|B").is_ok());
    }

    #[test]
    fn short_names_must_make_a_valid_bot_address() {
        let short = |raw: &str| check_short_name(raw, "globex.test").ok();
        assert_eq!(short(" Build.Bot_2 ").as_deref(), Some("build.bot_2"));
        for bad in ["", "  ", "a b", "é", "a@b", ".a", "a..b", "a+b", "<b>"] {
            assert_eq!(short(bad), None, "{bad:?}");
        }
        let longest = 254 - "-bot@globex.test".len();
        assert!(short(&"a".repeat(longest)).is_some());
        assert_eq!(short(&"a".repeat(longest + 1)), None);
        assert_eq!(short(&"a".repeat(500)), None);
    }

    #[test]
    fn bidirectional_overrides_are_refused_in_stream_names() {
        assert_eq!(
            message("ab\u{202E}c").as_deref(),
            Some("Invalid character in channel name, at position 3.")
        );
        assert_eq!(
            message("\u{2067}x").as_deref(),
            Some("Invalid character in channel name, at position 1.")
        );
    }

    #[test]
    fn names_are_trimmed() {
        assert_eq!(
            check_stream_name("  Design \t").ok().as_deref(),
            Some("Design")
        );
    }

    #[test]
    fn empty_long_and_control_names_are_refused_with_zulips_texts() {
        assert_eq!(
            message("   ").as_deref(),
            Some("Channel name can't be empty.")
        );
        assert_eq!(
            message(&"é".repeat(61)).as_deref(),
            Some("Channel name too long (limit: 60 characters).")
        );
        assert!(check_stream_name(&"é".repeat(60)).is_ok());
        for nonchar in [
            '\u{FFFE}',
            '\u{FFFF}',
            '\u{FDD0}',
            '\u{1FFFE}',
            '\u{10FFFF}',
        ] {
            assert_eq!(
                message(&format!("ab{nonchar}")).as_deref(),
                Some("Invalid character in channel name, at position 3."),
                "{nonchar:?}"
            );
        }
        assert_eq!(
            message(" ab\u{7}c").as_deref(),
            Some("Invalid character in channel name, at position 3.")
        );
    }
}
