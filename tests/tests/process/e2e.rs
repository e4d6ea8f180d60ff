//! End to end: the real `weir` app, driven through `tauri-driver` and WebKitWebDriver.
//!
//! This test prepares everything and hands the browser work to the pytest + selenium
//! script in `tests/e2e/` (see `test_app.py` for the story it tells, and
//! `test_accessibility.py` for axe-core and the keyboard walk, which run first):
//!
//! * builds the app once (`cargo build -p weir --bin weir`; `WEIR_APP_BIN` wins when set,
//!   with `WEIR_APP_KEYRING_SERVICE=weir` if it is a release build),
//!   which embeds `ui/dist` (built by the test command before cargo runs);
//! * starts a `weir-server` with the standard organization (the "real" organization of
//!   the second account, with teams for the groups steps) and writes a zuliprc for one
//!   of its members and one for an administrator;
//! * starts two more with the standard organization, at feature levels 421 (Zulip 11.0)
//!   and 362 (Zulip 10 development), with an administrator's zuliprc each
//!   (`test_zulip_levels.py`);
//! * starts `tauri-driver` on free loopback ports, in its own process group, with fresh
//!   `XDG_DATA_HOME` / `XDG_CONFIG_HOME` / `XDG_CACHE_HOME` for the app; the session bus
//!   (and so the test's Secret Service) is inherited;
//! * runs `<workspace>/.venv/bin/python -m pytest tests/e2e` (`WEIR_PYTHON` wins when set)
//!   with the app compositing (`WEIR_HARDWARE_ACCELERATION=always`: WebKitWebDriver's
//!   screenshots can hang without), after its first two steps on a fresh demo with
//!   compositing off (`never`, what the app picks without a GPU);
//! * checks that deleting the WebDriver session quit the app, stops the driver and kills
//!   whatever it left (only processes it started, by id);
//! * runs the app and both servers at `RUST_LOG=trace`, then scans every log and file the
//!   run left (the app's XDG homes, the driver's and the servers' logs) for every API key
//!   used in the run: the seeded ones and whatever the servers' databases hold at the end
//!   (bots created, keys regenerated). Only the keyring and the servers' databases may
//!   hold a key.
//!
//! It needs a display and a private keyring session: run it through `scripts/test.sh`, or
//! `xvfb-run -a -s "-screen 0 1280x800x24" scripts/with-keyring.sh cargo test -p
//! weir-tests --test process -- e2e:: --nocapture` after `(cd ui && npm run build)`.
//! Screenshots land in `<workspace>/artifacts/e2e/` (plus `failure-<step>.png/.html` when a
//! step fails). `WEIR_E2E_TIMEOUT` (seconds, default 30) bounds each wait in the script.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use weir_tests::driver::{ACCELERATION_VAR, Driver, Homes, tauri_driver_binary};

use weir_tests::{
    ADMIN, DEACTIVATED, GENERIC_BOT, GUEST, MEMBER, MEMBER2, MODERATOR, OTHER_BOT, OWNER,
    REALM_NAME, TestServer, WEBHOOK_BOT, alone, looks_like_panic, standard_seed, target_dir,
    workspace_root,
};

/// The Tauri identifier: the app's directories are `<XDG home>/dev.weir.desktop`.
const APP_IDENTIFIER: &str = "dev.weir.desktop";
/// The whole browser script, app start-up included (the script took over 600 s on a
/// machine shared by five builds).
const PYTEST_TIMEOUT: Duration = Duration::from_secs(1200);
/// How long the app may take to quit once its WebDriver session is deleted.
const APP_EXIT_TIMEOUT: Duration = Duration::from_secs(20);
/// Bots owned by [`MEMBER`] in the standard seed (relay-bot and helper-bot).
const MEMBER_BOTS: usize = 2;

