//! The page's own account of a start: when its script ran, when the first status and the
//! first page's data arrived, when that content was painted (milliseconds since the page
//! began loading). Logged once, beside the shell's own start-up lines, so that one log
//! shows where a cold start's time goes (`weir-bench app` keeps the logs).

use serde::Deserialize;
use ts_rs::TS;

use super::command;
use crate::error::{AppError, AppResult};

/// At most this many marks are logged.
pub const MAX_MARKS: usize = 32;
/// A mark's name is at most this long.
pub const MAX_NAME: usize = 64;

/// One moment of the page's start.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StartupMark {
    pub name: String,
    /// Milliseconds since the page began loading.
    pub ms: f64,
}

/// The page's start-up marks, in time order.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StartupReport {
    pub marks: Vec<StartupMark>,
}

/// Logs the page's start-up marks, the first report only.
#[command]
pub async fn report_startup(request: StartupReport) -> AppResult<()> {
    let line = describe(&request.marks)?;
    static FIRST: std::sync::Once = std::sync::Once::new();
    FIRST.call_once(|| tracing::info!("ui content painted: {line}"));
    Ok(())
}

/// `name 12 ms, ...`; refuses lists and names past the bounds, names outside
/// `[a-z0-9 -]` and times that are not finite and non-negative.
pub fn describe(marks: &[StartupMark]) -> AppResult<String> {
    if marks.len() > MAX_MARKS {
        return Err(AppError::InvalidInput(format!(
            "at most {MAX_MARKS} start-up marks"
        )));
    }
    let mut parts = Vec::with_capacity(marks.len());
    for mark in marks {
        let plain = mark
            .name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == ' ' || c == '-');
        if mark.name.is_empty() || mark.name.len() > MAX_NAME || !plain {
            return Err(AppError::InvalidInput(
                "a start-up mark's name is 1-64 of a-z, 0-9, space and -".into(),
            ));
        }
        if !mark.ms.is_finite() || mark.ms < 0.0 {
            return Err(AppError::InvalidInput(
                "a start-up mark's time is a non-negative number".into(),
            ));
        }
        parts.push(format!("{} {:.0} ms", mark.name, mark.ms));
    }
    Ok(parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(name: &str, ms: f64) -> StartupMark {
        StartupMark {
            name: name.into(),
            ms,
        }
    }

    #[test]
    fn marks_are_listed_in_order() {
        let line = describe(&[
            mark("app script", 101.4),
            mark("first-contentful-paint", 250.6),
        ]);
        assert_eq!(
            line.ok().as_deref(),
            Some("app script 101 ms, first-contentful-paint 251 ms")
        );
    }

    #[test]
    fn odd_names_times_and_long_lists_are_refused() {
        for bad in [
            vec![mark("", 1.0)],
            vec![mark("Upper", 1.0)],
            vec![mark("new\nline", 1.0)],
            vec![mark(&"x".repeat(MAX_NAME + 1), 1.0)],
            vec![mark("nan", f64::NAN)],
            vec![mark("infinite", f64::INFINITY)],
            vec![mark("negative", -1.0)],
            vec![mark("many", 1.0); MAX_MARKS + 1],
        ] {
            assert!(
                matches!(describe(&bad), Err(AppError::InvalidInput(_))),
                "{bad:?}"
            );
        }
        assert!(describe(&vec![mark("many", 1.0); MAX_MARKS]).is_ok());
    }
}
