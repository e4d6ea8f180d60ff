//! `weir-bench`: Weir's benchmarks.
//!
//! Every benchmark prints figures next to a baseline measured in the same run, as medians
//! over several rounds; none asserts on timings. Each benchmark is one module with an
//! `Args` struct and a `run` function, wired in as one variant of [`Command`].
//! Everything runs on loopback and stops by itself.

mod app;
mod durable;
mod grid;
mod grid_breakdown;
mod grid_window;
mod http;
mod integrations;
mod load;
mod minimal;
mod mixed;
mod process;
mod procfs;
mod report;
mod unsubscribe;
mod webdriver;
mod webhooks;
mod webhooks_durability;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Errors of a benchmark run: reported on stderr, exit status 1.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, Parser)]
#[command(name = "weir-bench", version, about = "Weir's benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// App start-up: Weir's cold start to a usable window and its memory with the demo
    /// loaded, next to a minimal Tauri app (needs a display; see `scripts/bench.sh app`).
    App(app::Args),
    /// The memberships grid on a 10,000 × 1,000 organization: load, plan, apply 10,000
    /// cell changes against a rate-limited weir-server; then, in the app's window, time to
    /// a usable grid, frame times and memory (needs a display and a private keyring; see
    /// `scripts/bench.sh grid`).
    Grid(grid::Args),
    /// Webhook ingest: weir-server against a minimal axum handler, with a crash-durability
    /// check after every weir round.
    Webhooks(webhooks::Args),
    /// Integration handlers: one webhook request's cost in `weir_integrations::process`
    /// (GitHub push of 20 commits, GitLab merge request, Sentry issue, Bitbucket push)
    /// next to Hello World.
    Integrations(integrations::Args),
    /// Mixed load: clients unsubscribing, subscribing, reading and posting webhooks,
    /// checked against a serial replay, with p50/p99 per endpoint.
    Load(mixed::Args),
    /// Unsubscribe at scale: one request removing up to 1,000 people from 100 streams in
    /// a generated organization, next to raw SQLite changing the same rows.
    Unsubscribe(unsubscribe::Args),
    /// The minimal axum handler that `webhooks` compares against (started by it).
    BaselineServer(minimal::ServerArgs),
    /// The minimal handler plus a durable SQLite commit of each body before its answer
    /// (started by `webhooks`).
    DurableServer(durable::Args),
    /// A raw-TCP responder that `webhooks` uses to measure the load client's ceiling.
    NullServer(minimal::ServerArgs),
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::App(args) => app::run(args),
        Command::Grid(args) => grid::run(args),
        Command::Webhooks(args) => webhooks::run(args),
        Command::Integrations(args) => integrations::run(args),
        Command::Unsubscribe(args) => unsubscribe::run(args),
        Command::Load(args) => mixed::run(args),
        Command::BaselineServer(args) => minimal::run_baseline(args),
        Command::DurableServer(args) => durable::run(args),
        Command::NullServer(args) => minimal::run_null(args),
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("weir-bench: error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A multi-threaded runtime with the default worker count (one per core).
fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}
