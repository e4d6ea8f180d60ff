//! The `principals` parameter shared by subscribe and unsubscribe, and the stream-name
//! list both take.

use std::collections::HashSet;

use axum::http::StatusCode;
use rusqlite::Connection;
use serde_json::Value;
use zulip_api::ZulipErrorCode;

use crate::error::{ApiError, Error};
use crate::http::params::as_list;
use crate::rules::limits::{MAX_PRINCIPALS, check_list_len};
use crate::rules::names::check_stream_name;
use crate::store::{self, UserRow};

/// Feature level from which `principals` may be user ids.
const INTEGER_PRINCIPALS_LEVEL: u32 = 9;
/// Feature level from which unknown or deactivated principals are 400 `BAD_REQUEST`.
const PRINCIPAL_ERRORS_ARE_BAD_REQUEST_LEVEL: u32 = 208;

#[derive(Debug, Clone, PartialEq)]
pub enum Principal {
    Id(i64),
    Email(String),
}

impl Principal {
    fn shown(&self) -> String {
        match self {
            Self::Id(id) => id.to_string(),
            Self::Email(email) => email.clone(),
        }
    }
}

/// Parses `principals`: all ids or all e-mails; `None` (or `[]`) means the caller.
pub fn parse_principals(
    value: Option<Value>,
    feature_level: u32,
) -> Result<Vec<Principal>, ApiError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items = as_list("principals", value)?;
    check_list_len("principals", items.len(), MAX_PRINCIPALS)?;
    let integers_allowed = feature_level >= INTEGER_PRINCIPALS_LEVEL;
    let wants_ids = integers_allowed && items.first().is_some_and(Value::is_number);
    items
        .into_iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(email) if !wants_ids => Ok(Principal::Email(email)),
            Value::Number(number) if wants_ids => {
                number.as_i64().map(Principal::Id).ok_or_else(|| {
                    ApiError::bad_request(format!("principals[{index}] is not an integer"))
                })
            }
            _ if wants_ids => Err(ApiError::bad_request(format!(
                "principals[{index}] is not an integer"
            ))),
            _ => Err(ApiError::bad_request(format!(
                "principals[{index}] is not a string"
            ))),
        })
        .collect()
}

fn principal_error(principal: &Principal, msg: &str, feature_level: u32) -> ApiError {
    if feature_level >= PRINCIPAL_ERRORS_ARE_BAD_REQUEST_LEVEL {
        return ApiError::bad_request(msg);
    }
    let shown = principal.shown();
    ApiError::new(
        StatusCode::FORBIDDEN,
        ZulipErrorCode::UnauthorizedPrincipal,
        format!("User not authorized to execute queries on behalf of '{shown}'"),
    )
    .with(
        "principal",
        match principal {
            Principal::Id(id) => Value::from(*id),
            Principal::Email(email) => Value::from(email.clone()),
        },
    )
}

/// The users named, each once, in request order; the caller when none are named.
pub fn resolve_principals(
    conn: &Connection,
    caller: &UserRow,
    principals: &[Principal],
    feature_level: u32,
) -> Result<Vec<UserRow>, Error> {
    if principals.is_empty() {
        return Ok(vec![caller.clone()]);
    }
    let mut users: Vec<UserRow> = Vec::with_capacity(principals.len());
    let mut seen = HashSet::with_capacity(principals.len());
    for principal in principals {
        let found = match principal {
            Principal::Id(id) => store::user_by_id(conn, *id)?,
            Principal::Email(email) => store::user_by_email(conn, email)?,
        }
        .filter(|user| !user.is_system_bot);
        let user =
            found.ok_or_else(|| principal_error(principal, "No such user", feature_level))?;
        if !user.is_active {
            return Err(principal_error(principal, "User is deactivated", feature_level).into());
        }
        if seen.insert(user.user_id) {
            users.push(user);
        }
    }
    Ok(users)
}

/// Above this many (user, stream) pairs, a subscription change counts as heavy: it is
/// written and answered off the async threads.
const HEAVY_PAIRS: usize = 1_000;

/// Whether changing `streams` × `principals` subscriptions is heavy work.
pub fn is_heavy(streams: usize, principals: usize) -> bool {
    streams.saturating_mul(principals.max(1)) > HEAVY_PAIRS
}

/// Trims and validates names, dropping later duplicates and case variants (in time
/// linear in the list: a set of the keys seen).
pub fn unique_stream_names(raw: &[String]) -> Result<Vec<String>, ApiError> {
    let mut names: Vec<String> = Vec::with_capacity(raw.len());
    let mut seen = HashSet::with_capacity(raw.len());
    for name in raw {
        let name = check_stream_name(name)?;
        if seen.insert(store::name_key(&name)) {
            names.push(name);
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(value: Value, level: u32) -> Result<Vec<Principal>, String> {
        parse_principals(Some(value), level).map_err(|error| error.msg)
    }

    #[test]
    fn ids_need_feature_level_nine() {
        assert_eq!(parse(json!([5]), 9), Ok(vec![Principal::Id(5)]));
        assert_eq!(
            parse(json!(["a@x.test", 5]), 8),
            Err("principals[1] is not a string".into())
        );
        assert_eq!(
            parse(json!([5]), 8),
            Err("principals[0] is not a string".into())
        );
    }

    #[test]
    fn more_principals_than_the_limit_are_refused() {
        let ids: Vec<Value> = (0..=MAX_PRINCIPALS).map(Value::from).collect();
        assert_eq!(
            parse(Value::Array(ids), 362),
            Err("principals is too long (limit: 1000 items)".into())
        );
    }

    #[test]
    fn duplicate_names_are_dropped_case_insensitively_keeping_the_first() {
        let raw: Vec<String> = ["Design", " design ", "Verona", "DESIGN", "verona"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            unique_stream_names(&raw).ok(),
            Some(vec!["Design".to_owned(), "Verona".to_owned()])
        );
    }

    #[test]
    fn mixed_lists_are_refused() {
        assert_eq!(
            parse(json!([5, "a@x.test"]), 362),
            Err("principals[1] is not an integer".into())
        );
        assert_eq!(
            parse(json!(["a@x.test", 5]), 362),
            Err("principals[1] is not a string".into())
        );
        assert_eq!(
            parse(json!("a"), 362),
            Err("principals is not a list".into())
        );
    }
}
