//! `weir-bench grid`: the memberships grid on a large organization.
//!
//! Generates an organization (by default 10,000 people × 1,000 streams, about 50 streams
//! per person, 5% of streams private), serves it with a release `weir-server` started with
//! `--rate-limit`, and measures:
//!
//! - the data path, with Weir's own client and `weir_core::memberships`: loading the grid
//!   (`register` + `users/me` + building the matrix), planning, and applying 10,000 cell
//!   changes twice: as one block (100 people leaving the same 100 streams, one request,
//!   after a preparation that subscribes them all) and scattered (random cells flipped
//!   over 40 streams), with the requests sent, the time and whether any cell failed;
//! - the window (`grid_window`, unless `--no-window`): the release app in its WebKit
//!   window, as a second owner of the organization (its own rate-limit budget): time from
//!   opening the Memberships page to a usable grid, frame times while scrolling and
//!   toggling, and memory next to the same app on the demo.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};
use weir_core::memberships::{
    ApplyOptions, Cancel, Change, Group, Limits, Matrix, Progress, SyncKeep, TriState, apply,
    load_matrix, plan,
};
use weir_core::{ClientConfig, Credentials, TlsOptions, ZulipClient};

use crate::grid_window::{self, Account, WindowArgs};
use crate::process::ServerProcess;
use crate::{Result, runtime};

const OWNER_EMAIL: &str = "owner@grid.test";
const OWNER_KEY: &str = "GridBenchOwnerKey000000000000001";
/// The second owner, whom the window part imports: `person2@grid.test`.
const WINDOW_USER: u32 = 2;

#[derive(Debug, Parser)]
pub struct Args {
    /// People in the organization.
    #[arg(long, default_value_t = 10_000)]
    people: u32,
    /// Streams in the organization.
    #[arg(long, default_value_t = 1_000)]
    streams: u32,
    /// Streams per person (on average).
    #[arg(long, default_value_t = 50)]
    per_person: u32,
    /// User groups (random teams of 5 to 100 people; every tenth has a subgroup).
    #[arg(long, default_value_t = 300)]
    groups: u32,
    /// The server's rate limit (requests per 60 s per user).
    #[arg(long, default_value_t = 200)]
    rate_limit: u32,
    /// How many times the grid is loaded (the median is reported).
    #[arg(long, default_value_t = 3)]
    rounds: u32,
    /// Skip the data path's applies and group figures (the window and the step-by-step
    /// breakdown only): at 100,000 people they take minutes.
    #[arg(long)]
    window_only: bool,
    /// weir-server binary.
    #[arg(long, default_value = "target/release/weir-server")]
    server_bin: PathBuf,
    #[command(flatten)]
    window: WindowArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    runtime()?.block_on(bench(args))
}

/// A small deterministic generator (xorshift), so that every run has the same organization.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u32) -> u32 {
        u32::try_from(self.next() % u64::from(n.max(1))).unwrap_or(0)
    }
}

