//! Every registered integration through the router (`POST /api/v1/external/<name>`): its
//! own samples with a top-level field replaced by JSON of any shape, JSON of any shape,
//! or text that is not JSON; its own event header with one of its event types or any
//! text; random `only_events`/`exclude_events`, stream and topic. The answer is
//! Zulip-shaped JSON, never a 5xx, within the budget. weir-integrations' own target
//! fuzzes the handlers alone, harder, and bounds their output; this one covers what the
//! server adds around them (parameters, rendering, storage, notices).

use axum::body::Body;
use axum::http::Request;
use proptest::prelude::*;
use serde_json::Value;
use weir_integrations::{EventSource, Integration, registry};

use crate::requests::{HOOK_KEY, Server, any_json, pattern_list, percent, stream_name};
use crate::support::config;

#[derive(Debug, Clone)]
enum Payload {
    /// A sample of the integration (by index), a top-level field (by index) replaced.
    Sample(usize, usize, Value),
    Json(Value),
    Text(String),
}

#[derive(Debug, Clone)]
struct Case {
    integration: usize,
    body: Payload,
    /// An event type of the integration (by index), or this text.
    event: Result<usize, String>,
    only: Option<String>,
    exclude: Option<String>,
    stream: Option<String>,
    topic: Option<String>,
}

fn case() -> impl Strategy<Value = Case> {
    let body = prop_oneof![
        4 => (any::<usize>(), any::<usize>(), any_json())
            .prop_map(|(sample, field, value)| Payload::Sample(sample, field, value)),
        1 => any_json().prop_map(Payload::Json),
        1 => any::<String>().prop_map(Payload::Text),
    ];
    let event = prop_oneof![
        3 => any::<usize>().prop_map(Ok),
        1 => "[a-z:_ .-]{0,40}".prop_map(Err),
    ];
    (
        any::<usize>(),
        body,
        event,
        prop::option::weighted(0.3, pattern_list()),
        prop::option::weighted(0.3, pattern_list()),
        prop::option::of(stream_name()),
        prop::option::weighted(0.2, "[a-zA-Z #*]{1,80}"),
    )
        .prop_map(
            |(integration, body, event, only, exclude, stream, topic)| Case {
                integration,
                body,
                event,
                only,
                exclude,
                stream,
                topic,
            },
        )
}

fn body_of(integration: &Integration, body: &Payload) -> String {
    match body {
        Payload::Sample(sample, field, value) => {
            let fixture = &integration.fixtures[sample % integration.fixtures.len()];
            let mut json: Value = serde_json::from_str(fixture.body).unwrap();
            if let Some(fields) = json.as_object_mut()
                && !fields.is_empty()
            {
                let key = fields.keys().nth(field % fields.len()).unwrap().clone();
                fields.insert(key, value.clone());
            }
            json.to_string()
        }
        Payload::Json(value) => value.to_string(),
        Payload::Text(text) => text.clone(),
    }
}

fn run_case(server: &Server, case: &Case) {
    let integrations = registry();
    let integration = &integrations[case.integration % integrations.len()];
    let mut query = vec![format!("api_key={HOOK_KEY}")];
    let optional = [
        ("only_events", &case.only),
        ("exclude_events", &case.exclude),
        ("stream", &case.stream),
        ("topic", &case.topic),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            query.push(format!("{name}={}", percent(value)));
        }
    }
    let mut builder = Request::builder().method("POST").uri(format!(
        "/api/v1/external/{}?{}",
        integration.name,
        query.join("&")
    ));
    builder = builder.header("Content-Type", "application/json");
    if let EventSource::Header(header) = integration.event_source {
        let event = match &case.event {
            Ok(index) if !integration.event_types.is_empty() => {
                integration.event_types[index % integration.event_types.len()].to_owned()
            }
            Ok(_) => String::new(),
            Err(text) => text.clone(),
        };
        builder = builder.header(header, event);
    }
    let body = body_of(integration, &case.body);
    let what = format!("webhook {} {case:?}", integration.name);
    let request = builder.body(Body::from(body)).unwrap();
    server.check(&what, request);
}

proptest! {
    #![proptest_config(config("webhooks", 48))]

    #[test]
    fn every_integration_answers_zulip_json_within_the_budget(
        cases in prop::collection::vec(case(), 1..4),
    ) {
        let server = Server::new();
        for case in &cases {
            run_case(&server, case);
        }
    }
}
