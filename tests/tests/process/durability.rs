//! Crash durability: every webhook request that was answered 200 has its message after
//! the server is killed (SIGKILL) mid-load and restarted on the same data directory; a
//! graceful SIGTERM exits 0 promptly and loses nothing.
//!
//! The harness's [`TestServer`] does not expose its process id, so the servers that are
//! signalled are started here by [`Launched`], from the same binary
//! ([`server_binary`]) and with the same command-line contract (`--listen 127.0.0.1:0`,
//! one `listening on http://HOST:PORT` line on stdout). The server that checks the
//! result afterwards is an ordinary [`TestServer::launch`] on the same data directory,
//! without `--seed` (the binary refuses `--seed` on an existing database).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::watch;
use tokio::time::timeout;
use weir_tests::*;

const ADA: &str = include_str!("../../fixtures/webhooks/helloworld/ada_lovelace.json");
/// How long a SIGTERM may take to end the process ("promptly").
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the load may take to reach its target before the test gives up.
const LOAD_TIMEOUT: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------- launcher

/// A `weir-server` process started by this suite, so that it can be signalled.
struct Launched {
    child: tokio::process::Child,
    base_url: String,
    stderr_path: PathBuf,
}

impl Launched {
    /// Spawns `weir-server --listen 127.0.0.1:0 ARGS` and waits for its listening line.
    async fn start(args: &[String], log_dir: &Path, label: &str) -> Launched {
        let binary = tokio::task::spawn_blocking(server_binary)
            .await
            .expect("server binary");
        let stderr_path = log_dir.join(format!("{label}.stderr.log"));
        let stderr = std::fs::File::create(&stderr_path).expect("stderr log");
        let mut child = tokio::process::Command::new(binary)
            .arg("--listen")
            .arg("127.0.0.1:0")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr))
            .kill_on_drop(true)
            .spawn()
            .expect("spawn weir-server");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let line = match timeout(START_TIMEOUT, lines.next_line()).await {
            Ok(Ok(Some(line))) => line,
            other => {
                let _ = child.start_kill();
                let status = child.wait().await.ok();
                panic!(
                    "weir-server {args:?} did not print its listening line ({other:?}, exit \
                     {status:?})\n--- stderr ---\n{}",
                    std::fs::read_to_string(&stderr_path).unwrap_or_default()
                );
            }
        };
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let base_url = line
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Launched {
            child,
            base_url,
            stderr_path,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id().expect("server still running")
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    /// SIGKILL, then reap.
    async fn kill_hard(&mut self) -> ExitStatus {
        self.child.start_kill().expect("SIGKILL");
        self.child.wait().await.expect("wait")
    }

    /// Sends SIGTERM (to this process only, by its id).
    fn terminate(&self) {
        let status = std::process::Command::new("kill")
            .arg("-TERM")
            .arg(self.pid().to_string())
            .status()
            .expect("run kill");
        assert!(
            status.success(),
            "kill -TERM {} failed: {status}",
            self.pid()
        );
    }

    /// Waits for the process to exit; `None` when it is still running at the deadline.
    async fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        match timeout(within, self.child.wait()).await {
            Ok(status) => Some(status.expect("wait")),
            Err(_) => None,
        }
    }
}

/// A fresh data directory with the standard organization's seed file next to it.
struct Dirs {
    root: tempfile::TempDir,
    data: PathBuf,
    seed: PathBuf,
}

fn dirs() -> Dirs {
    let root = tempfile::tempdir().expect("temp dir");
    let data = root.path().join("data");
    std::fs::create_dir(&data).expect("data dir");
    let seed = root.path().join("seed.json");
    std::fs::write(&seed, serde_json::to_vec_pretty(&standard_seed()).unwrap()).unwrap();
    Dirs { root, data, seed }
}

impl Dirs {
    fn first_start_args(&self) -> Vec<String> {
        vec![
            "--data-dir".into(),
            self.data.display().to_string(),
            "--seed".into(),
            self.seed.display().to_string(),
        ]
    }

    fn restart_args(&self) -> Vec<String> {
        vec!["--data-dir".into(), self.data.display().to_string()]
    }

