//! The connected server's integrations, as `POST /register` describes them in
//! `realm_incoming_webhook_bots`: what the URL builder offers.
//!
//! Every shape Zulip has sent is read, whatever level the server reports:
//! * no `realm_incoming_webhook_bots` at all (or a server refusing the type): no
//!   catalog, the user types a name;
//! * below feature level 207: names only (the old `config` object is ignored);
//! * 207: `display_name` and `all_event_types` (null: no event filtering);
//! * 318: `config_options` carry the URL options;
//! * 403: the URL options are `url_options`; `config_options` are then options set when
//!   creating the bot, not URL parameters, and are not offered;
//! * 485: an option's `validator` is called `input_type`.
//!
//! Unknown keys are ignored and missing ones tolerated; an entry without a usable name
//! is dropped rather than failing the whole catalog.

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::webhook_url::{MAX_EVENT_CHARS, MAX_INTEGRATION_CHARS, MAX_OPTION_CHARS};

/// The level at which URL options moved from `config_options` to `url_options`.
pub const URL_OPTIONS_LEVEL: u32 = 403;
/// Most integrations read (Zulip has about a hundred).
pub const MAX_INTEGRATIONS: usize = 1_000;
/// Most event types or options read per integration.
pub const MAX_ENTRIES: usize = 500;

/// What the server says about its incoming-webhook integrations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookCatalog {
    /// The server's `zulip_feature_level` (0 when it sent none).
    pub feature_level: u32,
    /// `None`: the server sent no catalog; the URL builder falls back to a typed name.
    pub integrations: Option<Vec<CatalogIntegration>>,
}

/// One integration of the server's catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CatalogIntegration {
    /// The URL's path segment (`/api/v1/external/<name>`).
    pub name: String,
    /// Zulip's display name; the name itself below feature level 207.
    pub display_name: String,
    /// The event names `only_events`/`exclude_events` match; empty when the server
    /// filters none (null) or did not say (below 207).
    pub event_types: Vec<String>,
    pub url_options: Vec<CatalogOption>,
}

/// An optional URL parameter of an integration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CatalogOption {
    /// The query parameter.
    pub key: String,
    /// Zulip's label; empty for some of Zulip's presets (`branches`).
    pub label: String,
    pub kind: OptionKind,
}

/// How an option is filled in: a checkbox (`check_bool`) or free text (anything else).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum OptionKind {
    Text,
    Boolean,
}

impl OptionKind {
    /// Zulip's validator names (`check_bool`); level 485's `input_type` values are not
    /// documented, so the plausible spellings of a boolean are accepted too.
    fn from_zulip(name: &str) -> Self {
        match name {
            "check_bool" | "bool" | "boolean" | "checkbox" => Self::Boolean,
            _ => Self::Text,
        }
    }
}

/// Reads the catalog out of a `register` answer (the whole body).
pub fn parse(register: &Value) -> WebhookCatalog {
    let feature_level = register
        .get("zulip_feature_level")
        .and_then(Value::as_u64)
        .and_then(|level| u32::try_from(level).ok())
        .unwrap_or(0);
    let integrations = register
        .get("realm_incoming_webhook_bots")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .take(MAX_INTEGRATIONS)
                .filter_map(|item| integration(item, feature_level))
                .collect()
        });
    WebhookCatalog {
        feature_level,
        integrations,
    }
}

