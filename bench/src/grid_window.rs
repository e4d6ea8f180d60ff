//! `weir-bench grid`'s window part: the release app in its real WebKit window, driven
//! through `tauri-driver` (the end-to-end suite's launcher, `weir_tests::driver`) with
//! fresh XDG homes, against the generated organization.
//!
//! The app starts on the demo organization's Memberships page; once it has settled, its
//! memory is the baseline. Then the generated organization is imported from a zuliprc on
//! the Accounts page (the key goes to the private keyring `scripts/with-keyring.sh`
//! provides) and, round after round, the Memberships page is opened and timed in the
//! page from the click on its link to the end of the first frame that shows the grid
//! (between rounds the user switches to the demo and back, so that every opening loads
//! the organization afresh). After the first opening, settled, memory again; after the
//! last, frame times (see `grid_window.js`) with nothing happening, scrolling each axis,
//! and toggling one cell per frame; then memory once more.
//!
//! Memory is PSS summed over the app's process and its descendants (the WebKit web and
//! network processes), as `weir-bench app` measures it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use weir_tests::driver::{ACCELERATION_VAR, Driver, Homes, tauri_driver_binary};

use crate::Result;
use crate::procfs::{TreeMemory, descendants_and_self, program_name, tree_memory};
use crate::report::{median, percentile};
use crate::webdriver::Session;

const GRID_JS: &str = include_str!("grid_window.js");
/// How long one wait in the page may take (the grid's load included).
const PAGE_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the app may take to quit once its session is deleted.
const APP_EXIT_TIMEOUT: Duration = Duration::from_secs(20);
/// A frame slower than this is a dropped frame at 60 Hz (one and a half periods).
pub const DROPPED_MS: f64 = 25.0;

#[derive(Debug, clap::Args)]
pub struct WindowArgs {
    /// Measure only the data path (no app window, no display needed).
    #[arg(long)]
    pub no_window: bool,
    /// Times the Memberships page is opened on the organization (the median is reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub window_rounds: u32,
    /// Frames per pass (idle, vertical, horizontal, toggle).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(20..=10_000))]
    pub frames: u32,
    /// Pixels scrolled per frame.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=2_000))]
    pub scroll_step: u32,
    /// Milliseconds to let the app settle before each memory measurement.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub settle_ms: u64,
    /// The app's `WEIR_HARDWARE_ACCELERATION`: `always` composites through OpenGL (on a
    /// machine without a GPU, Mesa's software renderer), `never` does not; by default the
    /// app decides (no GPU: never).
    #[arg(long, value_parser = ["always", "never"])]
    pub acceleration: Option<String>,
    /// The Weir app binary (`(cd ui && npm run build) && cargo build --release -p weir`).
    #[arg(long, default_value = "target/release/weir")]
    pub weir_bin: PathBuf,
}

/// The account the window imports.
pub struct Account<'a> {
    pub site: &'a str,
    pub email: &'a str,
    pub key: &'a str,
}

/// Frame-time figures of one pass, in milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameStats {
    pub frames: usize,
    pub work_p50: f64,
    pub work_p95: f64,
    pub work_max: f64,
    /// The script part of the work: the action and the app's DOM updates.
    pub script_p95: f64,
    pub interval_p95: f64,
    /// rAF intervals longer than [`DROPPED_MS`].
    pub dropped: usize,
}

impl FrameStats {
    pub fn of(work: &[f64], script: &[f64], intervals: &[f64]) -> FrameStats {
        FrameStats {
            frames: work.len(),
            work_p50: percentile(work, 50.0),
            work_p95: percentile(work, 95.0),
            work_max: work.iter().copied().fold(f64::NAN, f64::max),
            script_p95: percentile(script, 95.0),
            interval_p95: percentile(intervals, 95.0),
            dropped: intervals.iter().filter(|ms| **ms > DROPPED_MS).count(),
        }
    }
}

