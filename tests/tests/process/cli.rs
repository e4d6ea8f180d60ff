//! The `weir-server` command line: listening line, ports, data directory, seed files,
//! `--demo`, and clear failures (non-zero exit, no panic text).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;
use weir_tests::*;

const EXIT_TIMEOUT: Duration = Duration::from_secs(30);

fn args(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn write_seed(dir: &Path, seed: &Value) -> PathBuf {
    let path = dir.join(format!("seed-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_vec_pretty(seed).unwrap()).unwrap();
    path
}

fn fresh_data_dir(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the server with `extra` (plus `--listen 127.0.0.1:0` unless `extra` has a
/// `--listen`) and expects it to exit on its own, unsuccessfully, with a message on
/// stderr and without a panic.
#[track_caller]
fn assert_refused(extra: &[String]) -> Finished {
    let mut full = if extra.iter().any(|a| a == "--listen") {
        Vec::new()
    } else {
        args(&["--listen", "127.0.0.1:0"])
    };
    full.extend(extra.iter().cloned());
    let done = run_server_to_exit(&full, EXIT_TIMEOUT);
    assert!(
        done.status.is_some_and(|s| !s.success()),
        "expected a non-zero exit for `weir-server {}`\n{}",
        full.join(" "),
        done.describe()
    );
    assert!(
        !looks_like_panic(&done.stderr),
        "panic text on stderr\n{}",
        done.describe()
    );
    assert!(
        !done.stderr.trim().is_empty(),
        "no message on stderr\n{}",
        done.describe()
    );
    assert!(
        !done.stdout.contains("listening on"),
        "claimed to listen\n{}",
        done.describe()
    );
    done
}

fn seed_args(data: &Path, seed: &Path) -> Vec<String> {
    args(&[
        "--data-dir",
        data.to_str().unwrap(),
        "--seed",
        seed.to_str().unwrap(),
    ])
}

/// Whether `text` contains `id` as a whole number (not inside a longer number).
fn mentions_number(text: &str, id: u64) -> bool {
    let needle = id.to_string();
    text.match_indices(&needle).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + needle.len()..].chars().next();
        let before_ok = before.is_none_or(|c| !c.is_ascii_digit());
        let after_ok = after.is_none_or(|c| !c.is_ascii_digit());
        let not_position = !text[..i].ends_with("line ") && !text[..i].ends_with("column ");
        before_ok && after_ok && not_position
    })
}

#[track_caller]
fn assert_names_user(done: &Finished, index: usize, user: &Account) {
    let e = &done.stderr;
    assert!(
        e.contains(user.email) || e.contains(&format!("[{index}]")) || mentions_number(e, user.id),
        "the error does not name the offending user entry ({}, users[{index}])\n{}",
        user.email,
        done.describe()
    );
}

#[track_caller]
fn assert_names_stream(done: &Finished, index: usize, stream: &Stream) {
    let e = &done.stderr;
    assert!(
        e.contains(stream.name)
            || e.contains(&format!("[{index}]"))
            || mentions_number(e, stream.id),
        "the error does not name the offending stream entry ({}, streams[{index}])\n{}",
        stream.name,
        done.describe()
    );
}

fn user_index(seed: &Value, id: u64) -> usize {
    seed["users"]
        .as_array()
        .unwrap()
        .iter()
        .position(|u| u["user_id"] == id)
        .unwrap()
}

fn stream_index(seed: &Value, id: u64) -> usize {
    seed["streams"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["stream_id"] == id)
        .unwrap()
}

/// Spawns the server and returns it with its first stdout line and a handle that yields
/// everything it prints to stdout afterwards (once it exits).
fn spawn_reading_stdout(full_args: &[String]) -> (Child, String, std::thread::JoinHandle<String>) {
    let mut child = Command::new(server_binary())
        .args(full_args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let rest = std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        let _ = reader.read_line(&mut first);
        let _ = tx.send(first);
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        rest
    });
    let first = match rx.recv_timeout(START_TIMEOUT) {
        Ok(line) => line,
        Err(_) => {
            let _ = child.kill();
            panic!("no first line on stdout within {START_TIMEOUT:?}");
        }
    };
    (child, first, rest)
}

// ------------------------------------------------------------------ listening

#[tokio::test]
async fn prints_exactly_one_listening_line_then_serves() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = write_seed(root.path(), &standard_seed());
    let mut full = args(&["--listen", "127.0.0.1:0"]);
    full.extend(seed_args(&data, &seed));

    let (mut child, first, rest) = spawn_reading_stdout(&full);

    assert!(
        first.ends_with('\n'),
        "the listening line must end with a newline: {first:?}"
    );
    let line = first.trim_end_matches('\n');
    let port = line
        .strip_prefix("listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    let port: u16 = port
        .parse()
        .unwrap_or_else(|_| panic!("not a port in {line:?}"));
    assert_ne!(port, 0);
    let body: Value = reqwest::get(format!("http://127.0.0.1:{port}/api/v1/server_settings"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["result"], "success", "{body}");
    reqwest::Client::new()
        .get(format!("http://127.0.0.1:{port}/api/v1/users"))
        .send()
        .await
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let rest = rest.join().unwrap();
    assert!(
        rest.is_empty(),
        "stdout must hold only the listening line; also got {rest:?}"
    );
}

#[tokio::test]
async fn port_zero_gives_each_server_its_own_free_port() {
    let _shared = shared();
    let a = TestServer::spawn_standard();
    let b = TestServer::spawn_standard();

    assert_ne!(a.base_url, b.base_url);
    a.anon().get("/server_settings", &[]).await.ok();
    b.anon().get("/server_settings", &[]).await.ok();
    assert!(
        a.base_url.starts_with("http://127.0.0.1:"),
        "{}",
        a.listening_line
    );
}

#[tokio::test]
async fn a_port_in_use_is_a_clear_error() {
    let _shared = shared();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = write_seed(root.path(), &standard_seed());
    let mut extra = seed_args(&data, &seed);
    extra.extend(args(&["--listen", &addr.to_string()]));

    let done = assert_refused(&extra);

    let e = done.stderr.to_lowercase();
    assert!(
        e.contains(&addr.port().to_string()) || e.contains("in use"),
        "the message should say which address is taken\n{}",
        done.describe()
    );
    drop(taken);
}

#[tokio::test]
async fn a_data_dir_that_is_a_file_is_a_clear_error() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("not-a-dir");
    std::fs::write(&file, b"plain file").unwrap();
    let seed = write_seed(root.path(), &standard_seed());

    for data in [file.clone(), file.join("below")] {
        let done = assert_refused(&seed_args(&data, &seed));
        assert!(
            done.stderr.contains(file.to_str().unwrap()),
            "the message should name the data directory\n{}",
            done.describe()
        );
    }
}

#[tokio::test]
async fn unknown_arguments_are_refused() {
    let _shared = shared();
    let done = run_server_to_exit(&args(&["--no-such-flag"]), EXIT_TIMEOUT);

    assert!(
        done.status.is_some_and(|s| !s.success()),
        "{}",
        done.describe()
    );
    assert!(!looks_like_panic(&done.stderr), "{}", done.describe());
}

#[tokio::test]
async fn zero_worker_threads_are_refused() {
    let _shared = shared();
    let done = assert_refused(&args(&["--worker-threads", "0"]));
    assert!(
        done.stderr.contains("--worker-threads"),
        "{}",
        done.describe()
    );
}

#[tokio::test]
async fn help_lists_the_options() {
    let _shared = shared();
    let done = run_server_to_exit(&args(&["--help"]), EXIT_TIMEOUT);

    assert!(
        done.status.is_some_and(|s| s.success()),
        "{}",
        done.describe()
    );
    for opt in [
        "--listen",
        "--data-dir",
        "--seed",
        "--demo",
        "--feature-level",
        "--rate-limit",
        "--worker-threads",
    ] {
        assert!(
            done.stdout.contains(opt),
            "--help does not mention {opt}\n{}",
            done.describe()
        );
    }
}

// ------------------------------------------------------------ data dir and seed

#[tokio::test]
async fn data_survives_a_restart_without_seed() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = write_seed(root.path(), &standard_seed());
    {
        let server = TestServer::launch(&seed_args(&data, &seed), root.path()).unwrap();
        let r = server
            .as_user(&MEMBER)
            .delete(
                "/users/me/subscriptions",
                &[("subscriptions", json!(["Engineering"]))],
            )
            .await;
        assert_unsubscribed(&r, &["Engineering"], &[]);
    }

    let again =
        TestServer::launch(&args(&["--data-dir", data.to_str().unwrap()]), root.path()).unwrap();

    assert!(!again.members_of(ENGINEERING.id).await.contains(&MEMBER.id));
    assert!(again.members_of(ENGINEERING.id).await.contains(&MEMBER2.id));
    again.as_user(&MEMBER).get("/users/me", &[]).await.ok();
}