fn seed(args: &Args) -> Value {
    let mut rng = Rng(0x5eed_cafe_f00d_beef);
    let mut subscribers: Vec<Vec<u32>> = vec![Vec::new(); args.streams as usize];
    // Stream 1 is the big channel a sync is measured on: half of everyone.
    if let Some(big) = subscribers.first_mut() {
        big.extend((1..=args.people).filter(|id| id % 2 == 0));
    }
    for person in 1..=args.people {
        for _ in 0..args.per_person {
            let stream = rng.below(args.streams) as usize;
            if let Some(list) = subscribers.get_mut(stream) {
                list.push(person);
            }
        }
    }
    let users: Vec<Value> = (1..=args.people)
        .map(|id| {
            let (email, role, key) = if id == 1 {
                (OWNER_EMAIL.to_string(), "owner", OWNER_KEY.to_string())
            } else {
                let role = if id == WINDOW_USER { "owner" } else { "member" };
                (format!("person{id}@grid.test"), role, person_key(id))
            };
            json!({"user_id": id, "email": email, "full_name": format!("Person {id}"),
                   "role": role, "api_key": key})
        })
        .collect();
    let streams: Vec<Value> = subscribers
        .into_iter()
        .enumerate()
        .map(|(i, mut list)| {
            list.sort_unstable();
            list.dedup();
            json!({"stream_id": i + 1, "name": format!("stream-{:04}", i + 1),
                   "invite_only": i % 20 == 0, "subscribers": list})
        })
        .collect();
    // Group 1 is the team the big channel is synced with: every third person.
    let groups: Vec<Value> = (1..=args.groups)
        .map(|g| {
            let members: Vec<u32> = if g == 1 {
                (1..=args.people).filter(|id| id % 3 == 0).collect()
            } else {
                let size = 5 + rng.below(96);
                let mut members: Vec<u32> = (0..size).map(|_| 1 + rng.below(args.people)).collect();
                members.sort_unstable();
                members.dedup();
                members
            };
            let subgroups: Vec<String> = if g % 10 == 0 && g > 1 {
                vec![format!("team-{:03}", g - 1)]
            } else {
                Vec::new()
            };
            json!({"name": format!("team-{g:03}"), "members": members, "subgroups": subgroups})
        })
        .collect();
    json!({"realm": {"name": "Grid bench", "url": "http://grid.localhost"},
           "users": users, "streams": streams, "groups": groups})
}

fn person_key(id: u32) -> String {
    format!("{id:0>32}")
}

async fn bench(args: Args) -> Result<ExitCode> {
    let scratch = tempfile::Builder::new()
        .prefix("weir-bench-grid-")
        .tempdir()?;
    let seed_path = scratch.path().join("seed.json");
    std::fs::write(&seed_path, serde_json::to_vec(&seed(&args))?)?;
    let server_args: Vec<OsString> = vec![
        "--listen".into(),
        "127.0.0.1:0".into(),
        "--data-dir".into(),
        scratch.path().join("data").into(),
        "--seed".into(),
        seed_path.into(),
        "--rate-limit".into(),
        args.rate_limit.to_string().into(),
    ];
    let log = scratch.path().join("server.log");
    let started = Instant::now();
    let server = ServerProcess::start("weir-server", &args.server_bin, &server_args, &log).await?;
    println!(
        "grid: {} people × {} streams (~{} per person), server ready in {:.1} s, --rate-limit {}",
        args.people,
        args.streams,
        args.per_person,
        started.elapsed().as_secs_f64(),
        args.rate_limit
    );
    let site = format!("http://{}", server.address);
    let outcome = if args.window_only {
        Ok(ExitCode::SUCCESS)
    } else {
        measure(&args, &site).await
    };
    let outcome = match outcome {
        Ok(code) => {
            let me = i64::from(WINDOW_USER);
            let key = person_key(WINDOW_USER);
            let email = format!("person{WINDOW_USER}@grid.test");
            crate::grid_breakdown::print(server.address, &email, &key, me, args.rounds)
                .await
                .map(|()| code)
        }
        other => other,
    };
    let outcome = match outcome {
        Ok(code) if !args.window.no_window => {
            println!();
            let email = format!("person{WINDOW_USER}@grid.test");
            let account = Account {
                site: &site,
                email: &email,
                key: &person_key(WINDOW_USER),
            };
            grid_window::measure(&args.window, &account, args.people as usize)
                .await
                .map(|()| code)
        }
        other => other,
    };
    server.kill().await?;
    outcome
}

