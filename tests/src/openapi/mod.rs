//! Every response the harness receives is checked against Zulip's own OpenAPI document
//! (`tests/openapi/zulip.yaml`, Zulip 10.2), the way Zulip's test suite checks its
//! server with `validate_against_openapi_schema`.
//!
//! * The operation is found by method and path; paths the document does not describe
//!   (Weir's bot and webhook endpoints, unknown URLs) are not checked, as in Zulip.
//! * A success is checked against the operation's schema for its status. An error is
//!   checked against the operation's schema for that status or, failing that, against
//!   the document's shared error shapes (`CodedError`, `MissingArgumentError`, ...).
//! * `additionalProperties: false` is enforced: an undocumented field fails the test.
//! * [`EXCEPTIONS`] lists where Zulip's own server knowingly differs from its document;
//!   Weir follows the server there (see docs/zulip-compatibility.md).

pub mod schema;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use serde_json::{Value, json};

pub use schema::{Validator, new_in_level};

/// The feature level `weir-server` reports unless told otherwise.
pub const DEFAULT_FEATURE_LEVEL: u32 = 421;

/// Where Zulip's server differs from its document and Weir follows the server: a JSON
/// pointer into the document, the schema put there, and why.
pub const EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "/components/schemas/RateLimitedError/allOf/1/properties/retry-after",
        r#"{"type": "number"}"#,
        "Zulip sends `retry-after` as seconds with a fraction (e.g. 28.706807374954224), \
         as the document's own example shows, while its schema says integer.",
    ),
    (
        "/components/schemas/UnauthorizedPrincipalError",
        r##"{"allOf": [{"$ref": "#/components/schemas/CodedErrorBase"},
                      {"additionalProperties": false,
                       "properties": {"result": {}, "msg": {}, "code": {},
                                      "principal": {"oneOf": [{"type": "string"},
                                                            {"type": "integer"}]}}}]}"##,
        "Below feature level 208 Zulip refused unknown or deactivated principals with 403 \
         `UNAUTHORIZED_PRINCIPAL` and a `principal` field (the e-mail or id given); the 10.2 document no longer \
         describes that error. Weir answers so when emulating those levels.",
    ),
    (
        "/paths/~1users~1me/get/responses/200/content/application~1json/schema/allOf/1/properties/bot_type",
        r#"{"type": "integer", "nullable": true}"#,
        "Zulip's `GET /users/me` answers a bot with its `bot_type` (the user record it \
         formats has it for bots), which the document does not list.",
    ),
    (
        "/paths/~1users~1me/get/responses/200/content/application~1json/schema/allOf/1/properties/bot_owner_id",
        r#"{"type": "integer", "nullable": true}"#,
        "Likewise `bot_owner_id` for bots.",
    ),
    (
        "/paths/~1user_groups~1{user_group_id}~1deactivate/post/responses/400/content/application~1json/schema/oneOf",
        r##"[{"$ref": "#/components/schemas/CodedError"},
             {"allOf": [{"$ref": "#/components/schemas/CodedErrorBase"},
                        {"additionalProperties": false,
                         "properties": {"result": {}, "msg": {}, "code": {},
                                        "objections": {"type": "array",
                                                       "items": {"type": "object"}}}}]}]"##,
        "Zulip's `CANNOT_DEACTIVATE_GROUP_IN_USE` error carries `objections`, as the \
         document's own example shows, while the schema it names (`CodedError`) has no \
         such field.",
    ),
    (
        "/paths/~1register/post/responses/200/content/application~1json/schema/allOf/1/properties/realm_incoming_webhook_bots/items/properties/config",
        r#"{"type": "object", "additionalProperties": {"type": "string"}}"#,
        "Below feature level 318 Zulip sent each integration's `config` (config-option key \
         to description), which level 318 renamed `config_options`; the 10.2 document \
         describes only the new name. Weir answers so when emulating those levels.",
    ),
    (
        "/paths/~1register/post/responses/200/content/application~1json/schema/allOf/1/properties/realm_incoming_webhook_bots/items/properties/url_options",
        r#"{"type": "array", "items": {"type": "object", "additionalProperties": false,
             "properties": {"key": {"type": "string"}, "label": {"type": "string"},
                            "validator": {"type": "string"},
                            "input_type": {"type": "string"}}}}"#,
        "Zulip 11.0 (feature level 403) moved the URL options out of `config_options` into \
         `url_options`, and level 485 renamed their `validator` to `input_type`; the 10.2 \
         document predates both. Weir answers so when emulating those levels.",
    ),
];

