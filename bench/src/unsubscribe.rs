//! `weir-bench unsubscribe`: one `DELETE /users/me/subscriptions` removing many people
//! from many streams, next to raw SQLite doing the same change to the same rows.
//!
//! The organization is generated: `--users` people (10,000) and `--streams` streams
//! (1,000), every person in ten streams spread over the organization, and a cohort of
//! the first 1,000 people in each of the first 100 streams. The seed goes through the
//! real `weir-server --seed` once; every measurement then starts from a copy of that
//! database, so that each one removes exactly `people × streams` live memberships.
//!
//! For each size (10 × 10 up to 1,000 × 100) and round:
//!
//! - `weir`: a release `weir-server` on the copy; one warm-up request authenticates the
//!   owner, then the timed request removes the cohort's first `people` from the first
//!   `streams` streams (user ids as `principals`, names as `subscriptions`), answered
//!   after the commit; the answer must list every pair as removed;
//! - `raw SQLite`: the same change on another copy, as one statement in one transaction
//!   with the server's pragmas (WAL, `synchronous = NORMAL`): Weir keeps the rows with
//!   `active = 0`, as Zulip does, so the baseline is that `UPDATE`; at the largest size a
//!   plain `DELETE` of the same rows is timed too.
//!
//! Reported: medians per size, the ratios weir / raw (target ≤ 3 at 1,000 × 100, against
//! both the `UPDATE` and the `DELETE`) and how time grows with pairs from one size to the
//! next with more pairs (it must stay linear).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use base64::Engine;
use hyper::{Method, StatusCode, Uri};
use serde_json::{Value, json};

use crate::http::Connection;
use crate::process::ServerProcess;
use crate::report::{grouped, median, start_round};
use crate::{Result, runtime};

const TARGET_RATIO: f64 = 3.0;
const OWNER_EMAIL: &str = "owner@bench.test";
const OWNER_KEY: &str = "BenchUnsubscribeOwnerKey00000001";
const DATABASE_FILE: &str = "weir.sqlite3";
const DEFAULT_SERVER_BIN: &str = "target/release/weir-server";
/// The cohort removed by the largest request: its people are in every cohort stream.
const COHORT_PEOPLE: usize = 1000;
const COHORT_STREAMS: usize = 100;
/// Streams every person is in besides the cohort's, spread over the organization.
const BACKGROUND_STREAMS_PER_PERSON: usize = 10;
/// (people, streams) per request, smallest first.
const SIZES: &[(usize, usize)] = &[(10, 10), (100, 10), (100, 100), (1000, 10), (1000, 100)];

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rounds; the summary quotes medians across them.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=20))]
    rounds: u64,
    /// People in the generated organization (besides its owner).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1000..=100_000))]
    users: u64,
    /// Streams in the generated organization.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(100..=10_000))]
    streams: u64,
    /// The weir-server binary to measure (build it with `cargo build --release`).
    #[arg(long, default_value = DEFAULT_SERVER_BIN)]
    server_bin: PathBuf,
    /// Keep the servers' stderr logs in this directory (default: a temporary one).
    #[arg(long)]
    log_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Weir,
    RawUpdate,
}

impl Target {
    fn label(self) -> &'static str {
        match self {
            Target::Weir => "weir",
            Target::RawUpdate => "raw SQLite",
        }
    }
}

/// Seconds per size (index into [`SIZES`]) per target, one entry per round.
#[derive(Debug, Default)]
struct Timings {
    weir: Vec<Vec<f64>>,
    raw_update: Vec<Vec<f64>>,
    raw_delete: Vec<f64>,
}

struct Setup {
    args: Args,
    server_bin: PathBuf,
    logs: PathBuf,
    template: tempfile::TempDir,
    _scratch_logs: Option<tempfile::TempDir>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let server_bin = crate::process::resolve_bin(
        &args.server_bin,
        DEFAULT_SERVER_BIN,
        "cargo build --release -p weir-server",
    )?;
    let (logs, scratch) = crate::process::log_dir(&args.log_dir, "weir-bench-logs-")?;
    let template = tempfile::Builder::new()
        .prefix("weir-bench-unsubscribe-")
        .tempdir()?;
    let setup = Setup {
        args,
        server_bin,
        logs,
        template,
        _scratch_logs: scratch,
    };
    runtime()?.block_on(run_rounds(&setup))
}