async fn measure(args: &Args, site: &str) -> Result<ExitCode> {
    let client = ZulipClient::new(
        Credentials {
            site: site.to_string(),
            email: OWNER_EMAIL.to_string(),
            key: OWNER_KEY.into(),
        },
        &TlsOptions::default(),
        &ClientConfig {
            timeout: Duration::from_secs(300),
            ..ClientConfig::default()
        },
    )?;
    let mut loads = Vec::new();
    let mut matrix: Option<Matrix> = None;
    for _ in 0..args.rounds.max(1) {
        let started = Instant::now();
        matrix = Some(load_matrix(&client).await?);
        loads.push(started.elapsed());
    }
    loads.sort();
    let matrix = matrix.ok_or("no grid loaded")?;
    println!(
        "load grid (register + users/me + user_groups + matrix, {} subscriptions, {} groups): \
         median {:.0} ms over {} rounds",
        matrix.subscription_count(),
        matrix.groups().list().len(),
        millis(loads[loads.len() / 2]),
        loads.len()
    );
    groups(&matrix, loads[loads.len() / 2]);

    // The block: first make the 100 × 100 people all subscribed (preparation), then
    // remove them all: streams sharing the same people, so one request.
    let mut failed = 0;
    let prepare: Vec<Change> = block(&matrix)
        .into_iter()
        .map(|c| Change {
            subscribe: true,
            ..c
        })
        .collect();
    failed += run_one(
        &client,
        &matrix,
        "prepare: the 100 × 100 block subscribed",
        &prepare,
    )
    .await;
    let matrix = load_matrix(&client).await?;
    let remove: Vec<Change> = block(&matrix)
        .into_iter()
        .map(|c| Change {
            subscribe: false,
            ..c
        })
        .collect();
    failed += run_one(
        &client,
        &matrix,
        "block: 100 people leave the same 100 streams",
        &remove,
    )
    .await;
    let matrix = load_matrix(&client).await?;
    failed += run_one(
        &client,
        &matrix,
        "scattered: 10,000 random cells flipped on 40 streams",
        &scattered(&matrix),
    )
    .await;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The most group rows and channels the page shows at once (`GroupRows.svelte`'s
/// `MAX_ROWS` and `MAX_COLUMNS`): the tri-states "every group as a row" computes.
const SHOWN_GROUP_ROWS: usize = 100;
const SHOWN_GROUP_COLUMNS: usize = 200;

/// Mixed cells among `groups` × `channels`, and how long their tri-states took.
fn tri_states(matrix: &Matrix, groups: &[&Group], channels: &[i64]) -> (usize, Duration) {
    let started = Instant::now();
    let mut mixed = 0usize;
    for group in groups {
        for &stream_id in channels {
            if matrix.group_state(group.group_id, stream_id) == Ok(TriState::Some) {
                mixed += 1;
            }
        }
    }
    (mixed, started.elapsed())
}

/// Grid by group on top of the load: the tri-states of what the page shows with every
/// group as a row (judged against the goal), and of every group on every channel (an
/// upper bound the page never computes at once); then the sync plan of the big channel
/// (stream 1) with team-001. Pure computation: no request.
fn groups(matrix: &Matrix, load: Duration) {
    let mut shown: Vec<&Group> = matrix
        .groups()
        .list()
        .iter()
        .filter(|g| !g.is_system_group)
        .collect();
    shown.sort_by(|a, b| a.name.cmp(&b.name));
    shown.truncate(SHOWN_GROUP_ROWS);
    let columns: Vec<i64> = matrix.channels().iter().map(|c| c.stream_id).collect();
    let (_, states) = tri_states(
        matrix,
        &shown,
        &columns[..columns.len().min(SHOWN_GROUP_COLUMNS)],
    );
    println!(
        "grid by group: every group as a row, as the page shows it ({} rows × {} channels) in \
         {:.0} ms; with the load {:.0} ms (goal < 2000 ms)",
        shown.len(),
        columns.len().min(SHOWN_GROUP_COLUMNS),
        millis(states),
        millis(load + states)
    );
    let all: Vec<&Group> = matrix.groups().list().iter().collect();
    let (mixed, states) = tri_states(matrix, &all, &columns);
    println!(
        "grid by group, upper bound: {} groups × {} channels of tri-states in {:.0} ms ({} mixed)",
        all.len(),
        columns.len(),
        millis(states),
        mixed,
    );
    let Some(team) = matrix.groups().list().iter().find(|g| g.name == "team-001") else {
        println!("sync plan: no team-001 in the grid");
        return;
    };
    let Some((_, big)) = matrix.channel(1) else {
        println!("sync plan: no stream 1 in the grid");
        return;
    };
    let started = Instant::now();
    let changes = matrix
        .sync_changes(big.stream_id, team.group_id, SyncKeep::default())
        .unwrap_or_default();
    let planned = plan(matrix, &changes, &Limits::default());
    println!(
        "sync plan: #{} ({} subscribers) with {} ({} members): {} changes in {} requests, \
         planned in {:.1} ms (goal < 100 ms)",
        big.name,
        big.subscribers.len(),
        team.name,
        team.members.len(),
        changes.len(),
        planned.requests.len(),
        millis(started.elapsed())
    );
}

/// Plans and applies `changes`, prints the figures; returns the failed cells.
async fn run_one(client: &ZulipClient, matrix: &Matrix, label: &str, changes: &[Change]) -> usize {
    let started = Instant::now();
    let planned = plan(matrix, changes, &Limits::default());
    let planning = started.elapsed();
    let mut waits = 0u32;
    let started = Instant::now();
    let report = apply(
        client,
        &planned,
        &ApplyOptions::default(),
        &Cancel::new(),
        |progress| {
            if let Progress::Waiting { .. } = progress {
                waits += 1;
            }
        },
    )
    .await;
    println!(
        "{label}: {} cells ({} to change) → {} requests planned in {:.1} ms; applied in {:.2} s, \
         {} sent, {} waits after a 429, {} failed cells",
        changes.len(),
        planned.cell_count(),
        planned.requests.len(),
        millis(planning),
        started.elapsed().as_secs_f64(),
        report.requests_sent,
        waits,
        report.failed_count()
    );
    report.failed_count()
}

/// 100 people × 100 public streams, each cell flipped.
fn block(matrix: &Matrix) -> Vec<Change> {
    let people: Vec<i64> = matrix
        .people()
        .iter()
        .skip(1)
        .take(100)
        .map(|p| p.user_id)
        .collect();
    let streams: Vec<i64> = matrix
        .channels()
        .iter()
        .filter(|c| !c.invite_only)
        .take(100)
        .map(|c| c.stream_id)
        .collect();
    people
        .iter()
        .flat_map(|user| {
            streams.iter().map(move |stream| Change {
                user_id: *user,
                stream_id: *stream,
                subscribe: !matrix.is_subscribed(*user, *stream).unwrap_or(false),
            })
        })
        .collect()
}

/// 10,000 distinct random cells over 40 public streams, each flipped.
fn scattered(matrix: &Matrix) -> Vec<Change> {
    let mut rng = Rng(0xdead_beef_1234_5678);
    let streams: Vec<i64> = matrix
        .channels()
        .iter()
        .filter(|c| !c.invite_only)
        .skip(200)
        .take(40)
        .map(|c| c.stream_id)
        .collect();
    let people = matrix.people();
    let count = u32::try_from(people.len()).unwrap_or(u32::MAX);
    let mut seen = std::collections::HashSet::new();
    let mut changes = Vec::new();
    while changes.len() < 10_000 && !streams.is_empty() && count > 1 {
        let person = &people[1 + rng.below(count - 1) as usize];
        let stream = streams[rng.below(40) as usize % streams.len()];
        if seen.insert((person.user_id, stream)) {
            changes.push(Change {
                user_id: person.user_id,
                stream_id: stream,
                subscribe: !matrix
                    .is_subscribed(person.user_id, stream)
                    .unwrap_or(false),
            });
        }
    }
    changes
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1_000.0
}
