//! Mixed load with a serial replay: many clients at once unsubscribe, subscribe, read
//! and post webhooks for a bounded time; every answer is checked against a replay of
//! the acknowledged operations, and so is the final state.
//!
//! The replay is exact because each client owns the (user, stream) pairs it changes:
//! a member changes only its own memberships, a manager (an administrator) only those
//! of its own group of people; all of them share the same streams, rows and writer. So
//! replaying each client's acknowledged operations in its own order gives the state
//! every later answer, every read and the final memberships must show. An operation
//! without an answer (the server was killed, a timeout) leaves its pairs uncertain, and
//! a webhook post without an answer may or may not have been stored.
//!
//! Used by `tests/process/load.rs`, `tests/process/faults.rs` (SIGKILL under this load)
//! and by `weir-bench load`, which prints the same per-endpoint latencies.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Seeded ids and keys of the load organization.
pub const OWNER_ID: u64 = 1;
pub const OWNER_EMAIL: &str = "owner@load.test";
pub const OWNER_KEY: &str = "LoadOwnerKey00000000000000000001";
pub const BOT_ID: u64 = 2;
pub const BOT_KEY: &str = "LoadIngestBotKey0000000000000001";
/// Streams the clients change memberships of (ids 1..=LOAD_STREAMS).
pub const LOAD_STREAMS: u64 = 12;
/// The stream webhooks post to.
pub const INGEST_STREAM_ID: u64 = 100;
pub const INGEST_STREAM: &str = "ingest";
/// Every `MANAGER_EVERY`-th client is a manager with a group of `GROUP` people.
const MANAGER_EVERY: usize = 8;
const GROUP: u64 = 8;
/// A request slower than this counts as unanswered.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Title prefix of this load's webhook posts: `load-<client>-<seq>`.
pub const TITLE_PREFIX: &str = "load-";

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub clients: usize,
    pub duration: Duration,
    /// Varies the operations; the same seed gives the same sequence per client.
    pub seed: u64,
    /// Stop a client at its first transport error (the server is gone) instead of
    /// counting it and going on.
    pub stop_on_transport_error: bool,
}

impl Default for LoadConfig {
    fn default() -> Self {
        Self {
            clients: 64,
            duration: Duration::from_secs(8),
            seed: 0x5eed,
            stop_on_transport_error: false,
        }
    }
}

pub fn stream_name(stream: u64) -> String {
    format!("load-{stream:02}")
}

fn client_id(client: usize) -> u64 {
    1000 + client as u64
}

fn client_key(client: usize) -> String {
    format!("LoadClient{client:022}")
}

fn client_email(client: usize) -> String {
    format!("client{client}@load.test")
}

fn is_manager(client: usize) -> bool {
    client % MANAGER_EVERY == MANAGER_EVERY - 1
}

/// The people a manager client changes (empty for a member client).
fn group_of(client: usize) -> Vec<u64> {
    if is_manager(client) {
        (0..GROUP)
            .map(|k| 5000 + client as u64 * GROUP + k)
            .collect()
    } else {
        Vec::new()
    }
}

/// Whether `user` starts subscribed to load stream `stream`.
fn initially_subscribed(user: u64, stream: u64) -> bool {
    (user + stream).is_multiple_of(3)
}

/// The pairs a client owns: its own (member) or its group's (manager).
fn owned_users(client: usize) -> Vec<u64> {
    if is_manager(client) {
        group_of(client)
    } else {
        vec![client_id(client)]
    }
}

/// The organization for `clients` clients, as a seed file.
pub fn seed(clients: usize) -> Value {
    let mut users = vec![
        json!({"user_id": OWNER_ID, "email": OWNER_EMAIL, "full_name": "Load Owner",
               "role": "owner", "api_key": OWNER_KEY}),
        json!({"user_id": BOT_ID, "email": "ingest-bot@load.test", "full_name": "Ingest Bot",
               "role": "member", "bot_type": 2, "bot_owner_id": OWNER_ID, "api_key": BOT_KEY}),
    ];
    let mut everyone = Vec::new();
    for client in 0..clients {
        let role = if is_manager(client) {
            "administrator"
        } else {
            "member"
        };
        users.push(
            json!({"user_id": client_id(client), "email": client_email(client),
            "full_name": format!("Client {client}"), "role": role,
            "api_key": client_key(client)}),
        );
        everyone.push(client_id(client));
        for person in group_of(client) {
            users.push(
                json!({"user_id": person, "email": format!("person{person}@load.test"),
                "full_name": format!("Person {person}"), "role": "member"}),
            );
            everyone.push(person);
        }
    }
    let mut streams: Vec<Value> = (1..=LOAD_STREAMS)
        .map(|stream| {
            let subscribers: Vec<u64> = everyone
                .iter()
                .copied()
                .filter(|&user| initially_subscribed(user, stream))
                .collect();
            json!({"stream_id": stream, "name": stream_name(stream),
                   "subscribers": subscribers})
        })
        .collect();
    streams.push(json!({"stream_id": INGEST_STREAM_ID, "name": INGEST_STREAM,
                        "subscribers": [OWNER_ID]}));
    json!({"realm": {"name": "Load", "url": "http://load.localhost", "bot_domain": "load.test"},
           "users": users, "streams": streams})
}

