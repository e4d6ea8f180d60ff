//! `weir-bench load`: the mixed load of the test suites (`weir_tests::load`: clients
//! unsubscribing, subscribing, reading and posting webhooks, checked against a serial
//! replay) against a release weir-server, for longer, with p50/p99 per endpoint.
//!
//! A run fails when any answer is a 5xx, contradicts the replay, or when the final
//! memberships or stored webhook messages differ from it.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use weir_tests::load::{self, LoadConfig};

use crate::process::ServerProcess;
use crate::report::grouped;
use crate::{Result, runtime};

const DEFAULT_SERVER_BIN: &str = "target/release/weir-server";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seconds of load.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=600))]
    seconds: u64,
    /// Concurrent clients.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=512))]
    clients: u64,
    /// The weir-server binary to measure (build it with `cargo build --release`).
    #[arg(long, default_value = DEFAULT_SERVER_BIN)]
    server_bin: PathBuf,
    /// Keep the server's stderr log in this directory (default: a temporary one).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let server_bin = crate::process::resolve_bin(
        &args.server_bin,
        DEFAULT_SERVER_BIN,
        "cargo build --release -p weir-server",
    )?;
    let (logs, _scratch) = crate::process::log_dir(&args.log_dir, "weir-bench-logs-")?;
    let data = tempfile::Builder::new()
        .prefix("weir-bench-load-")
        .tempdir()?;
    let config = LoadConfig {
        clients: usize::try_from(args.clients)?,
        duration: Duration::from_secs(args.seconds),
        ..LoadConfig::default()
    };
    let seed = data.path().join("seed.json");
    std::fs::write(&seed, serde_json::to_vec(&load::seed(config.clients))?)?;
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    println!(
        "mixed load: {} clients for {} s (unsubscribe, subscribe, reads, webhooks), {cores} cores",
        config.clients, args.seconds
    );
    println!("weir-server: {}", server_bin.display());
    runtime()?.block_on(async {
        let server_args: Vec<OsString> = vec![
            "--listen".into(),
            "127.0.0.1:0".into(),
            "--data-dir".into(),
            data.path().join("data").into(),
            "--seed".into(),
            seed.into(),
        ];
        let log = logs.join("load.log");
        let server = ServerProcess::start("weir-server", &server_bin, &server_args, &log).await?;
        let base = format!("http://{}", server.address);
        let report = load::run(&base, &config, Arc::new(AtomicBool::new(false))).await;
        let differences = load::verify(&base, &report).await;
        server.kill().await?;
        println!(
            "{} answers ({}/s), {} acknowledged writes, {} 5xx, {} unanswered",
            grouped(report.answered),
            grouped(report.answered / args.seconds.max(1)),
            grouped(report.acknowledged_writes),
            report.server_errors,
            report.unanswered
        );
        print!("{}", report.latency_table());
        let problems: Vec<&String> = report.problems.iter().chain(&differences).collect();
        if problems.is_empty() && report.server_errors == 0 && report.unanswered == 0 {
            println!("replay: final memberships and messages match the acknowledged operations");
            Ok(ExitCode::SUCCESS)
        } else {
            println!("replay FAILED:");
            for problem in problems.iter().take(20) {
                println!("  {problem}");
            }
            Ok(ExitCode::FAILURE)
        }
    })
}
