//! Harness for Weir's black-box suites.
//!
//! Everything here talks to the real `weir-server` binary over loopback HTTP, exactly as a
//! Zulip client would: the suites under `tests/` are written from the behaviour reference
//! (`shared/reference/zulip-api.md`) and the server's command-line contract, never from the
//! server's code.
//!
//! * [`server_binary`] finds the binary (`WEIR_SERVER_BIN`) or builds it once per process.
//! * [`TestServer`] starts one server on a fresh data directory, seeded from JSON, on a
//!   free loopback port, and kills it when dropped.
//! * [`Api`] sends Zulip-style requests (query string for GET, form bodies whose
//!   non-string values are JSON-encoded for the other methods, HTTP basic auth).
//! * [`Resp`] holds status, headers and the JSON body, with assertions that print the
//!   request and the whole response when they fail.
//! * [`seed`] has the standard organization every suite shares.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod seed;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::Duration;

pub use reqwest::Method;
use reqwest::header::HeaderMap;
use serde_json::Value;
pub use serde_json::json;

pub use seed::*;

/// How long a server may take to print its `listening on` line.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Root of the Cargo workspace (the parent of this package).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                workspace_root().join(dir)
            }
        }
        _ => workspace_root().join("target"),
    }
}

/// Path of the `weir-server` binary under test.
///
/// `WEIR_SERVER_BIN` wins when set. Otherwise the binary is built once per test process
/// with `cargo build -p weir-server --bin weir-server`, so a test run never uses a stale
/// server.
pub fn server_binary() -> PathBuf {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("WEIR_SERVER_BIN").filter(|b| !b.is_empty()) {
            let bin = PathBuf::from(bin);
            return if bin.is_file() {
                Ok(bin)
            } else {
                Err(format!("WEIR_SERVER_BIN={} is not a file", bin.display()))
            };
        }
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(&cargo)
            .args(["build", "-p", "weir-server", "--bin", "weir-server"])
            .current_dir(workspace_root())
            .stdin(Stdio::null())
            .output();
        match output {
            Err(e) => Err(format!("could not run {cargo:?} build -p weir-server: {e}")),
            Ok(out) if !out.status.success() => Err(format!(
                "`cargo build -p weir-server --bin weir-server` failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )),
            Ok(_) => {
                let exe = format!("weir-server{}", std::env::consts::EXE_SUFFIX);
                let bin = target_dir().join("debug").join(exe);
                if bin.is_file() {
                    Ok(bin)
                } else {
                    Err(format!(
                        "built weir-server but {} does not exist",
                        bin.display()
                    ))
                }
            }
        }
    });
    match found {
        Ok(bin) => bin.clone(),
        Err(e) => panic!("weir-server binary unavailable: {e}"),
    }
}

/// Why a server process did not come up.
#[derive(Debug)]
pub struct LaunchFailure {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub reason: String,
}

impl std::fmt::Display for LaunchFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "weir-server did not start: {} (exit status: {:?})\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.reason, self.status, self.stdout, self.stderr
        )
    }
}

/// Result of running `weir-server` to completion (for command-line error cases).
#[derive(Debug)]
pub struct Finished {
    /// `None` when the process was still running at the deadline (it was then killed).
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    pub fn describe(&self) -> String {
        format!(
            "exit status: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status, self.stdout, self.stderr
        )
    }
}

