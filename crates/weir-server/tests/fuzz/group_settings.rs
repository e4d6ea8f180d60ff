//! Group settings naming any of 1,000 nested groups: whatever the value (up to Zulip's
//! 1,000 entries, groups at any depth, users), the server decides who holds it as a
//! plain model does (membership through subgroups, computed here independently), and
//! every request answers within the budget. Two paths are exercised: `can_manage_group`
//! through `PATCH /user_groups/{id}` (decided in the writer) and `can_mention_group`
//! through `POST /messages` (decided on a reader).

use std::collections::{BTreeSet, HashMap};

use axum::body::Body;
use axum::http::{Request, header};
use base64::Engine;
use http_body_util::BodyExt;
use proptest::prelude::*;
use serde_json::{Value, json};
use tower::ServiceExt;
use weir_server::{AppState, Config, Seed, Store, router};

use crate::support::{config, within_budget};

/// The nested groups: ids `FIRST..FIRST + COUNT`, each holding the one before it (a
/// chain 1,000 deep) and, for every tenth, the one half as far up (a second path).
const FIRST: i64 = 100;
const COUNT: i64 = 1_000;
/// The group whose settings the cases change.
const TARGET: i64 = 50;
/// Members 2..=41; the owner (1) manages every group and is never the caller.
const PEOPLE: std::ops::RangeInclusive<i64> = 2..=41;

fn key(user_id: i64) -> String {
    format!("Key{user_id:0>29}")
}

/// Direct subgroups of each nested group.
fn subgroups_of(group: i64) -> Vec<i64> {
    let k = group - FIRST;
    let mut below = Vec::new();
    if k > 0 {
        below.push(group - 1);
    }
    if k > 1 && k % 10 == 0 {
        below.push(FIRST + k / 2);
    }
    below
}

/// Direct members of each nested group: one person in every 37th.
fn members_of(group: i64) -> Vec<i64> {
    let k = group - FIRST;
    if k % 37 == 0 {
        vec![2 + (k / 37) % 40]
    } else {
        Vec::new()
    }
}

/// The model: whether `user` is in `group` or any group below it.
fn in_group(user: i64, group: i64, memo: &mut HashMap<i64, bool>) -> bool {
    if let Some(known) = memo.get(&group) {
        return *known;
    }
    // The graph is acyclic and each group's subgroups lie below it: recursion ends.
    let found = members_of(group).contains(&user)
        || subgroups_of(group)
            .into_iter()
            .any(|below| in_group(user, below, memo));
    memo.insert(group, found);
    found
}

fn holds(user: i64, members: &BTreeSet<i64>, groups: &BTreeSet<i64>) -> bool {
    let mut memo = HashMap::new();
    members.contains(&user) || groups.iter().any(|group| in_group(user, *group, &mut memo))
}

struct Server {
    runtime: tokio::runtime::Runtime,
    state: AppState,
    _dir: tempfile::TempDir,
}

