//! The `weir-server` command line. Other tools depend on its contract exactly: flags,
//! the single `listening on http://HOST:PORT` line on stdout, logs on stderr.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tokio::net::TcpListener;

use crate::embed::data_dir::{self, DEMO_ZULIPRC, Organization};
use crate::error::Error;
use crate::store::{Store, user_by_email};
use crate::{AppState, Config, DEMO_OWNER_EMAIL, Seed};

#[derive(Debug, Parser)]
#[command(
    name = "weir-server",
    version,
    about = "Weir's Zulip-compatible server"
)]
pub struct Args {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:9991")]
    pub listen: SocketAddr,
    /// Directory holding the SQLite database (default: the platform data dir).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Organization to load into a data dir that has no database yet (JSON).
    #[arg(long, conflicts_with = "demo")]
    pub seed: Option<PathBuf>,
    /// Load the built-in demo organization when the data dir has no database yet.
    #[arg(long)]
    pub demo: bool,
    /// Zulip feature level to report and emulate.
    #[arg(long, default_value_t = zulip_api::DEFAULT_FEATURE_LEVEL)]
    pub feature_level: u32,
    /// Rate limit: requests per 60 s per user (off when absent).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit: Option<u32>,
    /// Threads serving HTTP (default: half the cores, at least one).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub worker_threads: Option<u16>,
    /// Seconds a client may take to send a request's head (and stay idle between requests).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// Seconds a client may take to send a request's body.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout: u64,
    /// Connections served at once; more are answered 503.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub max_connections: u64,
    /// Also answer requests whose Host is NAME (any port) or NAME:PORT; repeatable. By
    /// default only the listening address and loopback names are accepted, which stops
    /// web pages from reaching the server through DNS rebinding. `*` accepts any Host.
    #[arg(long = "allowed-host", value_name = "NAME", value_parser = allowed_host)]
    pub allowed_hosts: Vec<String>,
}

fn allowed_host(value: &str) -> Result<String, String> {
    let valid = !value.is_empty()
        && value.len() <= 255
        && value
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"/@,".contains(&b));
    if valid {
        Ok(value.to_ascii_lowercase())
    } else {
        Err("expected a host name, NAME:PORT or *".into())
    }
}

/// Half the cores: a local server shares the machine with its clients, and writes
/// queue for one writer whatever the thread count. Every extra thread adds hand-offs:
/// on two cores, ingest took 18.0 us of CPU per message with two threads and 16.1 us
/// with one, and ran 5% faster. Reads and checkpoints run on blocking threads apart.
fn default_worker_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    (cores / 2).max(1)
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let args = Args::parse();
    init_logging();
    let worker_threads = args
        .worker_threads
        .map_or_else(default_worker_threads, usize::from);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return fail(&format!("cannot start the async runtime: {error}")),
    };
    let outcome = runtime.block_on(run(args));
    // Work still running on blocking threads (a long write past the drain timeout) must
    // not keep a stopping server alive: its transaction is simply never committed.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(&error.to_string()),
    }
}

/// Logs to stderr (stdout is reserved for the `listening on` line), at `info` unless
/// `RUST_LOG` says otherwise.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .try_init();
}

fn fail(message: &str) -> ExitCode {
    eprintln!("weir-server: error: {message}");
    ExitCode::FAILURE
}

fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("weir")
        .join("server")
}

/// Prepares the database as the flags ask, before anything listens.
fn prepare_data_dir(data_dir: &Path, seed: Option<&Path>, demo: bool) -> Result<(), Error> {
    let exists = Store::exists_in(data_dir);
    let organization = match (seed, demo, exists) {
        (Some(path), _, true) => {
            return Err(Error::Seed(format!(
                "{} already holds a database; --seed {} only loads into a new data dir \
                 (choose another --data-dir or remove the old one)",
                data_dir.display(),
                path.display()
            )));
        }
        (Some(path), _, false) => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| Error::Seed(format!("cannot read {}: {error}", path.display())))?;
            Organization::Seed(Seed::from_json(&text)?)
        }
        (None, true, _) => Organization::Demo,
        (None, false, true) => return data_dir::make_private(data_dir),
        (None, false, false) => {
            return Err(Error::Seed(format!(
                "{} has no database yet: start with --seed FILE or --demo",
                data_dir.display()
            )));
        }
    };
    data_dir::prepare(data_dir, &organization)
}

async fn run(args: Args) -> Result<(), Error> {
    let data_dir = args.data_dir.clone().unwrap_or_else(default_data_dir);
    prepare_data_dir(&data_dir, args.seed.as_deref(), args.demo)
        .map_err(|error| Error::Seed(format!("data dir {}: {error}", data_dir.display())))?;
    let store = Store::open(&data_dir)?;
    if args.demo {
        announce_demo_login(&store, &data_dir).await?;
    }
    if !args.listen.ip().is_loopback() {
        tracing::warn!(address = %args.listen, "listening beyond loopback: anyone who can reach this address can try API keys");
    }
    let listener = TcpListener::bind(args.listen).await.map_err(|error| {
        Error::Io(std::io::Error::new(
            error.kind(),
            format!("cannot listen on {}: {error}", args.listen),
        ))
    })?;
    let address = listener.local_addr()?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening on http://{address}")?;
    stdout.flush()?;
    drop(stdout);
    let worker_threads = tokio::runtime::Handle::current().metrics().num_workers();
    tracing::info!(
        data_dir = %data_dir.display(),
        feature_level = args.feature_level,
        worker_threads,
        "ready"
    );
    let config = Config {
        feature_level: args.feature_level,
        rate_limit: args.rate_limit,
        connection_limits: crate::http::connection::Limits {
            header_timeout: Duration::from_secs(args.header_timeout),
            body_timeout: Duration::from_secs(args.body_timeout),
            max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
            ..crate::http::connection::Limits::default()
        },
        allowed_hosts: args.allowed_hosts,
    };
    crate::serve(listener, AppState::new(store, config), shutdown_signal()).await?;
    tracing::info!("stopped");
    Ok(())
}

/// Writes a zuliprc for the demo owner next to the database, so that curl and the
/// official Python client can be pointed at the demo at once.
async fn announce_demo_login(store: &Store, data_dir: &Path) -> Result<(), Error> {
    let owner = store
        .read(|conn| user_by_email(conn, DEMO_OWNER_EMAIL))
        .await?;
    if let Some(owner) = owner {
        let path = data_dir.join(DEMO_ZULIPRC);
        let text = format!("[api]\nemail={}\nkey={}\n", owner.email, owner.api_key);
        data_dir::write_private(&path, &text)?;
        tracing::info!(zuliprc = %path.display(), email = %owner.email, "demo owner credentials written (add site=http://HOST:PORT)");
    }
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
