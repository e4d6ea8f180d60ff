//! Emoji typed as Unicode characters (`💩`, `🤷‍♀️`, `#️⃣`), which Zulip wraps in the
//! same span as a typed name, with the canonical name.
//!
//! Zulip finds candidates with the emoji grammar of Unicode TR51 (a regional
//! indicator pair, or an emoji with an optional modifier, VS16 + keycap, or tag
//! sequence, joined by ZWJs), skips a lone character that is text by default (`#`,
//! `1`, `©`, `↔`), drops VS16 and looks the code up: a sequence the table lacks
//! stays text whole, even when a part of it is known.

use std::sync::OnceLock;

use regex::Regex;

/// TR51's possible-emoji grammar, as Zulip uses it.
const POSSIBLE_EMOJI: &str = r"(?x)
    \p{RI} \p{RI}
    | \p{Emoji}
      (?: \p{Emoji_Modifier} | \x{FE0F} \x{20E3}? | [\x{E0020}-\x{E007E}]+ \x{E007F} )?
      (?: \x{200D}
        (?: \p{RI} \p{RI}
        | \p{Emoji}
          (?: \p{Emoji_Modifier} | \x{FE0F} \x{20E3}? | [\x{E0020}-\x{E007E}]+ \x{E007F} )?
        )
      )*";

/// A single character shown as text by default, with an optional keycap.
const TEXT_PRESENTATION: &str = r"^\P{Emoji_Presentation}\x{20E3}?$";

struct Patterns {
    possible: Regex,
    text_presentation: Regex,
}

/// The compiled patterns; `None` only if they failed to compile, which the tests
/// rule out (emoji then simply stay text).
fn patterns() -> Option<&'static Patterns> {
    static PATTERNS: OnceLock<Option<Patterns>> = OnceLock::new();
    PATTERNS
        .get_or_init(|| {
            Some(Patterns {
                possible: Regex::new(POSSIBLE_EMOJI).ok()?,
                text_presentation: Regex::new(TEXT_PRESENTATION).ok()?,
            })
        })
        .as_ref()
}

/// One emoji found in text: its byte range and Zulip's code for it.
pub(super) struct Found {
    pub start: usize,
    pub end: usize,
    pub code: String,
}

/// The convertible emoji in `text`, in order. ASCII text holds none (an ASCII emoji
/// character is always text by default and needs a non-ASCII VS16 to qualify).
pub(super) fn find(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    if text.is_ascii() {
        return found;
    }
    let Some(patterns) = patterns() else {
        return found;
    };
    for candidate in patterns.possible.find_iter(text) {
        if patterns.text_presentation.is_match(candidate.as_str()) {
            continue;
        }
        found.push(Found {
            start: candidate.start(),
            end: candidate.end(),
            code: code_of(candidate.as_str()),
        });
    }
    found
}

/// Zulip's emoji code: lowercase hex code points (at least 4 digits) joined by
/// `-`, without U+FE0F.
pub(super) fn code_of(emoji: &str) -> String {
    let mut code = String::with_capacity(emoji.len() * 2);
    for c in emoji.chars().filter(|&c| c != '\u{fe0f}') {
        if !code.is_empty() {
            code.push('-');
        }
        code.push_str(&format!("{:04x}", u32::from(c)));
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<String> {
        find(text).into_iter().map(|found| found.code).collect()
    }

    #[test]
    fn patterns_compile() {
        let started = std::time::Instant::now();
        assert!(patterns().is_some());
        // Reported, not asserted: timing depends on the machine.
        println!("compiled in {:?}", started.elapsed());
    }

    #[test]
    fn sequences_are_found_whole() {
        assert_eq!(codes("🤷‍♀️"), ["1f937-200d-2640"]);
        assert_eq!(codes("👁‍🗨 #️⃣"), ["1f441-200d-1f5e8", "0023-20e3"]);
        assert_eq!(codes("🍋‍🟪"), ["1f34b-200d-1f7ea"]);
        assert_eq!(codes("🇫🇷"), ["1f1eb-1f1f7"]);
        assert_eq!(codes("👍🏽"), ["1f44d-1f3fd"]);
    }

    #[test]
    fn text_presentation_characters_are_skipped_unless_qualified() {
        assert!(codes("# 1 © ↔ ⬆").is_empty());
        assert_eq!(codes("©️ ⬆️"), ["00a9", "2b06"]);
        assert_eq!(codes("⚓➗"), ["2693", "2797"]);
        assert!(codes("plain ascii :) 123").is_empty());
    }
}