impl Server {
    fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let users: Vec<Value> = std::iter::once(1)
            .chain(PEOPLE)
            .map(|id| {
                json!({"user_id": id, "email": format!("p{id}@g.test"),
                       "full_name": format!("P {id}"),
                       "role": if id == 1 { "owner" } else { "member" }, "api_key": key(id)})
            })
            .collect();
        let subscribers: Vec<i64> = std::iter::once(1).chain(PEOPLE).collect();
        let mut groups: Vec<Value> = (FIRST..FIRST + COUNT)
            .map(|group| {
                let below: Vec<String> = subgroups_of(group)
                    .iter()
                    .map(|g| format!("n{g}"))
                    .collect();
                json!({"group_id": group, "name": format!("n{group}"),
                       "members": members_of(group), "subgroups": below})
            })
            .collect();
        groups.push(json!({"group_id": TARGET, "name": "target", "members": [1]}));
        let seed = json!({"realm": {"name": "G", "url": "http://g.localhost"}, "users": users,
                          "streams": [{"stream_id": 1, "name": "s", "subscribers": subscribers}],
                          "groups": groups});
        let seed = Seed::from_json(&seed.to_string()).unwrap();
        weir_server::store::create_seeded(dir.path(), &seed).unwrap();
        let state = runtime
            .block_on(async { AppState::new(Store::open(dir.path()).unwrap(), Config::default()) });
        Self {
            runtime,
            state,
            _dir: dir,
        }
    }

    /// Sends a form request as `user`, within the budget; the status and body.
    fn call(&self, user: i64, method: &str, path: &str, form: &[(&str, String)]) -> (u16, Value) {
        let body: String = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let token = base64::engine::general_purpose::STANDARD
            .encode(format!("p{user}@g.test:{}", key(user)));
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::AUTHORIZATION, format!("Basic {token}"))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        let state = self.state.clone();
        let what = format!("{method} {path} as {user}");
        let (status, bytes) = within_budget(&what, || {
            self.runtime.block_on(async move {
                let response = router(state).oneshot(request).await.unwrap();
                let status = response.status().as_u16();
                let bytes = response.into_body().collect().await.unwrap().to_bytes();
                (status, bytes)
            })
        });
        let json: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(status < 500, "{what}: {status} {json}");
        (status, json)
    }

    fn set(&self, setting: &str, value: &Value) {
        let (status, json) = self.call(
            1,
            "PATCH",
            &format!("/api/v1/user_groups/{TARGET}"),
            &[(setting, json!({ "new": value }).to_string())],
        );
        assert_eq!(status, 200, "setting {setting} to {value}: {json}");
    }
}

#[derive(Debug, Clone)]
struct Case {
    members: BTreeSet<i64>,
    groups: BTreeSet<i64>,
    caller: i64,
    mention: bool,
}

fn case() -> impl Strategy<Value = Case> {
    let group = FIRST..FIRST + COUNT;
    let groups = prop_oneof![
        3 => prop::collection::btree_set(group.clone(), 0..8),
        1 => prop::collection::btree_set(group, 0..1_000),
        1 => (0..COUNT).prop_map(|n| (FIRST..=FIRST + n).collect()),
    ];
    let members = prop::collection::btree_set(PEOPLE, 0..4);
    (members, groups, PEOPLE, any::<bool>()).prop_map(|(members, groups, caller, mention)| Case {
        members,
        groups,
        caller,
        mention,
    })
}

/// One server for every case: building 1,000 groups per case would dominate the run.
fn server() -> &'static Server {
    static SERVER: std::sync::OnceLock<Server> = std::sync::OnceLock::new();
    SERVER.get_or_init(Server::new)
}

fn run(case: &Case) {
    // The tests share the server and its one target group: one case at a time.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let server = server();
    let value = json!({"direct_members": case.members, "direct_subgroups": case.groups});
    let expected = holds(case.caller, &case.members, &case.groups);
    let (status, json) = if case.mention {
        server.set("can_mention_group", &value);
        server.call(
            case.caller,
            "POST",
            "/api/v1/messages",
            &[
                ("type", "stream".into()),
                ("to", "s".into()),
                ("topic", "t".into()),
                ("content", "@*target*".into()),
            ],
        )
    } else {
        server.set("can_manage_group", &value);
        server.call(
            case.caller,
            "PATCH",
            &format!("/api/v1/user_groups/{TARGET}"),
            &[("description", format!("by {}", case.caller))],
        )
    };
    assert_eq!(status == 200, expected, "{case:?}: {json}");
}

proptest! {
    #![proptest_config(config("group_settings", 24))]

    #[test]
    fn group_settings_decide_as_the_model_within_budget(case in case()) {
        run(&case);
    }
}

#[test]
fn every_nested_group_and_everyone_in_them() {
    let all: BTreeSet<i64> = (FIRST..FIRST + COUNT).collect();
    for (caller, mention) in [(2, false), (41, true), (40, false)] {
        run(&Case {
            members: BTreeSet::new(),
            groups: all.clone(),
            caller,
            mention,
        });
    }
}
