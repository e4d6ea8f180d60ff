//! Request parameters, principals and stream lists through the whole router (in
//! process, no socket): any mix of query string, form or multipart body, JSON of any
//! shape and lists of any length answers Zulip-shaped JSON, never a 5xx, within the
//! budget. The webhook endpoint gets random `only_events`/`exclude_events` patterns and
//! event headers the same way.

use axum::body::Body;
use axum::http::{Request, header};
use base64::Engine;
use http_body_util::BodyExt;
use proptest::prelude::*;
use serde_json::{Value, json};
use tower::ServiceExt;
use weir_server::{AppState, Config, Seed, Store, router};

use crate::support::{config, corpus, within_budget};

const OWNER_KEY: &str = "OwnerKey00000000000000000000000a";
const MEMBER_KEY: &str = "MemberKey0000000000000000000000b";
pub(crate) const HOOK_KEY: &str = "HookKey000000000000000000000000c";

/// A server state on a fresh seeded database, with the runtime its writer runs on.
pub(crate) struct Server {
    runtime: tokio::runtime::Runtime,
    state: AppState,
    _dir: tempfile::TempDir,
}

impl Server {
    pub(crate) fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let users: Vec<Value> = [
            (1, "owner@g.test", "Owner", "owner", OWNER_KEY),
            (2, "member@g.test", "Member", "member", MEMBER_KEY),
        ]
        .iter()
        .map(|(id, email, name, role, key)| {
            json!({"user_id": id, "email": email, "full_name": name, "role": role, "api_key": key})
        })
        .chain([json!({"user_id": 3, "email": "hook-bot@g.test", "full_name": "Hook",
                       "role": "member", "bot_type": 2, "bot_owner_id": 2, "api_key": HOOK_KEY})])
        .chain((10..40).map(|id| {
            json!({"user_id": id, "email": format!("p{id}@g.test"), "full_name": format!("P {id}"),
                   "role": "member"})
        }))
        .collect();
        let streams: Vec<Value> = (1..=20)
            .map(|n| {
                json!({"stream_id": n, "name": format!("s{n}"), "invite_only": n > 17,
                            "subscribers": [1, 2, 10, 11, 12]})
            })
            .collect();
        // Groups 9 and 10 (10 holds 9; the member, 2, manages 10) beside the system ones.
        let groups = json!([
            {"group_id": 9, "name": "g9", "members": [10, 11], "subgroups": ["role:owners"]},
            {"group_id": 10, "name": "g10", "members": [2], "subgroups": ["g9"],
             "can_manage_group": {"direct_members": [2], "direct_subgroups": []}}
        ]);
        let seed = json!({"realm": {"name": "G", "url": "http://g.localhost"},
                          "users": users, "streams": streams, "groups": groups});
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

    /// Sends one request; checks the answer's shape and the time it took.
    pub(crate) fn check(&self, what: &str, request: Request<Body>) -> (u16, Value) {
        let state = self.state.clone();
        let (status, bytes) = within_budget(what, || {
            self.runtime.block_on(async move {
                let response = router(state).oneshot(request).await.unwrap();
                let status = response.status().as_u16();
                (
                    status,
                    response.into_body().collect().await.unwrap().to_bytes(),
                )
            })
        });
        let text = String::from_utf8_lossy(&bytes);
        let json: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{what}: {status} with a body that is not JSON: {text}"));
        assert!(status < 500, "{what}: {status} {text}");
        match json["result"].as_str() {
            Some("success") => assert_eq!(status, 200, "{what}: {text}"),
            Some("error") => assert!(
                json["msg"].as_str().is_some_and(|m| !m.is_empty()) && json["code"].is_string(),
                "{what}: an error without msg and code: {text}"
            ),
            _ => panic!("{what}: neither success nor error: {text}"),
        }
        (status, json)
    }
}

fn basic(email: &str, key: &str) -> String {
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{email}:{key}"));
    format!("Basic {token}")
}

pub(crate) fn percent(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Stream names: existing ones in other cases, new ones, odd ones, long ones.
pub(crate) fn stream_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (1u32..=22).prop_map(|n| format!("s{n}")),
        1 => (1u32..=20).prop_map(|n| format!(" S{n} ")),
        1 => "[a-zA-Z0-9 #*@é\u{0}\u{202e}\u{feff}]{0,70}",
        1 => any::<String>(),
    ]
}

