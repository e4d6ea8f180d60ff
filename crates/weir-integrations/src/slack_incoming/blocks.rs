//! Slack's Block Kit blocks and legacy attachments as Zulip renders them
//! (`render_block`, `render_block_element`, `render_attachment`): what Zulip cannot show
//! (buttons, inputs, rich text, which repeats `text`) renders as nothing.

use serde_json::{Map, Value};

use super::format::{is_url, requote};
use crate::HandlerError;
use crate::git::is_py_space;
use crate::pyvalue::truthy;
use crate::time::global_time_from_unix;

type Object = Map<String, Value>;

/// Pieces joined as Zulip joins them: each stripped, empty ones left out.
pub(super) fn join(pieces: &[String], separator: &str) -> String {
    let kept: Vec<&str> = pieces
        .iter()
        .map(|piece| py_strip(piece))
        .filter(|piece| !piece.is_empty())
        .collect();
    kept.join(separator)
}

/// Python's `str.strip()`.
pub(super) fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

pub(super) fn render_block(block: &Value) -> Result<String, HandlerError> {
    let block = object(block, "blocks")?;
    let kind = string(block, "type")?;
    Ok(match kind {
        "call" | "contact_card" | "file" | "table" | "actions" | "rich_text" | "input"
        | "condition" => String::new(),
        "context" => match block.get("elements").filter(|elements| truthy(elements)) {
            None => String::new(),
            Some(elements) => {
                let mut pieces = Vec::new();
                for element in list(elements, "elements")? {
                    let element = object(element, "elements")?;
                    pieces.push(match string(element, "type")? {
                        "image" => render_block_element(element)?,
                        "plain_text" | "mrkdwn" => text_block(element, false)?,
                        _ => return Err(missing("type")),
                    });
                }
                join(&pieces, "\n\n")
            }
        },
        "divider" => "----".to_owned(),
        "header" => format!(
            "## {}",
            text_block(object(field(block, "text")?, "text")?, true)?
        ),
        "image" => {
            let url = string(block, "image_url")?;
            if !is_url(url) {
                return Err(missing("image_url"));
            }
            let mut alt = string(block, "alt_text")?.to_owned();
            if let Some(title) = block.get("title") {
                alt = text_block(object(title, "title")?, true)?;
            }
            format!("[{alt}]({url})")
        }
        "section" => section(block)?,
        _ => return Err(missing("type")),
    })
}

fn section(block: &Object) -> Result<String, HandlerError> {
    let mut pieces = Vec::new();
    if let Some(text) = block.get("text") {
        pieces.push(text_block(object(text, "text")?, false)?);
    }
    if let Some(accessory) = block.get("accessory") {
        pieces.push(render_block_element(object(accessory, "accessory")?)?);
    }
    if let Some(fields) = block.get("fields") {
        let texts = list(fields, "fields")?
            .iter()
            .map(|item| text_block(object(item, "fields")?, false))
            .collect::<Result<Vec<String>, HandlerError>>()?;
        if let [only] = texts.as_slice() {
            pieces.push(only.clone());
        } else {
            // No newline or pipe can stand in a table cell.
            let cells: Vec<String> = texts
                .iter()
                .map(|text| text.replace(['\n', '|'], " "))
                .collect();
            let mut table = "| | |\n|-|-|\n".to_owned();
            for pair in cells.chunks(2) {
                let right = pair.get(1).map_or("", String::as_str);
                table.push_str(&format!("| {} | {right} |\n", pair[0]));
            }
            pieces.push(table);
        }
    }
    Ok(join(&pieces, "\n\n"))
}

/// Only images are shown; an image whose URL is not one is dropped, not the message.
fn render_block_element(element: &Object) -> Result<String, HandlerError> {
    if string(element, "type")? != "image" {
        return Ok(String::new());
    }
    let url = element.get("image_url").and_then(Value::as_str);
    let alt = element.get("alt_text").and_then(Value::as_str);
    Ok(match (url, alt) {
        (Some(url), Some(alt)) if is_url(url) => format!("[{alt}]({url})"),
        _ => String::new(),
    })
}

