//! `weir-bench integrations`: what one webhook request costs in each integration, next
//! to Hello World measured in the same run.
//!
//! Each case is one request built once (the integration's own sample from
//! `Integration::fixtures`, or for the 20-commit GitHub push a body generated from the
//! sample push), then passed to `weir_integrations::process` over and over: the JSON
//! parse, the event type, the handler and the event filter, which is everything the
//! server does per request between authentication and storage. Each round times every
//! case for a fixed wall-clock window (the order reversed every other round); the
//! summary gives per case the median time per call over the rounds and its ratio to
//! Hello World's in the same round, both in wall-clock time and in the thread's own CPU
//! time (`/proc/thread-self/schedstat`, in nanoseconds): on a loaded shared machine the
//! wall clock also counts the time other processes had the core, which the CPU time
//! leaves out; the share of the window the thread was on a core is printed too.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use weir_integrations::{
    EventFilter, HeaderMap, HeaderName, HeaderValue, Integration, Method, Outcome, Request,
};

use crate::Result;
use crate::report::{grouped, median, start_round};

/// The number of commits in the GitHub push case (issue 36): Zulip lists at most 20.
pub const PUSH_COMMITS: usize = 20;
/// Calls between two looks at the clock, so that reading it costs next to nothing.
const BATCH: u64 = 16;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rounds; the summary quotes medians across them.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=50))]
    rounds: u64,
    /// Milliseconds of calls per case and round.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    millis: u64,
}

/// One request to time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Hello,
    GithubPush,
    GitlabMergeRequest,
    SentryIssue,
    BitbucketPush,
}

impl Case {
    const ALL: [Case; 5] = [
        Case::Hello,
        Case::GithubPush,
        Case::GitlabMergeRequest,
        Case::SentryIssue,
        Case::BitbucketPush,
    ];

    fn label(self) -> &'static str {
        match self {
            Case::Hello => "helloworld hello",
            Case::GithubPush => "github push, 20 commits",
            Case::GitlabMergeRequest => "gitlab merge request opened",
            Case::SentryIssue => "sentry issue created",
            Case::BitbucketPush => "bitbucket push",
        }
    }

    /// The integration and the sample the request is made of.
    fn source(self) -> (&'static str, &'static str) {
        match self {
            Case::Hello => ("helloworld", "hello"),
            Case::GithubPush => ("github", "push"),
            Case::GitlabMergeRequest => ("gitlab", "merge_request_opened"),
            Case::SentryIssue => ("sentry", "issue_created"),
            Case::BitbucketPush => ("bitbucket2", "push"),
        }
    }
}

/// A request built once, ready to be processed any number of times.
struct Prepared {
    case: Case,
    integration: &'static Integration,
    headers: HeaderMap,
    body: Vec<u8>,
    messages: usize,
}

impl Prepared {
    fn new(case: Case) -> Result<Self> {
        let (name, sample) = case.source();
        let integration =
            weir_integrations::find(name).ok_or_else(|| format!("no integration {name}"))?;
        let fixture = integration
            .fixtures
            .iter()
            .find(|fixture| fixture.name == sample)
            .ok_or_else(|| format!("{name} has no sample {sample}"))?;
        let mut headers = HeaderMap::new();
        for (header, value) in fixture.headers {
            headers.insert(
                HeaderName::from_bytes(header.as_bytes())?,
                HeaderValue::from_str(value)?,
            );
        }
        let body = match case {
            Case::GithubPush => github_push(fixture.body, PUSH_COMMITS)?.into_bytes(),
            _ => fixture.body.as_bytes().to_vec(),
        };
        let mut prepared = Self {
            case,
            integration,
            headers,
            body,
            messages: 0,
        };
        // A request the integration refuses or ignores would time the wrong path.
        prepared.messages = match prepared.process() {
            Ok(Outcome::Messages(messages)) => messages.len(),
            other => return Err(format!("{}: no message, {other:?}", case.label()).into()),
        };
        Ok(prepared)
    }

    fn process(&self) -> Result<Outcome, weir_integrations::Rejection> {
        let options = Default::default();
        let filter = EventFilter::default();
        weir_integrations::process(
            self.integration,
            &Request {
                method: &Method::POST,
                headers: &self.headers,
                body: &self.body,
                options: &options,
                filter: &filter,
                topic: None,
            },
        )
    }

    /// Calls `process` for at least `window`.
    fn time(&self, window: Duration) -> Timing {
        let cpu_before = thread_cpu_time();
        let start = Instant::now();
        let mut calls = 0;
        loop {
            for _ in 0..BATCH {
                let _ = black_box(self.process());
            }
            calls += BATCH;
            let wall = start.elapsed();
            if wall >= window {
                let cpu = thread_cpu_time()
                    .zip(cpu_before)
                    .map(|(after, before)| after.saturating_sub(before));
                return Timing { calls, wall, cpu };
            }
        }
    }
}