async fn run_rounds(setup: &Setup) -> Result<ExitCode> {
    let args = &setup.args;
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    println!(
        "unsubscribe at scale: {} rounds, organization of {} people x {} streams, {} cores",
        args.rounds,
        grouped(args.users),
        grouped(args.streams),
        cores
    );
    println!("weir-server: {}", setup.server_bin.display());
    let started = Instant::now();
    let rows = create_template(setup).await?;
    println!(
        "seeded through weir-server --seed in {:.1} s: {} memberships",
        started.elapsed().as_secs_f64(),
        grouped(rows)
    );
    let mut timings = Timings {
        weir: vec![Vec::new(); SIZES.len()],
        raw_update: vec![Vec::new(); SIZES.len()],
        raw_delete: Vec::new(),
    };
    for round in 0..args.rounds {
        let order = start_round(
            round,
            args.rounds,
            vec![Target::Weir, Target::RawUpdate],
            Target::label,
        );
        for target in order {
            for (index, &(people, streams)) in SIZES.iter().enumerate() {
                let seconds = match target {
                    Target::Weir => measure_weir(setup, round, people, streams).await?,
                    Target::RawUpdate => measure_raw(setup, people, streams, Change::Update)?,
                };
                let list = match target {
                    Target::Weir => &mut timings.weir,
                    Target::RawUpdate => &mut timings.raw_update,
                };
                if let Some(list) = list.get_mut(index) {
                    list.push(seconds);
                }
            }
        }
        timings.raw_delete.push(measure_raw(
            setup,
            COHORT_PEOPLE,
            COHORT_STREAMS,
            Change::Delete,
        )?);
        print_round(&timings, round as usize);
    }
    print_summary(&timings, cores);
    Ok(ExitCode::SUCCESS)
}

fn print_round(timings: &Timings, round: usize) {
    println!(
        "  {:>14} {:>9} {:>12} {:>12}",
        "people x streams", "pairs", "weir ms", "raw ms"
    );
    for (index, &(people, streams)) in SIZES.iter().enumerate() {
        let pick = |list: &[Vec<f64>]| {
            list.get(index)
                .and_then(|times| times.get(round))
                .map_or(f64::NAN, |s| s * 1e3)
        };
        println!(
            "  {:>16} {:>9} {:>12.2} {:>12.2}",
            format!("{people} x {streams}"),
            grouped((people * streams) as u64),
            pick(&timings.weir),
            pick(&timings.raw_update),
        );
    }
}

fn print_summary(timings: &Timings, cores: usize) {
    println!();
    println!(
        "== summary: medians of {} rounds ({cores} cores)",
        timings.raw_delete.len()
    );
    println!(
        "  {:>16} {:>9} {:>10} {:>10} {:>10} {:>8} {:>14}",
        "people x streams", "pairs", "weir ms", "us/pair", "raw ms", "ratio", "growth"
    );
    let mut previous: Option<(f64, usize)> = None;
    let mut worst_growth: f64 = 0.0;
    for (index, &(people, streams)) in SIZES.iter().enumerate() {
        let pairs = people * streams;
        let weir = timings.weir.get(index).map_or(f64::NAN, |t| median(t));
        let raw = timings
            .raw_update
            .get(index)
            .map_or(f64::NAN, |t| median(t));
        // Against the previous size with fewer pairs (sizes with as many pairs differ in
        // shape only: 1,000 principals cost more to resolve than 100 stream names).
        let growth = match previous {
            Some((before, before_pairs)) if pairs > before_pairs => {
                let time_factor = weir / before;
                let pair_factor = pairs as f64 / before_pairs as f64;
                worst_growth = worst_growth.max(time_factor / pair_factor);
                format!("x{pair_factor:.0} -> x{time_factor:.1}")
            }
            _ => String::new(),
        };
        println!(
            "  {:>16} {:>9} {:>10.2} {:>10.2} {:>10.2} {:>8.2} {:>14}",
            format!("{people} x {streams}"),
            grouped(pairs as u64),
            weir * 1e3,
            weir * 1e6 / pairs as f64,
            raw * 1e3,
            weir / raw,
            growth,
        );
        if previous.is_none_or(|(_, before_pairs)| pairs > before_pairs) {
            previous = Some((weir, pairs));
        }
    }
    let largest = SIZES.len() - 1;
    let weir = timings.weir.get(largest).map_or(f64::NAN, |t| median(t));
    let update = timings
        .raw_update
        .get(largest)
        .map_or(f64::NAN, |t| median(t));
    let delete = median(&timings.raw_delete);
    let mut line = String::new();
    let _ = write!(
        line,
        "1,000 x 100: weir {:.1} ms; raw SQLite UPDATE {:.1} ms (ratio {:.2}), DELETE {:.1} ms \
         (ratio {:.2}); target: both ratios <= {TARGET_RATIO}: ",
        weir * 1e3,
        update * 1e3,
        weir / update,
        delete * 1e3,
        weir / delete,
    );
    line.push_str(
        if weir / update <= TARGET_RATIO && weir / delete <= TARGET_RATIO {
            "met"
        } else {
            "MISSED"
        },
    );
    println!("{line}");
    println!(
        "growth: time grows at most {worst_growth:.2}x as fast as pairs from one size to the \
         next with more pairs ({})",
        if worst_growth <= 1.5 {
            "linear or better"
        } else {
            "SUPER-LINEAR"
        }
    );
}