/// A JSON list of names, a list of any JSON, or text that may not be JSON at all.
fn name_list() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::collection::vec(stream_name(), 0..30).prop_map(|v| json!(v).to_string()),
        1 => (0usize..3000).prop_map(|n| {
            json!((0..n).map(|i| format!("n{i}")).collect::<Vec<_>>()).to_string()
        }),
        1 => any_json().prop_map(|v| v.to_string()),
        1 => any::<String>(),
    ]
}

fn principals() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        4 => prop::collection::vec(prop_oneof![8 => 1i64..45, 1 => any::<i64>()], 0..40)
            .prop_map(|v| json!(v).to_string()),
        2 => prop::collection::vec(
            prop_oneof![(10i64..45).prop_map(|n| format!("p{n}@g.test")), any::<String>()],
            0..20,
        )
        .prop_map(|v| json!(v).to_string()),
        1 => (0usize..2000).prop_map(|n| json!((0..n as i64).collect::<Vec<_>>()).to_string()),
        1 => any_json().prop_map(|v| v.to_string()),
        1 => any::<String>(),
    ])
}

pub(crate) fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z0-9 ]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Where the parameters travel.
#[derive(Debug, Clone, Copy)]
enum Carrier {
    Query,
    Form,
    Multipart,
}

fn carrier() -> impl Strategy<Value = Carrier> {
    prop_oneof![
        1 => Just(Carrier::Query),
        3 => Just(Carrier::Form),
        1 => Just(Carrier::Multipart),
    ]
}

fn request(
    method: &str,
    path: &str,
    auth: Option<String>,
    params: &[(String, String)],
    carrier: Carrier,
) -> Request<Body> {
    let encoded: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", percent(k), percent(v)))
        .collect();
    let mut builder = Request::builder().method(method);
    if let Some(auth) = auth {
        builder = builder.header(header::AUTHORIZATION, auth);
    }
    // A URI holds at most 64 KiB: longer parameters go in a form body instead.
    let query_fits = encoded.iter().map(|pair| pair.len() + 1).sum::<usize>() + path.len() < 60_000;
    let carrier = match carrier {
        Carrier::Query if !query_fits => Carrier::Form,
        other => other,
    };
    let body = match carrier {
        Carrier::Query => {
            let sep = if path.contains('?') { '&' } else { '?' };
            builder = builder.uri(format!("{path}{sep}{}", encoded.join("&")));
            Body::empty()
        }
        Carrier::Form => {
            builder = builder
                .uri(path)
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
            Body::from(encoded.join("&"))
        }
        Carrier::Multipart => {
            builder = builder.uri(path).header(
                header::CONTENT_TYPE,
                "multipart/form-data; boundary=fuzzfuzz",
            );
            let mut body = String::new();
            for (k, v) in params {
                body.push_str(&format!(
                    "--fuzzfuzz\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
                ));
            }
            body.push_str("--fuzzfuzz--\r\n");
            Body::from(body)
        }
    };
    builder.body(body).unwrap()
}

fn caller() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        4 => Just(Some(basic("owner@g.test", OWNER_KEY))),
        2 => Just(Some(basic("member@g.test", MEMBER_KEY))),
        1 => Just(Some(basic("owner@g.test", "WrongKey0000000000000000000000zz"))),
        1 => Just(None),
    ]
}

/// Extra parameters nobody asked for (`ignored_parameters_unsupported`).
fn extras() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(("[a-z_]{1,10}", "[ -~]{0,10}"), 0..4)
}

#[derive(Debug, Clone)]
struct SubscriptionCase {
    delete: bool,
    names: String,
    principals: Option<String>,
    extras: Vec<(String, String)>,
    carrier: Carrier,
    caller: Option<String>,
}

fn subscription_case() -> impl Strategy<Value = SubscriptionCase> {
    (
        any::<bool>(),
        name_list(),
        principals(),
        extras(),
        carrier(),
        caller(),
    )
        .prop_map(
            |(delete, names, principals, extras, carrier, caller)| SubscriptionCase {
                delete,
                names,
                principals,
                extras,
                carrier,
                caller,
            },
        )
}

