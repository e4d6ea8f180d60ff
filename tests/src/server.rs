//! The server under test, in this process or as a process: a [`TestServer`] holds a
//! seeded organization on a fresh data directory and hands out clients ([`Api`]) for it.
//!
//! * In process ([`TestServer::standard`], [`TestServer::start`]): weir-server's router
//!   called directly (see [`crate::in_process`]). What the behaviour suites use.
//! * A process ([`TestServer::spawn`], [`TestServer::launch`]): the real binary (found or
//!   built once) on a free loopback port, killed on drop; [`run_server_to_exit`] runs
//!   command lines that must fail. For what only a process has: its command line, its
//!   sockets (`Host` check, timeouts, connection cap), signals, files and logs.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::api::{Api, Transport};
use crate::assert::ids;
use crate::seed::{Account, OWNER, standard_seed};

/// How long a server may take to print its `listening on` line.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Root of the Cargo workspace (the parent of this package).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Cargo's target directory: `CARGO_TARGET_DIR` (relative to the workspace root when
/// relative), else `<workspace>/target`.
pub fn target_dir() -> PathBuf {
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

/// Why a server process did not come up. Its `Debug` is its `Display` (the server's
/// output, readable), so `launch(..).unwrap()` fails with a useful message.
pub struct LaunchFailure {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub reason: String,
}

impl std::fmt::Debug for LaunchFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
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

/// The `--feature-level` among a command line's arguments, else the server's default.
fn feature_level_of(args: &[String]) -> u32 {
    args.iter()
        .position(|arg| arg == "--feature-level")
        .and_then(|index| args.get(index + 1))
        .and_then(|level| level.parse().ok())
        .unwrap_or(crate::openapi::DEFAULT_FEATURE_LEVEL)
}

/// A server under test: in this process, or a `weir-server` process killed on drop.
pub struct TestServer {
    /// `http://HOST:PORT`, as printed on the `listening on` line; in process
    /// [`crate::in_process::IN_PROCESS_URL`], which no socket reaches.
    pub base_url: String,
    /// The exact first line the server printed on stdout (empty in process).
    pub listening_line: String,
    pub data_dir: PathBuf,
    /// The feature level it was started with (`--feature-level`, else 421): responses
    /// are validated against the document as a server of that level answers.
    pub feature_level: u32,
    transport: Transport,
    /// The process, unless the server runs in this one.
    process: Option<Process>,
    http: reqwest::Client,
    // Kept alive for as long as the server runs; dropped after the process is killed
    // (fields drop in order).
    _dirs: Vec<tempfile::TempDir>,
}

/// The client that builds the requests of in-process servers (it never connects).
fn in_process_client() -> reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(reqwest::Client::new).clone()
}

/// A server's process and where its stderr goes.
struct Process {
    child: Child,
    stderr_path: PathBuf,
}

impl TestServer {
    /// The standard organization ([`standard_seed`]) in process.
    pub fn standard() -> TestServer {
        Self::start(standard_seed(), &[])
    }

    /// The standard organization in process, with the command-line options that change
    /// behaviour (`--feature-level N`, `--rate-limit N`; any other panics: it needs a
    /// process).
    pub fn standard_with(args: &[&str]) -> TestServer {
        Self::start(standard_seed(), args)
    }

    /// `seed` in process, on a fresh data directory, with the options of
    /// [`TestServer::standard_with`]. Must be called inside a tokio runtime (the store's
    /// writer is a task on it), as every `#[tokio::test]` is.
    pub fn start(seed: Value, args: &[&str]) -> TestServer {
        let config = crate::in_process::config_from_args(args);
        let feature_level = config.feature_level;
        let root = tempfile::tempdir().expect("temp dir");
        let data_dir = root.path().join("data");
        let router = crate::in_process::open_seeded(&data_dir, &seed, config);
        TestServer {
            base_url: crate::in_process::IN_PROCESS_URL.to_owned(),
            listening_line: String::new(),
            data_dir,
            feature_level,
            transport: Transport::InProcess(router),
            process: None,
            http: in_process_client(),
            _dirs: vec![root],
        }
    }

