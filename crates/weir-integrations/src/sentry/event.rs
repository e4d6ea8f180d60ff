//! Zulip's `handle_event_payload`: an error event (`exception`), with the line that raised
//! it when the stack trace has it, or a message event (`logentry`).

use serde_json::Value;

use super::{field, missing, string, timestamp_text};
use crate::HandlerError;
use crate::pyvalue::{py_str, truthy};

/// Zulip's `is_sample_event`: the sample event Sentry sends on setup is an old Python one.
const SAMPLE_TITLE: &str = "This is an example Python exception";

/// Sentry's `platform` to the language Zulip highlights the traceback as.
fn lexer(platform: &Value) -> &'static str {
    match platform.as_str() {
        Some("go") => "go",
        Some("java") => "java",
        Some("javascript" | "node") => "javascript",
        Some("python") => "python3",
        Some("ruby") => "ruby",
        _ => "",
    }
}

pub(super) fn message(event: &Value) -> Result<(String, String), HandlerError> {
    let title = string(event, "title")?;
    let platform = field(event, "platform")?;
    // Zulip refuses the deprecated Raven SDKs, except Sentry's own sample event.
    if platform.as_str() == Some("python")
        && py_int(field(event, "version")?).ok_or_else(|| missing("version"))? < 7
        && event.get("title").and_then(Value::as_str) != Some(SAMPLE_TITLE)
    {
        return Err(HandlerError::UnsupportedEvent("Raven SDK".into()));
    }
    let level = py_str(field(event, "level")?);
    let web_link = py_str(field(event, "web_url")?);
    let datetime = timestamp_text(string(event, "datetime")?);
    let head = |kind: &str| {
        format!(
            "**New {kind}:** [{title}]({web_link})\n```quote\n**level:** {level}\n\
             **timestamp:** {datetime}\n"
        )
    };
    let body = if let Some(exception) = event.get("exception") {
        let metadata = field(event, "metadata")?;
        if !metadata.is_object() {
            return Err(missing("metadata"));
        }
        let filename = metadata.get("filename").unwrap_or(&Value::Null);
        let mut body = head("exception");
        body.push_str(&format!("**filename:** {}\n```", py_str(filename)));
        if let Some(traceback) = traceback(exception, filename, lexer(platform))? {
            body.push_str(&traceback);
        }
        body
    } else if event.get("logentry").is_some() {
        head("message event") + "```"
    } else {
        return Err(HandlerError::UnsupportedEvent("unknown-event type".into()));
    };
    Ok((title.to_owned(), body))
}

/// The lines around the one that raised, from the innermost exception with a stack
/// trace, when its frame for `filename` has them.
fn traceback(
    exception: &Value,
    filename: &Value,
    lexer: &str,
) -> Result<Option<String>, HandlerError> {
    let mut stacktrace = None;
    for value in reversed(exception, "values", |key| key.contains("stacktrace"))? {
        if let Some(found) = contains(value, "stacktrace")? {
            stacktrace = Some(found);
            break;
        }
    }
    let Some(stacktrace) = stacktrace.filter(|trace| truthy(trace)) else {
        return Ok(None);
    };
    if !truthy(filename) {
        return Ok(None);
    }
    let mut frame = None;
    for candidate in reversed(stacktrace, "frames", |_| true)? {
        if !candidate.is_object() {
            return Err(missing("filename"));
        }
        if candidate.get("filename").unwrap_or(&Value::Null) == filename {
            frame = Some(candidate);
            break;
        }
    }
    let Some(frame) = frame.filter(|frame| truthy(frame)) else {
        return Ok(None);
    };
    let line = match frame.get("context_line") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(line)) => line,
        Some(_) => return Err(missing("context_line")),
    };
    let pre = lines(frame.get("pre_context"), "pre_context")?;
    let post = lines(frame.get("post_context"), "post_context")?;
    Ok(Some(format!(
        "\n\nTraceback:\n```{lexer}\n{pre}---> {line}\n{post}```"
    )))
}