/// Writes the seed, lets `weir-server --seed` create the database, and folds its log
/// into the main file so that a copy of that one file is the whole organization.
async fn create_template(setup: &Setup) -> Result<u64> {
    let dir = setup.template.path();
    let seed_path = dir.join("seed.json");
    std::fs::write(
        &seed_path,
        serde_json::to_vec(&seed_json(setup.args.users, setup.args.streams))?,
    )?;
    let data_dir = dir.join("template");
    let args: Vec<OsString> = vec![
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--data-dir".into(),
        data_dir.clone().into(),
        "--seed".into(),
        seed_path.into(),
    ];
    let log = setup.logs.join("unsubscribe-seed.log");
    let server = ServerProcess::start("weir-server --seed", &setup.server_bin, &args, &log).await?;
    server.kill().await?;
    let database = data_dir.join(DATABASE_FILE);
    let conn = rusqlite::Connection::open(&database)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    let rows: i64 = conn.query_row(
        "SELECT count(*) FROM subscriptions WHERE active = 1",
        [],
        |row| row.get(0),
    )?;
    Ok(u64::try_from(rows)?)
}

/// The generated organization: an owner (id 1), people 2..=users+1, streams 1..=streams.
fn seed_json(users: u64, streams: u64) -> Value {
    let users = users as usize;
    let streams = streams as usize;
    let mut people = vec![
        json!({"user_id": 1, "email": OWNER_EMAIL, "full_name": "Owner",
        "role": "owner", "api_key": OWNER_KEY}),
    ];
    people.extend((0..users).map(|index| {
        json!({"user_id": person_id(index), "email": format!("person{index}@bench.test"),
            "full_name": format!("Person {index}"), "role": "member"})
    }));
    let mut members: Vec<Vec<i64>> = vec![Vec::new(); streams];
    for index in 0..users {
        let mut mine: Vec<usize> = (0..BACKGROUND_STREAMS_PER_PERSON)
            .map(|k| (index * 7 + k * 97) % streams)
            .collect();
        if index < COHORT_PEOPLE {
            mine.extend(0..COHORT_STREAMS);
        }
        mine.sort_unstable();
        mine.dedup();
        for stream in mine {
            if let Some(list) = members.get_mut(stream) {
                list.push(person_id(index));
            }
        }
    }
    let streams: Vec<Value> = members
        .into_iter()
        .enumerate()
        .map(|(index, subscribers)| {
            json!({"stream_id": index as i64 + 1, "name": stream_name(index),
                "subscribers": subscribers})
        })
        .collect();
    json!({
        "realm": {"name": "Unsubscribe bench", "url": "http://bench.localhost"},
        "users": people,
        "streams": streams,
    })
}

fn person_id(index: usize) -> i64 {
    index as i64 + 2
}

fn stream_name(index: usize) -> String {
    format!("stream-{index}")
}

/// A fresh copy of the template database in its own directory.
fn copy_template(setup: &Setup) -> Result<tempfile::TempDir> {
    let copy = tempfile::Builder::new()
        .prefix("weir-bench-unsubscribe-run-")
        .tempdir()?;
    std::fs::copy(
        setup.template.path().join("template").join(DATABASE_FILE),
        copy.path().join(DATABASE_FILE),
    )?;
    Ok(copy)
}