    /// Starts a `weir-server` process seeded with `seed` on a fresh data directory and a
    /// free port. Panics (with the server's output) when it does not come up.
    pub fn spawn(seed: Value, extra_args: &[&str]) -> TestServer {
        Self::spawn_with_env(seed, extra_args, &[])
    }

    /// Like [`TestServer::spawn`], with extra environment variables (`RUST_LOG`, ...).
    pub fn spawn_with_env(seed: Value, extra_args: &[&str], env: &[(&str, &str)]) -> TestServer {
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
        match Self::launch_with_env(&args, root.path(), env) {
            Ok(mut server) => {
                server.data_dir = data_dir;
                server._dirs.push(root);
                server
            }
            Err(failure) => panic!("{failure}"),
        }
    }

    /// Starts a process with the standard organization ([`standard_seed`]).
    pub fn spawn_standard() -> TestServer {
        Self::spawn(standard_seed(), &[])
    }

    /// Starts a process with the standard organization and extra command-line arguments.
    pub fn spawn_standard_with(extra_args: &[&str]) -> TestServer {
        Self::spawn(standard_seed(), extra_args)
    }

    /// Spawns `weir-server --listen 127.0.0.1:0 ARGS` and waits for its listening line.
    /// `log_dir` receives the server's stderr log. The caller decides the data directory.
    pub fn launch(args: &[String], log_dir: &Path) -> Result<TestServer, LaunchFailure> {
        Self::launch_with_env(args, log_dir, &[])
    }

    /// Like [`TestServer::launch`], with extra environment variables.
    pub fn launch_with_env(
        args: &[String],
        log_dir: &Path,
        env: &[(&str, &str)],
    ) -> Result<TestServer, LaunchFailure> {
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
            .envs(env.iter().copied())
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
            base_url,
            listening_line: trimmed,
            data_dir: PathBuf::new(),
            feature_level: feature_level_of(args),
            transport: Transport::Socket,
            process: Some(Process { child, stderr_path }),
            http,
            _dirs: Vec::new(),
        })
    }

    /// Whether the server runs in this process.
    pub fn in_process(&self) -> bool {
        self.process.is_none()
    }

    /// The server's process; panics for a server in process.
    #[track_caller]
    fn process(&self) -> &Process {
        self.process.as_ref().unwrap_or_else(|| {
            panic!("this server runs in process: start a process (TestServer::spawn) for this")
        })
    }

    /// Like [`TestServer::process`], mutable.
    #[track_caller]
    fn process_mut(&mut self) -> &mut Process {
        self.process.as_mut().unwrap_or_else(|| {
            panic!("this server runs in process: start a process (TestServer::spawn) for this")
        })
    }

    /// What the server process has written to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.process().stderr_path).unwrap_or_default()
    }

    /// Whether the server process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.process_mut().child.try_wait(), Ok(None))
    }

    /// The server process's id (a spawned server only).
    pub fn pid(&self) -> u32 {
        self.process().child.id()
    }

    /// Sends SIGTERM to the server process (this process only, by its id).
    pub fn terminate(&self) {
        let id = self.process().child.id();
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(id.to_string())
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM {id} failed");
    }

    /// Waits up to `timeout` for the process to exit; `None` if it is still running.
    pub fn wait_for_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = std::time::Instant::now() + timeout;
        let child = &mut self.process_mut().child;
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            if std::time::Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Client authenticated as one of the seeded accounts.
    pub fn as_user(&self, who: &Account) -> Api {
        self.with_key(who.email, who.key)
    }

    /// Client authenticated with HTTP basic auth `email:key`.
    pub fn with_key(&self, email: &str, key: &str) -> Api {
        Api::new(
            self.http.clone(),
            self.transport.clone(),
            self.base_url.clone(),
            Some((email.to_string(), key.to_string())),
            self.feature_level,
        )
    }

    /// Client sending no credentials.
    pub fn anon(&self) -> Api {
        Api::new(
            self.http.clone(),
            self.transport.clone(),
            self.base_url.clone(),
            None,
            self.feature_level,
        )
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
        if let Some(process) = &mut self.process {
            let _ = process.child.kill();
            let _ = process.child.wait();
        }
    }
}

fn next_serial() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}