#[tokio::test]
async fn seeding_a_data_dir_that_has_a_database_is_refused_and_keeps_it() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = write_seed(root.path(), &standard_seed());
    {
        let server = TestServer::launch(&seed_args(&data, &seed), root.path()).unwrap();
        server
            .as_user(&MEMBER)
            .delete(
                "/users/me/subscriptions",
                &[("subscriptions", json!(["Verona"]))],
            )
            .await
            .ok();
    }

    let done = assert_refused(&seed_args(&data, &seed));

    let e = done.stderr.to_lowercase();
    assert!(
        e.contains("exist") || e.contains("already"),
        "unclear message\n{}",
        done.describe()
    );
    let again =
        TestServer::launch(&args(&["--data-dir", data.to_str().unwrap()]), root.path()).unwrap();
    assert!(
        !again.members_of(VERONA.id).await.contains(&MEMBER.id),
        "the database was reseeded"
    );
}

#[tokio::test]
async fn a_seed_file_that_is_not_json_is_refused() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = root.path().join("broken.json");
    std::fs::write(&seed, b"{\"realm\": {\"name\": \"Globex\",").unwrap();

    assert_refused(&seed_args(&data, &seed));
}

#[tokio::test]
async fn a_missing_seed_file_is_refused_with_its_path() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = root.path().join("nowhere.json");

    let done = assert_refused(&seed_args(&data, &seed));

    assert!(done.stderr.contains("nowhere.json"), "{}", done.describe());
}

