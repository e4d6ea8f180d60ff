//! The few W3C WebDriver commands the in-window bench needs (new session, script
//! timeout, execute async script, delete session), spoken to
//! `tauri-driver` over one keep-alive loopback connection. Everything in the page is done
//! by scripts, so that timings are taken in the page with `performance.now()`.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use bytes::Bytes;
use hyper::{StatusCode, Uri};
use serde_json::{Value, json};

use crate::Result;
use crate::http::Connection;

/// How long one command may take on the wire, beyond the script timeout.
const COMMAND_SLACK: Duration = Duration::from_secs(30);

pub struct Session {
    connection: Connection,
    id: String,
    script_timeout: Duration,
}

impl Session {
    /// Starts the app at `app` (tauri-driver's `tauri:options`) and its WebDriver session.
    pub async fn start(driver: SocketAddr, app: &Path) -> Result<Session> {
        let mut connection = Connection::open(driver).await?;
        let capabilities = json!({"capabilities": {
            "firstMatch": [{}],
            "alwaysMatch": {
                "browserName": "wry",
                "tauri:options": {"application": app.display().to_string()},
            },
        }});
        let answer = tokio::time::timeout(
            Duration::from_secs(120),
            connection.post_json(Uri::from_static("/session"), to_body(&capabilities)?),
        )
        .await
        .map_err(|_| "the WebDriver session did not start within 120 s")??;
        let value = value_of(answer)?;
        let id = value
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("new session answered without a sessionId: {value}"))?
            .to_owned();
        let mut session = Session {
            connection,
            id,
            script_timeout: Duration::ZERO,
        };
        session.set_script_timeout(Duration::from_secs(60)).await?;
        Ok(session)
    }

    /// How long an async script may run before the driver gives up on it.
    pub async fn set_script_timeout(&mut self, timeout: Duration) -> Result<()> {
        let millis = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        self.command("timeouts", &json!({ "script": millis }))
            .await?;
        self.script_timeout = timeout;
        Ok(())
    }

    /// Runs `script`, whose last argument is the callback that ends it with a result.
    pub async fn execute_async(&mut self, script: &str, args: Value) -> Result<Value> {
        self.command("execute/async", &json!({"script": script, "args": args}))
            .await
    }

    /// Ends the session: tauri-driver closes the app.
    pub async fn end(mut self) -> Result<()> {
        let uri: Uri = format!("/session/{}", self.id).parse()?;
        let answer = tokio::time::timeout(COMMAND_SLACK, self.connection.delete(uri))
            .await
            .map_err(|_| "deleting the WebDriver session timed out")??;
        value_of(answer).map(|_| ())
    }

    async fn command(&mut self, path: &str, body: &Value) -> Result<Value> {
        let uri: Uri = format!("/session/{}/{path}", self.id).parse()?;
        let limit = self.script_timeout + COMMAND_SLACK;
        let answer = tokio::time::timeout(limit, self.connection.post_json(uri, to_body(body)?))
            .await
            .map_err(|_| format!("WebDriver {path} got no answer within {limit:?}"))??;
        value_of(answer)
    }
}

fn to_body(value: &Value) -> Result<Bytes> {
    Ok(Bytes::from(serde_json::to_vec(value)?))
}

/// The `value` of a WebDriver answer, or its error and message.
fn value_of((status, body): (StatusCode, Bytes)) -> Result<Value> {
    let answer: Value = serde_json::from_slice(&body).map_err(|error| {
        format!(
            "WebDriver answered {status} with no JSON ({error}): {}",
            String::from_utf8_lossy(&body)
        )
    })?;
    let value = answer.get("value").cloned().unwrap_or(Value::Null);
    if let Some(error) = value.get("error").and_then(Value::as_str) {
        let message = value.get("message").and_then(Value::as_str).unwrap_or("");
        return Err(format!("WebDriver error {error} ({status}): {message}").into());
    }
    if !status.is_success() {
        return Err(format!("WebDriver answered {status}: {answer}").into());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, body: &str) -> (StatusCode, Bytes) {
        (
            StatusCode::from_u16(status).unwrap(),
            Bytes::from(body.to_owned()),
        )
    }

    #[test]
    fn values_and_errors() {
        assert_eq!(
            value_of(answer(200, r#"{"value": {"ms": 12.5}}"#)).unwrap(),
            json!({"ms": 12.5})
        );
        assert_eq!(
            value_of(answer(200, r#"{"value": null}"#)).unwrap(),
            Value::Null
        );
        let error = value_of(answer(
            500,
            r#"{"value": {"error": "script timeout", "message": "too slow"}}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("script timeout") && error.contains("too slow"),
            "{error}"
        );
        assert!(value_of(answer(502, "Bad Gateway")).is_err());
        assert!(value_of(answer(404, r#"{"value": 1}"#)).is_err());
    }
}