/// Runs `weir-server ARGS` and waits (at most `timeout`) for it to exit on its own.
pub fn run_server_to_exit(args: &[String], timeout: Duration) -> Finished {
    let mut child = Command::new(server_binary())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn weir-server");
    let mut out = child.stdout.take().expect("stdout piped");
    let mut err = child.stderr.take().expect("stderr piped");
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let (tx, rx) = mpsc::channel();
    let child_id = child.id();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let _ = tx.send(());
        (child, status)
    });
    let exited = rx.recv_timeout(timeout).is_ok();
    if !exited {
        // Still running at the deadline: end it (only this process, by its id).
        let _ = Command::new("kill")
            .arg("-9")
            .arg(child_id.to_string())
            .status();
    }
    let (_child, status) = waiter.join().expect("waiter thread");
    let status = status.ok().filter(|_| exited);
    Finished {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

/// A running `weir-server` process, killed on drop.
pub struct TestServer {
    child: Child,
    /// `http://HOST:PORT`, as printed on the `listening on` line.
    pub base_url: String,
    /// The exact first line the server printed on stdout.
    pub listening_line: String,
    pub data_dir: PathBuf,
    stderr_path: PathBuf,
    http: reqwest::Client,
    // Kept alive for as long as the server runs; dropped after the process is killed.
    _dirs: Vec<tempfile::TempDir>,
}

impl TestServer {
    /// Starts a server seeded with `seed` on a fresh data directory and a free port.
    /// Panics (with the server's output) when it does not come up.
    pub fn start(seed: Value, extra_args: &[&str]) -> TestServer {
        let root = tempfile::tempdir().expect("temp dir");
        let data_dir = root.path().join("data");
        std::fs::create_dir(&data_dir).expect("create data dir");
        let seed_path = root.path().join("seed.json");
        std::fs::write(
            &seed_path,
            serde_json::to_vec_pretty(&seed).expect("seed json"),
        )
        .expect("write seed");
        let mut args = vec![
            "--data-dir".to_string(),
            data_dir.display().to_string(),
            "--seed".to_string(),
            seed_path.display().to_string(),
        ];
        args.extend(extra_args.iter().map(|a| a.to_string()));
        match Self::launch(&args, root.path()) {
            Ok(mut server) => {
                server.data_dir = data_dir;
                server._dirs.push(root);
                server
            }
            Err(failure) => panic!("{failure}"),
        }
    }

    /// Starts a server with the standard organization ([`seed::standard_seed`]).
    pub fn standard() -> TestServer {
        Self::start(standard_seed(), &[])
    }

    /// Starts a server with the standard organization and extra command-line arguments.
    pub fn standard_with(extra_args: &[&str]) -> TestServer {
        Self::start(standard_seed(), extra_args)
    }

    /// Spawns `weir-server --listen 127.0.0.1:0 ARGS` and waits for its listening line.
    /// `log_dir` receives the server's stderr log. The caller decides the data directory.
    pub fn launch(args: &[String], log_dir: &Path) -> Result<TestServer, LaunchFailure> {
        let stderr_path = log_dir.join(format!(
            "weir-server-{}-{}.stderr.log",
            std::process::id(),
            next_serial()
        ));
        let stderr_file = std::fs::File::create(&stderr_path).expect("create stderr log");
        let mut full_args = vec!["--listen".to_string(), "127.0.0.1:0".to_string()];
        full_args.extend(args.iter().cloned());
        let mut child = Command::new(server_binary())
            .args(&full_args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr_file))
            .spawn()
            .expect("spawn weir-server");
        let stdout = child.stdout.take().expect("stdout piped");
        let (tx, rx) = mpsc::channel::<Option<String>>();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                }
                Ok(_) => {
                    let _ = tx.send(Some(line));
                    // Keep draining so the server never blocks on a full pipe.
                    let mut sink = Vec::new();
                    let _ = reader.read_to_end(&mut sink);
                }
            }
        });
        let failure = |child: &mut Child, reason: String| {
            let _ = child.kill();
            let status = child.wait().ok();
            LaunchFailure {
                status,
                stdout: String::new(),
                stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
                reason,
            }
        };
        let line = match rx.recv_timeout(START_TIMEOUT) {
            Ok(Some(line)) => line,
            Ok(None) => {
                // stdout closed: wait for the exit status to report it.
                let status = child.wait().ok();
                return Err(LaunchFailure {
                    status,
                    stdout: String::new(),
                    stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
                    reason: "exited (or closed stdout) before printing a listening line".into(),
                });
            }
            Err(_) => {
                return Err(failure(
                    &mut child,
                    format!("no listening line within {START_TIMEOUT:?}"),
                ));
            }
        };
        let trimmed = line.trim_end_matches(['\n', '\r']).to_string();
        let Some(base_url) = trimmed.strip_prefix("listening on ") else {
            let mut f = failure(
                &mut child,
                "first stdout line is not `listening on ...`".into(),
            );
            f.stdout = line;
            return Err(f);
        };
        let base_url = base_url.to_string();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .expect("reqwest client");
        Ok(TestServer {
            child,
            base_url,
            listening_line: trimmed,
            data_dir: PathBuf::new(),
            stderr_path,
            http,
            _dirs: Vec::new(),
        })
    }

    /// What the server has written to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    /// Whether the server process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Client authenticated as one of the seeded accounts.
    pub fn as_user(&self, who: &Account) -> Api {
        self.with_key(who.email, who.key)
    }

    /// Client authenticated with HTTP basic auth `email:key`.
    pub fn with_key(&self, email: &str, key: &str) -> Api {
        Api {
            http: self.http.clone(),
            base_url: self.base_url.clone(),
            auth: Some((email.to_string(), key.to_string())),
        }
    }

    /// Client sending no credentials.
    pub fn anon(&self) -> Api {
        Api {
            http: self.http.clone(),
            base_url: self.base_url.clone(),
            auth: None,
        }
    }

    /// Subscribers of every stream, read as the organization owner (who may see all):
    /// `stream name -> user ids`. Used to prove that a failed request changed nothing.
    pub async fn subscription_state(&self) -> BTreeMap<String, BTreeSet<u64>> {
        let owner = self.as_user(&OWNER);
        let streams = owner.get("/streams", &[("include_all", json!(true))]).await;
        let mut state = BTreeMap::new();
        for s in streams.ok()["streams"].as_array().expect("streams list") {
            let id = s["stream_id"].as_u64().expect("stream_id");
            let name = s["name"].as_str().expect("name").to_string();
            let members = owner.get(&format!("/streams/{id}/members"), &[]).await;
            state.insert(name, ids(&members.ok()["subscribers"]));
        }
        state
    }

    /// Subscribers of one stream by id, read as the owner.
    pub async fn members_of(&self, stream_id: u64) -> BTreeSet<u64> {
        let r = self
            .as_user(&OWNER)
            .get(&format!("/streams/{stream_id}/members"), &[])
            .await;
        ids(&r.ok()["subscribers"])
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn next_serial() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

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

/// A client bound to one server and one identity.
#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base_url: String,
    auth: Option<(String, String)>,
}