#[tokio::test]
async fn seed_and_demo_together_are_refused() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let seed = write_seed(root.path(), &standard_seed());
    let mut extra = seed_args(&data, &seed);
    extra.push("--demo".into());

    assert_refused(&extra);
}

#[tokio::test]
async fn an_unknown_key_in_a_user_entry_is_refused_naming_the_key_and_entry() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let mut seed = standard_seed();
    let i = user_index(&seed, MEMBER.id);
    seed["users"][i]["favourite_colour"] = json!("teal");
    let seed_path = write_seed(root.path(), &seed);

    let done = assert_refused(&seed_args(&fresh_data_dir(root.path(), "data"), &seed_path));

    assert!(
        done.stderr.contains("favourite_colour"),
        "{}",
        done.describe()
    );
    assert_names_user(&done, i, &MEMBER);
}

#[tokio::test]
async fn an_unknown_key_in_a_stream_entry_is_refused_naming_the_key_and_entry() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let mut seed = standard_seed();
    let i = stream_index(&seed, DESIGN.id);
    seed["streams"][i]["colour"] = json!("#ff0000");
    let seed_path = write_seed(root.path(), &seed);

    let done = assert_refused(&seed_args(&fresh_data_dir(root.path(), "data"), &seed_path));

    assert!(done.stderr.contains("colour"), "{}", done.describe());
    assert_names_stream(&done, i, &DESIGN);
}

#[tokio::test]
async fn unknown_top_level_and_realm_keys_are_refused() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let mut top = standard_seed();
    top["organisation_size"] = json!(12);
    let mut realm = standard_seed();
    realm["realm"]["motto"] = json!("Go!");

    for (seed, key) in [(top, "organisation_size"), (realm, "motto")] {
        let path = write_seed(root.path(), &seed);
        let done = assert_refused(&seed_args(&fresh_data_dir(root.path(), key), &path));
        assert!(done.stderr.contains(key), "{}", done.describe());
    }
}