fn run_subscription_case(server: &Server, case: &SubscriptionCase) {
    let subscriptions = if case.delete {
        case.names.clone()
    } else {
        // POST takes objects; turn a list of names into one, keep anything else as is.
        match serde_json::from_str::<Value>(&case.names) {
            Ok(Value::Array(items)) => json!(
                items
                    .into_iter()
                    .map(|item| match item {
                        Value::String(name) => json!({"name": name}),
                        other => other,
                    })
                    .collect::<Vec<_>>()
            )
            .to_string(),
            _ => case.names.clone(),
        }
    };
    let mut params = vec![("subscriptions".to_owned(), subscriptions)];
    if let Some(principals) = &case.principals {
        params.push(("principals".to_owned(), principals.clone()));
    }
    params.extend(case.extras.iter().cloned());
    let method = if case.delete { "DELETE" } else { "POST" };
    let what = format!("{method} /users/me/subscriptions {:?}", case.carrier);
    let (status, json) = server.check(
        &what,
        request(
            method,
            "/api/v1/users/me/subscriptions",
            case.caller.clone(),
            &params,
            case.carrier,
        ),
    );
    if status == 200 && case.delete {
        let listed = |field: &str| json[field].as_array().map_or(0, Vec::len);
        assert!(
            json["removed"].is_array() && json["not_removed"].is_array(),
            "{what}: {json}"
        );
        let _ = listed("removed") + listed("not_removed");
    }
}

/// A call of a user-group endpoint with arbitrary ids, lists and settings.
#[derive(Debug, Clone)]
struct GroupCase {
    method: &'static str,
    path: String,
    params: Vec<(String, String)>,
    carrier: Carrier,
    caller: Option<String>,
}

fn id_list() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(prop_oneof![8 => 1i64..45, 1 => any::<i64>()], 0..20)
            .prop_map(|v| json!(v).to_string()),
        1 => (0usize..1500).prop_map(|n| json!((0..n as i64).collect::<Vec<_>>()).to_string()),
        1 => any_json().prop_map(|v| v.to_string()),
        1 => any::<String>(),
    ]
}

fn group_case() -> impl Strategy<Value = GroupCase> {
    let group = prop_oneof![4 => 1i64..12, 1 => any::<i64>()].prop_map(|id| id.to_string());
    let endpoint =
        (group, 0usize..9, prop_oneof![1i64..45, any::<i64>()]).prop_map(|(group, which, user)| {
            match which {
                0 => ("GET", "/api/v1/user_groups".to_owned()),
                1 => ("POST", "/api/v1/user_groups/create".to_owned()),
                2 => ("PATCH", format!("/api/v1/user_groups/{group}")),
                3 => ("POST", format!("/api/v1/user_groups/{group}/members")),
                4 => ("GET", format!("/api/v1/user_groups/{group}/members")),
                5 => ("GET", format!("/api/v1/user_groups/{group}/members/{user}")),
                6 => ("POST", format!("/api/v1/user_groups/{group}/subgroups")),
                7 => ("GET", format!("/api/v1/user_groups/{group}/subgroups")),
                _ => ("POST", format!("/api/v1/user_groups/{group}/deactivate")),
            }
        });
    let names = [
        "name",
        "description",
        "members",
        "subgroups",
        "add",
        "delete",
        "add_subgroups",
        "delete_subgroups",
        "can_manage_group",
        "can_join_group",
        "direct_member_only",
    ];
    let value = prop_oneof![
        3 => id_list(),
        1 => "[a-z:@ ]{0,12}",
        1 => any_json().prop_map(|v| v.to_string()),
        1 => any_json().prop_map(|v| json!({"new": v}).to_string()),
    ];
    let params = prop::collection::vec((prop::sample::select(names.to_vec()), value), 0..5)
        .prop_map(|pairs| {
            pairs
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value))
                .collect::<Vec<_>>()
        });
    (endpoint, params, extras(), carrier(), caller()).prop_map(
        |((method, path), mut params, extras, carrier, caller)| {
            params.extend(extras);
            GroupCase {
                method,
                path,
                params,
                carrier,
                caller,
            }
        },
    )
}

fn run_group_case(server: &Server, case: &GroupCase) {
    let what = format!("{} {} {:?}", case.method, case.path, case.carrier);
    server.check(
        &what,
        request(
            case.method,
            &case.path,
            case.caller.clone(),
            &case.params,
            case.carrier,
        ),
    );
}

#[derive(Debug, Clone)]
struct WebhookCase {
    only: Option<String>,
    exclude: Option<String>,
    event: Option<String>,
    body: String,
    stream: Option<String>,
}

pub(crate) fn pattern_list() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec("[a-z:*?\\[\\]!-]{0,30}", 0..6).prop_map(|v| json!(v).to_string()),
        1 => (0usize..300).prop_map(|n| json!([format!("{}b", "*".repeat(n))]).to_string()),
        1 => any_json().prop_map(|v| v.to_string()),
    ]
}