/// A small deterministic generator (splitmix64): no dependency, same run for one seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// 1..=max distinct items of `items`, in a random order.
    fn subset(&mut self, items: &[u64], max: usize) -> Vec<u64> {
        let mut pool = items.to_vec();
        let take = 1 + self.below(max.min(pool.len()) as u64) as usize;
        let mut out = Vec::with_capacity(take);
        for _ in 0..take {
            let index = self.below(pool.len() as u64) as usize;
            out.push(pool.swap_remove(index));
        }
        out
    }
}

/// Endpoint labels, in the order reports list them.
pub const ENDPOINTS: [&str; 6] = [
    "DELETE /users/me/subscriptions",
    "POST /users/me/subscriptions",
    "GET /users/me/subscriptions",
    "GET /streams/{id}/members",
    "GET /messages",
    "POST /external/helloworld",
];

/// Everything one load run saw.
#[derive(Debug, Default)]
pub struct LoadReport {
    /// Latencies of answered requests per endpoint label (any status).
    pub latencies: BTreeMap<&'static str, Vec<Duration>>,
    pub answered: u64,
    pub server_errors: u64,
    /// Answers other than the expected success, and answers that contradict the replay.
    pub problems: Vec<String>,
    /// Requests that got no answer (transport error or timeout).
    pub unanswered: u64,
    /// The replayed memberships: `Some(subscribed)`, or `None` when uncertain.
    pub expected: BTreeMap<(u64, u64), Option<bool>>,
    /// Webhook titles answered 200, and those sent without an answer.
    pub acknowledged_titles: BTreeSet<String>,
    pub uncertain_titles: BTreeSet<String>,
    /// Successful membership changes and webhook posts (acknowledged writes).
    pub acknowledged_writes: u64,
}

impl LoadReport {
    fn merge(&mut self, other: LoadReport) {
        for (label, mut list) in other.latencies {
            self.latencies.entry(label).or_default().append(&mut list);
        }
        self.answered += other.answered;
        self.server_errors += other.server_errors;
        self.problems.extend(other.problems);
        self.unanswered += other.unanswered;
        self.expected.extend(other.expected);
        self.acknowledged_titles.extend(other.acknowledged_titles);
        self.uncertain_titles.extend(other.uncertain_titles);
        self.acknowledged_writes += other.acknowledged_writes;
    }

    /// Nearest-rank percentile (`q` in 0..=1) of one endpoint's latencies.
    pub fn percentile(&self, label: &str, q: f64) -> Option<Duration> {
        let list = self.latencies.get(label)?;
        let mut sorted = list.clone();
        sorted.sort_unstable();
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted.get(rank - 1).copied()
    }

    /// One line per endpoint: count, p50 and p99 in milliseconds.
    pub fn latency_table(&self) -> String {
        let mut out = format!(
            "  {:<32} {:>8} {:>9} {:>9}\n",
            "endpoint", "requests", "p50 ms", "p99 ms"
        );
        for label in ENDPOINTS {
            let count = self.latencies.get(label).map_or(0, Vec::len);
            let ms = |q| {
                self.percentile(label, q)
                    .map_or("-".to_owned(), |d| format!("{:.2}", d.as_secs_f64() * 1e3))
            };
            out.push_str(&format!(
                "  {label:<32} {count:>8} {:>9} {:>9}\n",
                ms(0.5),
                ms(0.99)
            ));
        }
        out
    }
}

/// One client: a reqwest client with its credentials and its replay.
struct Client {
    index: usize,
    http: reqwest::Client,
    base: String,
    email: String,
    key: String,
    rng: Rng,
    /// This client's pairs: `Some(subscribed)`, `None` after an unanswered change.
    state: BTreeMap<(u64, u64), Option<bool>>,
    report: LoadReport,
}

