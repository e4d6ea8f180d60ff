//! Incoming-webhook URLs, built the way Zulip's "Generate URL for an integration" dialog
//! builds them: `<site>/api/v1/external/<integration>?api_key=…&stream=…&topic=…`.
//!
//! A [`WebhookUrlSpec`] is everything but the key, so it can be remembered (the key
//! rotation assistant rebuilds each remembered URL with the new key). The full URL holds
//! the key and is therefore a [`Secret`]; [`masked`] is the form the UI shows.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::secret::Secret;
use crate::site::{InvalidSite, normalize_site};

/// What the UI shows in place of the key.
pub const KEY_MASK: &str = "********";
/// Longest integration name accepted (Zulip's are at most ~30 characters).
pub const MAX_INTEGRATION_CHARS: usize = 100;
/// Longest stream name or id (Zulip's `max_stream_name_length`).
pub const MAX_STREAM_CHARS: usize = 60;
/// Longest topic (Zulip's `max_topic_length`).
pub const MAX_TOPIC_CHARS: usize = 60;
/// Most patterns in `only_events` or `exclude_events` (what Weir's server accepts).
pub const MAX_EVENTS: usize = weir_integrations::MAX_EVENT_PATTERNS;
/// Longest event pattern.
pub const MAX_EVENT_CHARS: usize = weir_integrations::MAX_PATTERN_CHARS;
/// Most URL options.
pub const MAX_OPTIONS: usize = 32;
/// Longest URL option name or value.
pub const MAX_OPTION_CHARS: usize = 1_000;

/// A webhook URL without its key.
///
/// `stream` empty or absent means a direct message to the bot's owner; a value made only
/// of digits is a stream id, as the server reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookUrlSpec {
    pub integration: String,
    #[serde(default)]
    pub stream: Option<String>,
    #[serde(default)]
    pub topic: Option<String>,
    #[serde(default)]
    pub only_events: Vec<String>,
    #[serde(default)]
    pub exclude_events: Vec<String>,
    /// Integration settings (Zulip's config options and URL options), in order.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

