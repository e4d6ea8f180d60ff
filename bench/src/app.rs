//! `weir-bench app`: Weir's cold start and memory next to a minimal Tauri app.
//!
//! Each round starts, one after the other (the order reversed every other round):
//!
//! - `weir`: the release app, on fresh empty `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and
//!   `XDG_CACHE_HOME` directories, so that it starts cold on the demo organization,
//!   creating its data and starting its local server;
//! - `minimal tauri`: `weir-bench-minimal-app`, one window and one page on the same
//!   stack (the baseline of the targets), with the same fresh directories.
//!
//! Cold start is the wall time from spawning the binary to the `ui ready` line on its
//! stderr: the answer to the page's first IPC call, when the window is usable. Weir's
//! page then loads its first page's data and paints it, and logs `ui content painted`
//! with its own marks (script run, first paint, data received; see `ui/src/lib/startup.ts`):
//! that is `content s`, the time to the demo's grid on screen (the minimal app's one page
//! has no more content than its first paint). After `--settle-ms` more, memory is PSS from `/proc/<pid>/smaps_rollup`
//! summed over the app's process and all its descendants (the WebKit web and network
//! processes, ...); RSS is summed too. Then the tree gets SIGTERM, SIGKILL after a
//! bounded wait, and nothing may be left. Needs a display (`xvfb-run`) and, to keep
//! D-Bus from autolaunching, a private session bus (`dbus-run-session`);
//! `scripts/bench.sh app` provides both. Services that the bus activates for the apps
//! (the accessibility bus, a keyring daemon) are not their descendants and not counted.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use nix::sys::signal::{self, Signal};
use nix::unistd::Pid;

use crate::Result;
use crate::process::{resolve_bin, tail};
use crate::procfs::{descendants_and_self, group_members, program_name, stat_of, tree_memory};
use crate::report::{median, start_round};

/// The line both apps print when their page makes its first IPC call.
const READY_MARKER: &str = "ui ready: first status request";
/// Weir's line once its local server listens (started in the background by its setup
/// hook while the window loads its page).
const SERVER_MARKER: &str = "local server started";
/// Weir's line once its first page's content is painted.
const CONTENT_MARKER: &str = "ui content painted";
/// How long an app may take to print its `ui ready` line.
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the tree gets to exit after SIGTERM, and after SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(5);
const KILL_WAIT: Duration = Duration::from_secs(5);
/// The targets: Weir within this much of the minimal app.
const TARGET_START_S: f64 = 0.2;
const TARGET_MEMORY_MB: f64 = 100.0;
const DEFAULT_WEIR_BIN: &str = "target/release/weir";
const DEFAULT_MINIMAL_BIN: &str = "target/release/weir-bench-minimal-app";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rounds (each starts both apps cold once); the summary quotes medians across them.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=50))]
    rounds: u64,
    /// Milliseconds to wait after the `ui ready` line before measuring memory.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    settle_ms: u64,
    /// The Weir app binary (`(cd ui && npm run build) && cargo build --release -p weir`).
    #[arg(long, default_value = DEFAULT_WEIR_BIN)]
    weir_bin: PathBuf,
    /// The baseline (`cargo build --release -p weir-bench-minimal-app`).
    #[arg(long, default_value = DEFAULT_MINIMAL_BIN)]
    minimal_bin: PathBuf,
    /// Keep the apps' stderr logs (lines stamped with seconds since spawn) in this
    /// directory (default: a temporary one).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum App {
    Minimal,
    Weir,
}

impl App {
    fn label(self) -> &'static str {
        match self {
            App::Minimal => "minimal tauri",
            App::Weir => "weir",
        }
    }

    fn slug(self) -> &'static str {
        match self {
            App::Minimal => "minimal",
            App::Weir => "weir",
        }
    }
}