    /// The checking server: a harness server on the existing data directory.
    fn reopen(&self) -> TestServer {
        TestServer::launch(&self.restart_args(), self.root.path())
            .expect("restart on the same data dir failed")
    }
}

// ---------------------------------------------------------------------- load

/// What the load saw: topics sent, topics answered 200, and any failure before the stop.
#[derive(Default)]
struct Ledger {
    attempted: BTreeSet<String>,
    acked: BTreeSet<String>,
    unexpected: Vec<String>,
}

/// Sends Hello World posts, each with a unique topic, until told to stop and a request
/// fails (the server is gone). Every answer before the stop must be a success.
async fn worker(
    base_url: String,
    worker_id: usize,
    prefix: String,
    ledger: Arc<Mutex<Ledger>>,
    acked_count: watch::Sender<usize>,
    stopping: Arc<AtomicBool>,
) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let url = format!("{base_url}/api/v1/external/helloworld");
    for i in 0..100_000usize {
        let topic = format!("{prefix}-w{worker_id}-{i}");
        ledger.lock().unwrap().attempted.insert(topic.clone());
        let sent = http
            .post(&url)
            .query(&[
                ("api_key", WEBHOOK_BOT.key),
                ("stream", "Engineering"),
                ("topic", &topic),
            ])
            .header("Content-Type", "application/json")
            .body(ADA)
            .send()
            .await;
        let outcome = match sent {
            Ok(resp) => {
                let status = resp.status().as_u16();
                match resp.text().await {
                    Ok(text) => {
                        let json: serde_json::Value =
                            serde_json::from_str(&text).unwrap_or_default();
                        if status == 200 && json["result"] == "success" {
                            Ok(())
                        } else {
                            Err(format!("{topic}: HTTP {status} {text}"))
                        }
                    }
                    Err(e) => Err(format!("{topic}: reading the answer failed: {e}")),
                }
            }
            Err(e) => Err(format!("{topic}: {e}")),
        };
        match outcome {
            Ok(()) => {
                let n = {
                    let mut l = ledger.lock().unwrap();
                    l.acked.insert(topic);
                    l.acked.len()
                };
                acked_count.send_replace(n);
            }
            Err(why) => {
                if stopping.load(Ordering::SeqCst) {
                    return;
                }
                ledger.lock().unwrap().unexpected.push(why);
                return;
            }
        }
    }
}

/// How the server is stopped in the middle of the load.
#[derive(Clone, Copy, Debug)]
enum Stop {
    Sigkill,
    Sigterm,
}

/// Runs `workers` load tasks against `server` until `target` requests were answered 200,
/// then stops the server as told (while requests are in flight), waits for every task to
/// finish and returns the exit status (`None`: still running after [`SHUTDOWN_TIMEOUT`]).
async fn load_until(
    server: &mut Launched,
    prefix: &str,
    workers: usize,
    target: usize,
    ledger: &Arc<Mutex<Ledger>>,
    how: Stop,
) -> Option<ExitStatus> {
    let before = ledger.lock().unwrap().acked.len();
    let (tx, mut rx) = watch::channel(before);
    let stopping = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for w in 0..workers {
        tasks.push(tokio::spawn(worker(
            server.base_url.clone(),
            w,
            prefix.to_string(),
            ledger.clone(),
            tx.clone(),
            stopping.clone(),
        )));
    }
    drop(tx);
    let reached = timeout(LOAD_TIMEOUT, rx.wait_for(|n| *n >= before + target)).await;
    let early = ledger.lock().unwrap().unexpected.clone();
    assert!(
        reached.is_ok_and(|r| r.is_ok()),
        "the load did not reach {target} answered requests within {LOAD_TIMEOUT:?}; failures: \
         {early:#?}\n--- server stderr ---\n{}",
        server.stderr()
    );
    stopping.store(true, Ordering::SeqCst);
    // The requests of every worker are still in flight while the server goes down.
    let status = match how {
        Stop::Sigkill => Some(server.kill_hard().await),
        Stop::Sigterm => {
            server.terminate();
            server.wait_exit(SHUTDOWN_TIMEOUT).await
        }
    };
    for t in tasks {
        timeout(Duration::from_secs(60), t)
            .await
            .expect("a load task did not end after the server stopped")
            .expect("load task panicked");
    }
    let unexpected = ledger.lock().unwrap().unexpected.clone();
    assert!(
        unexpected.is_empty(),
        "requests failed while the server was up:\n{unexpected:#?}\n--- server stderr ---\n{}",
        server.stderr()
    );
    status
}