/// Where channel objects are described: the shared schemas, and the copies that
/// `GET /streams` and `register`'s `never_subscribed` spell out inline.
const CHANNEL_OBJECTS: [&str; 5] = [
    "/components/schemas/BasicChannelBase/properties",
    "/components/schemas/BasicChannel/allOf/1/properties",
    "/components/schemas/Subscription/properties",
    "/paths/~1streams/get/responses/200/content/application~1json/schema/allOf/1/properties/streams/items/allOf/1/properties",
    "/paths/~1register/post/responses/200/content/application~1json/schema/allOf/1/properties/never_subscribed/items/allOf/1/properties",
];

/// Fields that Zulip 11.0 (feature level 421) added after the 10.2 document, by where
/// they go: the level, the field and its schema, as Zulip 11's API changelog and
/// documentation give them. Each is optional in the document, as for an older server;
/// the suites check where and from which level weir-server sends it.
const ZULIP_11_FIELDS: &[(&str, u32, &str, &str)] = &[
    (
        "channel",
        392,
        "topics_policy",
        r#"{"type": "string", "enum": ["inherit",
        "allow_empty_topic", "disable_empty_topic", "empty_topic_only"]}"#,
    ),
    (
        "channel",
        389,
        "folder_id",
        r#"{"type": "integer", "nullable": true}"#,
    ),
    ("channel", 394, "subscriber_count", r#"{"type": "integer"}"#),
    (
        "channel",
        396,
        "can_move_messages_out_of_channel_group",
        GROUP_SETTING,
    ),
    (
        "channel",
        396,
        "can_move_messages_within_channel_group",
        GROUP_SETTING,
    ),
    ("channel", 402, "can_resolve_topics_group", GROUP_SETTING),
    (
        "channel",
        407,
        "can_delete_any_message_group",
        GROUP_SETTING,
    ),
    (
        "channel",
        407,
        "can_delete_own_message_group",
        GROUP_SETTING,
    ),
    (
        "subscribe",
        397,
        "new_subscription_messages_sent",
        r#"{"type": "boolean"}"#,
    ),
    (
        "register",
        392,
        "realm_topics_policy",
        r#"{"type": "string", "enum": [
        "allow_empty_topic", "disable_empty_topic"]}"#,
    ),
    (
        "register",
        392,
        "realm_can_set_topics_policy_group",
        GROUP_SETTING,
    ),
    (
        "register",
        397,
        "max_bulk_new_subscription_messages",
        r#"{"type": "integer"}"#,
    ),
    (
        "register",
        407,
        "realm_can_set_delete_message_policy_group",
        GROUP_SETTING,
    ),
    (
        "register",
        409,
        "realm_require_e2ee_push_notifications",
        r#"{"type": "boolean"}"#,
    ),
    (
        "register",
        416,
        "realm_welcome_message_custom_text",
        r#"{"type": "string"}"#,
    ),
    ("register", 389, "channel_folders", CHANNEL_FOLDERS),
    (
        "register",
        410,
        "max_channel_folder_name_length",
        r#"{"type": "integer"}"#,
    ),
    (
        "register",
        410,
        "max_channel_folder_description_length",
        r#"{"type": "integer"}"#,
    ),
];

/// `register`'s `channel_folders` (Zulip 11's `ChannelFolder`; `order` from 414).
const CHANNEL_FOLDERS: &str = r#"{"type": "array", "items": {"type": "object",
    "additionalProperties": false, "required": ["id", "name", "description",
    "rendered_description", "creator_id", "date_created", "is_archived"],
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
    "description": {"type": "string"}, "rendered_description": {"type": "string"},
    "creator_id": {"type": "integer", "nullable": true},
    "date_created": {"type": "integer"}, "is_archived": {"type": "boolean"},
    "order": {"type": "integer"}}}}"#;

