//! The text Python makes of JSON values, where Zulip's views print values as Python does:
//! `json.dumps(value, indent=2)` (the JSON formatter) and `repr` of floats (Grafana's
//! legacy values); `pyvalue.rs` has `str()` and truthiness.
//! Python's JSON keeps objects' keys in the order sent, so [`Json`] does too.

use std::collections::HashMap;
use std::fmt::{self, Write};

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value as Python's `json.loads` makes it: objects keep their keys' order, and a
/// key sent twice keeps its first place and its last value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    List(Vec<Json>),
    Dict(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("JSON")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, value: bool) -> Result<Json, E> {
        Ok(Json::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Json, E> {
        Ok(Json::Int(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Json, E> {
        Ok(Json::Int(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Json, E> {
        Ok(Json::Float(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Json, E> {
        Ok(Json::Str(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Json, E> {
        Ok(Json::Str(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries: Vec<(String, Json)> = Vec::new();
        let mut places: HashMap<String, usize> = HashMap::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            match places.get(&key) {
                Some(&place) => entries[place].1 = value,
                None => {
                    places.insert(key.clone(), entries.len());
                    entries.push((key, value));
                }
            }
        }
        Ok(Json::Dict(entries))
    }
}

/// `json.dumps(value, indent=2)`, stopping once `limit` bytes are written (the text is
/// then a prefix of Python's, longer than `limit`).
pub(crate) fn dumps_indented(value: &Json, limit: usize) -> String {
    let mut out = String::new();
    dump(value, 0, limit, &mut out);
    out
}

fn dump(value: &Json, level: usize, limit: usize, out: &mut String) {
    if out.len() > limit {
        return;
    }
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Int(int) => {
            let _ = write!(out, "{int}");
        }
        Json::Float(float) => out.push_str(&float_repr(*float)),
        Json::Str(text) => json_string(text, out),
        Json::List(items) if items.is_empty() => out.push_str("[]"),
        Json::Dict(entries) if entries.is_empty() => out.push_str("{}"),
        Json::List(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                separator(index, level + 1, out);
                dump(item, level + 1, limit, out);
                if out.len() > limit {
                    return;
                }
            }
            close(']', level, out);
        }
        Json::Dict(entries) => {
            out.push('{');
            for (index, (key, item)) in entries.iter().enumerate() {
                separator(index, level + 1, out);
                json_string(key, out);
                out.push_str(": ");
                dump(item, level + 1, limit, out);
                if out.len() > limit {
                    return;
                }
            }
            close('}', level, out);
        }
    }
}

fn separator(index: usize, level: usize, out: &mut String) {
    if index > 0 {
        out.push(',');
    }
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', 2 * level));
}

fn close(bracket: char, level: usize, out: &mut String) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', 2 * level));
    out.push(bracket);
}

/// A JSON string as `json.dumps` writes it (`ensure_ascii`: everything else as `\uXXXX`).
fn json_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Python's `repr` of a float: the shortest digits that read back the same, in positional
/// notation from 1e-4 up to 1e16, in scientific notation (`1e+16`, `1.5e-05`) beyond.
pub(crate) fn float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    // Rust's `{:e}` writes the same shortest digits: `-1.2345e-7`.
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .unwrap_or((scientific.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if (-4..16).contains(&exponent) {
        let point = exponent + 1;
        if point <= 0 {
            let zeros = "0".repeat(point.unsigned_abs() as usize);
            return format!("{sign}0.{zeros}{digits}");
        }
        let point = point as usize;
        let (whole, fraction) = if digits.len() > point {
            (digits[..point].to_owned(), digits[point..].to_owned())
        } else {
            (format!("{digits:0<point$}"), "0".to_owned())
        };
        return format!("{sign}{whole}.{fraction}");
    }
    let (first, rest) = digits.split_at(1.min(digits.len()));
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    let exponent_sign = if exponent < 0 { '-' } else { '+' };
    let magnitude = exponent.unsigned_abs();
    format!("{sign}{first}{rest}e{exponent_sign}{magnitude:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_as_python_writes_them() {
        for (value, python) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (1.5, "1.5"),
            (100.0, "100.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.000015, "1.5e-05"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.25e17, "1.25e+17"),
            (1e100, "1e+100"),
            (14151.331895396988, "14151.331895396988"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-2.5e-7, "-2.5e-07"),
            (123456789.125, "123456789.125"),
        ] {
            assert_eq!(float_repr(value), python, "{value}");
        }
    }

    #[test]
    fn dumps_keeps_order_escapes_and_indents_as_python() {
        let parsed: Json =
            serde_json::from_str(r#"{"b": [1, 2.50, {}], "a": "é\"\n😀", "c": [], "b": null}"#)
                .unwrap();
        assert_eq!(
            dumps_indented(&parsed, usize::MAX),
            "{\n  \"b\": null,\n  \"a\": \"\\u00e9\\\"\\n\\ud83d\\ude00\",\n  \"c\": []\n}"
        );
        let nested: Json = serde_json::from_str(r#"[[true, false]]"#).unwrap();
        assert_eq!(
            dumps_indented(&nested, usize::MAX),
            "[\n  [\n    true,\n    false\n  ]\n]"
        );
    }

    #[test]
    fn seventeen_digit_floats_read_back_as_python_reads_them() {
        // serde_json's default parse is one unit in the last place off for these.
        for text in [
            "983909.1653714885",
            "925289.8561116119",
            "362313.55058785883",
        ] {
            let parsed: Json = serde_json::from_str(text).unwrap();
            assert_eq!(dumps_indented(&parsed, usize::MAX), text);
        }
    }

    #[test]
    fn dumps_stops_soon_after_the_limit() {
        let long = Json::List(vec![Json::Str("x".repeat(100)); 10_000]);
        let text = dumps_indented(&long, 1_000);
        assert!(text.len() > 1_000 && text.len() < 1_200, "{}", text.len());
        assert!(dumps_indented(&long, usize::MAX).starts_with(&text));
    }
}
