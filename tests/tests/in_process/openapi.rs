//! Weir against Zulip's own OpenAPI document (`tests/openapi/zulip.yaml`).
//!
//! The harness validates every response of every suite (see `weir_tests::openapi`);
//! this suite proves that each operation Weir implements has at least one validated
//! success and one validated error, that a server at feature level 372 sends every
//! field the document has, and that `register` brings the keys each requested
//! `fetch_event_types` entry promises.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use weir_tests::openapi::{Spec, validated_responses};
use weir_tests::*;

/// The operations of Zulip's document that Weir implements (docs/zulip-compatibility.md
/// lists them with their validated statuses).
const IMPLEMENTED: &[&str] = &[
    "get-server-settings",
    "get-users",
    "get-own-user",
    "get-user",
    "get-user-by-email",
    "get-streams",
    "get-subscribers",
    "get-stream-id",
    "update-stream",
    "get-subscriptions",
    "subscribe",
    "unsubscribe",
    "register-queue",
    "get-messages",
    "send-message",
    "render-message",
    "update-settings",
    "get-user-groups",
    "create-user-group",
    "update-user-group",
    "update-user-group-members",
    "get-user-group-members",
    "get-is-user-group-member",
    "update-user-group-subgroups",
    "get-user-group-subgroups",
    "deactivate-user-group",
];

/// Operations that cannot fail, and why.
const CANNOT_FAIL: &[(&str, &str)] = &[(
    "get-server-settings",
    "unauthenticated and without parameters: there is nothing to get wrong",
)];

/// One successful call of every implemented operation.
async fn succeed_everywhere(server: &TestServer) {
    let mark = server.as_user(&MEMBER);
    let owner = server.as_user(&OWNER);
    server.anon().get("/server_settings", &[]).await.ok();
    mark.get("/users", &[]).await.ok();
    mark.get("/users", &[("client_gravatar", json!(false))])
        .await
        .ok();
    mark.get("/users", &[("include_custom_profile_fields", json!(true))])
        .await
        .ok();
    mark.get("/users/me", &[]).await.ok();
    server
        .as_user(&GENERIC_BOT)
        .get("/users/me", &[])
        .await
        .ok();
    mark.get(&format!("/users/{}", MEMBER2.id), &[]).await.ok();
    mark.get(&format!("/users/{}", WEBHOOK_BOT.id), &[])
        .await
        .ok();
    mark.get(&format!("/users/{}", MEMBER2.email), &[])
        .await
        .ok();
    mark.get("/streams", &[]).await.ok();
    owner
        .get("/streams", &[("include_all", json!(true))])
        .await
        .ok();
    mark.get("/streams/11/members", &[]).await.ok();
    owner
        .patch(
            "/streams/14",
            &[
                ("description", json!("Nobody here")),
                ("can_send_message_group", json!({"new": 6, "old": 7})),
            ],
        )
        .await
        .ok();
    mark.get("/get_stream_id", &[("stream", json!("Verona"))])
        .await
        .ok();
    mark.get(
        "/users/me/subscriptions",
        &[("include_subscribers", json!(true))],
    )
    .await
    .ok();
    mark.post(
        "/users/me/subscriptions",
        &[("subscriptions", json!([{"name": "OpenAPI Lab"}]))],
    )
    .await
    .ok();
    mark.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", json!("OpenAPI Lab")),
            ("topic", json!("checks https://example.test/x")),
            ("content", json!("hello @**Nina Member**")),
        ],
    )
    .await
    .ok();
    mark.post(
        "/messages",
        &[
            ("type", json!("direct")),
            ("to", json!([MEMBER2.id])),
            ("content", json!("/me waves")),
        ],
    )
    .await
    .ok();
    mark.get(
        "/messages",
        &[
            ("anchor", json!("newest")),
            ("num_before", json!(10)),
            ("num_after", json!(0)),
        ],
    )
    .await
    .ok();
    mark.get("/messages", &[("message_ids", json!([1, 2, 3]))])
        .await
        .ok();
    mark.post("/messages/render", &[("content", json!("**hi**"))])
        .await
        .ok();
    mark.patch("/settings", &[("translate_emoticons", json!(true))])
        .await
        .ok();
    for who in [&MEMBER, &OWNER, &GUEST] {
        server.as_user(who).post("/register", &[]).await.ok();
    }
    mark.post(
        "/register",
        &[
            ("fetch_event_types", json!(["realm_user", "subscription"])),
            ("include_subscribers", json!(true)),
            ("client_gravatar", json!(false)),
        ],
    )
    .await
    .ok();
    mark.delete(
        "/users/me/subscriptions",
        &[("subscriptions", json!(["OpenAPI Lab"]))],
    )
    .await
    .ok();
    succeed_with_groups(&mark).await;
}

