use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use zulip_api::{
    AddSubscriptionsResponse, DEFAULT_FEATURE_LEVEL, RemoveSubscriptionsResponse, Role,
};

use super::super::{
    Action, ApplyOptions, ApplyReport, Cancel, CellStatus, Change, Limits, Plan, Progress,
    SubscriptionApi, apply, plan,
};
use super::{organization, subscribe, unsubscribe};
use crate::client::{ClientError, Principals};

type Answer = Result<Answer2, ClientError>;

enum Answer2 {
    Removed(RemoveSubscriptionsResponse),
    Added(AddSubscriptionsResponse),
}

/// Records every call and answers from a script (then: everything done, as asked).
#[derive(Default)]
struct FakeApi {
    calls: Mutex<Vec<(Action, Vec<String>, Principals)>>,
    script: Mutex<VecDeque<Answer>>,
}

impl FakeApi {
    fn scripted(answers: Vec<Answer>) -> Self {
        Self {
            script: Mutex::new(answers.into()),
            ..Self::default()
        }
    }

    fn calls(&self) -> Vec<(Action, Vec<String>, Principals)> {
        self.calls.lock().map(|c| c.clone()).unwrap_or_default()
    }

    fn next(&self, action: Action, names: &[String], principals: &Principals) -> Option<Answer> {
        if let Ok(mut calls) = self.calls.lock() {
            calls.push((action, names.to_vec(), principals.clone()));
        }
        self.script.lock().ok()?.pop_front()
    }
}

fn count(principals: &Principals) -> usize {
    match principals {
        Principals::Ids(ids) => ids.len(),
        Principals::Emails(emails) => emails.len(),
    }
}

impl SubscriptionApi for FakeApi {
    async fn unsubscribe(
        &self,
        names: &[String],
        principals: &Principals,
    ) -> Result<RemoveSubscriptionsResponse, ClientError> {
        match self.next(Action::Unsubscribe, names, principals) {
            Some(Ok(Answer2::Removed(answer))) => Ok(answer),
            Some(Ok(Answer2::Added(_))) => Err(ClientError::Decode("wrong script".into())),
            Some(Err(error)) => Err(error),
            None => Ok(RemoveSubscriptionsResponse {
                removed: names
                    .iter()
                    .flat_map(|n| std::iter::repeat_n(n.clone(), count(principals)))
                    .collect(),
                not_removed: Vec::new(),
            }),
        }
    }

    async fn subscribe(
        &self,
        names: &[String],
        principals: &Principals,
    ) -> Result<AddSubscriptionsResponse, ClientError> {
        match self.next(Action::Subscribe, names, principals) {
            Some(Ok(Answer2::Added(answer))) => Ok(answer),
            Some(Ok(Answer2::Removed(_))) => Err(ClientError::Decode("wrong script".into())),
            Some(Err(error)) => Err(error),
            None => {
                let keys: Vec<String> = match principals {
                    Principals::Ids(ids) => ids.iter().map(i64::to_string).collect(),
                    Principals::Emails(emails) => emails.clone(),
                };
                Ok(AddSubscriptionsResponse {
                    subscribed: keys.into_iter().map(|k| (k, names.to_vec())).collect(),
                    already_subscribed: BTreeMap::new(),
                    unauthorized: None,
                })
            }
        }
    }
}

fn quick() -> ApplyOptions {
    ApplyOptions {
        max_rate_limit_waits: 3,
        default_retry_after: Duration::from_millis(5),
        max_retry_after: Duration::from_millis(50),
    }
}

async fn run(api: &FakeApi, plan: &Plan) -> (ApplyReport, Vec<Progress>) {
    let mut events = Vec::new();
    let report = apply(api, plan, &quick(), &Cancel::new(), |p| events.push(p)).await;
    (report, events)
}

fn status_of(report: &ApplyReport, change: Change) -> Option<CellStatus> {
    report
        .cells
        .iter()
        .find(|cell| cell.change == change)
        .map(|cell| cell.status.clone())
}

