//! `weir-bench webhooks`: webhook ingest into weir-server next to a minimal axum handler.
//!
//! Each round runs the same closed-loop load (Hello World posts with `api_key` and
//! `stream`, one keep-alive connection per worker) against:
//!
//! - `weir`: the weir-server release binary on a fresh, seeded data dir;
//! - `minimal axum`: `weir-bench baseline-server`, the same route answering the same JSON
//!   with no storage (the baseline of the target);
//! - `durable axum`: `weir-bench durable-server`, the minimal handler plus a durable
//!   SQLite commit of each body before its answer: the floor of any ingest that keeps
//!   what it acknowledges, against which weir's own work per message shows;
//! - `client ceiling`: `weir-bench null-server`, a raw TCP responder, showing what the
//!   load client can drive at all on this machine (skip with `--skip-ceiling`);
//! - `weir reference`: with `--reference-bin`, another weir-server build (an earlier
//!   commit), measured the same way in every round, so that a change's cost is judged
//!   against the build before it under the same noise.
//!
//! The order is reversed every other round. After each weir round the server is killed
//! with SIGKILL, restarted on the same data dir, and every acknowledged message (each
//! request carries a unique title) must be readable again through `GET /messages`; the
//! SQLite file is counted read-only as a cross-check. A missing message fails the run;
//! missing the throughput target only gets reported.

use std::collections::HashSet;
use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use bytes::Bytes;
use hyper::{StatusCode, Uri};
use serde_json::{Value, json};

use crate::http::Connection;
use crate::load::{self, Load, Outcome};
use crate::process::{ServerProcess, own_cpu_time};
use crate::report::{grouped, median, micros, ms, start_round, thousands};
use crate::{Result, runtime};

/// The targets (issue 25): weir's rate at least this fraction of the minimal handler's,
/// with at most this multiple of its server CPU per request.
const TARGET_RATIO: f64 = 0.6;
const TARGET_CPU_MULTIPLE: f64 = 1.6;
const ADMIN_EMAIL: &str = "admin@bench.test";
const ADMIN_KEY: &str = "BenchAdminKey0000000000000000001";
const BOT_KEY: &str = "BenchIngestBotKey000000000000001";
const STREAM_ID: i64 = 1;
const STREAM_NAME: &str = "bench";
const TITLE_PREFIX: &str = "bench-";
const DEFAULT_SERVER_BIN: &str = "target/release/weir-server";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Measured seconds per server and round.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=120))]
    seconds: u64,
    /// Rounds; the summary quotes medians across them.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=20))]
    rounds: u64,
    /// Concurrent keep-alive connections, each sending its next request on the answer.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=512))]
    concurrency: u64,
    /// Unmeasured warm-up seconds before each measured window.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=30))]
    warmup: u64,
    /// The weir-server binary to measure (build it with `cargo build --release`).
    #[arg(long, default_value = DEFAULT_SERVER_BIN)]
    server_bin: PathBuf,
    /// Skip measuring the load client's ceiling against a raw TCP responder.
    #[arg(long)]
    skip_ceiling: bool,
    /// Another weir-server binary (an earlier build) to measure in every round beside
    /// this one; the summary gives this build's rate as a fraction of it.
    #[arg(long)]
    reference_bin: Option<PathBuf>,
    /// Keep the servers' stderr logs in this directory (default: a temporary one).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Ceiling,
    Baseline,
    Durable,
    Weir,
    Reference,
}

impl Target {
    fn label(self) -> &'static str {
        match self {
            Target::Ceiling => "client ceiling",
            Target::Baseline => "minimal axum",
            Target::Durable => "durable axum",
            Target::Weir => "weir",
            Target::Reference => "weir reference",
        }
    }
}

/// One target's figures in one round.
#[derive(Debug)]
struct Figures {
    target: Target,
    rate: f64,
    p50: f64,
    p99: f64,
    in_window: usize,
    errors: u64,
    first_error: Option<String>,
    /// CPU time per answered request (whole load run), of the server and of the client.
    server_us: f64,
    client_us: f64,
}