fn integration(item: &Value, level: u32) -> Option<CatalogIntegration> {
    let name = item.get("name")?.as_str()?.trim();
    if name.is_empty() || name.chars().count() > MAX_INTEGRATION_CHARS {
        return None;
    }
    let display_name = item
        .get("display_name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|display| !display.is_empty())
        .unwrap_or(name);
    let event_types = item
        .get("all_event_types")
        .and_then(Value::as_array)
        .map(|events| {
            events
                .iter()
                .filter_map(Value::as_str)
                .filter(|event| !event.is_empty() && event.chars().count() <= MAX_EVENT_CHARS)
                .take(MAX_ENTRIES)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    // `url_options` when the server sends them; before level 403 the URL options were
    // `config_options`; from 403 on, `config_options` are not URL parameters.
    let options = match item.get("url_options") {
        Some(url_options) => Some(url_options),
        None if level < URL_OPTIONS_LEVEL => item.get("config_options"),
        None => None,
    };
    let url_options = options
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(option).take(MAX_ENTRIES).collect())
        .unwrap_or_default();
    Some(CatalogIntegration {
        name: name.to_owned(),
        display_name: display_name.to_owned(),
        event_types,
        url_options,
    })
}

fn option(item: &Value) -> Option<CatalogOption> {
    let key = item.get("key")?.as_str()?.trim();
    if key.is_empty() || key.chars().count() > MAX_OPTION_CHARS {
        return None;
    }
    let label = item.get("label").and_then(Value::as_str).unwrap_or("");
    let kind = item
        .get("input_type")
        .or_else(|| item.get("validator"))
        .and_then(Value::as_str)
        .map_or(OptionKind::Text, OptionKind::from_zulip);
    Some(CatalogOption {
        key: key.to_owned(),
        label: label.to_owned(),
        kind,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// GitHub's URL options as Zulip declares them (`integrations.py`, `common.py`).
    fn github_options(validator: &str) -> Value {
        json!([
            {"key": "branches", "label": "", validator: "check_string"},
            {"key": "ignore_private_repositories",
             "label": "Exclude notifications from private repositories", validator: "check_bool"},
            {"key": "include_repository_name",
             "label": "Include repository name in the notifications", validator: "check_bool"},
        ])
    }

    /// The first of GitHub's event types, as Zulip's view lists them.
    const GITHUB_EVENTS: [&str; 3] = ["commit_comment", "closed_pull_request", "create"];

    fn expected_github() -> CatalogIntegration {
        let option = |key: &str, label: &str, kind| CatalogOption {
            key: key.into(),
            label: label.into(),
            kind,
        };
        CatalogIntegration {
            name: "github".into(),
            display_name: "GitHub".into(),
            event_types: GITHUB_EVENTS.map(String::from).to_vec(),
            url_options: vec![
                option("branches", "", OptionKind::Text),
                option(
                    "ignore_private_repositories",
                    "Exclude notifications from private repositories",
                    OptionKind::Boolean,
                ),
                option(
                    "include_repository_name",
                    "Include repository name in the notifications",
                    OptionKind::Boolean,
                ),
            ],
        }
    }

    fn integrations(body: &Value) -> Vec<CatalogIntegration> {
        parse(body).integrations.unwrap_or_default()
    }

    #[test]
    fn zulip_10_carries_url_options_in_config_options() {
        let body = json!({
            "result": "success", "msg": "", "zulip_feature_level": 372,
            "realm_incoming_webhook_bots": [
                {"name": "github", "display_name": "GitHub", "all_event_types": GITHUB_EVENTS,
                 "config_options": github_options("validator")},
                {"name": "helloworld", "display_name": "Hello World", "all_event_types": null,
                 "config_options": []},
            ],
        });
        let catalog = parse(&body);
        assert_eq!(catalog.feature_level, 372);
        let list = catalog.integrations.unwrap_or_default();
        assert_eq!(list[0], expected_github());
        assert!(list[1].event_types.is_empty() && list[1].url_options.is_empty());
    }

    #[test]
    fn zulip_11_reads_url_options_and_leaves_config_options_out() {
        let body = json!({
            "zulip_feature_level": 421,
            "realm_incoming_webhook_bots": [
                {"name": "github", "display_name": "GitHub", "all_event_types": GITHUB_EVENTS,
                 "config_options": [{"key": "secret", "label": "Secret", "validator": "check_string"}],
                 "url_options": github_options("validator")},
            ],
        });
        assert_eq!(integrations(&body), vec![expected_github()]);
    }

    #[test]
    fn zulip_12_says_input_type() {
        let body = json!({
            "zulip_feature_level": 500,
            "realm_incoming_webhook_bots": [
                {"name": "github", "display_name": "GitHub", "all_event_types": GITHUB_EVENTS,
                 "config_options": [], "url_options": github_options("input_type")},
            ],
        });
        assert_eq!(integrations(&body), vec![expected_github()]);
    }

    #[test]
    fn from_level_403_config_options_alone_are_not_url_options() {
        let body = json!({
            "zulip_feature_level": 403,
            "realm_incoming_webhook_bots": [
                {"name": "github", "display_name": "GitHub", "all_event_types": null,
                 "config_options": github_options("validator")},
            ],
        });
        assert!(integrations(&body)[0].url_options.is_empty());
    }

    #[test]
    fn zulip_8_and_older_shapes_are_names_with_what_they_have() {
        let at_207 = json!({
            "zulip_feature_level": 207,
            "realm_incoming_webhook_bots": [
                {"name": "github", "display_name": "GitHub", "all_event_types": GITHUB_EVENTS,
                 "config": {}},
            ],
        });
        let github = &integrations(&at_207)[0];
        assert_eq!(github.display_name, "GitHub");
        assert_eq!(github.event_types.len(), 3);
        assert!(github.url_options.is_empty());

        let at_200 = json!({
            "zulip_feature_level": 200,
            "realm_incoming_webhook_bots": [{"name": "github", "config": {}}],
        });
        let github = &integrations(&at_200)[0];
        assert_eq!(
            (github.name.as_str(), github.display_name.as_str()),
            ("github", "github")
        );
        assert!(github.event_types.is_empty());
    }

    #[test]
    fn without_the_field_there_is_no_catalog() {
        let catalog = parse(&json!({"result": "success", "msg": "", "zulip_feature_level": 100}));
        assert_eq!(catalog.integrations, None);
        assert_eq!(parse(&json!({})).feature_level, 0);
        assert_eq!(parse(&json!([])).integrations, None);
    }

    #[test]
    fn odd_entries_are_dropped_and_unknown_keys_ignored() {
        let body = json!({
            "zulip_feature_level": 9999999999u64,
            "realm_incoming_webhook_bots": [
                {"name": ""}, {"name": 7}, {"display_name": "No name"}, "github", null,
                {"name": "x".repeat(MAX_INTEGRATION_CHARS + 1)},
                {"name": "github", "display_name": 3, "all_event_types": [1, "push", ""],
                 "future": {"anything": true},
                 "url_options": [{"label": "no key"}, {"key": "branches"},
                                 {"key": "flag", "input_type": "check_bool", "validator": "check_string"}]},
            ],
        });
        let catalog = parse(&body);
        assert_eq!(catalog.feature_level, 0);
        let list = catalog.integrations.unwrap_or_default();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].display_name, "github");
        assert_eq!(list[0].event_types, vec!["push".to_owned()]);
        let kinds: Vec<(&str, OptionKind)> = list[0]
            .url_options
            .iter()
            .map(|o| (o.key.as_str(), o.kind))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("branches", OptionKind::Text),
                ("flag", OptionKind::Boolean)
            ]
        );
    }
}