/// One app's figures in one round.
#[derive(Debug)]
struct Figures {
    app: App,
    /// Spawn to the `ui ready` line.
    ready: Duration,
    /// Spawn to Weir's `local server started` line.
    server: Option<Duration>,
    /// Spawn to Weir's `ui content painted` line.
    content: Option<Duration>,
    pss_kb: u64,
    rss_kb: u64,
    /// PSS by program (argv[0]'s file name), summed over its processes.
    by_program: BTreeMap<String, u64>,
    processes: usize,
    /// Processes whose `smaps_rollup` could not be read (missing from the sums).
    unreadable: usize,
    stop: Stop,
}

#[derive(Debug, Clone, Copy)]
enum Stop {
    /// The whole tree exited after SIGTERM, within this long.
    Term(Duration),
    /// Something outlived the SIGTERM grace period and got SIGKILL.
    Kill,
}

impl Stop {
    fn describe(self) -> String {
        match self {
            Stop::Term(after) => format!("TERM {:.2} s", after.as_secs_f64()),
            Stop::Kill => "KILL".into(),
        }
    }
}

struct Setup {
    args: Args,
    weir_bin: PathBuf,
    minimal_bin: PathBuf,
    logs: PathBuf,
    /// Holds the temporary log directory while the run lasts.
    scratch_logs: Option<tempfile::TempDir>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let display = std::env::var_os("DISPLAY").unwrap_or_default();
    if display.is_empty() {
        return Err(
            "weir-bench app needs an X display and DISPLAY is not set: run it under \
                    `xvfb-run -a -s \"-screen 0 1280x800x24\" dbus-run-session -- ...` \
                    (`scripts/bench.sh app` does)"
                .into(),
        );
    }
    let weir_bin = resolve_bin(
        &args.weir_bin,
        DEFAULT_WEIR_BIN,
        "(cd ui && npm run build) && cargo build --release -p weir",
    )?;
    let minimal_bin = resolve_bin(
        &args.minimal_bin,
        DEFAULT_MINIMAL_BIN,
        "cargo build --release -p weir-bench-minimal-app",
    )?;
    let (logs, scratch) = crate::process::log_dir(&args.log_dir, "weir-bench-app-logs-")?;
    let setup = Setup {
        args,
        weir_bin,
        minimal_bin,
        logs,
        scratch_logs: scratch,
    };
    run_rounds(&setup, &display.to_string_lossy())
}

fn run_rounds(setup: &Setup, display: &str) -> Result<ExitCode> {
    let args = &setup.args;
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    println!(
        "app start-up: {} rounds, cold start each time (fresh XDG data, config and cache \
         dirs), memory {} ms after the ui-ready line, {} cores, DISPLAY={display}",
        args.rounds, args.settle_ms, cores
    );
    println!(
        "memory: PSS summed over each app's process tree; services its session bus activates \
         (accessibility bus, keyring daemon) are not in it"
    );
    println!("weir: {}", setup.weir_bin.display());
    println!("minimal tauri: {}", setup.minimal_bin.display());
    if setup.scratch_logs.is_none() {
        println!("app logs: {}", setup.logs.display());
    }
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|address| address.is_empty()) {
        println!(
            "note: DBUS_SESSION_BUS_ADDRESS is not set, so D-Bus may try to autolaunch a bus \
             (run under `dbus-run-session --`)"
        );
    }
    let mut rounds: Vec<Vec<Figures>> = Vec::new();
    for round in 0..args.rounds {
        let order = start_round(
            round,
            args.rounds,
            vec![App::Minimal, App::Weir],
            App::label,
        );
        let mut figures = Vec::new();
        for app in order {
            figures.push(measure(setup, app, round)?);
        }
        print_round(&figures);
        rounds.push(figures);
    }
    print_summary(args, cores, &rounds);
    Ok(ExitCode::SUCCESS)
}

fn mb(kb: f64) -> f64 {
    kb / 1024.0
}

/// The columns of a round's table; the summary has no `stopped by`.
fn print_header(stop_column: bool) {
    let stop = if stop_column { "stopped by" } else { "" };
    let header = format!(
        "  {:<14} {:>9} {:>10} {:>10} {:>8} {:>8} {:>6}  {stop}",
        "app", "ready s", "server s", "content s", "PSS MB", "RSS MB", "procs"
    );
    println!("{}", header.trim_end());
}