#[test]
fn the_real_app_shows_the_demo_and_imports_a_zuliprc_into_the_keyring() {
    let _alone = alone();
    require_test_session();
    let ui_index = workspace_root().join("ui").join("dist").join("index.html");
    assert!(
        ui_index.is_file(),
        "{} does not exist: the app embeds the built UI. Build it first with \
         `(cd ui && npm run build)` (scripts/test.sh does).",
        ui_index.display()
    );
    let python = python();
    let tauri_driver = tauri_driver_binary().unwrap_or_else(|e| panic!("{e}"));
    let app = app_binary();

    // The second account's organization, and its plaintext zuliprc (a member's); an
    // administrator's zuliprc for the groups steps on that server.
    // Answering as Zulip 12 (feature level 500): bots are listed without keys, which
    // `GET /bots/{id}/api_key` gives (`tests/e2e/test_zulip12.py`).
    let server = TestServer::spawn_with_env(
        e2e_seed(),
        &["--feature-level", "500"],
        &[("RUST_LOG", "trace")],
    );
    let scratch = tempfile::tempdir().expect("temp dir");
    let homes = Homes::create(scratch.path()).expect("create the app's XDG homes");
    let zuliprc = scratch.path().join("rc").join("zuliprc");
    fs::create_dir(zuliprc.parent().expect("rc dir")).expect("create rc dir");
    write_zuliprc(&zuliprc, MEMBER, &server.base_url);
    let admin_zuliprc = admin_zuliprc_path(&zuliprc);
    write_zuliprc(&admin_zuliprc, ADMIN, &server.base_url);
    // Zulip 11 and Zulip 10 organizations for `test_zulip_levels.py`: the grid and the
    // Channels page as their administrator, from a zuliprc each.
    let levels: Vec<LevelServer> = LEVELS
        .iter()
        .map(|level| LevelServer::spawn(*level, &zuliprc))
        .collect();

    let artifacts = workspace_root().join("artifacts").join("e2e");
    clear_old_artifacts(&artifacts);

    without_compositing(&python, &tauri_driver, &app, scratch.path(), &artifacts);

    // The app logs everything it can: no key may be among it. The full script runs with
    // compositing on: WebKitWebDriver's screenshots hang without it (in the dark theme).
    let mut driver = Driver::start(
        &tauri_driver,
        &homes,
        scratch.path(),
        "trace",
        &[(ACCELERATION_VAR, "always")],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut env = e2e_env(
        &driver,
        &app,
        &homes,
        &artifacts,
        &zuliprc,
        &server.base_url,
    );
    env.push((LEVELS_VAR, levels_env(&levels)));
    let pytest = run_pytest(&python, &["tests/e2e"], &env, scratch.path());
    // Deleting the session (the script's last act) must have quit the app.
    let left_behind = driver.wait_for_app_exit(APP_EXIT_TIMEOUT);
    let driver_log = driver.stop();

    let report = format!(
        "--- pytest ({}) ---\n{}\n--- tauri-driver, WebKitWebDriver and app (stderr) ---\n{}\n\
         --- weir-server (stderr, tail) ---\n{}\n\
         --- app processes left after the session ended (killed) ---\n{left_behind:#?}",
        pytest.describe_status(),
        pytest.output,
        tail(&driver_log, 200),
        tail(&server.stderr(), 40)
    );
    println!("{report}");
    assert!(pytest.passed(), "the end-to-end script failed\n{report}");
    assert!(
        left_behind.is_empty(),
        "the app did not quit when its WebDriver session was deleted; still running after \
         {APP_EXIT_TIMEOUT:?} (then killed): {left_behind:?}"
    );
    assert!(
        !looks_like_panic(&driver_log),
        "the app (or a driver) panicked\n{report}"
    );
    assert!(
        !driver_log.contains(MEMBER.key),
        "the API key appears in the app's log output\n{report}"
    );

    // Once more with the app closed (its SQLite files checkpointed and closed): every
    // key of the run, in every file but the servers' databases (and the seed file the
    // harness wrote for the test server).
    assert!(!zuliprc.exists(), "the plaintext zuliprc was not deleted");
    assert!(
        !admin_zuliprc.exists(),
        "the administrator's plaintext zuliprc was not deleted"
    );
    for level in &levels {
        assert!(
            !level.zuliprc.exists(),
            "the plaintext zuliprc of the server at level {} was not deleted",
            level.level
        );
    }
    let server_roots: Vec<PathBuf> = std::iter::once(&server)
        .chain(levels.iter().map(|level| &level.server))
        .map(|server| {
            server
                .data_dir
                .parent()
                .expect("the server's root")
                .to_owned()
        })
        .collect();
    let roots: Vec<&Path> = std::iter::once(scratch.path())
        .chain(server_roots.iter().map(PathBuf::as_path))
        .collect();
    let keys = keys_of_the_run(&roots);
    assert!(keys.contains(MEMBER.key) && keys.len() > 10, "{keys:?}");
    let leaks = files_containing_any(&roots, &keys);
    assert!(
        leaks.is_empty(),
        "after the app quit, API keys are in plaintext in: {leaks:#?}"
    );
    assert!(
        homes.data.join(APP_IDENTIFIER).is_dir(),
        "the app did not use its XDG data home {}",
        homes.data.display()
    );

    let shots = screenshots(&artifacts);
    for expected in [
        "memberships",
        "local-server",
        "bots",
        "accounts",
        "workbench-preview-light",
        "workbench-preview-dark",
    ] {
        assert!(
            shots.contains_key(expected),
            "no screenshot {expected}.png in {}",
            artifacts.display()
        );
    }
    println!("screenshots:");
    for path in shots.values() {
        println!("  {}", path.display());
    }
    publish_readme_screenshots(&shots);
}

/// The README's screenshots: the grid and the workbench, in both themes; the
/// memberships and Groups workspaces (`test_workspace.py`) and the workbench
/// (`test_workbench.py`) at 1024 × 700 and 1280 × 800 in both themes, as this run took
/// them (`artifacts/e2e/<shot>.png` → `docs/screenshots/<name>.png`).
const README_SHOTS: [(&str, &str); 16] = [
    ("memberships", "memberships-light"),
    ("a11y-memberships-dark", "memberships-dark"),
    ("workbench-preview-light", "workbench-light"),
    ("workbench-preview-dark", "workbench-dark"),
    (
        "workspace-memberships-1024x700-light",
        "memberships-1024x700-light",
    ),
    (
        "workspace-memberships-1024x700-dark",
        "memberships-1024x700-dark",
    ),
    (
        "workspace-memberships-1280x800-light",
        "memberships-1280x800-light",
    ),
    (
        "workspace-memberships-1280x800-dark",
        "memberships-1280x800-dark",
    ),
    ("workspace-groups-1024x700-light", "groups-1024x700-light"),
    ("workspace-groups-1024x700-dark", "groups-1024x700-dark"),
    ("workspace-groups-1280x800-light", "groups-1280x800-light"),
    ("workspace-groups-1280x800-dark", "groups-1280x800-dark"),
    ("workbench-1280x800-light", "workbench-1280x800-light"),
    ("workbench-1280x800-dark", "workbench-1280x800-dark"),
    ("workbench-1024x700-light", "workbench-1024x700-light"),
    ("workbench-1024x700-dark", "workbench-1024x700-dark"),
];

/// The URL builder on Zulip's 91 integrations (`tests/e2e/test_catalog_double.py`), taken
/// only where Zulip's catalog is beside the repository.
const CATALOG_SHOT: (&str, &str) = ("url-builder-catalog", "url-builder-catalog");

/// Whether Zulip's catalog (`shared/reference/zulip-data/integrations.json`) is beside the
/// repository or beside a folder above it, as the browser script looks for it.
fn zulip_catalog_beside() -> bool {
    workspace_root().ancestors().any(|folder| {
        folder
            .join("shared/reference/zulip-data/integrations.json")
            .is_file()
    })
}

/// Every run must be able to make the README's screenshots; with
/// `WEIR_UPDATE_SCREENSHOTS=1` it also replaces them, so they stay true to the app.
fn publish_readme_screenshots(shots: &BTreeMap<String, PathBuf>) {
    let docs = workspace_root().join("docs").join("screenshots");
    let update = std::env::var_os("WEIR_UPDATE_SCREENSHOTS").is_some_and(|value| value == "1");
    let catalog = zulip_catalog_beside().then_some(CATALOG_SHOT);
    for (shot, name) in README_SHOTS.into_iter().chain(catalog) {
        let source = shots
            .get(shot)
            .unwrap_or_else(|| panic!("no screenshot {shot}.png for the README"));
        if update {
            fs::create_dir_all(&docs).expect("create docs/screenshots");
            let target = docs.join(format!("{name}.png"));
            fs::copy(source, &target).expect("copy a README screenshot");
            println!("README screenshot: {}", target.display());
        }
    }
}

/// Refuses to run outside the test command's display and private keyring: the app must
/// never write a key into the developer's own keyring.
fn require_test_session() {
    let how = "run it through scripts/test.sh, or: (cd ui && npm run build) && xvfb-run -a -s \
               \"-screen 0 1280x800x24\" scripts/with-keyring.sh cargo test -p weir-tests \
               --test process -- e2e::";
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        panic!("DISPLAY is not set: the end-to-end test needs an X display; {how}");
    }
    if std::env::var_os("WEIR_KEYRING_SESSION").is_none()
        || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|d| d.is_empty())
    {
        panic!(
            "no private keyring session (WEIR_KEYRING_SESSION and DBUS_SESSION_BUS_ADDRESS \
             are set by scripts/with-keyring.sh): the end-to-end test stores an API key in \
             the Secret Service and must not use your own keyring; {how}"
        );
    }
}