/// Python's `key in value` then `value[key]`: `None` when `value` lacks `key`, an error
/// where Python's test or index fails (a string or list that has it, a number).
fn contains<'a>(value: &'a Value, key: &str) -> Result<Option<&'a Value>, HandlerError> {
    match value {
        Value::Object(fields) => Ok(fields.get(key)),
        Value::String(text) if !text.contains(key) => Ok(None),
        Value::Array(items) if !items.iter().any(|item| item.as_str() == Some(key)) => Ok(None),
        _ => Err(missing(key)),
    }
}

/// Python's `reversed(value[key])` for a list. Python also reverses an object's keys:
/// Zulip's view then fails on the first key it tests (`key in "<key>"` holding, or
/// `"<key>".get`), so `fails` says whether one would fail, and no item is read.
fn reversed<'a>(
    value: &'a Value,
    key: &str,
    fails: impl Fn(&str) -> bool,
) -> Result<impl Iterator<Item = &'a Value>, HandlerError> {
    match field(value, key)? {
        Value::Array(items) => Ok(items.iter().rev()),
        Value::Object(fields) if !fields.keys().any(|key| fails(key)) => Ok([].iter().rev()),
        _ => Err(missing(key)),
    }
}

/// Zulip's `convert_lines_to_traceback_string`: each line indented five spaces, an
/// empty one left empty. Python iterates a string's characters and an object's keys.
fn lines(value: Option<&Value>, key: &str) -> Result<String, HandlerError> {
    let mut out = String::new();
    let mut push = |line: &str| {
        if !line.is_empty() {
            out.push_str("     ");
            out.push_str(line);
        }
        out.push('\n');
    };
    match value {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => items.iter().for_each(|item| push(&py_str(item))),
        Some(Value::String(text)) => text.chars().for_each(|c| push(c.encode_utf8(&mut [0; 4]))),
        Some(Value::Object(fields)) => fields.keys().for_each(|key| push(key)),
        Some(_) => return Err(missing(key)),
    }
    Ok(out)
}

/// Python's `int(value)` of a JSON value, as far as comparing it with 7 needs: `None`
/// where Python raises.
fn py_int(value: &Value) -> Option<i128> {
    match value {
        Value::Bool(flag) => Some(i128::from(*flag)),
        Value::Number(number) => {
            if let Some(int) = number.as_i64() {
                Some(i128::from(int))
            } else if let Some(int) = number.as_u64() {
                Some(i128::from(int))
            } else {
                let float = number.as_f64()?;
                // `int()` truncates; the clamp keeps huge floats ordered against 7.
                float
                    .is_finite()
                    .then(|| float.trunc().clamp(-1e30, 1e30) as i128)
            }
        }
        Value::String(text) => parse_int(text),
        _ => None,
    }
}

/// `int(str)`: white space around, a sign, ASCII digits with single underscores between.
fn parse_int(text: &str) -> Option<i128> {
    let text = crate::git::py_strip(text);
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    let mut value: i128 = 0;
    for digit in digits.bytes().filter(u8::is_ascii_digit) {
        // Saturating: only the comparison with 7 matters.
        value = value
            .saturating_mul(10)
            .saturating_add(i128::from(digit - b'0'));
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn int_reads_what_python_reads() {
        assert_eq!(py_int(&json!(" 6\n")), Some(6));
        assert_eq!(py_int(&json!("1_0")), Some(10));
        assert_eq!(py_int(&json!("-3")), Some(-3));
        assert_eq!(py_int(&json!(6.9)), Some(6));
        assert_eq!(py_int(&json!(true)), Some(1));
        for bad in [
            json!("7.0"),
            json!("1__0"),
            json!(""),
            json!(null),
            json!([7]),
        ] {
            assert_eq!(py_int(&bad), None, "{bad}");
        }
        assert!(py_int(&json!("99999999999999999999999999999999999999999")).unwrap() > 7);
    }

    #[test]
    fn traceback_lines_are_indented_and_empty_ones_kept() {
        assert_eq!(
            lines(Some(&json!(["a", "", 3])), "pre_context").unwrap(),
            "     a\n\n     3\n"
        );
        assert_eq!(lines(None, "pre_context").unwrap(), "");
        assert_eq!(
            lines(Some(&json!(4)), "post_context"),
            Err(missing("post_context"))
        );
    }
}
