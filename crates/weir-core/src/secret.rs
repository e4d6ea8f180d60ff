//! [`Secret`]: an API key that cannot leak through logs or serialization by accident.

use std::fmt;

use serde::{Deserialize, Deserializer};
use zeroize::Zeroizing;

/// What `Debug` and `Display` print instead of the secret.
const REDACTED: &str = "[redacted]";

/// An API key (or any other credential) held in memory.
///
/// - `Debug` and `Display` print `[redacted]`, never the value.
/// - It implements `Deserialize` (so responses carrying a key decode straight into it) but
///   deliberately not `Serialize`: a DTO that embeds a `Secret` cannot be sent over IPC
///   without an explicit [`Secret::expose`].
/// - Its bytes are overwritten with zeros when it is dropped.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Zeroizing<String>);

impl Secret {
    /// Wraps a value; the `String` is moved in, not copied.
    pub fn new(value: impl Into<String>) -> Self {
        Self(Zeroizing::new(value.into()))
    }

    /// The secret's text, for the few places that must have it: the HTTP authorization
    /// header, the keyring write, and an explicit reveal/copy command.
    pub fn expose(&self) -> &str {
        self.0.as_str()
    }

    /// Whether the secret is the empty string.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self::new(value)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({REDACTED})")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "abcdefghijklmnopqrstuvwxyz012345";

    #[test]
    fn debug_and_display_do_not_contain_the_key() {
        let secret = Secret::new(KEY);
        let debug = format!("{secret:?}");
        let pretty = format!("{secret:#?}");
        let display = format!("{secret}");
        for text in [&debug, &pretty, &display] {
            assert!(!text.contains(KEY), "{text}");
            assert!(text.contains("redacted"), "{text}");
        }
    }

    #[test]
    fn debug_of_a_containing_struct_is_redacted_too() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct Credentials {
            email: String,
            key: Secret,
        }
        let creds = Credentials {
            email: "iago@zulip.com".into(),
            key: Secret::new(KEY),
        };
        let text = format!("{creds:?}");
        assert!(
            text.contains("iago@zulip.com") && !text.contains(KEY),
            "{text}"
        );
    }

    #[test]
    fn expose_returns_the_value() {
        assert_eq!(Secret::from(KEY.to_string()).expose(), KEY);
        assert!(Secret::new("").is_empty());
    }

    #[test]
    fn deserializes_from_a_json_string() {
        let secret: Result<Secret, _> = serde_json::from_str(&format!("\"{KEY}\""));
        assert_eq!(secret.ok().as_ref().map(Secret::expose), Some(KEY));
    }
}