/// One pass's raw samples.
struct Pass {
    label: String,
    work: Vec<f64>,
    script: Vec<f64>,
    intervals: Vec<f64>,
}

pub struct WindowFigures {
    pub opens_ms: Vec<f64>,
    pub cells_shown: u64,
    pub demo: TreeMemory,
    pub loaded: TreeMemory,
    pub after_frames: TreeMemory,
    passes: Vec<Pass>,
}

/// Runs the window part; the driver and the app are stopped whatever happens.
pub async fn measure(args: &WindowArgs, account: &Account<'_>, people: usize) -> Result<()> {
    require_session()?;
    let app = crate::process::resolve_bin(
        &args.weir_bin,
        "target/release/weir",
        "(cd ui && npm run build) && cargo build --release -p weir",
    )?
    .canonicalize()?;
    let scratch = tempfile::Builder::new()
        .prefix("weir-bench-window-")
        .tempdir()?;
    let homes = Homes::create(scratch.path())?;
    let zuliprc = scratch.path().join("zuliprc");
    fs::write(
        &zuliprc,
        format!(
            "[api]\nemail={}\nkey={}\nsite={}\n",
            account.email, account.key, account.site
        ),
    )?;
    fs::set_permissions(&zuliprc, fs::Permissions::from_mode(0o600))?;
    let binary = tauri_driver_binary()?;
    let logs = scratch.path().to_owned();
    println!(
        "window: {ACCELERATION_VAR}={}",
        args.acceleration
            .as_deref()
            .unwrap_or("(unset: the app decides)")
    );
    let acceleration = args.acceleration.clone();
    let mut driver = tokio::task::spawn_blocking(move || {
        let mut app_env: Vec<(&str, &str)> = acceleration
            .as_deref()
            .map(|mode| (ACCELERATION_VAR, mode))
            .into_iter()
            .collect();
        app_env.push(("NO_COLOR", "1"));
        // The app's own account of each grid it encoded (size and time) comes at info.
        Driver::start(
            &binary,
            &homes,
            &logs,
            "warn,weir_app::commands::memberships=info",
            &app_env,
        )
    })
    .await??;
    let address = driver.url().trim_start_matches("http://").parse()?;
    let session = Session::start(address, &app).await?;
    let app_name = program_name_of(&app);
    let outcome = drive(args, account, people, session, &zuliprc, || {
        app_pid(&driver, &app_name)
    })
    .await;
    let left = driver.wait_for_app_exit(APP_EXIT_TIMEOUT);
    let log = driver.stop();
    let figures = outcome.map_err(|error| {
        format!(
            "{error}\n--- tauri-driver and app (stderr, tail) ---\n{}",
            tail(&log)
        )
    })?;
    if !left.is_empty() {
        return Err(format!("the app did not quit with its session: {left:?}").into());
    }
    print(args, &figures, people);
    for line in log.lines() {
        if let Some((_, fields)) = line.split_once("grid encoded") {
            println!("window: the app encoded a grid:{fields}");
        } else if let Some((_, fields)) = line.split_once("heap left free by the grid's load") {
            println!("window: the app, after a load: heap{fields}");
        }
    }
    Ok(())
}

fn require_session() -> Result<()> {
    let how = "run it through `scripts/bench.sh grid` (a virtual display and a private keyring), \
               or pass --no-window for the data path only";
    if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        return Err(format!("the grid's window part needs an X display; {how}").into());
    }
    if std::env::var_os("WEIR_KEYRING_SESSION").is_none() {
        return Err(format!(
            "the grid's window part stores an API key in the Secret Service and must use a \
             private one (scripts/with-keyring.sh); {how}"
        )
        .into());
    }
    Ok(())
}