fn print_round(figures: &[Figures]) {
    print_header(true);
    for row in figures {
        println!(
            "  {:<14} {:>9.2} {:>10} {:>10} {:>8.0} {:>8.0} {:>6}  {}",
            row.app.label(),
            row.ready.as_secs_f64(),
            seconds(row.server),
            seconds(row.content),
            mb(row.pss_kb as f64),
            mb(row.rss_kb as f64),
            row.processes,
            row.stop.describe()
        );
    }
    for row in figures {
        let programs: Vec<String> = row
            .by_program
            .iter()
            .map(|(name, pss)| format!("{name} {:.0}", mb(*pss as f64)))
            .collect();
        println!(
            "  {} PSS MB by program: {}",
            row.app.label(),
            programs.join(", ")
        );
        if row.unreadable > 0 {
            println!(
                "  ! {}: {} processes' smaps_rollup unreadable, missing from the sums",
                row.app.label(),
                row.unreadable
            );
        }
    }
    if let Some((start, memory)) = round_differences(figures) {
        println!("  weir - minimal tauri: {start:+.2} s to ready, {memory:+.0} MB PSS");
    }
}

fn seconds(at: Option<Duration>) -> String {
    at.map_or("-".into(), |at| format!("{:.2}", at.as_secs_f64()))
}

fn finite_or_dash(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}")
    } else {
        "-".into()
    }
}

fn figure_of(figures: &[Figures], app: App) -> Option<&Figures> {
    figures.iter().find(|row| row.app == app)
}

/// Weir minus the baseline in one round: seconds to ready and PSS MB.
fn round_differences(figures: &[Figures]) -> Option<(f64, f64)> {
    let weir = figure_of(figures, App::Weir)?;
    let base = figure_of(figures, App::Minimal)?;
    Some((
        weir.ready.as_secs_f64() - base.ready.as_secs_f64(),
        mb(weir.pss_kb as f64) - mb(base.pss_kb as f64),
    ))
}

/// Medians across rounds for one app.
struct Medians {
    ready: f64,
    server: f64,
    content: f64,
    pss_mb: f64,
    rss_mb: f64,
    processes: f64,
    by_program: BTreeMap<String, f64>,
}

fn medians_of(rounds: &[Vec<Figures>], app: App) -> Medians {
    let rows: Vec<&Figures> = rounds
        .iter()
        .filter_map(|round| figure_of(round, app))
        .collect();
    let of =
        |pick: &dyn Fn(&Figures) -> f64| median(&rows.iter().map(|r| pick(r)).collect::<Vec<_>>());
    let programs: HashSet<&String> = rows.iter().flat_map(|r| r.by_program.keys()).collect();
    let by_program = programs
        .into_iter()
        .map(|name| {
            let pss = of(&|r| mb(r.by_program.get(name).copied().unwrap_or(0) as f64));
            (name.clone(), pss)
        })
        .collect();
    Medians {
        ready: of(&|r| r.ready.as_secs_f64()),
        server: of(&|r| r.server.map_or(f64::NAN, |at| at.as_secs_f64())),
        content: of(&|r| r.content.map_or(f64::NAN, |at| at.as_secs_f64())),
        pss_mb: of(&|r| mb(r.pss_kb as f64)),
        rss_mb: of(&|r| mb(r.rss_kb as f64)),
        processes: of(&|r| r.processes as f64),
        by_program,
    }
}

fn verdict(difference: f64, target: f64) -> &'static str {
    if difference <= target {
        "target met"
    } else {
        "ABOVE TARGET"
    }
}

