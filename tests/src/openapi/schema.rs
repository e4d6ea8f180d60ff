//! A validator for the subset of OpenAPI 3.0 schemas that Zulip's document uses: `$ref`
//! (local), `allOf`, `oneOf`/`anyOf`, `nullable`, `type`, `enum`, `properties`,
//! `required`, `additionalProperties` and `items`.
//!
//! Two rules follow how Zulip's own test suite reads its document:
//! * `oneOf` passes when any alternative does: the document lists overlapping
//!   alternatives (e.g. several `CodedError` examples under one `oneOf`).
//! * A required property that the document marks "New in Zulip X (feature level N)" with
//!   N above the server's level may be absent, as on a real server of that level.

use serde_json::{Map, Value};

/// At most this many problems are reported per response.
const MAX_PROBLEMS: usize = 20;

/// How deep `$ref`s and combinators may nest before the schema is taken as cyclic.
const MAX_DEPTH: usize = 64;

/// Validates JSON values against schemas of one OpenAPI document.
pub struct Validator<'a> {
    document: &'a Value,
    feature_level: u32,
}

impl<'a> Validator<'a> {
    pub fn new(document: &'a Value, feature_level: u32) -> Self {
        Self {
            document,
            feature_level,
        }
    }

    /// Every way `value` breaks `schema`, as `path: problem` lines (empty when it fits).
    pub fn validate(&self, schema: &Value, value: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        self.check(schema, schema, value, "$", 0, &mut problems);
        problems.truncate(MAX_PROBLEMS);
        problems
    }

    /// The schema a `$ref` points at (`#/components/schemas/User`).
    pub fn resolve<'s>(&'s self, schema: &'s Value) -> &'s Value {
        let mut current = schema;
        for _ in 0..MAX_DEPTH {
            match current.get("$ref").and_then(Value::as_str) {
                Some(reference) => match self.pointer(reference) {
                    Some(target) => current = target,
                    None => return current,
                },
                None => return current,
            }
        }
        current
    }

