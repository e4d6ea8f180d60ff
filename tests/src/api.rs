//! Talking to the server as a Zulip client does: parameters encoded the Zulip way,
//! HTTP basic auth, and every response kept whole ([`Resp`]) so a failed assertion can
//! show the request and the full answer.
//!
//! Requests are built with reqwest whatever the [`Transport`]: over a socket they are sent
//! as they are; in process the built request is handed to the server's router
//! ([`crate::in_process`]). Either way the answer is validated and kept the same way.

pub use reqwest::Method;
use reqwest::header::HeaderMap;
use serde_json::Value;

/// One parameter: name and value. String values are sent as they are; every other JSON
/// value (lists, objects, numbers, booleans, null) is JSON-encoded, as Zulip clients do.
pub type Param<'a> = (&'a str, Value);

/// Encodes parameters the way Zulip clients do.
pub fn encode_params(params: &[Param<'_>]) -> Vec<(String, String)> {
    params
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.to_string(), v)
        })
        .collect()
}

/// `application/x-www-form-urlencoded` text of the parameters.
pub fn form_body(params: &[Param<'_>]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in encode_params(params).iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(&percent_encode(k));
        out.push('=');
        out.push_str(&percent_encode(v));
    }
    out
}

/// Percent-encodes everything but unreserved characters (spaces become `%20`).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// How a request reaches the server.
#[derive(Clone)]
pub enum Transport {
    /// Over a loopback socket, with the client's `reqwest::Client`.
    Socket,
    /// Into this router, in this process (`tower::ServiceExt::oneshot`).
    InProcess(axum::Router),
}

/// A client bound to one server and one identity.
#[derive(Clone)]
pub struct Api {
    /// Builds every request, and sends it over [`Transport::Socket`].
    http: reqwest::Client,
    transport: Transport,
    base_url: String,
    auth: Option<(String, String)>,
    /// The server's feature level, for validating its answers.
    feature_level: u32,
}

impl Api {
    /// A client for the server at `base_url`, sending `auth` (email, key) when given.
    pub(crate) fn new(
        http: reqwest::Client,
        transport: Transport,
        base_url: String,
        auth: Option<(String, String)>,
        feature_level: u32,
    ) -> Api {
        Api {
            http,
            transport,
            base_url,
            auth,
            feature_level,
        }
    }

    /// Full URL of `path`: paths starting with `/api/` are used as they are, any other
    /// path is taken as under `/api/v1`.
    pub fn url(&self, path: &str) -> String {
        if path.starts_with("/api/") {
            format!("{}{}", self.base_url, path)
        } else {
            format!("{}/api/v1{}", self.base_url, path)
        }
    }

    /// URL of a path outside the API (used verbatim).
    pub fn raw_url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// A request builder with this client's credentials, for raw cases: send it with
    /// [`Api::send`] (its own `send` would need a socket, which an in-process server has
    /// not).
    pub fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let rb = self.http.request(method, self.url(path));
        match &self.auth {
            Some((email, key)) => rb.basic_auth(email, Some(key)),
            None => rb,
        }
    }

    /// A request builder without credentials, whatever this client has.
    pub fn request_unauthenticated(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, self.url(path))
    }

    /// GET with parameters in the query string.
    pub async fn get(&self, path: &str, query: &[Param<'_>]) -> Resp {
        let q = encode_params(query);
        let describe = format!("GET {path} query={q:?} as {:?}", self.who());
        self.send_described(self.request(Method::GET, path).query(&q), describe)
            .await
    }

    /// POST with a form-encoded body.
    pub async fn post(&self, path: &str, params: &[Param<'_>]) -> Resp {
        self.with_form(Method::POST, path, params).await
    }

    /// PATCH with a form-encoded body.
    pub async fn patch(&self, path: &str, params: &[Param<'_>]) -> Resp {
        self.with_form(Method::PATCH, path, params).await
    }

    /// DELETE with a form-encoded body.
    pub async fn delete(&self, path: &str, params: &[Param<'_>]) -> Resp {
        self.with_form(Method::DELETE, path, params).await
    }

    /// DELETE with some parameters in the query string and others in the form body.
    pub async fn delete_split(&self, path: &str, query: &[Param<'_>], body: &[Param<'_>]) -> Resp {
        let q = encode_params(query);
        let b = form_body(body);
        let describe = format!("DELETE {path} query={q:?} body={b:?} as {:?}", self.who());
        let mut rb = self.request(Method::DELETE, path).query(&q);
        if !body.is_empty() {
            rb = rb
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(b.clone());
        }
        self.send_described(rb, describe).await
    }

    async fn with_form(&self, method: Method, path: &str, params: &[Param<'_>]) -> Resp {
        let body = form_body(params);
        let describe = format!("{method} {path} body={body:?} as {:?}", self.who());
        let rb = self
            .request(method, path)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body);
        self.send_described(rb, describe).await
    }

    /// Sends a raw request built with [`Api::request`].
    pub async fn send(&self, rb: reqwest::RequestBuilder, describe: &str) -> Resp {
        self.send_described(rb, describe.to_string()).await
    }

    /// Sends the request and validates the answer against Zulip's OpenAPI document
    /// ([`crate::openapi`]): a response that does not match fails the calling test.
    async fn send_described(&self, rb: reqwest::RequestBuilder, describe: String) -> Resp {
        let request = match rb.build() {
            Ok(request) => request,
            Err(e) => panic!("the request could not be built: {describe}: {e:?}"),
        };
        let method = request.method().to_string();
        let path = request.url().path().to_owned();
        let (status, headers, text) = match &self.transport {
            Transport::Socket => {
                let resp = match self.http.execute(request).await {
                    Ok(r) => r,
                    Err(e) => panic!("request failed at the transport level: {describe}: {e:?}"),
                };
                let status = resp.status().as_u16();
                let headers = resp.headers().clone();
                let text = match resp.text().await {
                    Ok(t) => t,
                    Err(e) => panic!("reading the response body failed: {describe}: {e:?}"),
                };
                (status, headers, text)
            }
            Transport::InProcess(router) => match crate::in_process::call(router, request).await {
                Ok(answer) => answer,
                Err(e) => panic!("the request failed in process: {describe}: {e}"),
            },
        };
        let spec = crate::openapi::Spec::global();
        if let Err(problems) = spec.check(&method, &path, status, &text, self.feature_level) {
            panic!(
                "{}\nrequest: {describe}\nresponse body: {text}",
                problems.join("\n")
            );
        }
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Resp {
            status,
            headers,
            text,
            json,
            describe,
        }
    }

    fn who(&self) -> Option<&str> {
        self.auth.as_ref().map(|(e, _)| e.as_str())
    }
}

/// A response: status, headers and body (parsed as JSON when it is JSON).
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: HeaderMap,
    pub text: String,
    /// The body as JSON, or `Null` when it is not JSON.
    pub json: Value,
    /// The request, for failure messages.
    pub describe: String,
}

impl Resp {
    pub(crate) fn context(&self) -> String {
        format!(
            "request: {}\nresponse status: {}\nresponse headers: {:?}\nresponse body: {}",
            self.describe, self.status, self.headers, self.text
        )
    }

    /// One header as text.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    }

    /// Full description for custom assertions.
    pub fn debug(&self) -> String {
        self.context()
    }
}