/// Why a URL cannot be built. Never contains the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookUrlError {
    #[error(transparent)]
    InvalidSite(#[from] InvalidSite),
    #[error("the integration name is empty")]
    EmptyIntegration,
    #[error("{field} is longer than {max} characters")]
    TooLong { field: &'static str, max: usize },
    #[error("{field} has more than {max} entries")]
    TooMany { field: &'static str, max: usize },
    #[error("{field} contains a control character")]
    ControlCharacter { field: &'static str },
    #[error("an option name is empty")]
    EmptyOptionName,
    #[error("option {0} is reserved for the URL itself")]
    ReservedOption(String),
}

/// Query parameters the URL itself sets: options may not override them.
const RESERVED: &[&str] = &[
    "api_key",
    "stream",
    "topic",
    "only_events",
    "exclude_events",
];

impl WebhookUrlSpec {
    /// The same spec with blank fields dropped and text trimmed: what is built and what
    /// is remembered, so that two specs that build the same URL compare equal.
    pub fn normalized(&self) -> Self {
        let text = |value: &Option<String>| {
            value
                .as_deref()
                .map(str::trim)
                .filter(|value| !value.is_empty())
                .map(str::to_owned)
        };
        let events = |list: &[String]| {
            list.iter()
                .map(|event| event.trim())
                .filter(|event| !event.is_empty())
                .map(str::to_owned)
                .collect()
        };
        Self {
            integration: self.integration.trim().to_owned(),
            stream: text(&self.stream),
            topic: text(&self.topic),
            only_events: events(&self.only_events),
            exclude_events: events(&self.exclude_events),
            options: self
                .options
                .iter()
                .map(|(name, value)| (name.trim().to_owned(), value.clone()))
                .filter(|(_, value)| !value.is_empty())
                .collect(),
        }
    }

    /// Checks the limits; called by [`build`] and [`masked`] on the normalized spec.
    pub fn validate(&self) -> Result<(), WebhookUrlError> {
        if self.integration.is_empty() {
            return Err(WebhookUrlError::EmptyIntegration);
        }
        check_text(
            "the integration name",
            &self.integration,
            MAX_INTEGRATION_CHARS,
        )?;
        if let Some(stream) = &self.stream {
            check_text("the stream", stream, MAX_STREAM_CHARS)?;
        }
        if let Some(topic) = &self.topic {
            check_text("the topic", topic, MAX_TOPIC_CHARS)?;
        }
        for (field, list) in [
            ("only_events", &self.only_events),
            ("exclude_events", &self.exclude_events),
        ] {
            if list.len() > MAX_EVENTS {
                return Err(WebhookUrlError::TooMany {
                    field,
                    max: MAX_EVENTS,
                });
            }
            for event in list {
                check_text(field, event, MAX_EVENT_CHARS)?;
            }
        }
        if self.options.len() > MAX_OPTIONS {
            return Err(WebhookUrlError::TooMany {
                field: "the options",
                max: MAX_OPTIONS,
            });
        }
        for (name, value) in &self.options {
            if name.is_empty() {
                return Err(WebhookUrlError::EmptyOptionName);
            }
            if RESERVED.contains(&name.as_str()) {
                return Err(WebhookUrlError::ReservedOption(name.clone()));
            }
            check_text("an option name", name, MAX_OPTION_CHARS)?;
            check_text("an option value", value, MAX_OPTION_CHARS)?;
        }
        Ok(())
    }
}

fn check_text(field: &'static str, text: &str, max: usize) -> Result<(), WebhookUrlError> {
    if text.chars().count() > max {
        return Err(WebhookUrlError::TooLong { field, max });
    }
    if text.chars().any(char::is_control) {
        return Err(WebhookUrlError::ControlCharacter { field });
    }
    Ok(())
}

/// The full URL, key included, ready to paste into the third-party service.
pub fn build(site: &str, spec: &WebhookUrlSpec, key: &Secret) -> Result<Secret, WebhookUrlError> {
    render(site, spec, &encode(key.expose())).map(Secret::new)
}

/// The URL with the key replaced by [`KEY_MASK`]: safe to show, log and remember.
pub fn masked(site: &str, spec: &WebhookUrlSpec) -> Result<String, WebhookUrlError> {
    render(site, spec, KEY_MASK)
}

fn render(site: &str, spec: &WebhookUrlSpec, key_param: &str) -> Result<String, WebhookUrlError> {
    let site = normalize_site(site)?;
    let spec = spec.normalized();
    spec.validate()?;
    let mut url = format!(
        "{site}/api/v1/external/{}?api_key={key_param}",
        encode(&spec.integration)
    );
    let mut param = |name: &str, value: &str| {
        // Writing to a String cannot fail.
        let _ = write!(url, "&{}={}", encode(name), encode(value));
    };
    if let Some(stream) = &spec.stream {
        param("stream", stream);
    }
    if let Some(topic) = &spec.topic {
        param("topic", topic);
    }
    for (name, list) in [
        ("only_events", &spec.only_events),
        ("exclude_events", &spec.exclude_events),
    ] {
        if !list.is_empty() {
            // A JSON list, as the server's `only_events` parameter expects.
            param(name, &serde_json::Value::from(list.clone()).to_string());
        }
    }
    for (name, value) in &spec.options {
        param(name, value);
    }
    Ok(url)
}

/// Percent-encodes everything but RFC 3986's unreserved characters (UTF-8 bytes), so the
/// result is safe in a path segment and in a query value alike, and `+` stays a plus.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "abcdefghijklmnopqrstuvwxyz012345";
    const SITE: &str = "https://chat.example.com";

    fn spec(integration: &str) -> WebhookUrlSpec {
        WebhookUrlSpec {
            integration: integration.into(),
            ..WebhookUrlSpec::default()
        }
    }

    /// The query decoded as a server decodes it (`+` is a space, `%xx` are UTF-8 bytes).
    fn query_of(url: &str) -> Vec<(String, String)> {
        let query = url.split_once('?').map_or("", |(_, query)| query);
        form_urlencoded::parse(query.as_bytes())
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect()
    }

    fn built(spec: &WebhookUrlSpec) -> String {
        build(SITE, spec, &Secret::new(KEY))
            .map(|url| url.expose().to_owned())
            .unwrap()
    }

    #[test]
    fn minimal_url_is_a_direct_message_to_the_owner() {
        assert_eq!(
            built(&spec("helloworld")),
            format!("{SITE}/api/v1/external/helloworld?api_key={KEY}")
        );
    }

    #[test]
    fn names_with_spaces_ampersands_hashes_non_ascii_and_emoji_survive_decoding() {
        let tricky = [
            "release notes",
            "R&D",
            "#general",
            "a+b=c?d/e%f",
            "Café Zürich",
            "日本語",
            "deploys 🚀🔥",
            "👩‍💻 team",
        ];
        for name in tricky {
            let spec = WebhookUrlSpec {
                stream: Some(name.into()),
                topic: Some(format!("{name} topic")),
                ..spec("helloworld")
            };
            let url = built(&spec);
            let (_, query) = url.split_once('?').unwrap_or_default();
            assert!(
                !query.contains(' ') && !query.contains('#') && url.is_ascii(),
                "{url}"
            );
            assert_eq!(query.matches('&').count(), 2, "{url}");
            assert_eq!(
                query_of(&url),
                vec![
                    ("api_key".into(), KEY.into()),
                    ("stream".into(), name.into()),
                    ("topic".into(), format!("{name} topic")),
                ],
                "{url}"
            );
        }
    }

    #[test]
    fn a_typed_integration_name_is_one_encoded_path_segment() {
        let url = built(&spec("my hook/../x"));
        assert!(
            url.starts_with(&format!("{SITE}/api/v1/external/my%20hook%2F..%2Fx?")),
            "{url}"
        );
    }

    #[test]
    fn event_filters_are_json_lists_and_options_follow() {
        let spec = WebhookUrlSpec {
            stream: Some("dev".into()),
            only_events: vec!["pull_request_created".into(), "pull_request_*".into()],
            exclude_events: vec!["push".into()],
            options: vec![("branches".into(), "main,release/1.0".into())],
            ..spec("bitbucket2")
        };
        let query = query_of(&built(&spec));
        assert_eq!(
            query[2],
            (
                "only_events".into(),
                r#"["pull_request_created","pull_request_*"]"#.into()
            )
        );
        assert_eq!(query[3], ("exclude_events".into(), r#"["push"]"#.into()));
        assert_eq!(query[4], ("branches".into(), "main,release/1.0".into()));
    }

    /// A URL from a server's catalog: its event names as filters, a text option and a
    /// checked boolean one (sent as `true`; an unchecked one is left out).
    #[test]
    fn a_catalog_entry_builds_a_url_with_its_filters_and_options() {
        let register = serde_json::json!({
            "zulip_feature_level": 403,
            "realm_incoming_webhook_bots": [{
                "name": "github", "display_name": "GitHub",
                "all_event_types": ["create", "delete", "push"],
                "config_options": [],
                "url_options": [
                    {"key": "branches", "label": "", "validator": "check_string"},
                    {"key": "ignore_private_repositories",
                     "label": "Exclude notifications from private repositories",
                     "validator": "check_bool"},
                    {"key": "include_repository_name",
                     "label": "Include repository name in the notifications",
                     "validator": "check_bool"},
                ],
            }],
        });
        let catalog = crate::webhook_catalog::parse(&register);
        let github = catalog.integrations.unwrap_or_default().remove(0);
        let values = ["main,dev", "true", ""];
        let spec = WebhookUrlSpec {
            only_events: github.event_types[..2].to_vec(),
            exclude_events: github.event_types[2..].to_vec(),
            options: github
                .url_options
                .iter()
                .zip(values)
                .map(|(option, value)| (option.key.clone(), value.to_owned()))
                .collect(),
            ..spec(&github.name)
        };
        let query = query_of(&built(&spec));
        let expected: Vec<(String, String)> = [
            ("only_events", r#"["create","delete"]"#),
            ("exclude_events", r#"["push"]"#),
            ("branches", "main,dev"),
            ("ignore_private_repositories", "true"),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
        assert_eq!(query[1..], expected[..]);
    }

    #[test]
    fn blank_fields_are_left_out_and_text_is_trimmed() {
        let spec = WebhookUrlSpec {
            integration: " helloworld ".into(),
            stream: Some("  ".into()),
            topic: Some(" t ".into()),
            only_events: vec![" ".into()],
            options: vec![("branches".into(), String::new())],
            ..WebhookUrlSpec::default()
        };
        assert_eq!(
            built(&spec),
            format!("{SITE}/api/v1/external/helloworld?api_key={KEY}&topic=t")
        );
        assert_eq!(spec.normalized(), spec.normalized().normalized());
    }

    #[test]
    fn the_masked_url_never_contains_the_key() {
        let spec = WebhookUrlSpec {
            stream: Some("dev".into()),
            ..spec("helloworld")
        };
        let shown = masked("chat.example.com/", &spec).unwrap_or_default();
        assert_eq!(
            shown,
            format!("{SITE}/api/v1/external/helloworld?api_key={KEY_MASK}&stream=dev")
        );
        let full = build(SITE, &spec, &Secret::new(KEY)).map(|url| url.to_string());
        assert_eq!(full.as_deref(), Ok("[redacted]"));
    }

    #[test]
    fn limits_and_bad_input_are_errors() {
        let key = Secret::new(KEY);
        let too_long = WebhookUrlSpec {
            topic: Some("x".repeat(MAX_TOPIC_CHARS + 1)),
            ..spec("helloworld")
        };
        let many = WebhookUrlSpec {
            only_events: vec!["e".into(); MAX_EVENTS + 1],
            ..spec("helloworld")
        };
        let control = WebhookUrlSpec {
            stream: Some("a\nb".into()),
            ..spec("helloworld")
        };
        let reserved = WebhookUrlSpec {
            options: vec![("api_key".into(), "other".into())],
            ..spec("helloworld")
        };
        assert_eq!(
            build(SITE, &too_long, &key).err(),
            Some(WebhookUrlError::TooLong {
                field: "the topic",
                max: MAX_TOPIC_CHARS
            })
        );
        assert!(matches!(
            build(SITE, &many, &key),
            Err(WebhookUrlError::TooMany { .. })
        ));
        assert!(matches!(
            build(SITE, &control, &key),
            Err(WebhookUrlError::ControlCharacter { .. })
        ));
        assert!(matches!(
            build(SITE, &reserved, &key),
            Err(WebhookUrlError::ReservedOption(_))
        ));
        assert!(matches!(
            build(SITE, &spec("  "), &key),
            Err(WebhookUrlError::EmptyIntegration)
        ));
        assert!(matches!(
            build("ftp://x", &spec("helloworld"), &key),
            Err(WebhookUrlError::InvalidSite(_))
        ));
    }

    #[test]
    fn a_site_with_a_path_prefix_keeps_it() {
        let url = masked("https://example.com/zulip/", &spec("helloworld"));
        assert_eq!(
            url.as_deref(),
            Ok("https://example.com/zulip/api/v1/external/helloworld?api_key=********")
        );
    }

    #[test]
    fn specs_round_trip_through_json_without_a_key() {
        let spec = WebhookUrlSpec {
            stream: Some("dev".into()),
            only_events: vec!["push".into()],
            options: vec![("branches".into(), "main".into())],
            ..spec("bitbucket2")
        };
        let json = serde_json::to_string(&spec).unwrap_or_default();
        assert!(
            json.contains("onlyEvents") && !json.contains("api_key"),
            "{json}"
        );
        let back: Result<WebhookUrlSpec, _> = serde_json::from_str(&json);
        assert_eq!(back.ok(), Some(spec));
    }
}
