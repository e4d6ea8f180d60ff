//! The applier: runs a [`Plan`] request by request, reports progress, stops between
//! requests when cancelled, waits out rate limits, and maps the server's answers back
//! to cells.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;
use zulip_api::{AddSubscriptionsResponse, RemoveSubscriptionsResponse};

use super::permissions::Action;
use super::plan::{Change, Plan, PlannedRequest};
use crate::client::{ClientError, NewSubscription, Principals, ZulipClient};

/// The two calls the applier makes; [`ZulipClient`] is the real one.
pub trait SubscriptionApi {
    fn unsubscribe(
        &self,
        names: &[String],
        principals: &Principals,
    ) -> impl Future<Output = Result<RemoveSubscriptionsResponse, ClientError>> + Send;
    fn subscribe(
        &self,
        names: &[String],
        principals: &Principals,
    ) -> impl Future<Output = Result<AddSubscriptionsResponse, ClientError>> + Send;
}

impl SubscriptionApi for ZulipClient {
    async fn unsubscribe(
        &self,
        names: &[String],
        principals: &Principals,
    ) -> Result<RemoveSubscriptionsResponse, ClientError> {
        self.remove_subscriptions(names, Some(principals)).await
    }

    async fn subscribe(
        &self,
        names: &[String],
        principals: &Principals,
    ) -> Result<AddSubscriptionsResponse, ClientError> {
        let streams: Vec<NewSubscription> = names.iter().map(NewSubscription::named).collect();
        self.add_subscriptions(&streams, Some(principals)).await
    }
}

/// Cancels an apply between requests (and during a rate-limit wait). Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<CancelInner>);

#[derive(Debug, Default)]
struct CancelInner {
    cancelled: AtomicBool,
    notify: Notify,
}

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    /// Sleeps `wait`; `false` if cancelled meanwhile.
    async fn sleep(&self, wait: Duration) -> bool {
        let notified = self.0.notify.notified();
        if self.is_cancelled() {
            return false;
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => !self.is_cancelled(),
            () = notified => false,
        }
    }
}

/// How the applier treats rate limits (on top of the client's own short retries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplyOptions {
    /// How many rate-limit answers one request waits out before its cells fail.
    pub max_rate_limit_waits: u32,
    /// The wait when a 429 names none.
    pub default_retry_after: Duration,
    /// The longest single wait (a server asking for an hour is not waited for).
    pub max_retry_after: Duration,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        Self {
            max_rate_limit_waits: 20,
            default_retry_after: Duration::from_secs(1),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

/// Progress of an apply, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "event")]
pub enum Progress {
    /// A request is about to be sent (`done` finished so far).
    Sending { done: usize, total: usize },
    /// A request finished (successfully or not).
    Done { done: usize, total: usize },
    /// The server's rate limit was hit: waiting before sending again.
    Waiting {
        done: usize,
        total: usize,
        seconds: f64,
    },
}

/// What happened to one cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum CellStatus {
    /// Subscribed by this apply.
    Subscribed,
    /// Was already subscribed (`already_subscribed`).
    AlreadySubscribed,
    /// Unsubscribed by this apply (`removed`).
    Removed,
    /// Was already unsubscribed (`not_removed`).
    NotRemoved,
    /// Now in the asked state, but the answer cannot tell whether it already was
    /// (several people in one request, some `removed` and some `not_removed`).
    Settled,
    /// The server refused or could not be reached; the cell stays staged.
    Failed { message: String },
    /// Not sent: the apply was cancelled first. The cell stays staged.
    NotAttempted,
}

impl CellStatus {
    /// The cell is now in the asked state.
    pub fn succeeded(&self) -> bool {
        !matches!(self, Self::Failed { .. } | Self::NotAttempted)
    }

    /// This apply changed the cell on the server (or may have, for [`Self::Settled`]).
    pub fn changed(&self) -> bool {
        matches!(self, Self::Subscribed | Self::Removed | Self::Settled)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CellResult {
    pub change: Change,
    #[serde(flatten)]
    pub status: CellStatus,
}

/// The outcome of an apply.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyReport {
    pub requests_total: usize,
    /// Requests answered (each retry after a rate limit counts once more).
    pub requests_sent: usize,
    pub cancelled: bool,
    pub cells: Vec<CellResult>,
}

impl ApplyReport {
    /// The changes still to make: failed or never attempted. They stay staged.
    pub fn remaining(&self) -> Vec<Change> {
        self.cells
            .iter()
            .filter(|cell| !cell.status.succeeded())
            .map(|cell| cell.change)
            .collect()
    }

