//! `tauri-driver` as a child process, for the end-to-end suite (`tests/process/e2e.rs`) and the
//! in-window bench (`weir-bench grid`): started on free loopback ports with hermetic XDG
//! homes for the app, in its own process group, and stopped with everything it started
//! (only processes of its own family, by id).
//!
//! Errors are `String`s that say what to install or run, so that the suite can panic
//! with them and the bench can report them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long tauri-driver and its WebKitWebDriver may take to listen.
const DRIVER_START_TIMEOUT: Duration = Duration::from_secs(30);

/// The app's override of its web view's rendering, `always` or `never` (defined by
/// `src-tauri/src/rendering.rs`, which the harnesses do not link).
pub const ACCELERATION_VAR: &str = "WEIR_HARDWARE_ACCELERATION";

/// Fresh XDG homes for the app (`<root>/xdg/{data,config,cache}`).
pub struct Homes {
    pub data: PathBuf,
    pub config: PathBuf,
    pub cache: PathBuf,
}

impl Homes {
    pub fn create(root: &Path) -> io::Result<Homes> {
        let make = |name: &str| -> io::Result<PathBuf> {
            let dir = root.join("xdg").join(name);
            fs::create_dir_all(&dir)?;
            Ok(dir)
        };
        Ok(Homes {
            data: make("data")?,
            config: make("config")?,
            cache: make("cache")?,
        })
    }
}

/// `tauri-driver` from `PATH`, else `~/.cargo/bin`; and the WebKitWebDriver it runs.
pub fn tauri_driver_binary() -> Result<PathBuf, String> {
    let found = find_in_path("tauri-driver").or_else(|| {
        let home = std::env::var_os("HOME")?;
        let candidate = PathBuf::from(home)
            .join(".cargo")
            .join("bin")
            .join("tauri-driver");
        candidate.is_file().then_some(candidate)
    });
    let Some(driver) = found else {
        return Err(
            "tauri-driver is not installed (neither on PATH nor in ~/.cargo/bin): \
                    `cargo install tauri-driver --locked` (scripts/setup.sh --test does)"
                .into(),
        );
    };
    if find_in_path("WebKitWebDriver").is_none() {
        return Err(
            "WebKitWebDriver is not on PATH: install the `webkit2gtk-driver` package \
             (scripts/setup.sh --test does)"
                .into(),
        );
    }
    Ok(driver)
}