enum Answer {
    Status(StatusCode, Value),
    Unanswered(String),
}

impl Client {
    fn new(index: usize, base: &str, seed: u64) -> Result<Self, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .pool_max_idle_per_host(1)
            .build()?;
        let mut state = BTreeMap::new();
        for user in owned_users(index) {
            for stream in 1..=LOAD_STREAMS {
                state.insert((user, stream), Some(initially_subscribed(user, stream)));
            }
        }
        Ok(Self {
            index,
            http,
            base: base.trim_end_matches('/').to_owned(),
            email: client_email(index),
            key: client_key(index),
            rng: Rng(seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)),
            state,
            report: LoadReport::default(),
        })
    }

    async fn send(
        &mut self,
        label: &'static str,
        method: Method,
        path: &str,
        params: &[(&str, String)],
        authenticated: bool,
    ) -> Answer {
        let url = format!("{}/api/v1{path}", self.base);
        let mut request = self.http.request(method.clone(), url);
        request = if method == Method::GET {
            request.query(params)
        } else {
            request.form(params)
        };
        if authenticated {
            request = request.basic_auth(&self.email, Some(&self.key));
        }
        let started = Instant::now();
        let outcome = async {
            let response = request.send().await?;
            let status = response.status();
            let text = response.text().await?;
            Ok::<_, reqwest::Error>((status, text))
        }
        .await;
        match outcome {
            Ok((status, text)) => {
                self.report
                    .latencies
                    .entry(label)
                    .or_default()
                    .push(started.elapsed());
                self.report.answered += 1;
                if status.is_server_error() {
                    self.report.server_errors += 1;
                }
                let json = serde_json::from_str(&text).unwrap_or(Value::Null);
                if status != StatusCode::OK {
                    let shown: String = text.chars().take(300).collect();
                    self.problem(format!("{label} answered {status}: {shown}"));
                }
                Answer::Status(status, json)
            }
            Err(error) => {
                self.report.unanswered += 1;
                Answer::Unanswered(format!("{label}: {error}"))
            }
        }
    }

    fn problem(&mut self, text: String) {
        if self.report.problems.len() < 20 {
            self.report
                .problems
                .push(format!("client {}: {text}", self.index));
        }
    }

    /// Runs operations until `deadline` or `stop`; false when the client must stop.
    async fn step(&mut self, config: &LoadConfig, sequence: u64) -> bool {
        let roll = self.rng.below(100);
        let answer_missing = match roll {
            0..=29 => self.change(false).await,
            30..=59 => self.change(true).await,
            60..=84 => self.read().await,
            _ => self.webhook(sequence).await,
        };
        match answer_missing {
            Some(error) if config.stop_on_transport_error => {
                let _ = error;
                false
            }
            Some(error) => {
                self.problem(format!("no answer: {error}"));
                true
            }
            None => true,
        }
    }

    /// Subscribes or unsubscribes owned pairs; returns the error when unanswered.
    async fn change(&mut self, subscribe: bool) -> Option<String> {
        let all_streams: Vec<u64> = (1..=LOAD_STREAMS).collect();
        let streams = self.rng.subset(&all_streams, 4);
        let users = if is_manager(self.index) {
            self.rng.subset(&group_of(self.index), GROUP as usize)
        } else {
            vec![client_id(self.index)]
        };
        let mut params = Vec::new();
        let names: Vec<String> = streams.iter().map(|&s| stream_name(s)).collect();
        let (label, method) = if subscribe {
            let list: Vec<Value> = names.iter().map(|name| json!({"name": name})).collect();
            params.push(("subscriptions", Value::Array(list).to_string()));
            (ENDPOINTS[1], Method::POST)
        } else {
            params.push(("subscriptions", json!(names).to_string()));
            (ENDPOINTS[0], Method::DELETE)
        };
        if is_manager(self.index) {
            params.push(("principals", json!(users).to_string()));
        }
        let answer = self
            .send(label, method, "/users/me/subscriptions", &params, true)
            .await;
        let body = match answer {
            Answer::Unanswered(error) => {
                for &user in &users {
                    for &stream in &streams {
                        self.state.insert((user, stream), None);
                    }
                }
                return Some(error);
            }
            Answer::Status(StatusCode::OK, body) => body,
            // Reported as a problem; the change may or may not have happened.
            Answer::Status(_, _) => {
                for &user in &users {
                    for &stream in &streams {
                        self.state.insert((user, stream), None);
                    }
                }
                return None;
            }
        };
        self.report.acknowledged_writes += 1;
        let verdict = if subscribe {
            self.check_subscribed(&body, &users, &streams)
        } else {
            self.check_removed(&body, &users, &streams)
        };
        if let Err(text) = verdict {
            self.problem(text);
        }
        for &user in &users {
            for &stream in &streams {
                self.state.insert((user, stream), Some(subscribe));
            }
        }
        None
    }

    /// `removed`/`not_removed` list one name per (user, stream) pair: per stream, as
    /// many removals as owned pairs the replay has subscribed.
    fn check_removed(&self, body: &Value, users: &[u64], streams: &[u64]) -> Result<(), String> {
        let count = |field: &str, name: &str| {
            body[field]
                .as_array()
                .map_or(0, |list| list.iter().filter(|item| *item == name).count())
        };
        for &stream in streams {
            let name = stream_name(stream);
            let mut expected_removed = 0;
            for &user in users {
                match self.state.get(&(user, stream)).copied().flatten() {
                    Some(true) => expected_removed += 1,
                    Some(false) => {}
                    None => return Ok(()), // uncertain: any answer is possible
                }
            }
            let (removed, kept) = (count("removed", &name), count("not_removed", &name));
            if removed != expected_removed || removed + kept != users.len() {
                return Err(format!(
                    "unsubscribe from {name}: removed {removed}, not removed {kept}; the \
                     replay expects {expected_removed} of {} removed: {body}",
                    users.len()
                ));
            }
        }
        Ok(())
    }

    /// `subscribed`/`already_subscribed` map user ids to names.
    fn check_subscribed(&self, body: &Value, users: &[u64], streams: &[u64]) -> Result<(), String> {
        let listed = |field: &str, user: u64, name: &str| {
            body[field][user.to_string()]
                .as_array()
                .is_some_and(|list| list.iter().any(|item| item == name))
        };
        for &user in users {
            for &stream in streams {
                let name = stream_name(stream);
                let fresh = listed("subscribed", user, &name);
                let already = listed("already_subscribed", user, &name);
                let ok = match self.state.get(&(user, stream)).copied().flatten() {
                    Some(true) => already && !fresh,
                    Some(false) => fresh && !already,
                    None => fresh != already,
                };
                if !ok {
                    return Err(format!(
                        "subscribe {user} to {name}: subscribed {fresh}, already {already}, \
                         the replay disagrees: {body}"
                    ));
                }
            }
        }
        Ok(())
    }

    async fn read(&mut self) -> Option<String> {
        match self.rng.below(3) {
            0 => self.read_own_subscriptions().await,
            1 => self.read_members().await,
            _ => {
                let narrow = json!([{"operator": "channel", "operand": INGEST_STREAM}]);
                let params = [
                    ("anchor", "newest".to_owned()),
                    ("num_before", "20".to_owned()),
                    ("num_after", "0".to_owned()),
                    ("narrow", narrow.to_string()),
                ];
                match self
                    .send(ENDPOINTS[4], Method::GET, "/messages", &params, true)
                    .await
                {
                    Answer::Unanswered(error) => Some(error),
                    Answer::Status(..) => None,
                }
            }
        }
    }

    /// A manager reads its own subscriptions too (it changes only its group's).
    async fn read_own_subscriptions(&mut self) -> Option<String> {
        let answer = self
            .send(
                ENDPOINTS[2],
                Method::GET,
                "/users/me/subscriptions",
                &[],
                true,
            )
            .await;
        let body = match answer {
            Answer::Unanswered(error) => return Some(error),
            Answer::Status(StatusCode::OK, body) => body,
            Answer::Status(..) => return None,
        };
        let me = client_id(self.index);
        let seen: BTreeSet<String> = body["subscriptions"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|sub| sub["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        for stream in 1..=LOAD_STREAMS {
            let expected = if is_manager(self.index) {
                Some(initially_subscribed(me, stream))
            } else {
                self.state.get(&(me, stream)).copied().flatten()
            };
            let name = stream_name(stream);
            if let Some(expected) = expected
                && seen.contains(&name) != expected
            {
                self.problem(format!(
                    "GET /users/me/subscriptions shows {me} in {name}: {}, the replay: {expected}",
                    !expected
                ));
                break;
            }
        }
        None
    }

    /// Members of one stream: the owned pairs there must be as replayed.
    async fn read_members(&mut self) -> Option<String> {
        let stream = 1 + self.rng.below(LOAD_STREAMS);
        let path = format!("/streams/{stream}/members");
        let answer = self.send(ENDPOINTS[3], Method::GET, &path, &[], true).await;
        let body = match answer {
            Answer::Unanswered(error) => return Some(error),
            Answer::Status(StatusCode::OK, body) => body,
            Answer::Status(..) => return None,
        };
        let members: BTreeSet<u64> = body["subscribers"]
            .as_array()
            .map(|list| list.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        for user in owned_users(self.index) {
            if let Some(expected) = self.state.get(&(user, stream)).copied().flatten()
                && members.contains(&user) != expected
            {
                self.problem(format!(
                    "GET {path} shows {user}: {}, the replay: {expected}",
                    !expected
                ));
                break;
            }
        }
        None
    }

    async fn webhook(&mut self, sequence: u64) -> Option<String> {
        let title = format!("{TITLE_PREFIX}{}-{sequence}", self.index);
        let body = json!({"featured_title": title, "featured_url": "https://example.com/weir"});
        let url = format!(
            "{}/api/v1/external/helloworld?api_key={BOT_KEY}&stream={INGEST_STREAM}",
            self.base
        );
        let started = Instant::now();
        let sent = async {
            let response = self.http.post(url).json(&body).send().await?;
            let status = response.status();
            let text = response.text().await?;
            Ok::<_, reqwest::Error>((status, text))
        }
        .await;
        match sent {
            Ok((status, text)) => {
                self.report
                    .latencies
                    .entry(ENDPOINTS[5])
                    .or_default()
                    .push(started.elapsed());
                self.report.answered += 1;
                if status.is_server_error() {
                    self.report.server_errors += 1;
                }
                if status == StatusCode::OK {
                    self.report.acknowledged_writes += 1;
                    self.report.acknowledged_titles.insert(title);
                } else {
                    self.report.uncertain_titles.insert(title);
                    let shown: String = text.chars().take(300).collect();
                    self.problem(format!("webhook answered {status}: {shown}"));
                }
                None
            }
            Err(error) => {
                self.report.unanswered += 1;
                self.report.uncertain_titles.insert(title);
                Some(format!("webhook: {error}"))
            }
        }
    }
}

/// Runs the load against `base_url` (`http://HOST:PORT`) until `config.duration` has
/// passed or `stop` is set; every client finishes its request in flight.
pub async fn run(base_url: &str, config: &LoadConfig, stop: Arc<AtomicBool>) -> LoadReport {
    let deadline = Instant::now() + config.duration;
    let mut tasks = tokio::task::JoinSet::new();
    let mut report = LoadReport::default();
    for index in 0..config.clients {
        let mut client = match Client::new(index, base_url, config.seed) {
            Ok(client) => client,
            Err(error) => {
                report
                    .problems
                    .push(format!("client {index} not built: {error}"));
                continue;
            }
        };
        let config = config.clone();
        let stop = Arc::clone(&stop);
        tasks.spawn(async move {
            for sequence in 0u64.. {
                if Instant::now() >= deadline || stop.load(Ordering::Acquire) {
                    break;
                }
                if !client.step(&config, sequence).await {
                    break;
                }
            }
            client.report.expected = std::mem::take(&mut client.state);
            client.report
        });
    }
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(part) => report.merge(part),
            Err(error) => report
                .problems
                .push(format!("a client task failed: {error}")),
        }
    }
    report
}