impl Figures {
    fn of(target: Target, run: &Run) -> Self {
        let outcome = &run.outcome;
        let answered = (outcome.acknowledged.len() as u64 + outcome.errors).max(1) as f64;
        let per_request =
            |cpu: Option<Duration>| cpu.map_or(f64::NAN, |cpu| cpu.as_secs_f64() * 1e6 / answered);
        Self {
            target,
            rate: outcome.rate(),
            p50: outcome.percentile_ms(0.50),
            p99: outcome.percentile_ms(0.99),
            in_window: outcome.latencies_us.len(),
            errors: outcome.errors,
            first_error: outcome.first_error.clone(),
            server_us: per_request(run.server_cpu),
            client_us: per_request(run.client_cpu),
        }
    }
}

/// A load run against one server, with the CPU time both sides used meanwhile.
struct Run {
    outcome: Outcome,
    server_cpu: Option<Duration>,
    client_cpu: Option<Duration>,
}

async fn drive(setup: &Setup, server: &ServerProcess) -> Result<Run> {
    let load = webhook_load(&setup.args, server.address)?;
    let (server_before, client_before) = (server.cpu_time(), own_cpu_time());
    let outcome = load::run(&load).await?;
    let server_cpu = server
        .cpu_time()
        .zip(server_before)
        .map(|(after, before)| after.saturating_sub(before));
    let client_cpu = own_cpu_time()
        .zip(client_before)
        .map(|(after, before)| after.saturating_sub(before));
    Ok(Run {
        outcome,
        server_cpu,
        client_cpu,
    })
}

/// What came back after SIGKILL and a restart.
#[derive(Debug, Default)]
struct Durability {
    acknowledged: usize,
    /// Acknowledged messages found again through `GET /messages`.
    found: usize,
    /// Messages in the stream through the API, and in the SQLite file.
    stored_api: usize,
    stored_sqlite: usize,
    /// Stream messages that this run did not send, or that came back twice.
    foreign: usize,
    duplicates: usize,
}

impl Durability {
    fn missing(&self) -> usize {
        self.acknowledged.saturating_sub(self.found)
    }

    fn passed(&self) -> bool {
        self.missing() == 0
            && self.stored_api == self.stored_sqlite
            && self.foreign == 0
            && self.duplicates == 0
    }
}

struct Setup {
    args: Args,
    server_bin: PathBuf,
    reference_bin: Option<PathBuf>,
    bench_bin: PathBuf,
    logs: PathBuf,
    /// Holds the temporary log directory while the run lasts.
    scratch_logs: Option<tempfile::TempDir>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let server_bin = crate::process::resolve_bin(
        &args.server_bin,
        DEFAULT_SERVER_BIN,
        "cargo build --release -p weir-server",
    )?;
    let reference_bin = match &args.reference_bin {
        Some(path) if path.is_file() => Some(path.clone()),
        Some(path) => return Err(format!("no weir-server at {}", path.display()).into()),
        None => None,
    };
    let bench_bin = std::env::current_exe()?;
    let (logs, scratch) = crate::process::log_dir(&args.log_dir, "weir-bench-logs-")?;
    let setup = Setup {
        args,
        server_bin,
        reference_bin,
        bench_bin,
        logs,
        scratch_logs: scratch,
    };
    runtime()?.block_on(run_rounds(&setup))
}