fn print_summary(args: &Args, cores: usize, rounds: &[Vec<Figures>]) {
    println!();
    println!(
        "== summary: medians of {} rounds (memory {} ms after ready, {} cores)",
        rounds.len(),
        args.settle_ms,
        cores
    );
    print_header(false);
    let weir = medians_of(rounds, App::Weir);
    let base = medians_of(rounds, App::Minimal);
    for (app, row) in [(App::Weir, &weir), (App::Minimal, &base)] {
        println!(
            "  {:<14} {:>9.2} {:>10} {:>10} {:>8.0} {:>8.0} {:>6}",
            app.label(),
            row.ready,
            finite_or_dash(row.server),
            finite_or_dash(row.content),
            row.pss_mb,
            row.rss_mb,
            row.processes,
        );
    }
    for (app, row) in [(App::Weir, &weir), (App::Minimal, &base)] {
        let programs: Vec<String> = row
            .by_program
            .iter()
            .map(|(name, pss)| format!("{name} {pss:.0}"))
            .collect();
        println!(
            "  {} PSS MB by program (medians): {}",
            app.label(),
            programs.join(", ")
        );
    }
    let differences: Vec<(f64, f64)> = rounds
        .iter()
        .filter_map(|round| round_differences(round))
        .collect();
    let starts: Vec<String> = differences
        .iter()
        .map(|(start, _)| format!("{start:+.2}"))
        .collect();
    let memories: Vec<String> = differences
        .iter()
        .map(|(_, memory)| format!("{memory:+.0}"))
        .collect();
    let start_values: Vec<f64> = differences.iter().map(|(start, _)| *start).collect();
    let memory_values: Vec<f64> = differences.iter().map(|(_, memory)| *memory).collect();
    println!(
        "  weir - minimal tauri per round: {} s to ready (median {:+.2}), {} MB PSS (median {:+.0})",
        starts.join(" "),
        median(&start_values),
        memories.join(" "),
        median(&memory_values)
    );
    if weir.server.is_finite() {
        println!(
            "  weir's local server was up {:.2} s after spawn (median), started in the \
             background while the window loads its page",
            weir.server
        );
    }
    if weir.content.is_finite() {
        // Paired by round as well: both apps of a round start under the same load.
        let paired: Vec<f64> = rounds
            .iter()
            .filter_map(|round| {
                let content = figure_of(round, App::Weir)?.content?;
                let base = figure_of(round, App::Minimal)?;
                Some(content.as_secs_f64() - base.ready.as_secs_f64())
            })
            .collect();
        let per_round: Vec<String> = paired.iter().map(|d| format!("{d:+.2}")).collect();
        println!(
            "  weir's first page (the demo's memberships grid) was painted {:.2} s after spawn \
             (median), {:+.2} s after the minimal app's page; the apps' logs break it down",
            weir.content,
            weir.content - base.ready
        );
        println!(
            "  weir's first page - minimal app's page per round: {} s (median {:+.2})",
            per_round.join(" "),
            median(&paired)
        );
    }
    let start = weir.ready - base.ready;
    let memory = weir.pss_mb - base.pss_mb;
    println!();
    println!(
        "cold start to usable window: weir {:.2} s vs minimal tauri {:.2} s: {start:+.2} s \
         (target <= +{TARGET_START_S:.2} s): {}",
        weir.ready,
        base.ready,
        verdict(start, TARGET_START_S)
    );
    println!(
        "memory with the demo loaded (PSS, app + WebKit processes): weir {:.0} MB vs minimal \
         tauri {:.0} MB: {memory:+.0} MB (target <= +{TARGET_MEMORY_MB:.0} MB): {}",
        weir.pss_mb,
        base.pss_mb,
        verdict(memory, TARGET_MEMORY_MB)
    );
    println!(
        "other anchor: the Electron-based Zulip desktop app, not measured here (it cannot be \
         installed from this machine's registries); the minimal Tauri app above already \
         carries WebKitGTK's own cost"
    );
}

/// What the stderr watcher reports, with the time since spawn.
enum Event {
    Server(Duration),
    Ready(Duration),
    Content(Duration),
    Closed,
}

