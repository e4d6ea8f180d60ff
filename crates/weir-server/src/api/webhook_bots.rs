//! `realm_incoming_webhook_bots` in `register`: the integrations this server serves
//! (`weir_integrations::registry()`), shaped as Zulip shapes them at the emulated
//! feature level, so that a client's "Generate URL for an integration" works the same
//! against weir-server as against Zulip:
//!
//! * below 207: `name` and `config` (an object of config-option key → description);
//! * 207: `display_name` and `all_event_types` (null when the integration has no event
//!   filtering) join them;
//! * 318: `config` becomes `config_options`, a list of `{key, label, validator}` that
//!   also carries the URL options;
//! * 403: the URL options move to their own `url_options`; `config_options` keeps only
//!   what is set when creating the bot;
//! * 485: `url_options` items say `input_type` where they said `validator` (same values).

use serde_json::{Map, Value, json};
use weir_integrations::{Integration, registry, url_option};

/// Feature levels at which the shape changes (see the module doc).
const DISPLAY_NAME_LEVEL: u32 = 207;
const CONFIG_OPTIONS_LEVEL: u32 = 318;
const URL_OPTIONS_LEVEL: u32 = 403;
const INPUT_TYPE_LEVEL: u32 = 485;

/// The whole list, at `level`.
pub fn catalog(level: u32) -> Value {
    Value::Array(registry().iter().map(|i| entry(i, level)).collect())
}

fn entry(integration: &Integration, level: u32) -> Value {
    let mut item = Map::new();
    item.insert("name".into(), json!(integration.name));
    if level >= DISPLAY_NAME_LEVEL {
        item.insert("display_name".into(), json!(integration.display_name));
        let events = (!integration.event_types.is_empty()).then_some(integration.event_types);
        item.insert("all_event_types".into(), json!(events));
    }
    let config = integration.config_options.iter().map(|option| {
        json!({
            "key": option.key,
            "label": option.description,
            "validator": option.validator.zulip_name(),
        })
    });
    let url = integration.url_options.iter().map(|key| {
        let option = url_option(key);
        let validator = if level >= INPUT_TYPE_LEVEL {
            "input_type"
        } else {
            "validator"
        };
        json!({
            "key": option.key,
            "label": option.label,
            validator: option.validator.zulip_name(),
        })
    });
    if level >= URL_OPTIONS_LEVEL {
        item.insert("config_options".into(), Value::Array(config.collect()));
        item.insert("url_options".into(), Value::Array(url.collect()));
    } else if level >= CONFIG_OPTIONS_LEVEL {
        item.insert(
            "config_options".into(),
            Value::Array(config.chain(url).collect()),
        );
    } else {
        let config: Map<String, Value> = integration
            .config_options
            .iter()
            .map(|option| (option.key.to_owned(), json!(option.description)))
            .collect();
        item.insert("config".into(), Value::Object(config));
    }
    Value::Object(item)
}