fn python() -> PathBuf {
    let python = match std::env::var_os("WEIR_PYTHON").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => workspace_root().join(".venv").join("bin").join("python"),
    };
    let fix = "scripts/setup.sh --test creates it; by hand: python3 -m venv .venv && \
               .venv/bin/pip install -r tests/e2e/requirements.txt";
    assert!(
        python.exists(),
        "no Python for the end-to-end script: {} does not exist ({fix})",
        python.display()
    );
    let probe = Command::new(&python)
        .args(["-c", "import pytest, selenium, secretstorage"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    assert!(
        probe.status.success(),
        "{} lacks the end-to-end script's packages ({fix}):\n{}",
        python.display(),
        String::from_utf8_lossy(&probe.stderr)
    );
    python
}

/// The keyring service the app under test stores keys under: `weir-dev` for the debug
/// build made here; `WEIR_APP_KEYRING_SERVICE` (`weir` for a release `WEIR_APP_BIN`) wins.
fn keyring_service() -> String {
    std::env::var("WEIR_APP_KEYRING_SERVICE")
        .ok()
        .filter(|service| !service.is_empty())
        .unwrap_or_else(|| "weir-dev".to_owned())
}

/// The app under test: `WEIR_APP_BIN`, or a fresh `cargo build -p weir --bin weir`.
fn app_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("WEIR_APP_BIN").filter(|b| !b.is_empty()) {
        let bin = PathBuf::from(bin);
        assert!(
            bin.is_file(),
            "WEIR_APP_BIN={} is not a file",
            bin.display()
        );
        return bin.canonicalize().expect("canonical WEIR_APP_BIN");
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let started = Instant::now();
    let output = Command::new(&cargo)
        .args(["build", "-p", "weir", "--bin", "weir"])
        .current_dir(workspace_root())
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("could not run {cargo:?} build -p weir: {e}"));
    assert!(
        output.status.success(),
        "`cargo build -p weir --bin weir` failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let bin = target_dir().join("debug").join("weir");
    assert!(
        bin.is_file(),
        "built weir but {} does not exist",
        bin.display()
    );
    println!("app: {} (built in {:?})", bin.display(), started.elapsed());
    bin.canonicalize().expect("canonical app path")
}

/// Removes the previous run's screenshots and failure dumps, so that what is in
/// `artifacts/e2e` always comes from the last run.
fn clear_old_artifacts(dir: &Path) {
    fs::create_dir_all(dir).expect("create artifacts dir");
    for entry in fs::read_dir(dir).expect("read artifacts dir").flatten() {
        let path = entry.path();
        let ours = path
            .extension()
            .is_some_and(|ext| ext == "png" || ext == "html");
        if ours && path.is_file() {
            fs::remove_file(&path).expect("remove old artifact");
        }
    }
}

fn screenshots(dir: &Path) -> BTreeMap<String, PathBuf> {
    fs::read_dir(dir)
        .expect("read artifacts dir")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "png"))
        .filter_map(|path| {
            let stem = path.file_stem()?.to_str()?.to_string();
            Some((stem, path))
        })
        .collect()
}

