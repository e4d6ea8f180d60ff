//! API keys: generation, format and constant-time comparison.

use rand::Rng;
use rand::distributions::Alphanumeric;
use subtle::ConstantTimeEq;

pub const API_KEY_LEN: usize = 32;

pub fn generate_api_key() -> String {
    rand::rngs::OsRng
        .sample_iter(&Alphanumeric)
        .take(API_KEY_LEN)
        .map(char::from)
        .collect()
}

/// Zulip's `has_api_key_format`: exactly 32 ASCII letters or digits.
pub fn has_api_key_format(key: &str) -> bool {
    key.len() == API_KEY_LEN && key.bytes().all(|byte| byte.is_ascii_alphanumeric())
}

/// Compares keys without leaking, through timing, how much of a guess was right.
pub fn keys_match(given: &str, stored: &str) -> bool {
    given.as_bytes().ct_eq(stored.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_have_the_api_key_format() {
        let key = generate_api_key();
        assert!(has_api_key_format(&key), "{key}");
        assert_ne!(key, generate_api_key());
    }

    #[test]
    fn format_rejects_wrong_length_and_symbols() {
        assert!(!has_api_key_format("short"));
        assert!(!has_api_key_format(
            &"a".repeat(31).to_owned().replace('a', "-")
        ));
        assert!(!has_api_key_format(&format!("{}!", "a".repeat(31))));
    }

    #[test]
    fn keys_match_only_when_equal() {
        assert!(keys_match("abc", "abc"));
        assert!(!keys_match("abc", "abd"));
        assert!(!keys_match("abc", "abcd"));
    }
}