/// One successful call of every user-group operation, on a group `mark` creates.
async fn succeed_with_groups(mark: &Api) {
    mark.get("/user_groups", &[]).await.ok();
    let created = mark
        .post(
            "/user_groups/create",
            &[
                ("name", json!("openapi team")),
                ("description", json!("")),
                ("members", json!([MEMBER.id])),
            ],
        )
        .await;
    let id = created.ok()["group_id"].as_u64().expect("group_id");
    let group = format!("/user_groups/{id}");
    mark.patch(&group, &[("description", json!("Checks"))])
        .await
        .ok();
    mark.post(
        &format!("{group}/members"),
        &[("add", json!([MEMBER2.id])), ("add_subgroups", json!([2]))],
    )
    .await
    .ok();
    mark.get(&format!("{group}/members"), &[]).await.ok();
    mark.get(&format!("{group}/members/{}", MEMBER2.id), &[])
        .await
        .ok();
    mark.post(&format!("{group}/subgroups"), &[("delete", json!([2]))])
        .await
        .ok();
    mark.get(&format!("{group}/subgroups"), &[]).await.ok();
    mark.post(&format!("{group}/deactivate"), &[]).await.ok();
    mark.get(
        "/user_groups",
        &[("include_deactivated_groups", json!(true))],
    )
    .await
    .ok();
}