impl Api {
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

    /// A request builder with this client's credentials, for raw cases.
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

    async fn send_described(&self, rb: reqwest::RequestBuilder, describe: String) -> Resp {
        let resp = match rb.send().await {
            Ok(r) => r,
            Err(e) => panic!("request failed at the transport level: {describe}: {e:?}"),
        };
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = match resp.text().await {
            Ok(t) => t,
            Err(e) => panic!("reading the response body failed: {describe}: {e:?}"),
        };
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
    fn context(&self) -> String {
        format!(
            "request: {}\nresponse status: {}\nresponse headers: {:?}\nresponse body: {}",
            self.describe, self.status, self.headers, self.text
        )
    }

    /// Asserts a Zulip success (200, `result` success, `msg` empty) and returns the body.
    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(
            self.status == 200
                && self.json["result"] == "success"
                && self.json["msg"] == ""
                && self.json.is_object(),
            "expected a Zulip success\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts a Zulip error with exactly this status, code and message; returns the body.
    #[track_caller]
    pub fn err(&self, status: u16, code: &str, msg: &str) -> &Value {
        assert!(
            self.status == status
                && self.json["result"] == "error"
                && self.json["code"] == code
                && self.json["msg"] == msg,
            "expected error {status} {code} {msg:?}\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts a 400 `BAD_REQUEST` error with this message.
    #[track_caller]
    pub fn bad_request(&self, msg: &str) -> &Value {
        self.err(400, "BAD_REQUEST", msg)
    }

    /// Asserts a 401 REST authentication failure with this message and the
    /// `WWW-Authenticate: Basic realm="zulip"` header.
    #[track_caller]
    pub fn unauthorized(&self, msg: &str) -> &Value {
        self.err(401, "UNAUTHORIZED", msg);
        assert_eq!(
            self.header("www-authenticate").as_deref(),
            Some("Basic realm=\"zulip\""),
            "401 without `WWW-Authenticate: Basic realm=\"zulip\"`\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts `STREAM_DOES_NOT_EXIST` naming `name` (Weir's documented shape).
    #[track_caller]
    pub fn stream_does_not_exist(&self, name: &str) -> &Value {
        self.err(
            400,
            "STREAM_DOES_NOT_EXIST",
            &format!("Channel '{name}' does not exist"),
        );
        assert_eq!(
            self.json["stream"],
            name,
            "`stream` field\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts a Zulip-shaped error with a 4xx status (any code and message).
    #[track_caller]
    pub fn any_zulip_error(&self) -> &Value {
        assert!(
            (400..500).contains(&self.status)
                && self.json["result"] == "error"
                && self.json["msg"].as_str().is_some_and(|m| !m.is_empty())
                && self.json["code"].is_string(),
            "expected a Zulip-shaped 4xx JSON error ({{result: error, msg, code}})\n{}",
            self.context()
        );
        self.assert_json_content_type();
        &self.json
    }

    /// Asserts a Zulip-shaped error with exactly this status (any message), code given.
    #[track_caller]
    pub fn error_status_code(&self, status: u16, code: &str) -> &Value {
        self.any_zulip_error();
        assert!(
            self.status == status && self.json["code"] == code,
            "expected a {status} {code} error\n{}",
            self.context()
        );
        &self.json
    }

    /// Asserts that the response declares a JSON content type.
    #[track_caller]
    pub fn assert_json_content_type(&self) {
        let ct = self.header("content-type").unwrap_or_default();
        assert!(
            ct.starts_with("application/json"),
            "content-type is {ct:?}, expected application/json\n{}",
            self.context()
        );
    }

    /// Asserts the status is not 5xx.
    #[track_caller]
    pub fn not_5xx(&self) {
        assert!(self.status < 500, "server error (5xx)\n{}", self.context());
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

/// A JSON array of integers as a set.
#[track_caller]
pub fn ids(v: &Value) -> BTreeSet<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected a list of ids, got {v}"))
        .iter()
        .map(|x| {
            x.as_u64()
                .unwrap_or_else(|| panic!("expected an integer id, got {x}"))
        })
        .collect()
}

/// Set of ids from a literal.
pub fn set(items: &[u64]) -> BTreeSet<u64> {
    items.iter().copied().collect()
}

/// A JSON array of strings as a multiset.
#[track_caller]
pub fn multiset(v: &Value) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for x in v
        .as_array()
        .unwrap_or_else(|| panic!("expected a list of strings, got {v}"))
    {
        let s = x
            .as_str()
            .unwrap_or_else(|| panic!("expected a string, got {x}"));
        *m.entry(s.to_string()).or_insert(0) += 1;
    }
    m
}

/// Asserts that a JSON list of strings equals `expected` as a multiset.
#[track_caller]
pub fn assert_multiset(v: &Value, expected: &[&str], what: &str) {
    let mut want = BTreeMap::new();
    for s in expected {
        *want.entry(s.to_string()).or_insert(0usize) += 1;
    }
    assert_eq!(multiset(v), want, "{what}: got {v}");
}

/// Asserts an unsubscribe success with these `removed` / `not_removed` multisets.
#[track_caller]
pub fn assert_unsubscribed(r: &Resp, removed: &[&str], not_removed: &[&str]) {
    let body = r.ok();
    assert!(
        body["removed"].is_array(),
        "no `removed` list\n{}",
        r.debug()
    );
    assert!(
        body["not_removed"].is_array(),
        "no `not_removed` list\n{}",
        r.debug()
    );
    assert_multiset(
        &body["removed"],
        removed,
        &format!("`removed`\n{}", r.debug()),
    );
    assert_multiset(
        &body["not_removed"],
        not_removed,
        &format!("`not_removed`\n{}", r.debug()),
    );
}

/// A `{"<user id>": [names]}` map as `user id -> sorted names`.
#[track_caller]
pub fn by_user(v: &Value) -> BTreeMap<u64, Vec<String>> {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("expected an object keyed by user id: {v}"));
    obj.iter()
        .map(|(k, names)| {
            let id: u64 = k
                .parse()
                .unwrap_or_else(|_| panic!("key {k:?} is not a user id"));
            let mut names: Vec<String> = names
                .as_array()
                .unwrap_or_else(|| panic!("expected a list of names: {names}"))
                .iter()
                .map(|n| {
                    n.as_str()
                        .unwrap_or_else(|| panic!("not a name: {n}"))
                        .to_string()
                })
                .collect();
            names.sort();
            (id, names)
        })
        .collect()
}

/// Expected `by_user` map from literals.
pub fn user_map(items: &[(u64, &[&str])]) -> BTreeMap<u64, Vec<String>> {
    items
        .iter()
        .map(|(id, names)| {
            let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            v.sort();
            (*id, v)
        })
        .collect()
}

/// Asserts that a response given for a hidden name is exactly the response given for a
/// name that does not exist, once the names are swapped: nothing tells them apart.
#[track_caller]
pub fn assert_indistinguishable(
    hidden: &Resp,
    hidden_name: &str,
    missing: &Resp,
    missing_name: &str,
) {
    let normalized = missing.text.replace(missing_name, hidden_name);
    let a: Value = serde_json::from_str(&normalized).unwrap_or(Value::Null);
    assert!(
        hidden.status == missing.status && hidden.json == a && hidden.json != Value::Null,
        "a hidden private stream is distinguishable from a missing one\n--- hidden ({hidden_name}) ---\n{}\n--- missing ({missing_name}) ---\n{}",
        hidden.debug(),
        missing.debug()
    );
}

/// Whether `text` looks like a Rust panic or backtrace.
pub fn looks_like_panic(text: &str) -> bool {
    text.contains("panicked at")
        || text.contains("RUST_BACKTRACE")
        || text.contains("stack backtrace")
}