/// The calls made in one window, the wall-clock time they took and this thread's CPU
/// time meanwhile (`None` without `/proc`).
struct Timing {
    calls: u64,
    wall: Duration,
    cpu: Option<Duration>,
}

/// CPU time this thread has run, in nanoseconds: the first field of its `schedstat`.
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    parse_schedstat(&text)
}

pub fn parse_schedstat(text: &str) -> Option<Duration> {
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// GitHub's push sample with its commits replaced by `count` distinct ones made from its
/// first (the head commit and `after` naming the last): a push as large as Zulip lists
/// in full.
pub fn github_push(sample: &str, count: usize) -> Result<String> {
    let mut push: Value = serde_json::from_str(sample)?;
    let template = push
        .pointer("/commits/0")
        .cloned()
        .ok_or("the push sample has no commit")?;
    let url = template["url"].as_str().unwrap_or_default();
    let base = url
        .rsplit_once('/')
        .map_or(url, |(base, _)| base)
        .to_owned();
    let commits: Vec<Value> = (0..count)
        .map(|n| {
            let mut commit = template.clone();
            let id = format!("{:040x}", 0x9a4d_0000 + n);
            commit["id"] = json!(id);
            commit["url"] = json!(format!("{base}/{id}"));
            commit["message"] = json!(format!(
                "sensors: Step {n} of the calibration rework.\n\nDetails of step {n}."
            ));
            commit
        })
        .collect();
    if let Some(last) = commits.last() {
        push["after"] = last["id"].clone();
        push["head_commit"] = json!({
            "id": last["id"],
            "message": last["message"],
            "url": last["url"],
        });
    }
    push["commits"] = Value::Array(commits);
    Ok(serde_json::to_string_pretty(&push)?)
}

/// Microseconds per call.
pub fn micros_per_call(calls: u64, elapsed: Duration) -> f64 {
    if calls == 0 {
        return f64::NAN;
    }
    elapsed.as_secs_f64() * 1e6 / calls as f64
}

/// `value` as a multiple of `baseline`; `None` when either is not a positive figure.
pub fn ratio(value: f64, baseline: f64) -> Option<f64> {
    (value.is_finite() && baseline.is_finite() && value > 0.0 && baseline > 0.0)
        .then(|| value / baseline)
}

fn print_header() {
    println!(
        "  {:<28} {:>10} {:>8} {:>10} {:>8} {:>7}",
        "case", "wall us", "x hello", "CPU us", "x hello", "on CPU"
    );
}

/// One row: per call, wall-clock and CPU microseconds and their multiples of Hello
/// World's; then the share of the time on a CPU, if known.
fn print_row(
    label: &str,
    wall: f64,
    wall_ratio: Option<f64>,
    cpu: f64,
    cpu_ratio: Option<f64>,
    on_cpu: Option<f64>,
) {
    let fixed = |value: Option<f64>| {
        value
            .filter(|value| value.is_finite())
            .map_or("-".into(), |value| format!("{value:.2}"))
    };
    println!(
        "  {:<28} {:>10} {:>8} {:>10} {:>8} {:>7}",
        label,
        fixed(Some(wall)),
        fixed(wall_ratio),
        fixed(Some(cpu)),
        fixed(cpu_ratio),
        on_cpu.map_or(String::new(), |share| format!("{:.0}%", share * 100.0))
    );
}

/// The 1-minute load average, for the record.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "-".into())
}

