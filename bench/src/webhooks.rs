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

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::Uri;
use serde_json::{Value, json};

use crate::load::{self, Load, Outcome};
use crate::process::{ServerProcess, own_cpu_time};
use crate::report::{grouped, median, micros, ms, start_round, thousands};
use crate::webhooks_durability::{
    Durability, check_durability, missing_from_floor, print_durability,
};
use crate::{Result, runtime};

/// The targets (issue 25): weir's rate at least this fraction of the minimal handler's,
/// with at most this multiple of its server CPU per request.
const TARGET_RATIO: f64 = 0.6;
const TARGET_CPU_MULTIPLE: f64 = 1.6;
pub(crate) const ADMIN_EMAIL: &str = "admin@bench.test";
pub(crate) const ADMIN_KEY: &str = "BenchAdminKey0000000000000000001";
const BOT_KEY: &str = "BenchIngestBotKey000000000000001";
pub(crate) const STREAM_ID: i64 = 1;
pub(crate) const STREAM_NAME: &str = "bench";
pub(crate) const TITLE_PREFIX: &str = "bench-";
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
    if let Some(ratio) = ratio_to(figures, Target::Baseline) {
        println!("  ratio weir/minimal axum: {ratio:.2}");
    }
    if let Some(ratio) = ratio_to(figures, Target::Durable) {
        println!("  ratio weir/durable axum: {ratio:.2}");
    }
    if let Some(ratio) = ratio_to(figures, Target::Reference) {
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

/// Weir's rate in one round as a fraction of `other`'s.
fn ratio_to(figures: &[Figures], other: Target) -> Option<f64> {
    let weir = figure_of(figures, Target::Weir)?;
    let other = figure_of(figures, other)?;
    (other.rate > 0.0).then(|| weir.rate / other.rate)
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
        .filter_map(|round| ratio_to(round, Target::Baseline))
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
    let durable_ratios: Vec<f64> = rounds
        .iter()
        .filter_map(|r| ratio_to(r, Target::Durable))
        .collect();
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
        let ratios: Vec<f64> = rounds
            .iter()
            .filter_map(|r| ratio_to(r, Target::Reference))
            .collect();
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
    let total = Durability::total(durability);
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
pub(crate) fn load_body(id: u64) -> Bytes {
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