fn zulip_error(msg: &str) -> ClientError {
    ClientError::Zulip {
        status: 400,
        code: "BAD_REQUEST".into(),
        msg: msg.into(),
        extra: serde_json::Map::new(),
    }
}

#[tokio::test]
async fn one_request_per_planned_group_with_ids_as_principals() {
    let matrix = organization(Role::Administrator, 4, 3, true, DEFAULT_FEATURE_LEVEL);
    let changes: Vec<_> = (2..=4)
        .flat_map(|user| (101..=103).map(move |stream| unsubscribe(user, stream)))
        .collect();
    let plan = plan(&matrix, &changes, &Limits::default());
    let api = FakeApi::default();
    let (report, events) = run(&api, &plan).await;
    assert_eq!(api.calls().len(), 1);
    assert_eq!(api.calls()[0].2, Principals::Ids(vec![2, 3, 4]));
    assert_eq!(report.requests_sent, 1);
    assert!(report.cells.iter().all(|c| c.status == CellStatus::Removed));
    assert!(report.remaining().is_empty());
    assert_eq!(events.last(), Some(&Progress::Done { done: 1, total: 1 }));
}

#[tokio::test]
async fn old_servers_get_e_mail_addresses() {
    let matrix = organization(Role::Administrator, 3, 1, false, 8);
    let plan = plan(&matrix, &[subscribe(2, 101)], &Limits::default());
    let api = FakeApi::default();
    let (report, _) = run(&api, &plan).await;
    assert_eq!(
        api.calls()[0].2,
        Principals::Emails(vec!["user2@example.com".into()])
    );
    assert_eq!(
        status_of(&report, subscribe(2, 101)),
        Some(CellStatus::Subscribed)
    );
}

#[tokio::test]
async fn removal_answers_map_back_to_cells() {
    let matrix = organization(Role::Administrator, 3, 3, true, DEFAULT_FEATURE_LEVEL);
    let changes: Vec<_> = (2..=3)
        .flat_map(|user| (101..=103).map(move |stream| unsubscribe(user, stream)))
        .collect();
    let plan = plan(&matrix, &changes, &Limits::default());
    let answer = RemoveSubscriptionsResponse {
        // Spelled differently on purpose: the server uses its stored spelling.
        removed: vec![
            "STREAM 101".into(),
            "stream 101".into(),
            "stream 102".into(),
        ],
        not_removed: vec!["stream 102".into()],
    };
    let api = FakeApi::scripted(vec![Ok(Answer2::Removed(answer))]);
    let (report, _) = run(&api, &plan).await;
    assert_eq!(
        status_of(&report, unsubscribe(3, 101)),
        Some(CellStatus::Removed)
    );
    assert_eq!(
        status_of(&report, unsubscribe(2, 102)),
        Some(CellStatus::Settled)
    );
    assert!(matches!(
        status_of(&report, unsubscribe(2, 103)),
        Some(CellStatus::Failed { .. })
    ));
    assert_eq!(
        report.remaining(),
        [unsubscribe(2, 103), unsubscribe(3, 103)]
    );
}

#[tokio::test]
async fn subscription_answers_map_back_to_cells_by_id_or_email() {
    let matrix = organization(Role::Administrator, 4, 1, false, DEFAULT_FEATURE_LEVEL);
    let plan = plan(
        &matrix,
        &[subscribe(2, 101), subscribe(3, 101), subscribe(4, 101)],
        &Limits::default(),
    );
    let answer = AddSubscriptionsResponse {
        subscribed: BTreeMap::from([
            ("2".to_string(), vec!["Stream 101".to_string()]),
            (
                "USER3@example.com".to_string(),
                vec!["stream 101".to_string()],
            ),
        ]),
        already_subscribed: BTreeMap::from([("4".to_string(), vec!["stream 101".to_string()])]),
        unauthorized: None,
    };
    let api = FakeApi::scripted(vec![Ok(Answer2::Added(answer))]);
    let (report, _) = run(&api, &plan).await;
    assert_eq!(
        status_of(&report, subscribe(2, 101)),
        Some(CellStatus::Subscribed)
    );
    assert_eq!(
        status_of(&report, subscribe(3, 101)),
        Some(CellStatus::Subscribed)
    );
    assert_eq!(
        status_of(&report, subscribe(4, 101)),
        Some(CellStatus::AlreadySubscribed)
    );
    assert_eq!(report.reverse(), [unsubscribe(2, 101), unsubscribe(3, 101)]);
}

