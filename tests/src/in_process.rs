//! The server in this process: the same seeded organization on a fresh data directory,
//! opened with weir-server's library (the store, [`AppState`] and [`router`]), and
//! requests handed to the router with `tower::ServiceExt::oneshot` instead of a socket.
//!
//! What `weir_server::serve` adds around the router is absent here: the `Host` check,
//! the header and body timeouts, the connection cap, hyper's parsing of the request and
//! its answers to requests it cannot parse. Suites that test those start a process
//! ([`crate::TestServer::spawn`]).

use std::path::Path;

use axum::Router;
use axum::body::Body;
use http_body_util::BodyExt;
use reqwest::header::{self, HeaderMap, HeaderValue};
use tower::ServiceExt;
use weir_server::{AppState, Config, Seed, Store, router};

/// The base URL of an in-process server. `.invalid` never resolves (RFC 6761): a request
/// that tries a socket anyway fails at once instead of reaching something else.
pub const IN_PROCESS_URL: &str = "http://in-process.invalid";

/// Creates the data dir's database from `seed` and opens it as the command line does
/// (`weir-server --data-dir DIR --seed FILE`): the directory made private, then the store
/// opened on the current tokio runtime (its writer is a task there).
pub(crate) fn open_seeded(data_dir: &Path, seed: &serde_json::Value, config: Config) -> Router {
    let seed = Seed::from_json(&seed.to_string())
        .unwrap_or_else(|error| panic!("the seed was refused: {error}"));
    // The one place the harness reaches past weir-server's root items (as its CLI does).
    let organization = weir_server::embed::data_dir::Organization::Seed(seed);
    weir_server::embed::data_dir::prepare(data_dir, &organization)
        .unwrap_or_else(|error| panic!("preparing {}: {error}", data_dir.display()));
    let store = Store::open(data_dir).unwrap_or_else(|error| {
        panic!(
            "opening the store in {} (inside a tokio runtime?): {error}",
            data_dir.display()
        )
    });
    router(AppState::new(store, config))
}

/// The server's [`Config`] for the command-line arguments a suite passes. Only the
/// options that change the router's behaviour exist in process; the others configure the
/// process or its sockets, and a test that needs them must start a process.
pub(crate) fn config_from_args(args: &[&str]) -> Config {
    let mut config = Config::default();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let mut value = |flag: &str| -> u32 {
            let value = rest
                .next()
                .unwrap_or_else(|| panic!("{flag} needs a value"));
            value.parse().unwrap_or_else(|_| {
                panic!("{flag} {value}: not a number (test that with a process)")
            })
        };
        match *flag {
            "--feature-level" => config.feature_level = value(flag),
            "--rate-limit" => config.rate_limit = Some(value(flag)),
            other => panic!(
                "{other} configures the process or its sockets, which an in-process server \
                 does not have: start a process (TestServer::spawn)"
            ),
        }
    }
    config
}

/// Hands `request` to the router and reads the whole answer: status, headers and body
/// as text (lossy UTF-8, as reqwest's `text()` reads a UTF-8 body).
///
/// The request gets the headers a socket client would add: `host` from the URL, reqwest's
/// default `accept: */*`, and `content-length` when it has a body.
pub(crate) async fn call(
    router: &Router,
    request: reqwest::Request,
) -> Result<(u16, HeaderMap, String), String> {
    let url = request.url();
    let target = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    let host = match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_owned(),
        (None, _) => String::new(),
    };
    let body = match request.body() {
        None => None,
        Some(body) => Some(
            body.as_bytes()
                .ok_or("a streaming body cannot be sent in process")?
                .to_vec(),
        ),
    };
    let mut headers = request.headers().clone();
    if !headers.contains_key(header::HOST) && !host.is_empty() {
        let host = HeaderValue::from_str(&host).map_err(|e| format!("host {host:?}: {e}"))?;
        headers.insert(header::HOST, host);
    }
    if !headers.contains_key(header::ACCEPT) {
        headers.insert(header::ACCEPT, HeaderValue::from_static("*/*"));
    }
    if let Some(body) = &body {
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    }
    let mut built = axum::http::Request::builder()
        .method(request.method().clone())
        .uri(&target)
        .body(body.map_or_else(Body::empty, Body::from))
        .map_err(|e| format!("{target:?} is not a request target: {e}"))?;
    *built.headers_mut() = headers;

    let response = match router.clone().oneshot(built).await {
        Ok(response) => response,
        Err(infallible) => match infallible {},
    };
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("reading the response body: {e}"))?
        .to_bytes();
    Ok((
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    ))
}