async fn run_rounds(setup: &Setup) -> Result<ExitCode> {
    let args = &setup.args;
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    println!(
        "webhook ingest: {} rounds x {} s measured (+{} s warm-up), concurrency {}, {} cores",
        args.rounds, args.seconds, args.warmup, args.concurrency, cores
    );
    println!("weir-server: {}", setup.server_bin.display());
    if let Some(reference) = &setup.reference_bin {
        println!("weir reference: {}", reference.display());
    }
    if setup.scratch_logs.is_none() {
        println!("server logs: {}", setup.logs.display());
    }
    println!(
        "minimal axum: {} baseline-server (separate process, same route and JSON, no storage)",
        setup.bench_bin.display()
    );
    println!(
        "durable axum: {} durable-server (the same, committing each body to SQLite first; \
         every acknowledged body checked after SIGKILL)",
        setup.bench_bin.display()
    );
    let mut rounds: Vec<Vec<Figures>> = Vec::new();
    let mut durability: Vec<Durability> = Vec::new();
    for round in 0..args.rounds {
        let mut order = vec![Target::Baseline, Target::Durable, Target::Weir];
        if !args.skip_ceiling {
            order.insert(0, Target::Ceiling);
        }
        if setup.reference_bin.is_some() {
            // Every other pair of rounds the two builds swap places, so that each runs
            // right after the minimal handler as often as the other (whichever runs
            // right after another weir build measured faster in trials).
            if (round / 2) % 2 == 1 {
                order.insert(order.len() - 1, Target::Reference);
            } else {
                order.push(Target::Reference);
            }
        }
        let order = start_round(round, args.rounds, order, Target::label);
        let mut figures = Vec::new();
        let mut checked = Vec::new();
        for target in order {
            let (run, check) = match target {
                Target::Weir | Target::Reference => {
                    let (run, check) = measure_weir(setup, target, round).await?;
                    (run, Some(check))
                }
                other => (measure_minimal(setup, other, round).await?, None),
            };
            figures.push(Figures::of(target, &run));
            checked.extend(check);
        }
        print_round(&figures, &checked);
        rounds.push(figures);
        durability.extend(checked);
    }
    Ok(print_summary(args, cores, &rounds, &durability))
}

fn print_round(figures: &[Figures], durability: &[Durability]) {
    print_header();
    for row in figures {
        println!(
            "  {:<16} {:>9} {:>8} {:>8} {:>12} {:>12} {:>12} {:>7}",
            row.target.label(),
            thousands(row.rate),
            ms(row.p50),
            ms(row.p99),
            micros(row.server_us),
            micros(row.client_us),
            grouped(row.in_window as u64),
            grouped(row.errors)
        );
    }
    for row in figures {
        if let Some(error) = &row.first_error {
            println!("  ! {} errors, first: {error}", row.target.label());
        }
    }
    if let Some(ratio) = round_ratio(figures) {
        println!("  ratio weir/minimal axum: {ratio:.2}");
    }
    if let Some(ratio) = durable_ratio(figures) {
        println!("  ratio weir/durable axum: {ratio:.2}");
    }
    if let Some(ratio) = reference_ratio(figures) {
        println!("  ratio weir/weir reference: {ratio:.2}");
    }
    for check in durability {
        print_durability("  ", check);
    }
}

fn print_header() {
    println!(
        "  {:<16} {:>9} {:>8} {:>8} {:>12} {:>12} {:>12} {:>7}",
        "server",
        "req/s",
        "p50 ms",
        "p99 ms",
        "srv CPU/req",
        "cli CPU/req",
        "window 200s",
        "errors"
    );
}

fn print_durability(indent: &str, check: &Durability) {
    let verdict = if check.passed() { "ok" } else { "FAILED" };
    println!(
        "{indent}durable: {}/{} acknowledged messages present after SIGKILL + restart \
         ({} in the stream via the API, {} in SQLite): {verdict}",
        grouped(check.found as u64),
        grouped(check.acknowledged as u64),
        grouped(check.stored_api as u64),
        grouped(check.stored_sqlite as u64),
    );
    if check.missing() > 0 {
        println!(
            "{indent}! {} acknowledged messages are missing",
            grouped(check.missing() as u64)
        );
    }
    if check.foreign > 0 || check.duplicates > 0 {
        println!(
            "{indent}! {} unexpected and {} duplicated messages in the stream",
            check.foreign, check.duplicates
        );
    }
    let unacknowledged = check.stored_api.saturating_sub(check.found);
    if unacknowledged > 0 {
        println!(
            "{indent}note: {unacknowledged} stored messages got no 200 (failed or timed-out requests)"
        );
    }
}

/// Medians across rounds for one target (errors: the total).
struct Medians {
    rate: f64,
    p50: f64,
    p99: f64,
    server_us: f64,
    client_us: f64,
    errors: u64,
}