/// Files allowed to hold keys: the servers' databases, and the seed file the harness
/// wrote for the test server (a fixture, not something the app or a server wrote).
fn may_hold_keys(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    name.starts_with("weir.sqlite3") || name == "seed.json"
}

/// The keys of the run: the standard organization's, and every key in the servers'
/// databases under `roots` at the end (the app's embedded demo server included).
fn keys_of_the_run(roots: &[&Path]) -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = [
        OWNER,
        ADMIN,
        MODERATOR,
        MEMBER,
        MEMBER2,
        GUEST,
        DEACTIVATED,
        WEBHOOK_BOT,
        GENERIC_BOT,
        OTHER_BOT,
    ]
    .iter()
    .map(|account| account.key.to_owned())
    .collect();
    for database in walk(roots)
        .into_iter()
        .filter(|path| path.file_name().is_some_and(|n| n == "weir.sqlite3"))
    {
        let conn = rusqlite::Connection::open_with_flags(
            &database,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .expect("open a server database");
        let mut statement = conn
            .prepare("SELECT api_key FROM users")
            .expect("the users table");
        let found = statement
            .query_map([], |row| row.get::<_, String>(0))
            .expect("read keys");
        keys.extend(found.map(|key| key.expect("a key")));
    }
    keys
}

/// Every regular file under `roots`.
fn walk(roots: &[&Path]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = roots.iter().map(|r| r.to_path_buf()).collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            for entry in fs::read_dir(&path).expect("read dir").flatten() {
                stack.push(entry.path());
            }
        } else if meta.is_file() {
            files.push(path);
        }
    }
    files
}