/// Starts one app cold, times it to ready, measures its memory, stops its whole tree.
fn measure(setup: &Setup, app: App, round: u64) -> Result<Figures> {
    let home = tempfile::Builder::new()
        .prefix("weir-bench-app-home-")
        .tempdir()?;
    let data = home.path().join("data");
    let config = home.path().join("config");
    let cache = home.path().join("cache");
    for dir in [&data, &config, &cache] {
        std::fs::create_dir_all(dir)?;
    }
    let program = match app {
        App::Weir => &setup.weir_bin,
        App::Minimal => &setup.minimal_bin,
    };
    let log = setup.logs.join(format!("{}-{round}.log", app.slug()));
    let log_file = File::create(&log)?;
    let mut command = Command::new(program);
    command
        .env("XDG_DATA_HOME", &data)
        .env("XDG_CONFIG_HOME", &config)
        .env("XDG_CACHE_HOME", &cache)
        // Weir's marker is an info-level tracing line; plain text in the logs.
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        // Its own process group, so that whatever it leaves can be found and stopped.
        .process_group(0);
    let started = Instant::now();
    let mut child = command.spawn().map_err(|error| {
        format!(
            "cannot start {} ({}): {error}",
            app.label(),
            program.display()
        )
    })?;
    let stderr = child.stderr.take();
    let mut tree = AppTree::new(child)?;
    let stderr = stderr.ok_or("the app has no stderr")?;
    let (sender, events) = mpsc::channel();
    std::thread::spawn(move || watch_stderr(stderr, log_file, started, &sender));

    let (ready, mut server) = wait_ready(&mut tree, &events, started, app, &log)?;
    let settle_until = Instant::now() + Duration::from_millis(setup.args.settle_ms);
    // The content line (Weir's only) comes while settling; the wait stays the settle time.
    let mut content = None;
    while let Some(left) = settle_until.checked_duration_since(Instant::now()) {
        match events.recv_timeout(left) {
            Ok(Event::Content(at)) => content = Some(at),
            Ok(Event::Server(at)) => server = Some(at),
            Ok(Event::Ready(_)) => {}
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                std::thread::sleep(left);
                break;
            }
            Err(RecvTimeoutError::Timeout) => break,
        }
    }
    if let Some(status) = tree.child.try_wait()? {
        return Err(format!(
            "{} exited ({status}) while settling; its stderr:\n{}",
            app.label(),
            tail(&log)
        )
        .into());
    }
    let memory = tree_memory(tree.pid_u32);
    let stop = tree.stop()?;
    drop(home);
    Ok(Figures {
        app,
        ready,
        server,
        content,
        pss_kb: memory.pss_kb,
        rss_kb: memory.rss_kb,
        by_program: memory.by_program,
        processes: memory.processes,
        unreadable: memory.unreadable,
        stop,
    })
}

/// Waits (bounded) for the `ui ready` line; notes Weir's server line on the way.
fn wait_ready(
    tree: &mut AppTree,
    events: &Receiver<Event>,
    started: Instant,
    app: App,
    log: &Path,
) -> Result<(Duration, Option<Duration>)> {
    let mut server = None;
    loop {
        match events.recv_timeout(Duration::from_millis(50)) {
            Ok(Event::Ready(at)) => return Ok((at, server)),
            Ok(Event::Server(at)) => server = Some(at),
            // Not before ready (the page reports after its first status); ignored if so.
            Ok(Event::Content(_)) => {}
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                return Err(format!(
                    "{} closed its stderr before the ui-ready line; its stderr:\n{}",
                    app.label(),
                    tail(log)
                )
                .into());
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if let Some(status) = tree.child.try_wait()? {
            return Err(format!(
                "{} exited ({status}) before the ui-ready line; its stderr:\n{}",
                app.label(),
                tail(log)
            )
            .into());
        }
        if started.elapsed() > READY_TIMEOUT {
            return Err(format!(
                "{} printed no ui-ready line within {} s; its stderr:\n{}",
                app.label(),
                READY_TIMEOUT.as_secs(),
                tail(log)
            )
            .into());
        }
    }
}

/// Copies the app's stderr into its log, each line stamped with the seconds since spawn,
/// and reports the marker lines. Keeps draining until every writer (WebKit's processes
/// inherit the pipe) has closed it, so that nobody blocks on a full pipe.
fn watch_stderr(stderr: ChildStderr, mut log: File, started: Instant, events: &Sender<Event>) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let at = started.elapsed();
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end();
        let _ = writeln!(log, "[{:>8.3} s] {text}", at.as_secs_f64());
        if text.contains(READY_MARKER) {
            let _ = events.send(Event::Ready(at));
        } else if text.contains(CONTENT_MARKER) {
            let _ = events.send(Event::Content(at));
        } else if text.contains(SERVER_MARKER) {
            let _ = events.send(Event::Server(at));
        }
    }
    let _ = events.send(Event::Closed);
}