#[tokio::test]
async fn a_rate_limit_is_waited_out_and_the_request_sent_again() {
    let matrix = organization(Role::Administrator, 3, 1, true, DEFAULT_FEATURE_LEVEL);
    let plan = plan(&matrix, &[unsubscribe(2, 101)], &Limits::default());
    let api = FakeApi::scripted(vec![Err(ClientError::RateLimited {
        retry_after: Some(Duration::from_millis(10)),
    })]);
    let (report, events) = run(&api, &plan).await;
    assert_eq!(api.calls().len(), 2);
    assert_eq!(report.requests_sent, 2);
    assert_eq!(
        status_of(&report, unsubscribe(2, 101)),
        Some(CellStatus::Removed)
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Progress::Waiting { seconds, .. } if (*seconds - 0.01).abs() < 1e-9
    )));
}

#[tokio::test]
async fn failed_cells_stay_staged_and_a_retry_plans_only_them() {
    let matrix = organization(Role::Administrator, 3, 2, true, DEFAULT_FEATURE_LEVEL);
    // Two requests: 101 loses {2, 3}, 102 loses {2}.
    let changes = [
        unsubscribe(2, 101),
        unsubscribe(3, 101),
        unsubscribe(2, 102),
    ];
    let first = plan(&matrix, &changes, &Limits::default());
    assert_eq!(first.requests.len(), 2);
    let api = FakeApi::scripted(vec![Err(zulip_error("Insufficient permission"))]);
    let (report, _) = run(&api, &first).await;
    assert_eq!(
        api.calls().len(),
        2,
        "a failed request does not stop the apply"
    );
    assert_eq!(report.failed_count(), 2);
    assert_eq!(
        status_of(&report, unsubscribe(2, 101)),
        Some(CellStatus::Failed {
            message: "Insufficient permission".into()
        })
    );
    let retry = plan(&matrix, &report.remaining(), &Limits::default());
    assert_eq!(retry.cell_count(), 2);
    let retried: Vec<Change> = retry.requests.iter().flat_map(|r| r.changes()).collect();
    assert_eq!(retried, [unsubscribe(2, 101), unsubscribe(3, 101)]);
}

#[tokio::test]
async fn a_missing_stream_fails_its_cells_and_the_rest_is_sent_again() {
    let matrix = organization(Role::Administrator, 2, 2, true, DEFAULT_FEATURE_LEVEL);
    let plan = plan(
        &matrix,
        &[unsubscribe(2, 101), unsubscribe(2, 102)],
        &Limits::default(),
    );
    let api = FakeApi::scripted(vec![Err(ClientError::StreamsDoNotExist(vec![
        "Stream 102".into(),
    ]))]);
    let (report, _) = run(&api, &plan).await;
    assert_eq!(api.calls()[1].1, ["stream 101"]);
    assert_eq!(
        status_of(&report, unsubscribe(2, 101)),
        Some(CellStatus::Removed)
    );
    assert!(matches!(
        status_of(&report, unsubscribe(2, 102)),
        Some(CellStatus::Failed { .. })
    ));
}