/// One failing call of every implemented operation that can fail.
async fn fail_everywhere(server: &TestServer) {
    let mark = server.as_user(&MEMBER);
    let nobody = server.anon();
    nobody.get("/users", &[]).await.any_zulip_error();
    nobody.get("/users/me", &[]).await.any_zulip_error();
    mark.get("/users/9999", &[])
        .await
        .bad_request("No such user");
    mark.get("/users/nobody@globex.test", &[])
        .await
        .bad_request("No such user");
    server
        .as_user(&GUEST)
        .get("/streams", &[("include_all", json!(true))])
        .await
        .bad_request("User not authorized for this query");
    mark.get("/streams/22/members", &[])
        .await
        .bad_request("Invalid channel ID");
    mark.get("/get_stream_id", &[("stream", json!("Nowhere"))])
        .await
        .bad_request("Invalid channel name 'Nowhere'");
    mark.patch("/streams/14", &[("description", json!("x"))])
        .await
        .bad_request("You do not have permission to administer this channel.");
    mark.get(
        "/users/me/subscriptions",
        &[("include_subscribers", json!(null))],
    )
    .await
    .bad_request("include_subscribers is not a boolean");
    mark.post(
        "/users/me/subscriptions",
        &[("subscriptions", json!([{"name": "Hidden Lair"}]))],
    )
    .await
    .bad_request("Unable to access channel (Hidden Lair).");
    mark.delete(
        "/users/me/subscriptions",
        &[("subscriptions", json!(["Nowhere"]))],
    )
    .await
    .stream_does_not_exist("Nowhere");
    mark.post("/register", &[("fetch_event_types", json!(["presence"]))])
        .await
        .bad_request("Unsupported event types: presence");
    mark.get("/messages", &[("anchor", json!("newest"))])
        .await
        .err(
            400,
            "REQUEST_VARIABLE_MISSING",
            "Missing 'num_before' argument",
        );
    mark.post(
        "/messages",
        &[
            ("type", json!("stream")),
            ("to", json!("Nowhere")),
            ("topic", json!("t")),
            ("content", json!("x")),
        ],
    )
    .await
    .stream_does_not_exist("Nowhere");
    mark.post("/messages/render", &[]).await.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'content' argument",
    );
    mark.patch("/settings", &[("translate_emoticons", json!("on"))])
        .await
        .bad_request("translate_emoticons is not valid JSON");
    let guest = server.as_user(&GUEST);
    guest
        .get("/user_groups", &[])
        .await
        .bad_request("Not allowed for guest users");
    mark.post(
        "/user_groups/create",
        &[
            ("name", json!("role:x")),
            ("description", json!("")),
            ("members", json!([])),
        ],
    )
    .await
    .bad_request("User group name cannot start with 'role:'.");
    mark.patch("/user_groups/999", &[("name", json!("x"))])
        .await
        .bad_request("Invalid user group");
    mark.post("/user_groups/2/members", &[("add", json!([MEMBER.id]))])
        .await
        .bad_request("Insufficient permission");
    mark.get("/user_groups/999/members", &[])
        .await
        .bad_request("Invalid user group");
    mark.get("/user_groups/2/members/9999", &[])
        .await
        .bad_request("No such user");
    mark.post("/user_groups/2/subgroups", &[("add", json!([3]))])
        .await
        .bad_request("Insufficient permission");
    mark.get("/user_groups/999/subgroups", &[])
        .await
        .bad_request("Invalid user group");
    mark.post("/user_groups/999/deactivate", &[])
        .await
        .bad_request("Invalid user group");
}

#[tokio::test]
async fn every_implemented_operation_validates_a_success_and_an_error() {
    let spec = Spec::global();
    for id in IMPLEMENTED {
        assert!(
            spec.operation(id).is_some(),
            "{id} is not in Zulip's document"
        );
    }
    let server = TestServer::standard();
    succeed_everywhere(&server).await;
    fail_everywhere(&server).await;

    let mut statuses: BTreeMap<&str, BTreeSet<u16>> = BTreeMap::new();
    let seen = validated_responses();
    for (id, status) in &seen {
        statuses.entry(id.as_str()).or_default().insert(*status);
    }
    for id in IMPLEMENTED {
        let got = statuses.get(id).cloned().unwrap_or_default();
        assert!(
            got.iter().any(|s| (200..300).contains(s)),
            "{id}: no validated success (validated: {seen:?})"
        );
        let may_fail = !CANNOT_FAIL.iter().any(|(name, _)| name == id);
        assert!(
            !may_fail || got.iter().any(|s| (400..500).contains(s)),
            "{id}: no validated error (validated: {seen:?})"
        );
    }
}

#[tokio::test]
async fn at_feature_level_372_every_documented_field_is_there() {
    let server = TestServer::standard_with(&["--feature-level", "372"]);
    assert_eq!(server.feature_level, 372);
    succeed_everywhere(&server).await;
}

/// The keys the document says a `fetch_event_types` entry brings, from its
/// "Present if `X` is present in `fetch_event_types`" notes.
fn promised_keys() -> BTreeMap<String, BTreeSet<String>> {
    let properties = Spec::global()
        .document()
        .pointer("/paths/~1register/post/responses/200/content/application~1json/schema/allOf/1/properties")
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("register's response properties"));
    let mut promised: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (key, property) in properties {
        let description = property["description"].as_str().unwrap_or_default();
        let words: Vec<&str> = description.split_whitespace().collect();
        let text = words.join(" ");
        let marker = "Present if `";
        if let Some(start) = text.find(marker)
            && let Some((kind, tail)) = text[start + marker.len()..].split_once('`')
            && tail.starts_with(" is present in `fetch_event_types`")
        {
            promised
                .entry(kind.to_owned())
                .or_default()
                .insert(key.clone());
        }
    }
    promised
}