fn program_name_of(app: &std::path::Path) -> String {
    app.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The app's process: below the driver, named like the app's binary.
fn app_pid(driver: &Driver, name: &str) -> Result<u32> {
    let root = driver.pid().ok_or("tauri-driver is not running")?;
    descendants_and_self(root)
        .into_iter()
        .find(|pid| program_name(*pid) == name)
        .ok_or_else(|| format!("no process named {name} below tauri-driver").into())
}

async fn drive(
    args: &WindowArgs,
    account: &Account<'_>,
    people: usize,
    mut session: Session,
    zuliprc: &std::path::Path,
    app_pid: impl Fn() -> Result<u32>,
) -> Result<WindowFigures> {
    let timeout = PAGE_TIMEOUT.as_millis() as f64;
    let settle = Duration::from_millis(args.settle_ms);
    session.set_script_timeout(PAGE_TIMEOUT * 2).await?;
    call(&mut session, "showGrid", json!([null, timeout])).await?;
    tokio::time::sleep(settle).await;
    let demo = tree_memory(app_pid()?);
    println!(
        "window: the demo's Memberships page: {:.0} MB PSS ({} processes)",
        mb(demo.pss_kb),
        demo.processes
    );

    let path = zuliprc.display().to_string();
    call(
        &mut session,
        "importZuliprc",
        json!([path, account.email, timeout]),
    )
    .await?;
    let mut opens_ms = Vec::new();
    let mut cells_shown = 0;
    let mut loaded = None;
    for round in 0..args.window_rounds {
        if round > 0 {
            call(
                &mut session,
                "switchAwayAndBack",
                json!([account.email, timeout]),
            )
            .await?;
        }
        let opened = call(&mut session, "openGrid", json!([people, timeout])).await?;
        let ms = number(&opened, "ms")?;
        cells_shown = opened.get("cells").and_then(Value::as_u64).unwrap_or(0);
        println!(
            "window: round {}/{}: Memberships opened to a usable grid in {ms:.0} ms ({cells_shown} \
             cells rendered){}",
            round + 1,
            args.window_rounds,
            marks(&opened)
        );
        opens_ms.push(ms);
        if round == 0 {
            // Memory as a user has it after opening the grid once: later rounds leave the
            // grids they replaced to the collector.
            tokio::time::sleep(settle).await;
            loaded = Some(tree_memory(app_pid()?));
        }
    }
    let loaded = loaded.ok_or("no round was run")?;

    let mut passes = Vec::new();
    let step = args.scroll_step;
    for (kind, label) in [
        ("idle", "idle (no action)".to_owned()),
        ("vertical", format!("scroll down/up {step} px/frame")),
        ("horizontal", format!("scroll right/left {step} px/frame")),
        ("toggle", "toggle one cell/frame".to_owned()),
    ] {
        let result = call(
            &mut session,
            "measureFrames",
            json!([kind, args.frames, step]),
        )
        .await?;
        let pending = result.get("pending").and_then(Value::as_str).unwrap_or("");
        if kind == "toggle" && !matches!(pending, "" | "0") {
            return Err(format!("toggling twice left {pending} changes staged").into());
        }
        passes.push(Pass {
            label,
            work: numbers(&result, "work")?,
            script: numbers(&result, "script")?,
            intervals: numbers(&result, "intervals")?,
        });
    }
    tokio::time::sleep(settle).await;
    let after_frames = tree_memory(app_pid()?);
    session.end().await?;
    Ok(WindowFigures {
        opens_ms,
        cells_shown,
        demo,
        loaded,
        after_frames,
        passes,
    })
}

/// Calls one function of `grid_window.js` with `args`; its `{ error }` becomes an error.
async fn call(session: &mut Session, function: &str, args: Value) -> Result<Value> {
    let script = format!(
        "{GRID_JS}\nconst done = arguments[arguments.length - 1];\n\
         {function}(...Array.prototype.slice.call(arguments, 0, -1)).then(done, \
         (error) => done({{ error: `${{error}} (${{error && error.stack}})` }}));"
    );
    let value = session.execute_async(&script, args).await?;
    match value.get("error") {
        Some(error) => Err(format!("in the page, {function}: {error}").into()),
        None => Ok(value),
    }
}

fn number(value: &Value, field: &str) -> Result<f64> {
    value
        .get(field)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("no number {field} in {value}").into())
}