/// Compares the server's state with the replay: every certain membership, and every
/// webhook title exactly once (acknowledged ones present, nothing unknown, no
/// duplicates). Returns the differences, empty when all agree.
pub async fn verify(base_url: &str, report: &LoadReport) -> Vec<String> {
    let mut problems = Vec::new();
    let http = reqwest::Client::new();
    let base = base_url.trim_end_matches('/');
    let get = |path: String, query: Vec<(&'static str, String)>| {
        let request = http
            .get(format!("{base}/api/v1{path}"))
            .query(&query)
            .basic_auth(OWNER_EMAIL, Some(OWNER_KEY));
        async move {
            let response = request.send().await.map_err(|e| e.to_string())?;
            let status = response.status();
            let body: Value = response.json().await.map_err(|e| e.to_string())?;
            if status == StatusCode::OK {
                Ok(body)
            } else {
                Err(format!("{status}: {body}"))
            }
        }
    };
    for stream in 1..=LOAD_STREAMS {
        let members: BTreeSet<u64> = match get(format!("/streams/{stream}/members"), vec![]).await {
            Ok(body) => body["subscribers"]
                .as_array()
                .map(|list| list.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default(),
            Err(error) => {
                problems.push(format!("members of stream {stream}: {error}"));
                continue;
            }
        };
        let wrong: Vec<String> = report
            .expected
            .iter()
            .filter(|((_, s), _)| *s == stream)
            .filter_map(|(&(user, _), &expected)| {
                let expected = expected?;
                (members.contains(&user) != expected).then(|| format!("{user}: replay {expected}"))
            })
            .collect();
        if !wrong.is_empty() {
            problems.push(format!(
                "{}: {} memberships differ from the replay ({})",
                stream_name(stream),
                wrong.len(),
                wrong.into_iter().take(5).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    match ingest_titles(&get).await {
        Err(error) => problems.push(format!("reading {INGEST_STREAM}: {error}")),
        Ok(titles) => {
            let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
            for title in &titles {
                *counts.entry(title.as_str()).or_default() += 1;
            }
            let lost = report
                .acknowledged_titles
                .iter()
                .filter(|title| !counts.contains_key(title.as_str()))
                .count();
            let duplicated = counts.values().filter(|&&n| n > 1).count();
            let unknown = counts
                .keys()
                .filter(|title| {
                    !report.acknowledged_titles.contains(**title)
                        && !report.uncertain_titles.contains(**title)
                })
                .count();
            if lost + duplicated + unknown > 0 {
                problems.push(format!(
                    "webhook messages: {lost} acknowledged lost, {duplicated} duplicated, \
                     {unknown} never sent (of {} acknowledged)",
                    report.acknowledged_titles.len()
                ));
            }
        }
    }
    problems
}

/// The titles of every Hello World message in the ingest stream, oldest first.
async fn ingest_titles<F, Fut>(get: &F) -> Result<Vec<String>, String>
where
    F: Fn(String, Vec<(&'static str, String)>) -> Fut,
    Fut: std::future::Future<Output = Result<Value, String>>,
{
    let narrow = json!([{"operator": "channel", "operand": INGEST_STREAM}]).to_string();
    let mut titles = Vec::new();
    let mut seen = BTreeSet::new();
    let mut anchor = "oldest".to_owned();
    for _ in 0..10_000 {
        let page = get(
            "/messages".to_owned(),
            vec![
                ("anchor", anchor.clone()),
                ("num_before", "0".to_owned()),
                ("num_after", "1000".to_owned()),
                ("narrow", narrow.clone()),
                ("apply_markdown", "false".to_owned()),
            ],
        )
        .await?;
        let messages = page["messages"].as_array().cloned().unwrap_or_default();
        let mut last = None;
        for message in &messages {
            let Some(id) = message["id"].as_u64() else {
                return Err(format!("a message without an id: {message}"));
            };
            last = Some(id);
            if !seen.insert(id) {
                continue;
            }
            let content = message["content"].as_str().unwrap_or_default();
            if let Some(title) = title_in(content) {
                titles.push(title);
            }
        }
        match last {
            Some(id) if page["found_newest"] != Value::Bool(true) => anchor = id.to_string(),
            _ => return Ok(titles),
        }
    }
    Err("the stream did not end within 10,000 pages".into())
}

/// `load-3-17` out of a Hello World message's `**[load-3-17](url)**`.
fn title_in(content: &str) -> Option<String> {
    let (_, rest) = content.split_once(&format!("**[{TITLE_PREFIX}"))?;
    let (title, _) = rest.split_once("](")?;
    Some(format!("{TITLE_PREFIX}{title}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_distinct_and_bounded() {
        let mut rng = Rng(7);
        for _ in 0..1000 {
            let picked = rng.subset(&[1, 2, 3, 4, 5], 3);
            let unique: BTreeSet<u64> = picked.iter().copied().collect();
            assert!((1..=3).contains(&picked.len()) && unique.len() == picked.len());
        }
    }

    #[test]
    fn titles_come_back_out_of_the_message() {
        let content = "Hello! :smile:\nThe Wikipedia featured article for today is \
                       **[load-3-17](https://example.com/weir)**";
        assert_eq!(title_in(content).as_deref(), Some("load-3-17"));
        assert_eq!(title_in("**[other](x)**"), None);
    }

    #[test]
    fn groups_are_disjoint() {
        let mut seen = BTreeSet::new();
        for client in 0..64 {
            for user in owned_users(client) {
                assert!(seen.insert(user), "user {user} owned twice");
            }
        }
    }
}