/// Every message in Engineering as `topic -> count`, read as the organization owner.
async fn engineering_topics(server: &TestServer) -> BTreeMap<String, usize> {
    let owner = server.as_user(&OWNER);
    let mut counts = BTreeMap::new();
    let mut anchor = json!("oldest");
    loop {
        let r = owner
            .get(
                "/messages",
                &[
                    ("anchor", anchor.clone()),
                    ("num_before", json!(0)),
                    ("num_after", json!(1000)),
                    (
                        "narrow",
                        json!([{"operator": "channel", "operand": "Engineering"}]),
                    ),
                    ("apply_markdown", json!(false)),
                ],
            )
            .await;
        let body = r.ok();
        let messages = body["messages"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", r.debug()));
        let mut last = None;
        for m in messages {
            let id = m["id"].as_u64().unwrap();
            if Some(id) == anchor.as_u64() {
                continue; // the anchor itself, already counted
            }
            *counts
                .entry(m["subject"].as_str().unwrap().to_string())
                .or_insert(0) += 1;
            last = Some(id);
        }
        match last {
            Some(id) if body["found_newest"] != true => anchor = json!(id),
            _ => break,
        }
    }
    counts
}

/// Every acknowledged topic is there exactly once; nothing is there that was not sent.
#[track_caller]
fn assert_durable(ledger: &Ledger, found: &BTreeMap<String, usize>, prefix: &str) {
    let lost: Vec<&String> = ledger
        .acked
        .iter()
        .filter(|t| !found.contains_key(*t))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged messages are gone after the restart: {lost:?}",
        lost.len(),
        ledger.acked.len()
    );
    let doubled: Vec<(&String, &usize)> = found.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        doubled.is_empty(),
        "messages stored more than once: {doubled:?}"
    );
    let invented: Vec<&String> = found
        .keys()
        .filter(|t| t.starts_with(prefix) && !ledger.attempted.contains(*t))
        .collect();
    assert!(invented.is_empty(), "messages nobody sent: {invented:?}");
}

async fn post_one(server: &TestServer, topic: &str) -> Resp {
    let api = server.anon();
    let rb = api
        .request_unauthenticated(Method::POST, "/external/helloworld")
        .query(&[
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Engineering"),
            ("topic", topic),
        ])
        .header("Content-Type", "application/json")
        .body(ADA);
    api.send(rb, &format!("POST /external/helloworld topic={topic}"))
        .await
}