#[tokio::test]
async fn cancelling_stops_between_requests() {
    let matrix = organization(Role::Administrator, 3, 2, true, DEFAULT_FEATURE_LEVEL);
    let changes = [
        unsubscribe(2, 101),
        unsubscribe(3, 101),
        unsubscribe(2, 102),
    ];
    let plan = plan(&matrix, &changes, &Limits::default());
    let api = FakeApi::default();
    let cancel = Cancel::new();
    let report = apply(&api, &plan, &quick(), &cancel, |event| {
        if let Progress::Done { done: 1, .. } = event {
            cancel.cancel();
        }
    })
    .await;
    assert!(report.cancelled);
    assert_eq!(api.calls().len(), 1);
    assert_eq!(report.remaining().len(), 1);
    assert!(
        report
            .cells
            .iter()
            .any(|c| c.status == CellStatus::NotAttempted)
    );
}

#[tokio::test]
async fn cancelling_during_a_rate_limit_wait_stops_at_once() {
    let matrix = organization(Role::Administrator, 3, 1, true, DEFAULT_FEATURE_LEVEL);
    let plan = plan(&matrix, &[unsubscribe(2, 101)], &Limits::default());
    let api = FakeApi::scripted(vec![Err(ClientError::RateLimited {
        retry_after: Some(Duration::from_secs(3600)),
    })]);
    let options = ApplyOptions {
        max_retry_after: Duration::from_secs(3600),
        ..quick()
    };
    let cancel = Cancel::new();
    let report = apply(&api, &plan, &options, &cancel, |event| {
        if matches!(event, Progress::Waiting { .. }) {
            cancel.cancel();
        }
    })
    .await;
    assert!(report.cancelled);
    assert_eq!(report.remaining(), [unsubscribe(2, 101)]);
}

#[tokio::test]
async fn rate_limits_beyond_the_budget_fail_the_cells() {
    let matrix = organization(Role::Administrator, 3, 1, true, DEFAULT_FEATURE_LEVEL);
    let plan = plan(&matrix, &[unsubscribe(2, 101)], &Limits::default());
    let limited = || {
        Err(ClientError::RateLimited {
            retry_after: Some(Duration::from_millis(1)),
        })
    };
    let api = FakeApi::scripted((0..10).map(|_| limited()).collect());
    let (report, _) = run(&api, &plan).await;
    assert_eq!(report.requests_sent, 4);
    assert_eq!(report.remaining(), [unsubscribe(2, 101)]);
}

#[tokio::test]
async fn undo_reverses_only_what_changed() {
    let matrix = organization(Role::Administrator, 3, 2, true, DEFAULT_FEATURE_LEVEL);
    let plan = plan(
        &matrix,
        &[unsubscribe(2, 101), unsubscribe(2, 102)],
        &Limits::default(),
    );
    let answer = RemoveSubscriptionsResponse {
        removed: vec!["stream 101".into()],
        not_removed: vec!["stream 102".into()],
    };
    let api = FakeApi::scripted(vec![Ok(Answer2::Removed(answer))]);
    let (report, _) = run(&api, &plan).await;
    assert_eq!(report.reverse(), [subscribe(2, 101)]);
    let undo = super::super::plan(
        &matrix_after(&matrix),
        &report.reverse(),
        &Limits::default(),
    );
    assert_eq!(undo.requests.len(), 1);
    assert_eq!(undo.requests[0].action, Action::Subscribe);
}

/// The grid after person 2 left both streams.
fn matrix_after(matrix: &crate::memberships::Matrix) -> crate::memberships::Matrix {
    let users = matrix
        .people()
        .iter()
        .map(|p| super::user(p.user_id, &p.full_name, p.role))
        .collect();
    let streams = matrix
        .channels()
        .iter()
        .map(|c| super::stream(c.stream_id, &c.name, c.invite_only, &[1, 3]))
        .collect();
    super::build(crate::memberships::Snapshot {
        feature_level: matrix.viewer().feature_level,
        me: 1,
        users,
        streams,
        ..Default::default()
    })
}
