//! What Zulip tells clients about a URL option (`realm_incoming_webhook_bots[].url_options`):
//! its label and validator. An [`crate::Integration`] names only the keys it reads; the
//! labels and validators are Zulip's presets (`zerver/lib/webhooks/common.py`) and the
//! few options Zulip declares per integration (`zerver/lib/integrations.py`), kept here
//! once so that the server's `register` and the app's URL builder agree.

use serde::Serialize;

use crate::Validator;

/// One URL option as Zulip describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UrlOption {
    pub key: &'static str,
    /// Zulip's label; empty for the `branches` and `mapping` presets, as Zulip sends them.
    pub label: &'static str,
    pub validator: Validator,
}

/// Zulip's URL options by key, with its labels and validators.
const KNOWN: &[UrlOption] = &[
    UrlOption {
        key: "branches",
        label: "",
        validator: Validator::Text,
    },
    UrlOption {
        key: "ignore_private_repositories",
        label: "Exclude notifications from private repositories",
        validator: Validator::Boolean,
    },
    UrlOption {
        key: "include_repository_name",
        label: "Include repository name in the notifications",
        validator: Validator::Boolean,
    },
    UrlOption {
        key: "mapping",
        label: "",
        validator: Validator::Text,
    },
];

/// The description of URL option `key`: Zulip's when it has one, otherwise free text
/// labelled by the key (an option an integration reads that Zulip does not declare).
pub fn url_option(key: &'static str) -> UrlOption {
    KNOWN
        .iter()
        .find(|option| option.key == key)
        .copied()
        .unwrap_or(UrlOption {
            key,
            label: key,
            validator: Validator::Text,
        })
}

impl Validator {
    /// The name of Zulip's validator function, as `register` sends it.
    pub fn zulip_name(self) -> &'static str {
        match self {
            Validator::Text => "check_string",
            Validator::Boolean => "check_bool",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_carry_zulips_labels_and_others_fall_back_to_text() {
        let private = url_option("ignore_private_repositories");
        assert_eq!(private.validator.zulip_name(), "check_bool");
        assert_eq!(
            private.label,
            "Exclude notifications from private repositories"
        );
        assert_eq!(url_option("branches").label, "");
        let other = url_option("desc");
        assert_eq!((other.label, other.validator), ("desc", Validator::Text));
    }
}