/// A started app and every process it has been seen to have: stopped as a whole, also
/// when a measurement fails half-way (on drop).
struct AppTree {
    child: Child,
    pid: Pid,
    pid_u32: u32,
    /// Processes seen in the tree, with their start times.
    known: Vec<(u32, u64)>,
    stopped: bool,
}

impl AppTree {
    fn new(child: Child) -> Result<Self> {
        let pid_u32 = child.id();
        let pid = Pid::from_raw(i32::try_from(pid_u32)?);
        Ok(Self {
            child,
            pid,
            pid_u32,
            known: Vec::new(),
            stopped: false,
        })
    }

    /// Adds the tree's current processes to the known ones.
    fn snapshot(&mut self) {
        let mut current = descendants_and_self(self.pid_u32);
        current.extend(group_members(i64::from(self.pid.as_raw())));
        for pid in current {
            if let Some(stat) = stat_of(pid)
                && !self.known.contains(&(pid, stat.start))
            {
                self.known.push((pid, stat.start));
            }
        }
    }

    /// Known processes, and members of the app's process group, still alive.
    fn survivors(&self) -> Vec<u32> {
        let mut alive: Vec<u32> = self
            .known
            .iter()
            .filter(|(pid, start)| {
                stat_of(*pid).is_some_and(|stat| stat.alive() && stat.start == *start)
            })
            .map(|(pid, _)| *pid)
            .collect();
        for pid in group_members(i64::from(self.pid.as_raw())) {
            if !alive.contains(&pid) {
                alive.push(pid);
            }
        }
        alive
    }

    /// Reaps the app and waits (bounded) until none of its processes is left.
    fn wait_gone(&mut self, limit: Duration) -> bool {
        let began = Instant::now();
        loop {
            let reaped = matches!(self.child.try_wait(), Ok(Some(_)));
            if reaped && self.survivors().is_empty() {
                return true;
            }
            if began.elapsed() > limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn kill_all(&mut self) {
        let _ = signal::killpg(self.pid, Signal::SIGKILL);
        for pid in self.survivors() {
            if let Ok(pid) = i32::try_from(pid) {
                let _ = signal::kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        let _ = self.child.kill();
    }

    /// SIGTERM to the app, SIGKILL to whatever is left after a grace period; an error if
    /// anything survives even that.
    fn stop(&mut self) -> Result<Stop> {
        self.stopped = true;
        self.snapshot();
        let began = Instant::now();
        let _ = signal::kill(self.pid, Signal::SIGTERM);
        if self.wait_gone(TERM_GRACE) {
            return Ok(Stop::Term(began.elapsed()));
        }
        self.snapshot();
        self.kill_all();
        if self.wait_gone(KILL_WAIT) {
            return Ok(Stop::Kill);
        }
        let left: Vec<String> = self
            .survivors()
            .into_iter()
            .map(|pid| format!("{} ({pid})", program_name(pid)))
            .collect();
        Err(format!(
            "processes left after SIGTERM and SIGKILL: {}",
            left.join(", ")
        )
        .into())
    }
}

impl Drop for AppTree {
    fn drop(&mut self) {
        if !self.stopped {
            self.snapshot();
            self.kill_all();
            self.wait_gone(KILL_WAIT);
        }
    }
}