    /// The changes that undo this apply: every cell it changed, reversed.
    pub fn reverse(&self) -> Vec<Change> {
        reverse_of(&self.cells)
    }

    pub fn failed_count(&self) -> usize {
        self.cells
            .iter()
            .filter(|cell| matches!(cell.status, CellStatus::Failed { .. }))
            .count()
    }
}

/// The reverse of the cells an apply changed.
pub fn reverse_of(cells: &[CellResult]) -> Vec<Change> {
    cells
        .iter()
        .filter(|cell| cell.status.changed())
        .map(|cell| cell.change.reversed())
        .collect()
}

/// Runs `plan`. Never fails as a whole: every cell gets a status.
pub async fn apply<A: SubscriptionApi>(
    api: &A,
    plan: &Plan,
    options: &ApplyOptions,
    cancel: &Cancel,
    mut on_progress: impl FnMut(Progress),
) -> ApplyReport {
    let total = plan.requests.len();
    let mut report = ApplyReport {
        requests_total: total,
        ..ApplyReport::default()
    };
    for (done, request) in plan.requests.iter().enumerate() {
        if cancel.is_cancelled() {
            report.cancelled = true;
            not_attempted(&mut report, request);
            continue;
        }
        on_progress(Progress::Sending { done, total });
        run_one(
            api,
            request,
            options,
            cancel,
            &mut report,
            &mut on_progress,
            done,
        )
        .await;
        on_progress(Progress::Done {
            done: done + 1,
            total,
        });
    }
    report
}

fn not_attempted(report: &mut ApplyReport, request: &PlannedRequest) {
    report
        .cells
        .extend(request.changes().map(|change| CellResult {
            change,
            status: CellStatus::NotAttempted,
        }));
}

/// One planned request, with rate-limit waits and, when streams turned out missing,
/// one retry per missing stream without it.
async fn run_one<A: SubscriptionApi>(
    api: &A,
    request: &PlannedRequest,
    options: &ApplyOptions,
    cancel: &Cancel,
    report: &mut ApplyReport,
    on_progress: &mut impl FnMut(Progress),
    done: usize,
) {
    let mut request = request.clone();
    let mut waits = 0u32;
    loop {
        if request.streams.is_empty() {
            return;
        }
        let names: Vec<String> = request.streams.iter().map(|s| s.name.clone()).collect();
        let principals = if request.principals_as_emails {
            Principals::Emails(request.people.iter().map(|p| p.email.clone()).collect())
        } else {
            Principals::Ids(request.people.iter().map(|p| p.user_id).collect())
        };
        let outcome = match request.action {
            Action::Unsubscribe => api
                .unsubscribe(&names, &principals)
                .await
                .map(|answer| removal_statuses(&request, &answer)),
            Action::Subscribe => api
                .subscribe(&names, &principals)
                .await
                .map(|answer| subscription_statuses(&request, &answer)),
        };
        report.requests_sent += 1;
        match outcome {
            Ok(cells) => {
                report.cells.extend(cells);
                return;
            }
            Err(ClientError::RateLimited { retry_after })
                if waits < options.max_rate_limit_waits =>
            {
                waits += 1;
                let wait = retry_after
                    .unwrap_or(options.default_retry_after)
                    .min(options.max_retry_after);
                on_progress(Progress::Waiting {
                    done,
                    total: report.requests_total,
                    seconds: wait.as_secs_f64(),
                });
                if !cancel.sleep(wait).await {
                    report.cancelled = true;
                    not_attempted(report, &request);
                    return;
                }
            }
            Err(ClientError::StreamsDoNotExist(missing)) => {
                let missing: Vec<String> = missing.iter().map(|n| name_key(n)).collect();
                let (gone, kept): (Vec<_>, Vec<_>) = request
                    .streams
                    .into_iter()
                    .partition(|stream| missing.contains(&name_key(&stream.name)));
                if gone.is_empty() {
                    // The server named a stream we did not send: fail the request whole.
                    request.streams = kept;
                    let error = ClientError::StreamsDoNotExist(missing);
                    fail_all(report, &request, &error.to_string());
                    return;
                }
                for stream in &gone {
                    let message = format!("Channel '{}' does not exist", stream.name);
                    report
                        .cells
                        .extend(request.people.iter().map(|person| CellResult {
                            change: Change {
                                user_id: person.user_id,
                                stream_id: stream.stream_id,
                                subscribe: request.action == Action::Subscribe,
                            },
                            status: CellStatus::Failed {
                                message: message.clone(),
                            },
                        }));
                }
                request.streams = kept;
            }
            Err(error) => {
                fail_all(report, &request, &error_message(&error));
                return;
            }
        }
    }
}

fn fail_all(report: &mut ApplyReport, request: &PlannedRequest, message: &str) {
    report
        .cells
        .extend(request.changes().map(|change| CellResult {
            change,
            status: CellStatus::Failed {
                message: message.to_string(),
            },
        }));
}

/// The server's own text when it sent one.
fn error_message(error: &ClientError) -> String {
    match error {
        ClientError::Zulip { msg, .. } => msg.clone(),
        other => other.to_string(),
    }
}

/// Stream names as Zulip compares them: trimmed, case-insensitive.
fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// `removed`/`not_removed` list one stream name per (person, stream) pair, without the
/// person: a stream whose pairs all landed in one list is exact; a mix is
/// [`CellStatus::Settled`]; a stream the answer does not mention failed.
fn removal_statuses(
    request: &PlannedRequest,
    answer: &RemoveSubscriptionsResponse,
) -> Vec<CellResult> {
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    for name in &answer.removed {
        counts.entry(name_key(name)).or_default().0 += 1;
    }
    for name in &answer.not_removed {
        counts.entry(name_key(name)).or_default().1 += 1;
    }
    let people = request.people.len();
    let mut cells = Vec::with_capacity(request.cell_count());
    for stream in &request.streams {
        let (removed, not_removed) = counts
            .get(&name_key(&stream.name))
            .copied()
            .unwrap_or_default();
        let status = if removed == people && not_removed == 0 {
            CellStatus::Removed
        } else if not_removed == people && removed == 0 {
            CellStatus::NotRemoved
        } else if removed + not_removed == 0 {
            CellStatus::Failed {
                message: "The server's answer does not mention this change.".into(),
            }
        } else {
            CellStatus::Settled
        };
        cells.extend(request.people.iter().map(|person| CellResult {
            change: Change {
                user_id: person.user_id,
                stream_id: stream.stream_id,
                subscribe: false,
            },
            status: status.clone(),
        }));
    }
    cells
}

/// `subscribed`/`already_subscribed` are keyed by user id (e-mail before feature level
/// 289), so every cell maps back exactly.
fn subscription_statuses(
    request: &PlannedRequest,
    answer: &AddSubscriptionsResponse,
) -> Vec<CellResult> {
    let index = |map: &std::collections::BTreeMap<String, Vec<String>>| {
        let mut keyed: HashSet<(String, String)> = HashSet::new();
        for (who, names) in map {
            for name in names {
                keyed.insert((name_key(who), name_key(name)));
            }
        }
        keyed
    };
    let subscribed = index(&answer.subscribed);
    let already = index(&answer.already_subscribed);
    let mut cells = Vec::with_capacity(request.cell_count());
    for stream in &request.streams {
        let stream_key = name_key(&stream.name);
        for person in &request.people {
            let keys = [person.user_id.to_string(), name_key(&person.email)];
            let listed = |set: &HashSet<(String, String)>| {
                keys.iter()
                    .any(|key| set.contains(&(key.clone(), stream_key.clone())))
            };
            let status = if listed(&subscribed) {
                CellStatus::Subscribed
            } else if listed(&already) {
                CellStatus::AlreadySubscribed
            } else {
                CellStatus::Failed {
                    message: "The server's answer does not mention this change.".into(),
                }
            };
            cells.push(CellResult {
                change: Change {
                    user_id: person.user_id,
                    stream_id: stream.stream_id,
                    subscribe: true,
                },
                status,
            });
        }
    }
    cells
}