fn figure_of(figures: &[Figures], target: Target) -> Option<&Figures> {
    figures.iter().find(|row| row.target == target)
}

fn round_ratio(figures: &[Figures]) -> Option<f64> {
    let weir = figure_of(figures, Target::Weir)?;
    let baseline = figure_of(figures, Target::Baseline)?;
    (baseline.rate > 0.0).then(|| weir.rate / baseline.rate)
}

fn durable_ratio(figures: &[Figures]) -> Option<f64> {
    let weir = figure_of(figures, Target::Weir)?;
    let durable = figure_of(figures, Target::Durable)?;
    (durable.rate > 0.0).then(|| weir.rate / durable.rate)
}

fn reference_ratio(figures: &[Figures]) -> Option<f64> {
    let weir = figure_of(figures, Target::Weir)?;
    let reference = figure_of(figures, Target::Reference)?;
    (reference.rate > 0.0).then(|| weir.rate / reference.rate)
}

fn print_summary(
    args: &Args,
    cores: usize,
    rounds: &[Vec<Figures>],
    durability: &[Durability],
) -> ExitCode {
    let medians = |target: Target| {
        let rows: Vec<&Figures> = rounds
            .iter()
            .filter_map(|round| figure_of(round, target))
            .collect();
        let of =
            |pick: fn(&Figures) -> f64| median(&rows.iter().map(|r| pick(r)).collect::<Vec<_>>());
        Medians {
            rate: of(|r| r.rate),
            p50: of(|r| r.p50),
            p99: of(|r| r.p99),
            server_us: of(|r| r.server_us),
            client_us: of(|r| r.client_us),
            errors: rows.iter().map(|r| r.errors).sum(),
        }
    };
    println!();
    println!(
        "== summary: medians of {} rounds ({} s windows, concurrency {}, {} cores)",
        rounds.len(),
        args.seconds,
        args.concurrency,
        cores
    );
    print_header();
    let mut targets = vec![Target::Weir, Target::Baseline, Target::Durable];
    if !args.skip_ceiling {
        targets.push(Target::Ceiling);
    }
    if args.reference_bin.is_some() {
        targets.push(Target::Reference);
    }
    for target in &targets {
        let row = medians(*target);
        println!(
            "  {:<16} {:>9} {:>8} {:>8} {:>12} {:>12} {:>12} {:>7}",
            target.label(),
            thousands(row.rate),
            ms(row.p50),
            ms(row.p99),
            micros(row.server_us),
            micros(row.client_us),
            "",
            grouped(row.errors)
        );
    }
    let ratios: Vec<f64> = rounds
        .iter()
        .filter_map(|round| round_ratio(round))
        .collect();
    let ratio = median(&ratios);
    let listed: Vec<String> = ratios.iter().map(|ratio| format!("{ratio:.2}")).collect();
    println!(
        "  ratio weir/minimal axum per round: {} (median {ratio:.2})",
        listed.join(" ")
    );
    let weir = medians(Target::Weir);
    let base = medians(Target::Baseline);
    let durable = medians(Target::Durable);
    let durable_ratios: Vec<f64> = rounds.iter().filter_map(|r| durable_ratio(r)).collect();
    let listed: Vec<String> = durable_ratios.iter().map(|r| format!("{r:.2}")).collect();
    println!(
        "  ratio weir/durable axum per round: {} (median {:.2}); durable axum alone: {:.2} \
         of minimal axum, {:.1}x its server CPU per request",
        listed.join(" "),
        median(&durable_ratios),
        durable.rate / base.rate,
        durable.server_us / base.server_us
    );
    if args.reference_bin.is_some() {
        let ratios: Vec<f64> = rounds.iter().filter_map(|r| reference_ratio(r)).collect();
        let listed: Vec<String> = ratios.iter().map(|ratio| format!("{ratio:.2}")).collect();
        let reference = medians(Target::Reference);
        println!(
            "  ratio weir/weir reference per round: {} (median {:.2}); server CPU per \
             request {} vs {} ({:+.0}%)",
            listed.join(" "),
            median(&ratios),
            micros(weir.server_us),
            micros(reference.server_us),
            100.0 * (weir.server_us / reference.server_us - 1.0)
        );
    }
    if !args.skip_ceiling {
        let ceiling = medians(Target::Ceiling).rate;
        if ceiling > 0.0 {
            println!(
                "  minimal axum reaches {:.0}% of the client ceiling, weir {:.0}%",
                100.0 * base.rate / ceiling,
                100.0 * weir.rate / ceiling
            );
            if base.rate >= 0.85 * ceiling {
                println!(
                    "  (the baseline is bounded by the load client sharing the cores, so the \
                     ratio is, if anything, flattering to weir)"
                );
            }
        }
    }
    if weir.server_us.is_finite() && base.server_us.is_finite() {
        println!(
            "  server CPU per request: weir {}, minimal axum {} ({:.1}x, target <= \
             {TARGET_CPU_MULTIPLE:.1}x)",
            micros(weir.server_us),
            micros(base.server_us),
            weir.server_us / base.server_us
        );
    }
    let verdict = if ratio >= TARGET_RATIO {
        "target met"
    } else {
        "BELOW TARGET"
    };
    println!();
    println!(
        "webhook ingest: weir {} msg/s (p50 {} ms, p99 {} ms) vs minimal axum {} req/s \
         (p50 {} ms, p99 {} ms): ratio {ratio:.2} (target >= {TARGET_RATIO:.2}): {verdict}",
        thousands(weir.rate),
        ms(weir.p50),
        ms(weir.p99),
        thousands(base.rate),
        ms(base.p50),
        ms(base.p99),
    );
    let total = Durability {
        acknowledged: durability.iter().map(|d| d.acknowledged).sum(),
        found: durability.iter().map(|d| d.found).sum(),
        stored_api: durability.iter().map(|d| d.stored_api).sum(),
        stored_sqlite: durability.iter().map(|d| d.stored_sqlite).sum(),
        foreign: durability.iter().map(|d| d.foreign).sum(),
        duplicates: durability.iter().map(|d| d.duplicates).sum(),
    };
    let all_passed = durability.iter().all(Durability::passed);
    print_durability("", &total);
    if all_passed {
        ExitCode::SUCCESS
    } else {
        println!("durability check FAILED: acknowledged messages were lost");
        ExitCode::FAILURE
    }
}

