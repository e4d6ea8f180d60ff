//! Faults: a SIGKILL under the mixed load (`weir_tests::load`), a full disk and a
//! read-only data directory. Each ends with `PRAGMA integrity_check` on the database and
//! every acknowledged write present after a restart.
//!
//! The full disk is a small tmpfs mounted over the data directory, which needs root
//! (CI runs as root); elsewhere that test says so and passes without running. A
//! read-only data directory is a read-only bind mount as root (root ignores file
//! modes), or plain file modes otherwise.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use weir_tests::load::{self, LoadConfig};
use weir_tests::*;

const DATABASE_FILE: &str = "weir.sqlite3";

fn launch(data_dir: &Path, seed: Option<&Path>, logs: &Path) -> TestServer {
    let mut args = vec!["--data-dir".to_owned(), data_dir.display().to_string()];
    if let Some(seed) = seed {
        args.extend(["--seed".to_owned(), seed.display().to_string()]);
    }
    TestServer::launch(&args, logs).unwrap()
}

fn write_seed(dir: &Path, seed: &Value) -> PathBuf {
    let path = dir.join("seed.json");
    std::fs::write(&path, serde_json::to_vec(seed).unwrap()).unwrap();
    path
}

/// `PRAGMA integrity_check` on the database as the server left it (log included).
fn integrity(data_dir: &Path) -> String {
    let conn = rusqlite::Connection::open(data_dir.join(DATABASE_FILE)).unwrap();
    let rows: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.join("; ")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Runs `mount ARGS`; true when it worked.
fn mount(args: &[&str]) -> bool {
    Command::new("mount")
        .args(args)
        .status()
        .is_ok_and(|status| status.success())
}

/// A mount over a directory, undone on drop (also when the test fails).
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

// ------------------------------------------------------------------------ SIGKILL

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_under_load_keeps_the_database_whole_and_every_acknowledged_write() {
    let _alone = alone();
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let config = LoadConfig {
        duration: Duration::from_secs(30),
        stop_on_transport_error: true,
        ..LoadConfig::default()
    };
    let seed = write_seed(root.path(), &load::seed(config.clients));
    let server = launch(&data, Some(&seed), root.path());
    let stop = Arc::new(AtomicBool::new(false));
    let base = server.base_url.clone();
    let load = tokio::spawn({
        let (config, stop) = (config.clone(), Arc::clone(&stop));
        async move { load::run(&base, &config, stop).await }
    });
    tokio::time::sleep(Duration::from_secs(4)).await;
    drop(server); // SIGKILL, with requests in flight
    stop.store(true, Ordering::Release);
    let report = load.await.unwrap();
    println!(
        "killed under load after {} acknowledged writes ({} answers, {} unanswered)",
        report.acknowledged_writes, report.answered, report.unanswered
    );
    assert_eq!(report.server_errors, 0, "{:#?}", report.problems);
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert!(report.acknowledged_writes > 0, "the load never got going");

    assert_eq!(integrity(&data), "ok");
    let restarted = launch(&data, None, root.path());
    let differences = load::verify(&restarted.base_url, &report).await;
    assert!(differences.is_empty(), "{differences:#?}");
}

// ---------------------------------------------------------------------- full disk

/// Hello World posts with a title of `size` characters, to Engineering.
async fn post_big(server: &TestServer, title: &str, size: usize) -> Resp {
    let padded = format!("{title} {}", "x".repeat(size));
    let body = json!({"featured_title": padded, "featured_url": "https://example.com/weir"});
    let path = format!(
        "/external/helloworld?api_key={}&stream=Engineering",
        WEBHOOK_BOT.key
    );
    let api = server.anon();
    let request = api.request(Method::POST, &path).json(&body);
    api.send(request, &format!("POST {path} ({title})")).await
}

/// Titles (the first word of each Hello World title) of every Engineering message.
async fn stored_titles(server: &TestServer) -> BTreeSet<String> {
    let narrow = json!([{"operator": "channel", "operand": "Engineering"}]);
    let r = server
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(5000)),
                ("num_after", json!(0)),
                ("narrow", narrow),
                ("apply_markdown", json!(false)),
            ],
        )
        .await;
    r.ok()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| {
            let content = m["content"].as_str()?;
            let (_, rest) = content.split_once("**[")?;
            Some(rest.split(' ').next()?.to_owned())
        })
        .collect()
}