#[tokio::test]
async fn invalid_user_entries_are_refused_naming_the_entry() {
    let _shared = shared();
    type Edit = fn(&mut Value);
    let cases: [(Account, &str, Edit); 6] = [
        (MEMBER, "unknown role", |u| u["role"] = json!("superhero")),
        (MEMBER, "malformed api key", |u| {
            u["api_key"] = json!("short-key")
        }),
        (MEMBER2, "duplicate email", |u| {
            u["email"] = json!("MARK@globex.test")
        }),
        (DEACTIVATED, "duplicate user id", |u| {
            u["user_id"] = json!(104)
        }),
        (WEBHOOK_BOT, "unknown bot owner", |u| {
            u["bot_owner_id"] = json!(999)
        }),
        (GENERIC_BOT, "unknown bot type", |u| {
            u["bot_type"] = json!(7)
        }),
    ];
    let root = tempfile::tempdir().unwrap();

    for (n, (who, what, edit)) in cases.into_iter().enumerate() {
        let mut seed = standard_seed();
        let i = user_index(&seed, who.id);
        edit(&mut seed["users"][i]);
        let path = write_seed(root.path(), &seed);
        let done = assert_refused(&seed_args(
            &fresh_data_dir(root.path(), &format!("d{n}")),
            &path,
        ));
        assert!(!done.stderr.is_empty(), "{what}");
        if what != "duplicate email" && what != "duplicate user id" {
            assert_names_user(&done, i, &who);
        } else {
            // Either of the two clashing entries may be named.
            let e = &done.stderr;
            assert!(
                e.to_lowercase().contains("mark@globex.test")
                    || e.contains(who.email)
                    || mentions_number(e, 104)
                    || mentions_number(e, who.id)
                    || e.contains(&format!("[{i}]")),
                "{what}: the error does not name the clashing entries\n{}",
                done.describe()
            );
        }
    }
}

#[tokio::test]
async fn invalid_stream_entries_are_refused_naming_the_entry() {
    let _shared = shared();
    type Edit = fn(&mut Value);
    let cases: [(Stream, &str, Edit); 3] = [
        (DESIGN, "unknown subscriber", |s| {
            s["subscribers"] = json!([103, 9999])
        }),
        (VERONA, "duplicate name", |s| {
            s["name"] = json!("engineering")
        }),
        (CAFE, "name too long", |s| s["name"] = json!("c".repeat(61))),
    ];
    let root = tempfile::tempdir().unwrap();

    for (n, (stream, what, edit)) in cases.into_iter().enumerate() {
        let mut seed = standard_seed();
        let i = stream_index(&seed, stream.id);
        edit(&mut seed["streams"][i]);
        let path = write_seed(root.path(), &seed);
        let done = assert_refused(&seed_args(
            &fresh_data_dir(root.path(), &format!("s{n}")),
            &path,
        ));
        let e = &done.stderr;
        assert!(
            e.contains(stream.name)
                || e.contains(&format!("[{i}]"))
                || mentions_number(e, stream.id)
                || (what == "duplicate name" && e.to_lowercase().contains("engineering"))
                || (what == "unknown subscriber" && mentions_number(e, 9999)),
            "{what}: the error does not name the offending entry\n{}",
            done.describe()
        );
    }
}

#[tokio::test]
async fn a_failed_seed_leaves_the_data_dir_usable() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");
    let mut bad = standard_seed();
    bad["users"][0]["role"] = json!("emperor");
    let bad_path = root.path().join("bad.json");
    std::fs::write(&bad_path, bad.to_string()).unwrap();
    assert_refused(&seed_args(&data, &bad_path));

    let good = write_seed(root.path(), &standard_seed());
    let server = TestServer::launch(&seed_args(&data, &good), root.path())
        .expect("a refused seed must not leave a database behind");

    server.as_user(&OWNER).get("/users/me", &[]).await.ok();
}

#[tokio::test]
async fn ids_and_keys_are_generated_when_absent_and_is_active_defaults_to_true() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let seed = json!({
        "realm": {"name": "Tiny", "url": "http://tiny.localhost"},
        "users": [
            {"user_id": 1, "email": "boss@tiny.test", "full_name": "Boss", "role": "owner",
             "api_key": OWNER.key},
            {"email": "newbie@tiny.test", "full_name": "Newbie", "role": "member"},
        ],
        "streams": [
            {"name": "General", "description": "", "invite_only": false, "subscribers": [1]},
        ],
    });
    let path = write_seed(root.path(), &seed);
    let server = TestServer::launch(
        &seed_args(&fresh_data_dir(root.path(), "data"), &path),
        root.path(),
    )
    .unwrap();
    let boss = server.with_key("boss@tiny.test", OWNER.key);

    let users = boss.get("/users", &[]).await;
    let streams = boss.get("/streams", &[]).await;

    let newbie = users.ok()["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["email"] == "newbie@tiny.test")
        .unwrap_or_else(|| panic!("{}", users.debug()))
        .clone();
    assert!(
        newbie["user_id"].as_u64().is_some_and(|id| id != 1),
        "{newbie}"
    );
    assert_eq!(newbie["is_active"], true, "{newbie}");
    assert_eq!(newbie["role"], 400, "{newbie}");
    let general = &streams.ok()["streams"][0];
    assert_eq!(general["name"], "General", "{}", streams.debug());
    assert!(
        general["stream_id"].as_u64().is_some(),
        "{}",
        streams.debug()
    );
    let settings = server.anon().get("/server_settings", &[]).await;
    assert_eq!(settings.ok()["realm_name"], "Tiny");
}