/// The same load for every target: Hello World posts with unique titles.
fn webhook_load(args: &Args, address: SocketAddr) -> Result<Load> {
    let uri: Uri =
        format!("/api/v1/external/helloworld?api_key={BOT_KEY}&stream={STREAM_NAME}").parse()?;
    Ok(Load {
        address,
        uri,
        body: Arc::new(load_body),
        concurrency: usize::try_from(args.concurrency)?,
        warmup: Duration::from_secs(args.warmup),
        window: Duration::from_secs(args.seconds),
    })
}

/// Request `id`'s Hello World payload, its title unique to it.
fn load_body(id: u64) -> Bytes {
    Bytes::from(format!(
        r#"{{"featured_title":"{TITLE_PREFIX}{id}","featured_url":"https://en.wikipedia.org/wiki/Weir"}}"#
    ))
}

async fn measure_minimal(setup: &Setup, target: Target, round: u64) -> Result<Run> {
    let subcommand = match target {
        Target::Ceiling => "null-server",
        Target::Durable => "durable-server",
        _ => "baseline-server",
    };
    let log = setup.logs.join(format!("{subcommand}-{round}.log"));
    let mut args: Vec<OsString> = vec![subcommand.into(), "--listen".into(), "127.0.0.1:0".into()];
    // The durable server's database lives as long as its round (it is killed, so it
    // cannot remove it itself).
    let scratch = match target {
        Target::Durable => Some(
            tempfile::Builder::new()
                .prefix("weir-bench-durable-")
                .tempdir()?,
        ),
        _ => None,
    };
    if let Some(scratch) = &scratch {
        args.extend(["--data-dir".into(), scratch.path().into()]);
    }
    let server = ServerProcess::start(target.label(), &setup.bench_bin, &args, &log).await?;
    let run = drive(setup, &server).await;
    server.kill().await?;
    let run = run?;
    // A floor that lost what it acknowledged would not be one.
    if let Some(scratch) = scratch {
        let database = scratch.path().join(crate::durable::DATABASE_FILE);
        let acknowledged = run.outcome.acknowledged.clone();
        let missing =
            tokio::task::spawn_blocking(move || missing_from_floor(&database, &acknowledged))
                .await??;
        if missing > 0 {
            return Err(format!(
                "the durable baseline lost {missing} acknowledged bodies after SIGKILL"
            )
            .into());
        }
    }
    Ok(run)
}