fn numbers(value: &Value, field: &str) -> Result<Vec<f64>> {
    value
        .get(field)
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_f64).collect())
        .ok_or_else(|| format!("no list {field} in the page's answer").into())
}

/// The app's `performance.mark`s during an opening, as milliseconds after the click.
fn marks(opened: &Value) -> String {
    let Some(marks) = opened.get("marks").and_then(Value::as_object) else {
        return String::new();
    };
    let mut marks: Vec<(&String, f64)> = marks
        .iter()
        .filter_map(|(name, at)| Some((name, at.as_f64()?)))
        .collect();
    marks.sort_by(|a, b| a.1.total_cmp(&b.1));
    marks
        .iter()
        .map(|(name, at)| format!("; {name} at {at:.0} ms"))
        .collect()
}

fn mb(kb: u64) -> f64 {
    kb as f64 / 1024.0
}

fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn verdict(met: bool) -> &'static str {
    if met { "target met" } else { "ABOVE TARGET" }
}

/// Frames p95 within one 60 Hz period, at every size.
const TARGET_FRAME_MS: f64 = 16.7;

/// What a grid of a given size must reach.
struct Targets {
    /// Opening to a usable grid, in ms.
    open_ms: f64,
    /// Memory with the grid loaded, over the same app on the demo, in MB.
    memory_mb: f64,
}

impl Targets {
    /// Issue 10's for organizations up to 10,000 people (2 s, +150 MB); issue 25's for
    /// the largest Zulip communities, 100,000 people and more (3 s, +250 MB). Sizes in
    /// between have no target of their own and are held to the smaller one's.
    fn for_people(people: usize) -> Self {
        if people >= 100_000 {
            Self {
                open_ms: 3000.0,
                memory_mb: 250.0,
            }
        } else {
            Self {
                open_ms: 2000.0,
                memory_mb: 150.0,
            }
        }
    }
}

fn print(args: &WindowArgs, figures: &WindowFigures, people: usize) {
    let targets = Targets::for_people(people);
    let open = median(&figures.opens_ms);
    println!();
    println!(
        "frame times: {} frames per pass, one action per frame from requestAnimationFrame; \
         work = the main thread's time for the frame: from its rAF timestamp to a window \
         message posted from its rAF callback, handled after the frame's style, layout and \
         paint (WebKit's performance.now() has 1 ms resolution); script = the part of it \
         up to the action's end or the frame's last DOM change; dropped = rAF intervals \
         over {DROPPED_MS} ms",
        args.frames
    );
    println!(
        "  {:<36} {:>7} {:>9} {:>9} {:>9} {:>11} {:>13} {:>8}",
        "pass",
        "frames",
        "work p50",
        "work p95",
        "work max",
        "script p95",
        "interval p95",
        "dropped"
    );
    let mut rows = Vec::new();
    for pass in &figures.passes {
        let stats = FrameStats::of(&pass.work, &pass.script, &pass.intervals);
        print_stats(&pass.label, &stats);
        rows.push(stats);
    }
    let pooled = |from: usize, to: usize| {
        let slice = figures.passes.get(from..to).unwrap_or(&[]);
        let all = |samples: fn(&Pass) -> &Vec<f64>| -> Vec<f64> {
            slice.iter().flat_map(|p| samples(p).clone()).collect()
        };
        FrameStats::of(
            &all(|p| &p.work),
            &all(|p| &p.script),
            &all(|p| &p.intervals),
        )
    };
    let scrolling = pooled(1, 3);
    let toggling = pooled(3, 4);
    print_stats("scrolling, both axes", &scrolling);
    let memory = |m: &TreeMemory| mb(m.pss_kb) - mb(figures.demo.pss_kb);
    println!();
    println!(
        "open Memberships to a usable grid ({} rounds, {} cells rendered): median {open:.0} ms \
         (target < {:.0} ms): {}",
        figures.opens_ms.len(),
        figures.cells_shown,
        targets.open_ms,
        verdict(open < targets.open_ms)
    );
    for (what, stats) in [("scrolling both axes", &scrolling), ("toggling", &toggling)] {
        println!(
            "frame work while {what}: p95 {:.1} ms (target < {TARGET_FRAME_MS} ms): {}; \
             rAF interval p95 {:.1} ms, {} dropped frames of {}",
            stats.work_p95,
            verdict(stats.work_p95 < TARGET_FRAME_MS),
            stats.interval_p95,
            stats.dropped,
            stats.frames
        );
    }
    println!(
        "memory with the grid loaded (PSS, app + WebKit processes, after the first opening, \
         settled): {:.0} MB vs {:.0} \
         MB on the demo: {:+.0} MB (target < +{:.0} MB): {}",
        mb(figures.loaded.pss_kb),
        mb(figures.demo.pss_kb),
        memory(&figures.loaded),
        targets.memory_mb,
        verdict(memory(&figures.loaded) < targets.memory_mb)
    );
    println!(
        "  after the frame passes: {:.0} MB ({:+.0} MB; includes whatever the web process \
         has not collected yet of the DOM the passes replaced)",
        mb(figures.after_frames.pss_kb),
        memory(&figures.after_frames),
    );
    let programs: Vec<String> = figures
        .loaded
        .by_program
        .iter()
        .map(|(name, kb)| {
            let before = figures.demo.by_program.get(name).copied().unwrap_or(0);
            format!("{name} {:.0} MB ({:+.0})", mb(*kb), mb(*kb) - mb(before))
        })
        .collect();
    println!(
        "  grid loaded, by program (vs the demo): {}",
        programs.join(", ")
    );
}

