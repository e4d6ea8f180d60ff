//! Reading payloads as Zulip's `WildValue` does: a key that is absent, or a value of
//! the wrong type, is a missing argument named by its last key.

use serde_json::Value;

use crate::{HandlerError, lookup, missing};

/// The value at a JSON pointer (`/repository/name`).
pub fn at<'a>(json: &'a Value, pointer: &str) -> Result<&'a Value, HandlerError> {
    lookup(json, pointer).ok_or_else(|| missing(pointer))
}

/// `tame(check_string)`.
pub fn str_at<'a>(json: &'a Value, pointer: &str) -> Result<&'a str, HandlerError> {
    at(json, pointer)?.as_str().ok_or_else(|| missing(pointer))
}

/// `tame(check_int)`: an integer (not a float, not a boolean).
pub fn int_at(json: &Value, pointer: &str) -> Result<i64, HandlerError> {
    at(json, pointer)?.as_i64().ok_or_else(|| missing(pointer))
}

/// `tame(check_bool)`.
pub fn bool_at(json: &Value, pointer: &str) -> Result<bool, HandlerError> {
    at(json, pointer)?.as_bool().ok_or_else(|| missing(pointer))
}

/// Python's truth value of a JSON value (`if payload["x"]:`), as the other views read it.
pub use crate::pyvalue::truthy;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_as_wildvalue_does() {
        let json = json!({"a": {"s": "x", "n": 3, "f": 1.5, "b": true}});
        assert_eq!(str_at(&json, "/a/s"), Ok("x"));
        assert_eq!(int_at(&json, "/a/n"), Ok(3));
        assert_eq!(
            int_at(&json, "/a/f"),
            Err(HandlerError::MissingKey("f".into()))
        );
        assert_eq!(bool_at(&json, "/a/b"), Ok(true));
        assert_eq!(
            str_at(&json, "/a/n"),
            Err(HandlerError::MissingKey("n".into()))
        );
        assert_eq!(
            str_at(&json, "/z/y"),
            Err(HandlerError::MissingKey("y".into()))
        );
        for falsy in [
            json!(null),
            json!(false),
            json!(0),
            json!(""),
            json!([]),
            json!({}),
        ] {
            assert!(!truthy(&falsy), "{falsy}");
        }
        assert!(truthy(&json!({"login": "x"})));
    }
}