async fn measure_weir(setup: &Setup, round: u64, people: usize, streams: usize) -> Result<f64> {
    let data = copy_template(setup)?;
    let args: Vec<OsString> = vec![
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--data-dir".into(),
        data.path().into(),
    ];
    let log = setup
        .logs
        .join(format!("unsubscribe-{round}-{people}x{streams}.log"));
    let server = ServerProcess::start("weir-server", &setup.server_bin, &args, &log).await?;
    let timed = unsubscribe_once(&server, people, streams).await;
    server.kill().await?;
    timed
}

async fn unsubscribe_once(server: &ServerProcess, people: usize, streams: usize) -> Result<f64> {
    let credentials = format!("{OWNER_EMAIL}:{OWNER_KEY}");
    let authorization = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(credentials)
    );
    let mut connection = Connection::open(server.address).await?;
    let (status, body) = connection
        .get(Uri::from_static("/api/v1/users/me"), &authorization)
        .await?;
    if status != StatusCode::OK {
        let body = String::from_utf8_lossy(&body);
        return Err(format!("warm-up GET /users/me answered {status}: {body}").into());
    }
    let names: Vec<String> = (0..streams).map(stream_name).collect();
    let ids: Vec<i64> = (0..people).map(person_id).collect();
    let body = form_urlencoded::Serializer::new(String::new())
        .append_pair("subscriptions", &serde_json::to_string(&names)?)
        .append_pair("principals", &serde_json::to_string(&ids)?)
        .finish();
    let uri = Uri::from_static("/api/v1/users/me/subscriptions");
    let started = Instant::now();
    let (status, answer) = connection
        .send_form(Method::DELETE, uri, &authorization, body)
        .await?;
    let elapsed = started.elapsed();
    if status != StatusCode::OK {
        let answer = String::from_utf8_lossy(&answer);
        let shown: String = answer.chars().take(300).collect();
        return Err(format!("DELETE {people} x {streams} answered {status}: {shown}").into());
    }
    let answer: Value = serde_json::from_slice(&answer)?;
    let removed = answer["removed"].as_array().map_or(0, Vec::len);
    let not_removed = answer["not_removed"].as_array().map_or(0, Vec::len);
    if removed != people * streams || not_removed != 0 {
        return Err(format!(
            "DELETE {people} x {streams} removed {removed} pairs ({not_removed} not removed), \
             expected {}",
            people * streams
        )
        .into());
    }
    Ok(elapsed.as_secs_f64())
}

#[derive(Debug, Clone, Copy)]
enum Change {
    /// What Weir does: the rows stay with `active = 0`.
    Update,
    Delete,
}

/// The same rows changed by one SQL statement in one transaction, on a fresh copy.
fn measure_raw(setup: &Setup, people: usize, streams: usize, change: Change) -> Result<f64> {
    let data = copy_template(setup)?;
    let conn = open_like_the_server(&data.path().join(DATABASE_FILE))?;
    let ids = (0..people)
        .map(|index| person_id(index).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let stream_ids = (0..streams)
        .map(|index| (index + 1).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let sql = match change {
        Change::Update => format!(
            "UPDATE subscriptions SET active = 0 \
             WHERE user_id IN ({ids}) AND stream_id IN ({stream_ids}) AND active = 1"
        ),
        Change::Delete => format!(
            "DELETE FROM subscriptions WHERE user_id IN ({ids}) AND stream_id IN ({stream_ids})"
        ),
    };
    let started = Instant::now();
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let changed = conn.execute(&sql, [])?;
    conn.execute_batch("COMMIT")?;
    let elapsed = started.elapsed();
    if changed != people * streams {
        return Err(format!(
            "raw SQLite changed {changed} rows for {people} x {streams}, expected {}",
            people * streams
        )
        .into());
    }
    Ok(elapsed.as_secs_f64())
}

/// The pragmas weir-server's writer uses, so that both commit the same way.
fn open_like_the_server(path: &Path) -> Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cohort_is_in_every_cohort_stream_and_lists_have_no_duplicates() {
        let seed = seed_json(1000, 100);
        let streams = seed["streams"].as_array().map_or(&[][..], Vec::as_slice);
        assert_eq!(streams.len(), 100);
        for stream in streams {
            let members: Vec<i64> = stream["subscribers"]
                .as_array()
                .map(|list| list.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            let mut unique = members.clone();
            unique.dedup();
            assert_eq!(unique, members);
            assert_eq!(members.len(), COHORT_PEOPLE);
        }
    }
}