const GROUP_SETTING: &str = r##"{"$ref": "#/components/schemas/GroupSettingValue"}"##;

/// Where [`ZULIP_11_FIELDS`] of each kind are described.
fn zulip_11_targets(kind: &str) -> &'static [&'static str] {
    match kind {
        "channel" => &CHANNEL_OBJECTS,
        "subscribe" => &[
            "/paths/~1users~1me~1subscriptions/post/responses/200/content/application~1json/schema/allOf/1/properties",
        ],
        _ => &[
            "/paths/~1register/post/responses/200/content/application~1json/schema/allOf/1/properties",
        ],
    }
}

/// The document, parsed once per test process, with [`EXCEPTIONS`] applied.
pub struct Spec {
    document: Value,
    operations: Vec<Operation>,
    error_shapes: Value,
}

/// One documented operation: `GET /users/{user_id}` is `get-user`.
#[derive(Debug, Clone)]
pub struct Operation {
    pub id: String,
    pub method: String,
    pub path: String,
    segments: Vec<String>,
}

impl Operation {
    /// Whether `path` (without `/api/v1`) is this operation's path. `{..._id}` segments
    /// match only numbers, so that `/users/8` is `get-user` and `/users/a@b` is
    /// `get-user-by-email`; literal segments win over parameters.
    fn matches(&self, segments: &[&str]) -> Option<usize> {
        if segments.len() != self.segments.len() {
            return None;
        }
        let mut literal = 0;
        for (template, actual) in self.segments.iter().zip(segments) {
            if template.starts_with('{') {
                let numeric_only = template.ends_with("_id}");
                if actual.is_empty()
                    || (numeric_only && !actual.chars().all(|c| c.is_ascii_digit()))
                {
                    return None;
                }
            } else if template != actual {
                return None;
            } else {
                literal += 1;
            }
        }
        Some(literal)
    }
}

/// Path of the project's copy of the document.
pub fn document_path() -> PathBuf {
    crate::workspace_root().join("tests/openapi/zulip.yaml")
}

