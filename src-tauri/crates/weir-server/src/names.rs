//! Validation of the names users type: stream names, bot names.

use crate::error::ApiError;

/// Zulip's `Stream.MAX_NAME_LENGTH`.
pub const MAX_STREAM_NAME_CHARS: usize = 60;

/// Zulip's `Stream.MAX_DESCRIPTION_LENGTH` (`max_stream_description_length`).
pub const MAX_STREAM_DESCRIPTION_CHARS: usize = 1_024;

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
    if let Some(position) = name.chars().position(|c| !is_printable(c)) {
        return Err(ApiError::bad_request(format!(
            "Invalid character in channel name, at position {}.",
            position + 1
        )));
    }
    Ok(name.to_owned())
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