    fn pointer(&self, reference: &str) -> Option<&'a Value> {
        self.document.pointer(reference.strip_prefix('#')?)
    }

    /// `owner` is the schema this value was reached through, before `allOf`/`oneOf`/`$ref`
    /// split it into parts: a property's change notes may sit in another part.
    fn check(
        &self,
        owner: &Value,
        schema: &Value,
        value: &Value,
        path: &str,
        depth: usize,
        problems: &mut Vec<String>,
    ) {
        if depth > MAX_DEPTH {
            problems.push(format!("{path}: schema nests too deeply"));
            return;
        }
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            match self.pointer(reference) {
                Some(target) => self.check(owner, target, value, path, depth + 1, problems),
                None => problems.push(format!("{path}: unresolvable $ref {reference}")),
            }
            return;
        }
        let Some(schema) = schema.as_object() else {
            return; // `true`/`{}`-like schemas accept everything
        };
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            for part in all {
                self.check(owner, part, value, path, depth + 1, problems);
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(alternatives) = schema.get(key).and_then(Value::as_array) {
                self.check_any(owner, alternatives, value, path, depth, problems);
            }
        }
        if value.is_null() {
            let typed = schema.contains_key("type") || schema.contains_key("enum");
            if typed && schema.get("nullable") != Some(&Value::Bool(true)) {
                problems.push(format!("{path}: null where the document does not allow it"));
            }
            return;
        }
        if let Some(kind) = schema.get("type").and_then(Value::as_str)
            && !has_type(value, kind)
        {
            problems.push(format!("{path}: expected {kind}, got {}", describe(value)));
            return;
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            problems.push(format!(
                "{path}: {value} is not one of {}",
                Value::from(allowed.clone())
            ));
        }
        match value {
            Value::Object(fields) => {
                self.check_object(owner, schema, fields, path, depth, problems)
            }
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (index, item) in items.iter().enumerate() {
                        let item_path = format!("{path}[{index}]");
                        self.check(
                            item_schema,
                            item_schema,
                            item,
                            &item_path,
                            depth + 1,
                            problems,
                        );
                    }
                }
            }
            _ => {}
        }
    }

    fn check_any(
        &self,
        owner: &Value,
        alternatives: &[Value],
        value: &Value,
        path: &str,
        depth: usize,
        problems: &mut Vec<String>,
    ) {
        let mut closest: Option<Vec<String>> = None;
        for alternative in alternatives {
            let mut found = Vec::new();
            self.check(owner, alternative, value, path, depth + 1, &mut found);
            if found.is_empty() {
                return;
            }
            if closest.as_ref().is_none_or(|best| found.len() < best.len()) {
                closest = Some(found);
            }
        }
        if let Some(closest) = closest {
            problems.push(format!(
                "{path}: matches none of {} alternatives; the closest fails with:",
                alternatives.len()
            ));
            problems.extend(closest.into_iter().map(|line| format!("    {line}")));
        }
    }

    fn check_object(
        &self,
        owner: &Value,
        schema: &Map<String, Value>,
        fields: &Map<String, Value>,
        path: &str,
        depth: usize,
        problems: &mut Vec<String>,
    ) {
        let properties = schema.get("properties").and_then(Value::as_object);
        if let Some(properties) = properties {
            for (name, property) in properties {
                if let Some(field) = fields.get(name) {
                    let field_path = format!("{path}.{name}");
                    self.check(property, property, field, &field_path, depth + 1, problems);
                }
            }
        }
        if let Some(required) = schema.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if fields.contains_key(name) {
                    continue;
                }
                let introduced = self.introduced_at(owner, name, 0);
                match introduced {
                    Some(level) if level > self.feature_level => {}
                    _ => problems.push(format!("{path}: missing required property `{name}`")),
                }
            }
        }
        match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => {
                for name in fields.keys() {
                    if !properties.is_some_and(|properties| properties.contains_key(name)) {
                        problems.push(format!("{path}: undocumented property `{name}`"));
                    }
                }
            }
            Some(extra @ Value::Object(_)) => {
                for (name, field) in fields {
                    if !properties.is_some_and(|properties| properties.contains_key(name)) {
                        let field_path = format!("{path}.{name}");
                        self.check(extra, extra, field, &field_path, depth + 1, problems);
                    }
                }
            }
            _ => {}
        }
    }

    /// The feature level that the change notes of property `name`, wherever `owner`
    /// declares it, say it appeared at.
    fn introduced_at(&self, owner: &Value, name: &str, depth: usize) -> Option<u32> {
        if depth > MAX_DEPTH {
            return None;
        }
        let owner = self.resolve(owner);
        let declared = owner
            .get("properties")
            .and_then(|properties| properties.get(name))
            .and_then(|property| self.described_level(property, 0));
        declared.or_else(|| {
            ["allOf", "oneOf", "anyOf"]
                .iter()
                .filter_map(|key| owner.get(key).and_then(Value::as_array))
                .flatten()
                .find_map(|part| self.introduced_at(part, name, depth + 1))
        })
    }

    /// The level in a property schema's own change notes (or its parts').
    fn described_level(&self, property: &Value, depth: usize) -> Option<u32> {
        if depth > 8 {
            return None;
        }
        let property = self.resolve(property);
        if let Some(level) = property
            .get("description")
            .and_then(Value::as_str)
            .and_then(new_in_level)
        {
            return Some(level);
        }
        ["allOf", "oneOf", "anyOf"]
            .iter()
            .filter_map(|key| property.get(key).and_then(Value::as_array))
            .flatten()
            .find_map(|part| self.described_level(part, depth + 1))
    }
}

/// N from the first "New in Zulip X (feature level N)" of a description.
pub fn new_in_level(description: &str) -> Option<u32> {
    let start = description.find("New in Zulip")?;
    let rest = description.get(start..)?;
    let level_at = rest.find("feature level ")? + "feature level ".len();
    // The level belongs to this phrase only if no sentence ends before it.
    if rest.get(..level_at)?.contains(". ") {
        return None;
    }
    let digits: String = rest
        .get(level_at..)?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn has_type(value: &Value, kind: &str) -> bool {
    match kind {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        _ => true,
    }
}

fn describe(value: &Value) -> String {
    let text = value.to_string();
    let short: String = text.chars().take(60).collect();
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    format!("{kind} {short}")
}