/// Every file under `roots` (but those that [`may_hold_keys`]) that holds one of `keys`
/// (32 letters or digits; as UTF-8, or UTF-16 once its zero bytes are dropped), with the
/// key found. Trace logs are large: each file is read once, its runs of letters and
/// digits looked up in the set, not searched once per key.
fn files_containing_any(roots: &[&Path], keys: &BTreeSet<String>) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    for path in walk(roots).into_iter().filter(|path| !may_hold_keys(path)) {
        let Ok(bytes) = fs::read(&path) else {
            continue; // removed meanwhile
        };
        let text: Vec<u8> = bytes.into_iter().filter(|&b| b != 0).collect();
        let hit = text
            .split(|b| !b.is_ascii_alphanumeric())
            .filter(|run| run.len() >= 32)
            .flat_map(|run| run.windows(32))
            .find_map(|window| {
                let window = std::str::from_utf8(window).ok()?;
                keys.get(window).cloned()
            });
        if let Some(key) = hit {
            found.push((path, key));
        }
    }
    found
}

/// The last `lines` lines of a log.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

struct Pytest {
    status: Option<ExitStatus>,
    output: String,
}

impl Pytest {
    fn passed(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }

    fn describe_status(&self) -> String {
        match self.status {
            Some(status) => status.to_string(),
            None => format!("killed after {PYTEST_TIMEOUT:?}"),
        }
    }
}