pub fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Two free loopback ports (free when asked; tauri-driver binds them a moment later, and
/// a start that loses the race is retried).
fn free_ports() -> io::Result<(u16, u16)> {
    let a = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    let b = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok((a.local_addr()?.port(), b.local_addr()?.port()))
}

fn accepts(port: u16) -> bool {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok()
}

/// A running `tauri-driver` (and, through it, WebKitWebDriver and the app). It is the
/// leader of its own process group; whatever of that group and of its process tree is
/// still running is killed when it stops (or is dropped).
pub struct Driver {
    child: Option<Child>,
    port: u16,
    log_path: PathBuf,
}

impl Driver {
    /// Starts `binary` with the app's XDG homes, `RUST_LOG=rust_log` and `app_env`
    /// (inherited by the app it launches), its output in `log_dir/tauri-driver-<attempt>.log`; waits
    /// (bounded) until both of its ports accept connections, retrying on a lost port race.
    pub fn start(
        binary: &Path,
        homes: &Homes,
        log_dir: &Path,
        rust_log: &str,
        app_env: &[(&str, &str)],
    ) -> Result<Driver, String> {
        let mut failures = Vec::new();
        for attempt in 1..=3 {
            let (port, native_port) = free_ports().map_err(|e| format!("free ports: {e}"))?;
            let log_path = log_dir.join(format!("tauri-driver-{attempt}.log"));
            let log = fs::File::create(&log_path)
                .map_err(|e| format!("create {}: {e}", log_path.display()))?;
            let stderr = log.try_clone().map_err(|e| format!("driver log: {e}"))?;
            let child = Command::new(binary)
                .args(["--port", &port.to_string()])
                .args(["--native-port", &native_port.to_string()])
                .env("XDG_DATA_HOME", &homes.data)
                .env("XDG_CONFIG_HOME", &homes.config)
                .env("XDG_CACHE_HOME", &homes.cache)
                .env("RUST_LOG", rust_log)
                .envs(app_env.iter().copied())
                .stdin(Stdio::null())
                .stdout(log)
                .stderr(stderr)
                .process_group(0)
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
            let mut driver = Driver {
                child: Some(child),
                port,
                log_path,
            };
            let deadline = Instant::now() + DRIVER_START_TIMEOUT;
            loop {
                if accepts(port) && accepts(native_port) {
                    return Ok(driver);
                }
                let exited = driver
                    .child
                    .as_mut()
                    .and_then(|c| c.try_wait().ok().flatten());
                if exited.is_some() || Instant::now() > deadline {
                    let why = match exited {
                        Some(status) => format!("exited ({status})"),
                        None => format!("not listening after {DRIVER_START_TIMEOUT:?}"),
                    };
                    let log = driver.stop();
                    failures.push(format!("attempt {attempt}: tauri-driver {why}\n{log}"));
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Err(format!(
            "tauri-driver did not come up:\n{}",
            failures.join("\n---\n")
        ))
    }

    /// The WebDriver endpoint.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Waits for every process below the native driver (the app and its WebKit
    /// processes) to end; returns those still running at the deadline.
    pub fn wait_for_app_exit(&self, timeout: Duration) -> Vec<String> {
        let Some(pid) = self.pid() else {
            return Vec::new();
        };
        let deadline = Instant::now() + timeout;
        loop {
            let table = process_table();
            let drivers: BTreeSet<u32> = table
                .iter()
                .filter(|(_, p)| p.ppid == pid)
                .map(|(id, _)| *id)
                .collect();
            let left: Vec<String> = family(&table, pid)
                .into_iter()
                .filter(|id| *id != pid && !drivers.contains(id))
                .map(|id| describe(id, &table))
                .collect();
            if left.is_empty() || Instant::now() > deadline {
                return left;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Stops tauri-driver and everything it started; returns its log.
    pub fn stop(&mut self) -> String {
        if let Some(mut child) = self.child.take() {
            let pid = child.id();
            // Everything of ours, collected before anything dies and gets reparented.
            let ours = family(&process_table(), pid);
            signal(&ours, "TERM");
            let deadline = Instant::now() + Duration::from_secs(5);
            loop {
                let _ = child.try_wait();
                let table = process_table();
                let alive: Vec<u32> = ours
                    .iter()
                    .copied()
                    .filter(|id| table.get(id).is_some_and(|p| p.state != 'Z'))
                    .collect();
                if alive.is_empty() {
                    break;
                }
                if Instant::now() > deadline {
                    signal(&alive, "KILL");
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        fs::read_to_string(&self.log_path).unwrap_or_default()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop();
    }
}

fn signal(pids: &[u32], name: &str) {
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg(format!("-{name}"))
        .args(pids.iter().map(u32::to_string))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

struct Proc {
    ppid: u32,
    pgrp: u32,
    state: char,
}

/// Every process: pid -> parent, process group and state (from `/proc/<pid>/stat`).
fn process_table() -> BTreeMap<u32, Proc> {
    let mut table = BTreeMap::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return table;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some(proc) = parse_stat(&stat) {
            table.insert(pid, proc);
        }
    }
    table
}

/// `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
fn parse_stat(stat: &str) -> Option<Proc> {
    let rest = stat.rfind(')').map(|i| &stat[i + 1..])?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    match fields.as_slice() {
        [state, ppid, pgrp, ..] => Some(Proc {
            ppid: ppid.parse().unwrap_or(0),
            pgrp: pgrp.parse().unwrap_or(0),
            state: state.chars().next().unwrap_or('?'),
        }),
        _ => None,
    }
}

/// `root`, its descendants, and the members of its process group (which stay in the group
/// when an ancestor dies and they are reparented). Zombies are left out.
fn family(table: &BTreeMap<u32, Proc>, root: u32) -> Vec<u32> {
    let mut found: BTreeSet<u32> = table
        .iter()
        .filter(|(_, p)| p.pgrp == root)
        .map(|(id, _)| *id)
        .collect();
    found.insert(root);
    let mut queue: Vec<u32> = found.iter().copied().collect();
    while let Some(parent) = queue.pop() {
        for (id, p) in table {
            if p.ppid == parent && found.insert(*id) {
                queue.push(*id);
            }
        }
    }
    found
        .into_iter()
        .filter(|id| table.get(id).is_some_and(|p| p.state != 'Z'))
        .collect()
}

fn describe(pid: u32, table: &BTreeMap<u32, Proc>) -> String {
    let cmdline = fs::read(format!("/proc/{pid}/cmdline"))
        .map(|raw| {
            String::from_utf8_lossy(&raw)
                .split('\0')
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let ppid = table.get(&pid).map_or(0, |p| p.ppid);
    format!("pid {pid} (parent {ppid}): {cmdline}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_program_names() {
        let proc = parse_stat("4242 (WebKit (Web) Proc) S 17 4240 4240 0 -1").unwrap();
        assert_eq!((proc.state, proc.ppid, proc.pgrp), ('S', 17, 4240));
        assert!(parse_stat("4242 (x)").is_none());
    }

    #[test]
    fn this_process_is_in_its_own_family() {
        let own = std::process::id();
        let table = process_table();
        assert!(family(&table, own).contains(&own));
    }
}