fn webhook_case() -> impl Strategy<Value = WebhookCase> {
    (
        prop::option::of(pattern_list()),
        prop::option::of(pattern_list()),
        prop::option::of(prop_oneof![
            "[a-z:_]{0,30}",
            (0usize..400).prop_map(|n| "a".repeat(n)),
        ]),
        prop_oneof![
            Just(r#"{"featured_title":"T","featured_url":"https://x.test"}"#.to_owned()),
            Just(r#"{"push":{"changes":[]},"actor":{"display_name":"A"}}"#.to_owned()),
            any_json().prop_map(|v| v.to_string()),
            any::<String>(),
        ],
        prop::option::of(stream_name()),
    )
        .prop_map(|(only, exclude, event, body, stream)| WebhookCase {
            only,
            exclude,
            event,
            body,
            stream,
        })
}

fn run_webhook_case(server: &Server, integration: &str, case: &WebhookCase) {
    let mut query = vec![format!("api_key={HOOK_KEY}")];
    let optional = [
        ("only_events", &case.only),
        ("exclude_events", &case.exclude),
        ("stream", &case.stream),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            query.push(format!("{name}={}", percent(value)));
        }
    }
    let mut builder = Request::builder().method("POST").uri(format!(
        "/api/v1/external/{integration}?{}",
        query.join("&")
    ));
    if let Some(event) = &case.event {
        builder = builder.header("X-Event-Key", event.as_str());
    }
    let request = builder.body(Body::from(case.body.clone())).unwrap();
    server.check(&format!("webhook {integration} {case:?}"), request);
}

proptest! {
    #![proptest_config(config("requests", 64))]

    #[test]
    fn subscription_requests_answer_zulip_json_within_the_budget(
        cases in prop::collection::vec(subscription_case(), 1..4),
    ) {
        let server = Server::new();
        for case in &cases {
            run_subscription_case(&server, case);
        }
    }

    #[test]
    fn user_group_requests_answer_zulip_json_within_the_budget(
        cases in prop::collection::vec(group_case(), 1..6),
    ) {
        let server = Server::new();
        for case in &cases {
            run_group_case(&server, case);
        }
    }

    #[test]
    fn webhook_requests_answer_zulip_json_within_the_budget(
        cases in prop::collection::vec(webhook_case(), 1..4),
    ) {
        let server = Server::new();
        for case in &cases {
            run_webhook_case(&server, "helloworld", case);
            run_webhook_case(&server, "bitbucket2", case);
        }
    }
}

/// The issue's worst accepted inputs: refused quickly or handled quickly.
#[test]
fn the_issues_worst_cases_answer_within_the_budget() {
    let server = Server::new();
    let owner = Some(basic("owner@g.test", OWNER_KEY));
    let names: Vec<String> = (0..8000).map(|n| format!("stream-{n}")).collect();
    let ids: Vec<i64> = (0..1000).map(|n| 10 + n % 30).collect();
    let worst = [
        vec![("subscriptions".to_owned(), json!(names).to_string())],
        vec![
            ("subscriptions".to_owned(), json!(names).to_string()),
            ("principals".to_owned(), json!(ids).to_string()),
        ],
    ];
    for params in &worst {
        let request = request(
            "DELETE",
            "/api/v1/users/me/subscriptions",
            owner.clone(),
            params,
            Carrier::Form,
        );
        server.check("DELETE with 8,000 names", request);
    }
    let text = format!("{}b", "*".repeat(255));
    let case = WebhookCase {
        only: Some(json!([text]).to_string()),
        exclude: None,
        event: Some("a".repeat(200)),
        body: r#"{"push":{"changes":[]}}"#.to_owned(),
        stream: Some("s1".to_owned()),
    };
    run_webhook_case(&server, "bitbucket2", &case);
}

#[test]
fn corpus_requests_answer_zulip_json_within_the_budget() {
    // Each file: `METHOD PATH` on the first line, a form body after.
    let server = Server::new();
    for (name, content) in corpus("requests") {
        let (head, body) = content.split_once('\n').unwrap_or((content.as_str(), ""));
        let (method, path) = head.split_once(' ').unwrap();
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::AUTHORIZATION, basic("owner@g.test", OWNER_KEY))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body.trim_end_matches('\n').to_owned()))
            .unwrap();
        server.check(&name, request);
    }
}