#[tokio::test]
async fn register_brings_every_key_each_requested_event_type_promises() {
    let server = TestServer::standard();
    let mark = server.as_user(&MEMBER);
    let promised = promised_keys();
    assert!(
        promised["realm_user"].contains("realm_users"),
        "{promised:?}"
    );
    let supported = [
        "realm_user",
        "subscription",
        "message",
        "stream",
        "realm_emoji",
        "alert_words",
        "muted_users",
        "muted_topics",
        "user_topic",
        "starred_messages",
        "realm_linkifiers",
        "realm_filters",
        "realm_playgrounds",
        "realm_domains",
        "default_streams",
        "scheduled_messages",
        "saved_snippets",
        "user_status",
        "realm_user_groups",
        "realm",
        "realm_incoming_webhook_bots",
    ];
    for kind in supported {
        let r = mark
            .post("/register", &[("fetch_event_types", json!([kind]))])
            .await;
        let body = r.ok();
        let keys = promised
            .get(kind)
            .unwrap_or_else(|| panic!("no keys for {kind}"));
        for key in keys {
            assert!(
                body.get(key).is_some(),
                "{kind} does not bring `{key}`\n{}",
                r.debug()
            );
        }
        // Nothing another type promises comes along.
        for (other, keys) in &promised {
            if other != kind {
                for key in keys.difference(&promised[kind]) {
                    assert!(body.get(key).is_none(), "{kind} brought `{key}` of {other}");
                }
            }
        }
    }
    let r = mark
        .post(
            "/register",
            &[("fetch_event_types", json!(["message", "presence", "realm"]))],
        )
        .await;
    r.bad_request("Unsupported event types: presence");
}

#[tokio::test]
async fn register_without_event_types_brings_every_key_of_every_supported_type() {
    let server = TestServer::standard();
    let promised = promised_keys();
    let mark = server.as_user(&MEMBER);
    // A type is supported when asking for it alone is not refused.
    let mut supported = Vec::new();
    for kind in promised.keys() {
        let r = mark
            .post("/register", &[("fetch_event_types", json!([kind]))])
            .await;
        if r.status == 200 {
            supported.push(kind.as_str());
        }
    }
    assert!(supported.contains(&"realm") && supported.contains(&"realm_user"));
    let r = mark.post("/register", &[]).await;
    let body = r.ok();
    for kind in supported {
        for key in &promised[kind] {
            assert!(body.get(key).is_some(), "{kind}: no `{key}`\n{}", r.debug());
        }
    }
    assert_eq!(body["realm_name"], REALM_NAME);
    assert_eq!(body["realm_url"], REALM_URL);
    assert_eq!(body["max_stream_name_length"], 60);
    assert_eq!(body["realm_can_create_groups"], 6);
}

#[tokio::test]
async fn server_settings_list_every_authentication_method_the_document_names() {
    let server = TestServer::standard();
    let r = server.anon().get("/server_settings", &[]).await;
    let methods = r.ok()["authentication_methods"]
        .as_object()
        .unwrap_or_else(|| panic!("unexpected JSON shape"))
        .clone();
    let documented = Spec::global()
        .document()
        .pointer("/paths/~1server_settings/get/responses/200/content/application~1json/schema/allOf/1/properties/authentication_methods/properties")
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("documented methods"))
        .keys()
        .cloned()
        .collect::<BTreeSet<_>>();
    assert_eq!(methods.keys().cloned().collect::<BTreeSet<_>>(), documented);
    assert_eq!(methods["password"], true);
    assert_eq!(methods["github"], false);
}