impl Spec {
    /// The document of this test process (parsed on first use).
    pub fn global() -> &'static Spec {
        static SPEC: OnceLock<Spec> = OnceLock::new();
        SPEC.get_or_init(|| {
            let path = document_path();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            Spec::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
    }

    pub fn parse(yaml: &str) -> Result<Spec, String> {
        let mut document: Value =
            serde_norway::from_str(yaml).map_err(|e| format!("not valid YAML: {e}"))?;
        for (pointer, schema, _why) in EXCEPTIONS {
            let schema: Value =
                serde_json::from_str(schema).map_err(|e| format!("exception {pointer}: {e}"))?;
            let (parent, key) = pointer
                .rsplit_once('/')
                .ok_or_else(|| format!("exception {pointer}: not a pointer"))?;
            let parent = document
                .pointer_mut(parent)
                .and_then(Value::as_object_mut)
                .ok_or_else(|| format!("exception {pointer}: no such object in the document"))?;
            parent.insert(key.replace("~1", "/").replace("~0", "~"), schema);
        }
        for (kind, level, field, schema) in ZULIP_11_FIELDS {
            let mut schema: Value =
                serde_json::from_str(schema).map_err(|e| format!("Zulip 11 field {field}: {e}"))?;
            if let Some(fields) = schema.as_object_mut() {
                let note = format!("**Changes**: New in Zulip 11.0 (feature level {level}).");
                fields.insert("description".into(), json!(note));
            }
            for target in zulip_11_targets(kind) {
                document
                    .pointer_mut(target)
                    .and_then(Value::as_object_mut)
                    .ok_or_else(|| format!("Zulip 11 field {field}: no {target} in the document"))?
                    .insert((*field).to_owned(), schema.clone());
            }
        }
        let mut operations = Vec::new();
        let paths = document
            .get("paths")
            .and_then(Value::as_object)
            .ok_or("the document has no paths")?;
        for (path, methods) in paths {
            let Some(methods) = methods.as_object() else {
                continue;
            };
            for (method, operation) in methods {
                if let Some(id) = operation.get("operationId").and_then(Value::as_str) {
                    operations.push(Operation {
                        id: id.to_owned(),
                        method: method.to_uppercase(),
                        path: path.clone(),
                        segments: path
                            .trim_matches('/')
                            .split('/')
                            .map(String::from)
                            .collect(),
                    });
                }
            }
        }
        let error_shapes: Vec<Value> = document
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .ok_or("the document has no component schemas")?
            .keys()
            .filter(|name| name.ends_with("Error"))
            .map(|name| json!({ "$ref": format!("#/components/schemas/{name}") }))
            .collect();
        Ok(Spec {
            document,
            operations,
            error_shapes: json!({ "anyOf": error_shapes }),
        })
    }

    pub fn document(&self) -> &Value {
        &self.document
    }

    pub fn operation(&self, id: &str) -> Option<&Operation> {
        self.operations.iter().find(|operation| operation.id == id)
    }

    /// The documented operation for a request, if any. `path` is the URL path,
    /// `/api/v1/...`.
    pub fn find(&self, method: &str, path: &str) -> Option<&Operation> {
        let path = path.strip_prefix("/api/v1")?;
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        self.operations
            .iter()
            .filter(|operation| operation.method == method)
            .filter_map(|operation| operation.matches(&segments).map(|rank| (rank, operation)))
            .max_by_key(|(rank, _)| *rank)
            .map(|(_, operation)| operation)
    }

    /// The schema a response with `status` must fit, if the document has one. A response
    /// may itself be a `$ref` (`#/components/responses/SimpleSuccess`).
    fn response_schema(&self, operation: &Operation, status: u16) -> Option<&Value> {
        let path = operation.path.replace('~', "~0").replace('/', "~1");
        let method = operation.method.to_lowercase();
        let mut response = self
            .document
            .pointer(&format!("/paths/{path}/{method}/responses/{status}"))?;
        if let Some(reference) = response.get("$ref").and_then(Value::as_str) {
            response = self.document.pointer(reference.strip_prefix('#')?)?;
        }
        response.pointer("/content/application~1json/schema")
    }

    /// Checks one response. `Ok(None)` when the request is not a documented operation;
    /// `Ok(Some(operation id))` when the body fits; `Err(problems)` otherwise.
    pub fn check(
        &self,
        method: &str,
        path: &str,
        status: u16,
        body: &str,
        feature_level: u32,
    ) -> Result<Option<String>, Vec<String>> {
        let Some(operation) = self.find(method, path) else {
            return Ok(None);
        };
        let value: Value = serde_json::from_str(body).map_err(|e| {
            vec![format!(
                "{} answered {status} with a body that is not JSON: {e}",
                operation.id
            )]
        })?;
        let validator = Validator::new(&self.document, feature_level);
        let documented = self.response_schema(operation, status);
        let problems = if (200..300).contains(&status) {
            match documented {
                Some(schema) => validator.validate(schema, &value),
                None => vec![format!("{} documents no {status} response", operation.id)],
            }
        } else {
            let mut alternatives = vec![self.error_shapes.clone()];
            alternatives.extend(documented.cloned());
            validator.validate(&json!({ "anyOf": alternatives }), &value)
        };
        if problems.is_empty() {
            record(&operation.id, status);
            Ok(Some(operation.id.clone()))
        } else {
            let mut lines = vec![format!(
                "the {status} response of {} ({} {}) does not match Zulip's OpenAPI document \
                 at feature level {feature_level}:",
                operation.id, operation.method, operation.path
            )];
            lines.extend(problems);
            Err(lines)
        }
    }
}

fn validated() -> &'static Mutex<BTreeSet<(String, u16)>> {
    static SEEN: OnceLock<Mutex<BTreeSet<(String, u16)>>> = OnceLock::new();
    SEEN.get_or_init(|| Mutex::new(BTreeSet::new()))
}

fn record(operation: &str, status: u16) {
    if let Ok(mut seen) = validated().lock() {
        seen.insert((operation.to_owned(), status));
    }
}

/// The (operation id, status) pairs this test process has validated so far.
pub fn validated_responses() -> BTreeSet<(String, u16)> {
    validated()
        .lock()
        .map(|seen| seen.clone())
        .unwrap_or_default()
}