// ---------------------------------------------------------------------- tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_webhook_message_survives_a_sigkill() {
    let _alone = alone();
    let dirs = dirs();
    let ledger = Arc::new(Mutex::new(Ledger::default()));

    // Three crashes in a row: each run starts from the previous crash's database.
    for round in 0..3 {
        let args = if round == 0 {
            dirs.first_start_args()
        } else {
            dirs.restart_args()
        };
        let mut server = Launched::start(&args, dirs.root.path(), &format!("kill-{round}")).await;
        let status = load_until(
            &mut server,
            &format!("dur{round}"),
            4,
            150,
            &ledger,
            Stop::Sigkill,
        )
        .await;
        assert!(
            status.is_some_and(|s| !s.success()),
            "SIGKILL should not look like a clean exit: {status:?}"
        );
    }

    let checker = dirs.reopen();
    let found = engineering_topics(&checker).await;
    let ledger = std::mem::take(&mut *ledger.lock().unwrap());
    assert_durable(&ledger, &found, "dur");
    let unanswered: Vec<&String> = ledger
        .attempted
        .iter()
        .filter(|t| !ledger.acked.contains(*t))
        .collect();
    let unanswered_kept = unanswered
        .iter()
        .filter(|t| found.contains_key(**t))
        .count();
    eprintln!(
        "{} answered 200, {} without an answer when killed ({unanswered_kept} of these stored)",
        ledger.acked.len(),
        unanswered.len()
    );
    assert!(
        ledger.acked.len() >= 450,
        "{} acknowledged",
        ledger.acked.len()
    );

    // The database is usable: a new request is accepted and stored once.
    post_one(&checker, "after-the-crash").await.ok();
    let found = engineering_topics(&checker).await;
    assert_eq!(found.get("after-the-crash"), Some(&1), "{found:?}");
    assert!(!looks_like_panic(&checker.stderr()), "{}", checker.stderr());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_exits_zero_promptly_and_keeps_every_acknowledged_message() {
    let _alone = alone();
    let dirs = dirs();
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let mut server = Launched::start(&dirs.first_start_args(), dirs.root.path(), "term").await;

    let status = load_until(&mut server, "term", 3, 100, &ledger, Stop::Sigterm).await;

    assert!(
        status.is_some_and(|s| s.success()),
        "after SIGTERM: {status:?} (None: still running after {SHUTDOWN_TIMEOUT:?})\n--- \
         stderr ---\n{}",
        server.stderr()
    );
    assert!(!looks_like_panic(&server.stderr()), "{}", server.stderr());

    let checker = dirs.reopen();
    let found = engineering_topics(&checker).await;
    let ledger = std::mem::take(&mut *ledger.lock().unwrap());
    assert_durable(&ledger, &found, "term");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_when_idle_exits_zero_promptly_and_the_data_persists() {
    let _alone = alone();
    let dirs = dirs();
    let mut server = Launched::start(&dirs.first_start_args(), dirs.root.path(), "idle").await;

    // A message, then an idle keep-alive connection left open by the client's pool.
    let http = reqwest::Client::new();
    let resp = http
        .post(format!("{}/api/v1/external/helloworld", server.base_url))
        .query(&[
            ("api_key", WEBHOOK_BOT.key),
            ("stream", "Verona"),
            ("topic", "before-term"),
        ])
        .header("Content-Type", "application/json")
        .body(ADA)
        .send()
        .await
        .expect("post");
    assert_eq!(resp.status().as_u16(), 200);
    let text = resp.text().await.unwrap();
    assert!(text.contains("\"success\""), "{text}");

    server.terminate();
    let status = server.wait_exit(SHUTDOWN_TIMEOUT).await;
    assert!(
        status.is_some_and(|s| s.success()),
        "after SIGTERM: {status:?} (None: still running after {SHUTDOWN_TIMEOUT:?})\n--- \
         stderr ---\n{}",
        server.stderr()
    );
    drop(http);

    let checker = dirs.reopen();
    let verona = checker
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("oldest")),
                ("num_before", json!(0)),
                ("num_after", json!(100)),
                (
                    "narrow",
                    json!([{"operator": "channel", "operand": "Verona"}]),
                ),
            ],
        )
        .await;
    let topics: Vec<&str> = verona.ok()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["subject"].as_str().unwrap())
        .collect();
    assert_eq!(topics, ["before-term"], "{}", verona.debug());
}

#[tokio::test]
async fn a_restart_refuses_seed_on_an_existing_database_and_keeps_it() {
    let _alone = alone();
    let dirs = dirs();
    {
        let first = TestServer::launch(&dirs.first_start_args(), dirs.root.path()).unwrap();
        post_one(&first, "kept").await.ok();
    }

    let refused = run_server_to_exit(
        &[
            "--listen".into(),
            "127.0.0.1:0".into(),
            "--data-dir".into(),
            dirs.data.display().to_string(),
            "--seed".into(),
            dirs.seed.display().to_string(),
        ],
        Duration::from_secs(60),
    );
    assert!(
        refused.status.is_some_and(|s| !s.success()),
        "--seed on an existing database must fail\n{}",
        refused.describe()
    );

    let checker = dirs.reopen();
    let found = engineering_topics(&checker).await;
    assert_eq!(found.get("kept"), Some(&1), "{found:?}");
}