/// The standard organization with three teams and three empty public channels, for the
/// groups steps (`test_groups_second.py`): platform (Olivia, Mark, Nina) and support (Adam,
/// Mona, Nina) are managed by owners only; reviewers (Mark) by Mark.
fn e2e_seed() -> serde_json::Value {
    let mut seed = standard_seed();
    let only = |id: u64| serde_json::json!({"direct_members": [id], "direct_subgroups": []});
    seed["groups"] = serde_json::json!([
        {"group_id": 301, "name": "platform", "description": "The platform team",
         "members": [OWNER.id, MEMBER.id, MEMBER2.id]},
        {"group_id": 302, "name": "support", "description": "The support desk",
         "members": [ADMIN.id, MODERATOR.id, MEMBER2.id]},
        {"group_id": 303, "name": "reviewers", "description": "Code review",
         "members": [MEMBER.id], "can_manage_group": only(MEMBER.id)},
    ]);
    if let Some(streams) = seed["streams"].as_array_mut() {
        for (id, name) in [(31, "Launch"), (32, "Docs"), (33, "Releases")] {
            streams.push(serde_json::json!({"stream_id": id, "name": name,
                "description": format!("The {name} stream"), "invite_only": false,
                "subscribers": []}));
        }
    }
    seed
}

fn write_zuliprc(path: &Path, account: weir_tests::Account, site: &str) {
    fs::write(
        path,
        format!(
            "[api]\nemail={}\nkey={}\nsite={site}\n",
            account.email, account.key
        ),
    )
    .expect("write zuliprc");
    fs::set_permissions(path, fs::Permissions::from_mode(0o600)).expect("chmod zuliprc");
}

/// The feature levels of the extra organizations: Zulip 11.0 (weir-server's default) and
/// the Zulip 10 development level it reported before, 362.
const LEVELS: [u32; 2] = [421, 362];
/// The variable naming them for the browser script (`tests/e2e/test_zulip_levels.py`):
/// a JSON object of level → `{site, zuliprc, email, key}`.
const LEVELS_VAR: &str = "WEIR_E2E_LEVEL_SERVERS";

/// A headless `weir-server` with the standard organization at one feature level, and
/// its administrator's zuliprc (for the app to import and delete).
struct LevelServer {
    level: u32,
    server: TestServer,
    zuliprc: PathBuf,
}

impl LevelServer {
    fn spawn(level: u32, beside: &Path) -> Self {
        let server = TestServer::spawn(standard_seed(), &["--feature-level", &level.to_string()]);
        let zuliprc = beside.with_file_name(format!("admin-zuliprc-{level}"));
        write_zuliprc(&zuliprc, ADMIN, &server.base_url);
        Self {
            level,
            server,
            zuliprc,
        }
    }
}

/// [`LEVELS_VAR`]'s value.
fn levels_env(levels: &[LevelServer]) -> String {
    let servers: serde_json::Map<String, serde_json::Value> = levels
        .iter()
        .map(|level| {
            (
                level.level.to_string(),
                serde_json::json!({
                    "site": level.server.base_url,
                    "zuliprc": level.zuliprc.display().to_string(),
                    "email": ADMIN.email,
                    "key": ADMIN.key,
                }),
            )
        })
        .collect();
    serde_json::Value::Object(servers).to_string()
}

/// The administrator's zuliprc, beside the member's.
fn admin_zuliprc_path(zuliprc: &Path) -> PathBuf {
    zuliprc.with_file_name("admin-zuliprc")
}