fn print_stats(label: &str, stats: &FrameStats) {
    println!(
        "  {:<36} {:>7} {:>9.2} {:>9.2} {:>9.2} {:>11.2} {:>13.2} {:>8}",
        label,
        stats.frames,
        stats.work_p50,
        stats.work_p95,
        stats.work_max,
        stats.script_p95,
        stats.interval_p95,
        stats.dropped
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_stats() {
        let work: Vec<f64> = (1..=20).map(f64::from).collect();
        let intervals = [16.6, 16.7, 33.4, 16.7, 25.0, 25.1];
        let script: Vec<f64> = work.iter().map(|ms| ms / 2.0).collect();
        let stats = FrameStats::of(&work, &script, &intervals);
        assert_eq!(
            stats,
            FrameStats {
                frames: 20,
                work_p50: 10.0,
                work_p95: 19.0,
                work_max: 20.0,
                script_p95: 9.5,
                interval_p95: 33.4,
                dropped: 2,
            }
        );
        let empty = FrameStats::of(&[], &[], &[]);
        assert_eq!((empty.frames, empty.dropped), (0, 0));
        assert!(empty.work_p95.is_nan() && empty.work_max.is_nan());
    }

    #[test]
    fn page_answers() {
        let answer = json!({"ms": 812.5, "work": [1.5, 2.0, "x"], "marks": {"b": 20.0, "a": 10.0}});
        assert_eq!(number(&answer, "ms").unwrap(), 812.5);
        assert!(number(&answer, "cells").is_err());
        assert_eq!(numbers(&answer, "work").unwrap(), [1.5, 2.0]);
        assert!(numbers(&answer, "intervals").is_err());
        assert_eq!(marks(&answer), "; a at 10 ms; b at 20 ms");
        assert_eq!(marks(&json!({})), "");
    }

    #[test]
    fn the_largest_organizations_are_held_to_their_own_targets() {
        let (usual, largest) = (Targets::for_people(10_000), Targets::for_people(100_000));
        assert_eq!((usual.open_ms, usual.memory_mb), (2000.0, 150.0));
        assert_eq!((largest.open_ms, largest.memory_mb), (3000.0, 250.0));
    }
}