// ------------------------------------------------------------------------ demo

#[tokio::test]
async fn demo_has_every_role_every_bot_type_and_private_streams() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = fresh_data_dir(root.path(), "data");

    let server = TestServer::launch(
        &args(&["--data-dir", data.to_str().unwrap(), "--demo"]),
        root.path(),
    )
    .unwrap();

    let settings = server.anon().get("/server_settings", &[]).await;
    assert_eq!(settings.ok()["zulip_feature_level"], 421);
    assert!(
        settings.ok()["realm_name"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    );
    // The README documents that the demo owner's credentials are in DATA_DIR/demo-zuliprc.
    let rc = std::fs::read_to_string(data.join("demo-zuliprc"))
        .unwrap_or_else(|e| panic!("reading {}/demo-zuliprc: {e}", data.display()));
    let field = |name: &str| {
        rc.lines()
            .filter_map(|l| l.split_once('='))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_else(|| panic!("no `{name}` in demo-zuliprc:\n{rc}"))
    };
    let owner = server.with_key(&field("email"), &field("key"));
    let me = owner.get("/users/me", &[]).await;
    assert_eq!(
        me.ok()["role"],
        100,
        "the demo-zuliprc account is the owner\n{}",
        me.debug()
    );

    let users = owner.get("/users", &[]).await;
    let members = users.ok()["members"].as_array().unwrap().clone();
    assert!(
        members.len() >= 24,
        "a few dozen users expected, got {}",
        members.len()
    );
    let humans: Vec<&Value> = members.iter().filter(|u| u["is_bot"] == false).collect();
    for role in [100, 200, 300, 400, 600] {
        assert!(
            humans
                .iter()
                .any(|u| u["role"] == role && u["is_active"] == true),
            "no active human with role {role}\n{}",
            users.debug()
        );
    }
    let human_ids: BTreeSet<u64> = humans
        .iter()
        .filter_map(|u| u["user_id"].as_u64())
        .collect();
    for bot_type in 1..=4 {
        let bot = members
            .iter()
            .find(|u| u["is_bot"] == true && u["bot_type"] == bot_type)
            .unwrap_or_else(|| panic!("no bot of type {bot_type}\n{}", users.debug()));
        let owner_id = bot["bot_owner_id"].as_u64().unwrap_or(0);
        assert!(
            human_ids.contains(&owner_id),
            "bot without a human owner: {bot}"
        );
    }
    let streams = owner.get("/streams", &[("include_all", json!(true))]).await;
    let streams = streams.ok()["streams"].as_array().unwrap().clone();
    assert!(
        streams.iter().any(|s| s["invite_only"] == true),
        "no private stream"
    );
    assert!(
        streams.iter().any(|s| s["invite_only"] == false),
        "no public stream"
    );
}

#[tokio::test]
async fn invalid_listen_addresses_and_rate_limits_are_refused() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let seed = write_seed(root.path(), &standard_seed());

    for (n, bad) in [
        ["--listen", "nonsense"],
        ["--listen", "127.0.0.1:99999"],
        ["--rate-limit", "banana"],
        ["--rate-limit", "-5"],
    ]
    .iter()
    .enumerate()
    {
        let mut extra = seed_args(&fresh_data_dir(root.path(), &format!("d{n}")), &seed);
        extra.extend(args(bad));
        assert_refused(&extra);
    }
}

#[tokio::test]
async fn a_data_dir_that_does_not_exist_yet_is_created() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("not").join("yet").join("there");
    let seed = write_seed(root.path(), &standard_seed());

    let server = TestServer::launch(&seed_args(&data, &seed), root.path()).unwrap();

    server.as_user(&OWNER).get("/users/me", &[]).await.ok();
    assert!(data.is_dir());
}
