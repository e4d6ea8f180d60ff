//! A scripted Zulip stand-in on a loopback socket (random port) for the client and
//! accounts tests: each route answers with a closure of the request and the number of
//! earlier hits on that route; every request is recorded.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use base64::Engine as _;
use serde_json::{Value, json};
use weir_core::{ClientConfig, Credentials, Secret, TlsOptions, ZulipClient};

pub const EMAIL: &str = "iago@zulip.com";
pub const KEY: &str = "aB3dEfGhIjKlMnOpQrStUvWxYz012345";

/// One request as the stub saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: Method,
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Form body fields.
    pub fn form(&self) -> HashMap<String, String> {
        form_urlencoded::parse(self.body.as_bytes())
            .into_owned()
            .collect()
    }

    /// Query string fields.
    pub fn query_params(&self) -> HashMap<String, String> {
        form_urlencoded::parse(self.query.as_bytes())
            .into_owned()
            .collect()
    }

    /// `(email, key)` from the basic auth header.
    pub fn basic_auth(&self) -> Option<(String, String)> {
        let encoded = self.header("authorization")?.strip_prefix("Basic ")?;
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()?;
        let text = String::from_utf8(decoded).ok()?;
        let (email, key) = text.split_once(':')?;
        Some((email.to_string(), key.to_string()))
    }
}

/// What a route answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub delay: Duration,
}

impl Reply {
    /// `{"result":"success","msg":"", ...fields}`.
    pub fn success(fields: Value) -> Self {
        let mut body = json!({"result": "success", "msg": ""});
        if let (Some(target), Value::Object(extra)) = (body.as_object_mut(), fields) {
            target.extend(extra);
        }
        Self::json(200, body)
    }

    /// `{"result":"error","code":code,"msg":msg, ...extra}`.
    pub fn error(status: u16, code: &str, msg: &str, extra: Value) -> Self {
        let mut body = json!({"result": "error", "code": code, "msg": msg});
        if let (Some(target), Value::Object(extra)) = (body.as_object_mut(), extra) {
            target.extend(extra);
        }
        Self::json(status, body)
    }

    pub fn json(status: u16, body: Value) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn text(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "text/html".into())],
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

type Handler = Arc<dyn Fn(&Recorded, usize) -> Reply + Send + Sync>;
/// Handler and hit count per `(method, path)`.
type Routes = HashMap<(Method, String), (Handler, usize)>;

#[derive(Clone, Default)]
struct Shared {
    routes: Arc<Mutex<Routes>>,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

/// The running stub. Dropping it stops the server task.
pub struct Stub {
    pub url: String,
    shared: Shared,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Stub {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Stub {
    pub async fn start() -> Self {
        let shared = Shared::default();
        let router = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.unwrap();
        });
        Self { url, shared, task }
    }

    /// Answers `method path` (path without the query, e.g. `/api/v1/users/me`).
    pub fn route(
        &self,
        method: Method,
        path: &str,
        handler: impl Fn(&Recorded, usize) -> Reply + Send + Sync + 'static,
    ) -> &Self {
        self.shared
            .routes
            .lock()
            .unwrap()
            .insert((method, path.to_string()), (Arc::new(handler), 0));
        self
    }

    /// `GET /api/v1/server_settings` at `level`.
    pub fn server_settings(&self, level: u32) -> &Self {
        self.route(Method::GET, "/api/v1/server_settings", move |_, _| {
            Reply::success(server_settings_json(level))
        })
    }

    /// `GET /api/v1/users/me` answering 200 only for `email`/`key`, 401 otherwise.
    pub fn users_me(&self, email: &'static str, key: &'static str) -> &Self {
        self.route(
            Method::GET,
            "/api/v1/users/me",
            move |request, _| match request.basic_auth() {
                Some((e, k)) if e == email && k == key => {
                    Reply::success(user_json(8, email, "Iago"))
                }
                _ => Reply::error(401, "UNAUTHORIZED", "Invalid API key", json!({}))
                    .header("www-authenticate", "Basic realm=\"zulip\""),
            },
        )
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }

    pub fn requests_to(&self, path: &str) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.path == path)
            .collect()
    }
}

async fn handle(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let recorded = Recorded {
        method: method.clone(),
        path: uri.path().to_string(),
        query: uri.query().unwrap_or_default().to_string(),
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    shared.requests.lock().unwrap().push(recorded.clone());
    let reply = {
        let mut routes = shared.routes.lock().unwrap();
        match routes.get_mut(&(method, recorded.path.clone())) {
            Some((handler, hits)) => {
                let reply = handler(&recorded, *hits);
                *hits += 1;
                reply
            }
            None => Reply::error(404, "BAD_REQUEST", "Invalid API path", json!({})),
        }
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = Response::builder().status(StatusCode::from_u16(reply.status).unwrap());
    for (name, value) in &reply.headers {
        response = response.header(name, value);
    }
    response.body(Body::from(reply.body)).unwrap()
}

pub fn server_settings_json(level: u32) -> Value {
    json!({
        "zulip_feature_level": level,
        "zulip_version": "10.0",
        "zulip_merge_base": "10.0",
        "push_notifications_enabled": false,
        "authentication_methods": {"password": true},
        "realm_name": "Zulip Dev",
        "realm_url": "http://localhost"
    })
}

pub fn user_json(id: i64, email: &str, name: &str) -> Value {
    json!({
        "user_id": id, "email": email, "full_name": name, "role": 200,
        "is_admin": true, "is_owner": false, "is_guest": false, "is_bot": false,
        "is_active": true, "avatar_url": null, "date_joined": "2024-01-01T00:00:00+00:00",
        "timezone": "", "delivery_email": email
    })
}

/// Small delays and budgets so that retry tests run fast.
pub fn fast_config() -> ClientConfig {
    ClientConfig {
        timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(2),
        max_retries: 2,
        retry_base_delay: Duration::from_millis(5),
        max_retry_delay: Duration::from_millis(40),
        max_rate_limit_retries: 3,
        max_rate_limit_wait: Duration::from_secs(2),
    }
}

pub fn client(stub: &Stub) -> ZulipClient {
    client_with(stub, fast_config())
}

pub fn client_with(stub: &Stub, config: ClientConfig) -> ZulipClient {
    let credentials = Credentials {
        site: stub.url.clone(),
        email: EMAIL.into(),
        key: Secret::new(KEY),
    };
    ZulipClient::new(credentials, &TlsOptions::default(), &config).unwrap()
}
