//! The few Python semantics Zulip's webhook views lean on when they read a JSON payload:
//! truthiness (`if value:`), `str()` (what `format` and f-strings print), and the
//! stripping Zulip applies to every message body before storing it. Integrations whose
//! views format arbitrary payload values use these to print what Zulip prints.

use serde_json::Value;

use crate::git::is_py_space;

/// Python's truthiness of a JSON value, as `if value:` tests it.
pub fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(value) => *value,
        Value::Number(number) => number.as_f64().is_some_and(|number| number != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(fields) => !fields.is_empty(),
    }
}

/// `str(value)` of the value `json.loads` makes of `value`: `None`, `True`, `1.0`,
/// `['a', 1]`, `{'k': None}`; a string is itself.
pub fn py_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => {
            let mut out = String::new();
            repr(other, &mut out);
            out
        }
    }
}

fn repr(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(number) => match number.as_f64() {
            Some(float) if number.is_f64() => out.push_str(&float_repr(float)),
            _ => out.push_str(&number.to_string()),
        },
        Value::String(text) => string_repr(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                repr(item, out);
            }
            out.push(']');
        }
        Value::Object(fields) => {
            out.push('{');
            for (index, (key, item)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                string_repr(key, out);
                out.push_str(": ");
                repr(item, out);
            }
            out.push('}');
        }
    }
}

/// Python's `repr` of a float: the shortest digits that read back, in positional
/// notation for exponents from -4 to 15, else as `1e+16`.
fn float_repr(float: f64) -> String {
    if float.is_nan() {
        return "nan".into();
    }
    if float.is_infinite() {
        return if float > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:e}` gives the shortest round-tripping digits, as Python's repr does.
    let scientific = format!("{float:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..16).contains(&exponent) {
        let positional = format!("{float}");
        if positional.contains('.') {
            positional
        } else {
            format!("{positional}.0")
        }
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    }
}

/// Python's `repr` of a string: single quotes unless the text has one and no double.
fn string_repr(text: &str, out: &mut String) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !is_printable(c) => {
                let code = u32::from(c);
                if code < 0x100 {
                    out.push_str(&format!("\\x{code:02x}"));
                } else if code < 0x1_0000 {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable` for one character, as far as Rust knows the categories:
/// controls, separators other than the space, and the common format characters are not.
fn is_printable(c: char) -> bool {
    let format = matches!(
        c,
        '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}'
    );
    !(c.is_control() || format || (c.is_whitespace() && c != ' '))
}

/// Zulip's `normalize_body`: trailing white space and leading newlines go, as Zulip
/// strips every message before storing it (its templates start and end with newlines).
pub fn normalize_body(body: &str) -> String {
    body.trim_end_matches(is_py_space)
        .trim_start_matches('\n')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn str_prints_what_python_prints() {
        let cases = [
            (json!(null), "None"),
            (json!(true), "True"),
            (json!(3), "3"),
            (json!(-3), "-3"),
            (json!(1.0), "1.0"),
            (json!(0.1), "0.1"),
            (json!(1e16), "1e+16"),
            (json!(1.5e-5), "1.5e-05"),
            (json!(123456.5), "123456.5"),
            (json!("plain"), "plain"),
            (json!(["a", 1, null]), "['a', 1, None]"),
            (json!({"k": "it's"}), "{'k': \"it's\"}"),
            (json!(["a\nb", "q'\""]), "['a\\nb', 'q\\'\"']"),
            (json!(["\u{a0}\u{7f}\u{200b}é"]), "['\\xa0\\x7f\\u200bé']"),
        ];
        for (value, printed) in cases {
            assert_eq!(py_str(&value), printed, "{value}");
        }
    }

    #[test]
    fn truthiness_is_pythons() {
        for value in [
            json!(null),
            json!(0),
            json!(0.0),
            json!(""),
            json!([]),
            json!({}),
        ] {
            assert!(!truthy(&value), "{value}");
        }
        for value in [
            json!(1),
            json!("0"),
            json!([0]),
            json!({"a": null}),
            json!(true),
        ] {
            assert!(truthy(&value), "{value}");
        }
    }

    #[test]
    fn bodies_lose_what_zulip_strips() {
        assert_eq!(normalize_body("\n\n text \n\t \u{1f}"), " text");
        assert_eq!(normalize_body("\n"), "");
    }
}