/// How many acknowledged requests have no body in the durable baseline's database.
fn missing_from_floor(database: &Path, acknowledged: &[u64]) -> Result<usize> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(database, flags)?;
    let mut statement = conn.prepare("SELECT body FROM received")?;
    let mut rows = statement.query([])?;
    let mut stored = HashSet::new();
    while let Some(row) = rows.next()? {
        if let Some(id) = title_in_body(row.get_ref(0)?.as_blob()?) {
            stored.insert(id);
        }
    }
    Ok(acknowledged
        .iter()
        .filter(|id| !stored.contains(id))
        .count())
}

/// The id in a load body's `featured_title` (see [`load_body`]).
fn title_in_body(body: &[u8]) -> Option<u64> {
    let body = std::str::from_utf8(body).ok()?;
    let (_, rest) = body.split_once(&format!(r#""featured_title":"{TITLE_PREFIX}"#))?;
    let (id, _) = rest.split_once('"')?;
    id.parse().ok()
}

async fn measure_weir(setup: &Setup, target: Target, round: u64) -> Result<(Run, Durability)> {
    let (bin, name) = match (target, &setup.reference_bin) {
        (Target::Reference, Some(reference)) => (reference, "weir-reference"),
        _ => (&setup.server_bin, "weir"),
    };
    let scratch = tempfile::Builder::new()
        .prefix("weir-bench-data-")
        .tempdir()?;
    let seed = scratch.path().join("seed.json");
    std::fs::write(&seed, serde_json::to_vec_pretty(&seed_json())?)?;
    let data_dir = scratch.path().join("data");
    let mut args: Vec<OsString> = vec![
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--data-dir".into(),
        data_dir.clone().into(),
    ];
    let first_run = [args.clone(), vec!["--seed".into(), seed.into()]].concat();
    let log = setup.logs.join(format!("{name}-{round}.log"));
    let server = ServerProcess::start(name, bin, &first_run, &log).await?;
    let run = drive(setup, &server).await;
    server.kill().await?;
    let run = run?;

    args.truncate(4);
    let log = setup.logs.join(format!("{name}-{round}-restart.log"));
    let restarted = ServerProcess::start(&format!("{name} (restarted)"), bin, &args, &log).await?;
    let check = check_durability(restarted.address, &data_dir, &run.outcome.acknowledged).await;
    restarted.kill().await?;
    Ok((run, check?))
}

/// An organization with an admin, an incoming-webhook bot and a stream both are in.
fn seed_json() -> Value {
    json!({
        "realm": {"name": "Weir bench", "url": "http://bench.localhost"},
        "users": [
            {"user_id": 1, "email": ADMIN_EMAIL, "full_name": "Bench Admin",
             "role": "administrator", "api_key": ADMIN_KEY},
            {"user_id": 2, "email": "ingest-bot@bench.test", "full_name": "Ingest Bot",
             "role": "member", "bot_type": 2, "bot_owner_id": 1, "api_key": BOT_KEY}
        ],
        "streams": [{"stream_id": STREAM_ID, "name": STREAM_NAME, "subscribers": [1, 2]}]
    })
}

/// Reads the whole stream back through the restarted server, and counts it in SQLite.
async fn check_durability(
    address: SocketAddr,
    data_dir: &Path,
    acknowledged: &[u64],
) -> Result<Durability> {
    let mut check = Durability {
        acknowledged: acknowledged.len(),
        ..Durability::default()
    };
    let credentials = format!("{ADMIN_EMAIL}:{ADMIN_KEY}");
    let authorization = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(credentials)
    );
    let narrow = json!([{"operator": "channel", "operand": STREAM_NAME}]).to_string();
    let mut connection = Connection::open(address).await?;
    let mut message_ids = HashSet::new();
    let mut titles = HashSet::new();
    let mut anchor = "oldest".to_owned();
    let max_pages = acknowledged.len() / 4000 + 10;
    let mut complete = false;
    for _ in 0..max_pages {
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("anchor", &anchor)
            .append_pair("num_before", "0")
            .append_pair("num_after", "5000")
            .append_pair("narrow", &narrow)
            .append_pair("apply_markdown", "false")
            .finish();
        let uri: Uri = format!("/api/v1/messages?{query}").parse()?;
        let (status, body) = connection.get(uri, &authorization).await?;
        if status != StatusCode::OK {
            let body = String::from_utf8_lossy(&body);
            return Err(format!("GET /api/v1/messages answered {status}: {body}").into());
        }
        let page: Value = serde_json::from_slice(&body)?;
        let messages = page["messages"]
            .as_array()
            .ok_or("GET /api/v1/messages answered no messages array")?;
        let mut last = None;
        for message in messages {
            let id = message["id"].as_i64().ok_or("a message without an id")?;
            last = Some(id);
            if !message_ids.insert(id) {
                continue; // the anchor, seen on the previous page
            }
            match message["content"].as_str().and_then(title_of) {
                Some(title) if titles.insert(title) => {}
                Some(_) => check.duplicates += 1,
                None => check.foreign += 1,
            }
        }
        match last {
            Some(id) if page["found_newest"] != Value::Bool(true) => anchor = id.to_string(),
            _ => {
                complete = true;
                break;
            }
        }
    }
    if !complete {
        return Err(
            format!("GET /api/v1/messages did not reach the newest in {max_pages} pages").into(),
        );
    }
    check.stored_api = message_ids.len();
    check.found = acknowledged
        .iter()
        .filter(|id| titles.contains(*id))
        .count();
    let database = data_dir.join("weir.sqlite3");
    check.stored_sqlite = tokio::task::spawn_blocking(move || count_in_sqlite(&database)).await??;
    Ok(check)
}

/// The request id in a stored Hello World message: `... **[bench-ID](URL)**`.
fn title_of(content: &str) -> Option<u64> {
    let (_, rest) = content.split_once(&format!("**[{TITLE_PREFIX}"))?;
    let (id, _) = rest.split_once("](")?;
    id.parse().ok()
}

fn count_in_sqlite(database: &Path) -> Result<usize> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(database, flags)?;
    let count: i64 = conn.query_row(
        "SELECT count(*) FROM messages WHERE stream_id = ?1",
        [STREAM_ID],
        |row| row.get(0),
    )?;
    Ok(usize::try_from(count)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_come_back_out_of_the_hello_world_text() {
        let content = "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article \
                       for today is **[bench-1099511627781](https://en.wikipedia.org/wiki/Weir)**";
        assert_eq!(title_of(content), Some((1 << 40) + 5));
        assert_eq!(title_of("**[other](x)**"), None);
    }

    #[test]
    fn titles_come_back_out_of_the_load_bodies() {
        assert_eq!(title_in_body(&load_body(42)), Some(42));
        assert_eq!(title_in_body(br#"{"featured_title":"other"}"#), None);
    }

    #[test]
    fn acknowledged_bodies_missing_from_the_floor_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        let database = dir.path().join(crate::durable::DATABASE_FILE);
        let conn = crate::durable::open(&database).unwrap();
        for id in [1_u64, 2] {
            conn.execute(
                "INSERT INTO received (body) VALUES (?1)",
                [load_body(id).as_ref()],
            )
            .unwrap();
        }
        assert_eq!(missing_from_floor(&database, &[1, 2]).unwrap(), 0);
        assert_eq!(missing_from_floor(&database, &[1, 2, 3]).unwrap(), 1);
    }
}