/// One case's figures over the run, one entry per round.
#[derive(Default)]
struct Tally {
    wall: Vec<f64>,
    wall_ratios: Vec<f64>,
    cpu: Vec<f64>,
    cpu_ratios: Vec<f64>,
    wall_total: Duration,
    cpu_total: Duration,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let prepared = Case::ALL
        .into_iter()
        .map(Prepared::new)
        .collect::<Result<Vec<_>>>()?;
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    println!(
        "integration handlers: weir_integrations::process (JSON parse included), \
         {} rounds x {} ms per case, one thread, {cores} cores, load average {}",
        args.rounds,
        args.millis,
        load_average()
    );
    for case in &prepared {
        println!(
            "  {:<28} {:>7} bytes, {} message(s)",
            case.case.label(),
            grouped(case.body.len() as u64),
            case.messages
        );
    }
    let window = Duration::from_millis(args.millis);
    // Warm the caches and the allocator once, unmeasured.
    for case in &prepared {
        case.time(window / 4);
    }
    let mut tallies: Vec<Tally> = prepared.iter().map(|_| Tally::default()).collect();
    for round in 0..args.rounds {
        let order = start_round(round, args.rounds, (0..prepared.len()).collect(), |index| {
            Case::ALL.get(index).map_or("-", |case| case.label())
        });
        // Per case: wall-clock and CPU microseconds per call.
        let mut figures = vec![(f64::NAN, f64::NAN); prepared.len()];
        for index in order {
            let (Some(case), Some(tally)) = (prepared.get(index), tallies.get_mut(index)) else {
                continue;
            };
            let timing = case.time(window);
            tally.wall_total += timing.wall;
            tally.cpu_total += timing.cpu.unwrap_or_default();
            if let Some(slot) = figures.get_mut(index) {
                *slot = (
                    micros_per_call(timing.calls, timing.wall),
                    timing
                        .cpu
                        .map_or(f64::NAN, |cpu| micros_per_call(timing.calls, cpu)),
                );
            }
        }
        let (hello_wall, hello_cpu) = figures.first().copied().unwrap_or((f64::NAN, f64::NAN));
        print_header();
        for ((case, tally), &(wall, cpu)) in prepared.iter().zip(&mut tallies).zip(&figures) {
            let (wall_ratio, cpu_ratio) = (ratio(wall, hello_wall), ratio(cpu, hello_cpu));
            tally.wall.push(wall);
            tally.cpu.push(cpu);
            tally.wall_ratios.extend(wall_ratio);
            tally.cpu_ratios.extend(cpu_ratio);
            print_row(case.case.label(), wall, wall_ratio, cpu, cpu_ratio, None);
        }
    }
    println!();
    println!(
        "summary: medians over {} rounds (x hello: the median of each round's ratio; \
         on CPU: the thread's CPU time over the wall-clock time); load average now {}",
        args.rounds,
        load_average()
    );
    print_header();
    for (case, tally) in prepared.iter().zip(&tallies) {
        print_row(
            case.case.label(),
            median(&tally.wall),
            Some(median(&tally.wall_ratios)),
            median(&tally.cpu),
            Some(median(&tally.cpu_ratios)),
            ratio(
                tally.cpu_total.as_secs_f64(),
                tally.wall_total.as_secs_f64(),
            ),
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_push() -> &'static str {
        weir_integrations::find("github")
            .and_then(|github| github.fixtures.iter().find(|f| f.name == "push"))
            .map(|fixture| fixture.body)
            .unwrap()
    }

    #[test]
    fn the_generated_push_has_twenty_distinct_commits() {
        let push: Value = serde_json::from_str(&github_push(sample_push(), 20).unwrap()).unwrap();
        let commits = push["commits"].as_array().unwrap();
        assert_eq!(commits.len(), 20);
        let mut ids: Vec<&str> = commits.iter().map(|c| c["id"].as_str().unwrap()).collect();
        assert!(ids.iter().all(|id| id.len() == 40));
        assert_eq!(push["after"], commits[19]["id"]);
        assert_eq!(push["head_commit"]["id"], commits[19]["id"]);
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 20);
    }

    #[test]
    fn every_case_makes_messages_and_the_push_lists_twenty_commits() {
        for case in Case::ALL {
            let prepared = Prepared::new(case).unwrap();
            assert!(prepared.messages >= 1, "{}", case.label());
        }
        let push = Prepared::new(Case::GithubPush).unwrap();
        let Ok(Outcome::Messages(messages)) = push.process() else {
            panic!("no message");
        };
        assert_eq!(
            messages[0].content.matches("\n* sensors: Step ").count(),
            20,
            "{}",
            messages[0].content
        );
    }

    #[test]
    fn ratios_and_times_per_call() {
        assert_eq!(ratio(3.0, 1.5), Some(2.0));
        assert_eq!(ratio(1.0, 0.0), None);
        assert_eq!(ratio(f64::NAN, 1.0), None);
        assert_eq!(ratio(1.0, f64::INFINITY), None);
        assert_eq!(micros_per_call(4, Duration::from_millis(2)), 500.0);
        assert!(micros_per_call(0, Duration::from_millis(2)).is_nan());
    }

    #[test]
    fn schedstat_gives_the_run_time_in_nanoseconds() {
        assert_eq!(
            parse_schedstat("71981471 67897 12\n"),
            Some(Duration::from_nanos(71_981_471))
        );
        assert_eq!(parse_schedstat(""), None);
        assert_eq!(parse_schedstat("x 1 2"), None);
        let before = thread_cpu_time().unwrap();
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(20) {
            black_box(start.elapsed());
        }
        assert!(thread_cpu_time().unwrap() > before);
    }

    #[test]
    fn a_sample_without_commits_is_an_error() {
        assert!(github_push(r#"{"commits": []}"#, 20).is_err());
        assert!(github_push("not json", 20).is_err());
    }
}