/// What the browser script reads (`tests/e2e/conftest.py`).
fn e2e_env(
    driver: &Driver,
    app: &Path,
    homes: &Homes,
    artifacts: &Path,
    zuliprc: &Path,
    site: &str,
) -> Vec<(&'static str, String)> {
    vec![
        ("WEIR_E2E_WEBDRIVER_URL", driver.url()),
        ("WEIR_E2E_APP", app.display().to_string()),
        ("WEIR_E2E_DATA_HOME", homes.data.display().to_string()),
        ("WEIR_E2E_CONFIG_HOME", homes.config.display().to_string()),
        ("WEIR_E2E_CACHE_HOME", homes.cache.display().to_string()),
        ("WEIR_E2E_ARTIFACTS", artifacts.display().to_string()),
        ("WEIR_E2E_ZULIPRC", zuliprc.display().to_string()),
        ("WEIR_E2E_SITE", site.to_string()),
        ("WEIR_E2E_EMAIL", MEMBER.email.to_string()),
        ("WEIR_E2E_KEY", MEMBER.key.to_string()),
        ("WEIR_E2E_FULL_NAME", MEMBER.full_name.to_string()),
        ("WEIR_E2E_REALM", REALM_NAME.to_string()),
        ("WEIR_E2E_BOT_COUNT", MEMBER_BOTS.to_string()),
        ("WEIR_E2E_KEYRING_SERVICE", keyring_service()),
        (
            "WEIR_E2E_ADMIN_ZULIPRC",
            admin_zuliprc_path(zuliprc).display().to_string(),
        ),
        ("WEIR_E2E_ADMIN_EMAIL", ADMIN.email.to_string()),
        ("WEIR_E2E_ADMIN_KEY", ADMIN.key.to_string()),
    ]
}

/// The mode a machine without a GPU runs in (WebKit not compositing; CI has no GPU, but
/// forced here whatever the machine): on a fresh demo, the app starts on the grid, and an
/// owner's unchecked cells are applied in one request, as the full script's first steps.
fn without_compositing(
    python: &Path,
    tauri_driver: &Path,
    app: &Path,
    scratch: &Path,
    artifacts: &Path,
) {
    let root = scratch.join("without-compositing");
    fs::create_dir(&root).expect("create a scratch dir");
    let homes = Homes::create(&root).expect("create the app's XDG homes");
    let mut driver = Driver::start(
        tauri_driver,
        &homes,
        &root,
        "info",
        &[(ACCELERATION_VAR, "never")],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let steps = "tests/e2e/test_app.py::TestWeir::test_";
    let pytest = run_pytest(
        python,
        &[
            &format!("{steps}starts_on_the_demo_organization"),
            &format!("{steps}owner_unchecks_people_across_streams_and_applies_in_one_request"),
        ],
        // The steps use neither the zuliprc nor the second server.
        &e2e_env(
            &driver,
            app,
            &homes,
            &artifacts.join("without-compositing"),
            &root.join("no-zuliprc"),
            "http://127.0.0.1:9",
        ),
        &root,
    );
    let left_behind = driver.wait_for_app_exit(APP_EXIT_TIMEOUT);
    let log = driver.stop();
    assert!(
        pytest.passed() && left_behind.is_empty() && !looks_like_panic(&log),
        "without compositing, the first steps failed ({}; left running: {left_behind:?})\n{}\n{}",
        pytest.describe_status(),
        pytest.output,
        tail(&log, 100)
    );
}

/// Runs the browser script's `tests` (bounded by [`PYTEST_TIMEOUT`]).
fn run_pytest(python: &Path, tests: &[&str], env: &[(&str, String)], log_dir: &Path) -> Pytest {
    let log_path = log_dir.join("pytest.log");
    let log = fs::File::create(&log_path).expect("create pytest log");
    let mut child = Command::new(python)
        .args(["-m", "pytest"])
        .args(tests)
        .args(["-q", "-p", "no:cacheprovider"])
        .arg("-rA")
        .current_dir(workspace_root())
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONUNBUFFERED", "1")
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("clone log"))
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let deadline = Instant::now() + PYTEST_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => panic!("waiting for pytest: {e}"),
        }
    };
    let mut output = fs::read_to_string(&log_path).unwrap_or_default();
    if status.is_none() {
        eprintln!("pytest did not finish within {PYTEST_TIMEOUT:?}");
        output.push_str("\n[killed: timeout]\n");
    }
    Pytest { status, output }
}