#[tokio::test]
async fn a_full_disk_gives_clear_errors_keeps_reads_and_loses_nothing() {
    let _alone = alone();
    if !is_root() {
        println!("skipped: mounting a small tmpfs needs root (CI runs this as root)");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    std::fs::create_dir(&data).unwrap();
    assert!(
        mount(&[
            "-t",
            "tmpfs",
            "-o",
            "size=1m",
            "tmpfs",
            data.to_str().unwrap()
        ]),
        "mount a tmpfs"
    );
    let mounted = Mounted(data.clone());
    let seed = write_seed(root.path(), &standard_seed());
    let server = launch(&data, Some(&seed), root.path());

    let mut acknowledged = BTreeSet::new();
    let mut refused = None;
    for n in 0..400 {
        let title = format!("fill-{n}");
        let r = post_big(&server, &title, 4000).await;
        if r.status == 200 {
            acknowledged.insert(title);
        } else {
            refused = Some(r);
            break;
        }
    }
    let refused = refused.expect("1 MB of disk never filled up");
    assert!(
        refused.json["result"] == "error"
            && refused.json["msg"]
                .as_str()
                .is_some_and(|m| m.to_lowercase().contains("disk is full")),
        "a full disk must be said plainly\n{}",
        refused.debug()
    );
    refused.assert_json_content_type();
    // A later write is refused the same way, and reads keep working.
    let again = post_big(&server, "fill-again", 4000).await;
    assert_eq!(again.status, refused.status, "{}", again.debug());
    server
        .as_user(&OWNER)
        .get("/users/me/subscriptions", &[])
        .await
        .ok();
    let titles = stored_titles(&server).await;
    assert!(acknowledged.is_subset(&titles), "acknowledged posts lost");

    // Room again: writes work again without a restart.
    assert!(mount(&["-o", "remount,size=16m", data.to_str().unwrap()]));
    let after = post_big(&server, "after-room", 100).await;
    after.ok();
    acknowledged.insert("after-room".to_owned());

    drop(server);
    assert_eq!(integrity(&data), "ok");
    let restarted = launch(&data, None, root.path());
    let titles = stored_titles(&restarted).await;
    let lost: Vec<_> = acknowledged.difference(&titles).collect();
    assert!(lost.is_empty(), "acknowledged posts lost: {lost:?}");
    let stored_unacknowledged: Vec<_> = titles.difference(&acknowledged).collect();
    assert!(
        stored_unacknowledged.is_empty(),
        "refused posts were stored: {stored_unacknowledged:?}"
    );
    drop(restarted);
    drop(mounted);
}

// ------------------------------------------------------------------ read-only dir

/// Makes `dir` read-only for the server: a read-only bind mount as root, file modes
/// otherwise. The guard undoes it.
enum ReadOnly {
    /// Held for its `Drop`, which unmounts.
    Mount(#[allow(dead_code)] Mounted),
    Modes(PathBuf),
}

impl ReadOnly {
    fn make(dir: &Path) -> Self {
        let path = dir.to_str().unwrap();
        if is_root() {
            assert!(mount(&["--bind", path, path]), "bind mount");
            let guard = Mounted(dir.to_owned());
            assert!(mount(&["-o", "remount,bind,ro", path]), "remount read-only");
            ReadOnly::Mount(guard)
        } else {
            set_modes(dir, 0o555, 0o444);
            ReadOnly::Modes(dir.to_owned())
        }
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if let ReadOnly::Modes(dir) = self {
            set_modes(dir, 0o700, 0o600);
        }
    }
}

fn set_modes(dir: &Path, dir_mode: u32, file_mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(file_mode));
    }
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(dir_mode));
}

#[tokio::test]
async fn a_read_only_data_dir_serves_reads_and_refuses_writes_clearly() {
    let _alone = alone();
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let seed = write_seed(root.path(), &standard_seed());
    let server = launch(&data, Some(&seed), root.path());
    post_big(&server, "before", 10).await.ok();
    drop(server); // SIGKILL: the log stays beside the database
    let before = integrity(&data);
    assert_eq!(before, "ok");

    let read_only = ReadOnly::make(&data);
    let server = launch(&data, None, root.path());
    let titles = stored_titles(&server).await;
    assert!(titles.contains("before"), "{titles:?}");
    server
        .as_user(&OWNER)
        .get("/users/me/subscriptions", &[])
        .await
        .ok();
    let refused = post_big(&server, "during", 10).await;
    assert!(
        refused.json["result"] == "error"
            && refused.json["msg"]
                .as_str()
                .is_some_and(|m| m.to_lowercase().contains("read-only")),
        "a read-only data directory must be said plainly\n{}",
        refused.debug()
    );
    refused.assert_json_content_type();
    let r = server
        .as_user(&OWNER)
        .delete(
            "/users/me/subscriptions",
            &[("subscriptions", json!(["Engineering"]))],
        )
        .await;
    assert_eq!(r.status, refused.status, "{}", r.debug());
    drop(server);
    drop(read_only);

    assert_eq!(integrity(&data), "ok");
    let server = launch(&data, None, root.path());
    let titles = stored_titles(&server).await;
    assert!(
        titles.contains("before") && !titles.contains("during"),
        "{titles:?}"
    );
    post_big(&server, "after", 10).await.ok();
}