/// Zulip's `check_text_block`: `{"type": "plain_text"|"mrkdwn", "text": "…"}`.
fn text_block(block: &Object, plain_only: bool) -> Result<String, HandlerError> {
    match string(block, "type")? {
        "plain_text" => {}
        "mrkdwn" if !plain_only => {}
        _ => return Err(missing("type")),
    }
    Ok(string(block, "text")?.to_owned())
}

pub(super) fn render_attachment(attachment: &Value) -> Result<String, HandlerError> {
    let attachment = object(attachment, "attachments")?;
    let mut pieces = Vec::new();
    if let Some(title) = truthy_field(attachment, "title") {
        let title = as_str(title, "title")?;
        match truthy_field(attachment, "title_link") {
            // A link that is not a URL (a relative one) leaves the title unlinked.
            Some(link) if is_url(as_str(link, "title_link")?) => {
                pieces.push(format!("## [{title}]({})", as_str(link, "title_link")?));
            }
            _ => pieces.push(format!("## {title}")),
        }
    }
    for key in ["pretext", "text"] {
        if let Some(text) = truthy_field(attachment, key) {
            pieces.push(as_str(text, key)?.to_owned());
        }
    }
    if let Some(fields) = attachment.get("fields") {
        let mut lines = Vec::new();
        for item in list(fields, "fields")? {
            let item = object(item, "fields")?;
            let title = truthy_field(item, "title");
            let value = truthy_field(item, "value");
            match (title, value) {
                (Some(title), Some(value)) => lines.push(format!(
                    "*{}*: {}",
                    as_str(title, "title")?,
                    as_str(value, "value")?
                )),
                (Some(title), None) => lines.push(format!("*{}*", as_str(title, "title")?)),
                (None, Some(value)) => lines.push(as_str(value, "value")?.to_owned()),
                (None, None) => {}
            }
        }
        pieces.push(lines.join("\n"));
    }
    if let Some(blocks) = truthy_field(attachment, "blocks") {
        for block in list(blocks, "blocks")? {
            pieces.push(render_block(block)?);
        }
    }
    if let Some(url) = truthy_field(attachment, "image_url") {
        let url = as_str(url, "image_url")?;
        let url = if is_url(url) {
            url.to_owned()
        } else {
            requote(url)
        };
        pieces.push(format!("[]({url})"));
    }
    if let Some(footer) = truthy_field(attachment, "footer") {
        pieces.push(as_str(footer, "footer")?.to_owned());
    }
    if let Some(ts) = truthy_field(attachment, "ts") {
        pieces.push(global_time_from_unix(timestamp(ts)?).ok_or_else(|| missing("ts"))?);
    }
    Ok(join(&pieces, "\n\n"))
}

/// An integer (Python's booleans are), or a string of a number, cut to whole seconds.
fn timestamp(ts: &Value) -> Result<i64, HandlerError> {
    match ts {
        Value::Bool(flag) => Ok(i64::from(*flag)),
        Value::Number(number) => number.as_i64().ok_or_else(|| missing("ts")),
        Value::String(text) => {
            let float: f64 = py_strip(text).parse().map_err(|_| missing("ts"))?;
            if float.is_finite() && float.abs() < 1e18 {
                Ok(float.trunc() as i64)
            } else {
                Err(missing("ts"))
            }
        }
        _ => Err(missing("ts")),
    }
}

pub(super) fn missing(key: &str) -> HandlerError {
    HandlerError::MissingKey(key.to_owned())
}

pub(super) fn object<'a>(value: &'a Value, key: &str) -> Result<&'a Object, HandlerError> {
    value.as_object().ok_or_else(|| missing(key))
}

fn list<'a>(value: &'a Value, key: &str) -> Result<&'a Vec<Value>, HandlerError> {
    value.as_array().ok_or_else(|| missing(key))
}

fn field<'a>(object: &'a Object, key: &str) -> Result<&'a Value, HandlerError> {
    object.get(key).ok_or_else(|| missing(key))
}

fn string<'a>(object: &'a Object, key: &str) -> Result<&'a str, HandlerError> {
    as_str(field(object, key)?, key)
}

pub(super) fn as_str<'a>(value: &'a Value, key: &str) -> Result<&'a str, HandlerError> {
    value.as_str().ok_or_else(|| missing(key))
}

/// `object.get(key)` where Python would find it true.
pub(super) fn truthy_field<'a>(object: &'a Object, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|value| truthy(value))
}
