//! The Zulip client against a scripted loopback server.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::support::{EMAIL, KEY, Reply, Stub, client, client_with, fast_config, user_json};
use axum::http::Method;
use serde_json::json;
use weir_core::{
    Anchor, ClientError, MessagesQuery, NarrowTerm, NewBot, NewSubscription, Principals,
};
use zulip_api::BotType;

const SUBS: &str = "/api/v1/users/me/subscriptions";

#[tokio::test]
async fn basic_auth_and_user_agent_are_sent() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, KEY);
    let me = client(&stub).get_own_user().await.unwrap();
    assert_eq!(me.email, EMAIL);
    let request = &stub.requests()[0];
    assert_eq!(
        request.basic_auth(),
        Some((EMAIL.to_string(), KEY.to_string()))
    );
    let agent = request.header("user-agent").unwrap();
    assert_eq!(agent, format!("Weir/{}", env!("CARGO_PKG_VERSION")));
}

#[tokio::test]
async fn server_settings_are_fetched_without_auth_once_and_cached() {
    let stub = Stub::start().await;
    stub.server_settings(362);
    let client = client(&stub);
    assert!(client.cached_server_settings().is_none());
    assert_eq!(client.feature_level().await.unwrap(), 362);
    assert!(client.supports_integer_principals().await.unwrap());
    let settings = client.clone().server_settings().await.unwrap();
    assert_eq!(settings.realm_url(), Some("http://localhost"));
    let requests = stub.requests_to("/api/v1/server_settings");
    assert_eq!(requests.len(), 1, "cached after the first call");
    assert!(requests[0].header("authorization").is_none());
}

#[tokio::test]
async fn old_servers_do_not_support_integer_principals() {
    let stub = Stub::start().await;
    stub.server_settings(8);
    assert!(!client(&stub).supports_integer_principals().await.unwrap());
}

#[tokio::test]
async fn missing_stream_in_documented_shape_is_typed() {
    let stub = Stub::start().await;
    stub.server_settings(362)
        .route(Method::DELETE, SUBS, |_, _| {
            Reply::error(
                400,
                "STREAM_DOES_NOT_EXIST",
                "Channel 'nope' does not exist",
                json!({"stream": "nope"}),
            )
        });
    let error = client(&stub)
        .remove_subscriptions(&["Verona", "nope"], Some(&Principals::Ids(vec![10])))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ClientError::StreamsDoNotExist(names) if names == &["nope"]),
        "{error:?}"
    );
}

#[tokio::test]
async fn missing_streams_in_zulip_code_path_shape_are_typed() {
    let stub = Stub::start().await;
    stub.route(Method::DELETE, SUBS, |_, n| {
        let msg = if n == 0 {
            "Channel(s) (a, b) do not exist"
        } else {
            "Stream(s) (old) do not exist"
        };
        Reply::error(400, "BAD_REQUEST", msg, json!({}))
    });
    let client = client(&stub);
    let error = client
        .remove_subscriptions(&["a", "b"], None)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ClientError::StreamsDoNotExist(n) if n == &["a", "b"]),
        "{error:?}"
    );
    let error = client
        .remove_subscriptions(&["old"], None)
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ClientError::StreamsDoNotExist(n) if n == &["old"]),
        "{error:?}"
    );
}

#[tokio::test]
async fn unauthorized_is_typed() {
    let stub = Stub::start().await;
    stub.users_me(EMAIL, "someOtherKeyOfThirtyTwoCharacter");
    let error = client(&stub).get_own_user().await.unwrap_err();
    assert!(
        matches!(&error, ClientError::Unauthorized { msg } if msg == "Invalid API key"),
        "{error:?}"
    );
}

#[tokio::test]
async fn other_zulip_errors_keep_status_code_msg_and_extras() {
    let stub = Stub::start().await;
    stub.route(Method::POST, "/api/v1/bots", |_, _| {
        Reply::error(
            400,
            "BAD_REQUEST",
            "Username already in use",
            json!({"extra_field": 1}),
        )
    });
    let bot = NewBot {
        full_name: "Hook".into(),
        short_name: "hook".into(),
        bot_type: BotType::IncomingWebhook,
    };
    match client(&stub).create_bot(&bot).await.unwrap_err() {
        ClientError::Zulip {
            status,
            code,
            msg,
            extra,
        } => {
            assert_eq!(
                (status, code.as_str(), msg.as_str()),
                (400, "BAD_REQUEST", "Username already in use")
            );
            assert_eq!(extra.get("extra_field"), Some(&json!(1)));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_non_json_502_on_a_write_is_reported_and_not_retried() {
    let stub = Stub::start().await;
    stub.route(Method::POST, "/api/v1/messages/render", |_, _| {
        Reply::text(502, "<html><body><h1>502 Bad Gateway</h1></body></html>")
    });
    let error = client(&stub).render_message("**hi**").await.unwrap_err();
    assert!(
        matches!(&error, ClientError::Http { status: 502, body } if body.contains("502 Bad Gateway")),
        "{error:?}"
    );
    assert_eq!(stub.requests().len(), 1, "POST must not be retried on 5xx");
}

#[tokio::test]
async fn a_write_is_never_retried_on_5xx() {
    let stub = Stub::start().await;
    stub.server_settings(362).route(Method::POST, SUBS, |_, _| {
        Reply::error(500, "BAD_REQUEST", "Internal server error", json!({}))
    });
    let error = client(&stub)
        .add_subscriptions(
            &[NewSubscription::named("Verona")],
            Some(&Principals::Ids(vec![1])),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(error, ClientError::Zulip { status: 500, .. }),
        "{error:?}"
    );
    assert_eq!(stub.requests_to(SUBS).len(), 1);
}

#[tokio::test]
async fn a_get_is_retried_on_5xx_until_it_succeeds() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users", |_, n| match n {
        0 => Reply::text(502, "bad gateway"),
        1 => Reply::error(503, "BAD_REQUEST", "unavailable", json!({})),
        _ => Reply::success(json!({"members": [user_json(8, EMAIL, "Iago")]})),
    });
    let users = client(&stub).get_users().await.unwrap();
    assert_eq!(users.len(), 1);
    assert_eq!(stub.requests().len(), 3);
}

#[tokio::test]
async fn a_get_gives_up_after_the_configured_retries() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users", |_, _| {
        Reply::text(500, "boom")
    });
    let error = client(&stub).get_users().await.unwrap_err();
    assert!(
        matches!(error, ClientError::Http { status: 500, .. }),
        "{error:?}"
    );
    assert_eq!(
        stub.requests().len(),
        1 + fast_config().max_retries as usize
    );
}

#[tokio::test]
async fn a_429_with_retry_after_header_is_waited_out() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users", |_, n| {
        if n == 0 {
            Reply::error(
                429,
                "RATE_LIMIT_HIT",
                "API usage exceeded rate limit",
                json!({"retry-after": 0.2}),
            )
            .header("retry-after", "0.2")
        } else {
            Reply::success(json!({"members": []}))
        }
    });
    let started = Instant::now();
    client(&stub).get_users().await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(stub.requests().len(), 2);
}

#[tokio::test]
async fn a_429_without_header_uses_the_body_retry_after() {
    let stub = Stub::start().await;
    stub.route(Method::POST, "/api/v1/messages/render", |_, n| {
        if n == 0 {
            Reply::error(
                429,
                "RATE_LIMIT_HIT",
                "API usage exceeded rate limit",
                json!({"retry-after": 0.15}),
            )
        } else {
            Reply::success(json!({"rendered": "<p><strong>hi</strong></p>"}))
        }
    });
    let started = Instant::now();
    let html = client(&stub).render_message("**hi**").await.unwrap();
    assert_eq!(html, "<p><strong>hi</strong></p>");
    assert!(started.elapsed() >= Duration::from_millis(150));
    assert_eq!(
        stub.requests()[1].form().get("content").map(String::as_str),
        Some("**hi**")
    );
}

#[tokio::test]
async fn persistent_429s_end_in_rate_limited() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users", |_, _| {
        Reply::error(
            429,
            "RATE_LIMIT_HIT",
            "API usage exceeded rate limit",
            json!({"retry-after": 0.01}),
        )
        .header("retry-after", "0.01")
    });
    let error = client(&stub).get_users().await.unwrap_err();
    assert!(
        matches!(error, ClientError::RateLimited { retry_after: Some(d) } if d == Duration::from_millis(10)),
        "{error:?}"
    );
    assert_eq!(
        stub.requests().len(),
        1 + fast_config().max_rate_limit_retries as usize
    );
}

#[tokio::test]
async fn a_retry_after_beyond_the_wait_budget_is_returned_at_once() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users", |_, _| {
        Reply::error(
            429,
            "RATE_LIMIT_HIT",
            "API usage exceeded rate limit",
            json!({"retry-after": 30.5}),
        )
        .header("retry-after", "30.5")
    });
    let started = Instant::now();
    let error = client(&stub).get_users().await.unwrap_err();
    assert!(
        matches!(error, ClientError::RateLimited { retry_after: Some(d) } if d.as_secs_f64() == 30.5)
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users", |_, _| {
        Reply::success(json!({"members": []})).delay(Duration::from_secs(3))
    });
    let mut config = fast_config();
    config.timeout = Duration::from_millis(200);
    let started = Instant::now();
    let error = client_with(&stub, config).get_users().await.unwrap_err();
    assert!(
        matches!(error, ClientError::Timeout(d) if d == Duration::from_millis(200)),
        "{error:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "timeouts are not retried"
    );
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn an_unreachable_server_is_a_network_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let credentials = weir_core::Credentials {
        site: format!("http://{addr}"),
        email: EMAIL.into(),
        key: KEY.into(),
    };
    let client =
        weir_core::ZulipClient::new(credentials, &Default::default(), &fast_config()).unwrap();
    let error = client.get_own_user().await.unwrap_err();
    assert!(
        matches!(&error, ClientError::Network(text) if !text.is_empty()),
        "{error:?}"
    );
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/users/me", |_, _| {
        Reply::text(301, "").header("location", "https://chat.example.com/api/v1/users/me")
    });
    let error = client(&stub).get_own_user().await.unwrap_err();
    assert!(
        matches!(&error, ClientError::Redirected { status: 301, location } if location.starts_with("https://chat"))
    );
}

#[tokio::test]
async fn remove_subscriptions_sends_a_json_encoded_form_body() {
    let stub = Stub::start().await;
    stub.server_settings(362)
        .route(Method::DELETE, SUBS, |_, _| {
            Reply::success(json!({"removed": ["Verona", "Verona"], "not_removed": []}))
        });
    let response = client(&stub)
        .remove_subscriptions(&["Verona"], Some(&Principals::Ids(vec![10, 11])))
        .await
        .unwrap();
    assert_eq!(response.removed, ["Verona", "Verona"]);
    let request = &stub.requests_to(SUBS)[0];
    assert_eq!(
        request.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let form = request.form();
    assert_eq!(form["subscriptions"], r#"["Verona"]"#);
    assert_eq!(form["principals"], "[10,11]");
    assert!(request.basic_auth().is_some());
}

#[tokio::test]
async fn user_ids_are_refused_before_level_9_but_emails_are_sent() {
    let stub = Stub::start().await;
    stub.server_settings(8).route(Method::DELETE, SUBS, |_, _| {
        Reply::success(json!({"removed": ["Verona"], "not_removed": []}))
    });
    let client = client(&stub);
    let error = client
        .remove_subscriptions(&["Verona"], Some(&Principals::Ids(vec![10])))
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            ClientError::PrincipalIdsUnsupported { feature_level: 8 }
        ),
        "{error:?}"
    );
    assert!(stub.requests_to(SUBS).is_empty(), "nothing sent");

    let emails = Principals::Emails(vec!["hamlet@zulip.com".into()]);
    client
        .remove_subscriptions(&["Verona"], Some(&emails))
        .await
        .unwrap();
    assert_eq!(
        stub.requests_to(SUBS)[0].form()["principals"],
        r#"["hamlet@zulip.com"]"#
    );
}

#[tokio::test]
async fn reads_send_their_parameters_in_the_query_string() {
    let stub = Stub::start().await;
    stub.route(Method::GET, "/api/v1/streams", |_, _| Reply::success(json!({"streams": [{
        "stream_id": 1, "name": "Verona", "description": "", "rendered_description": "",
        "invite_only": false, "is_web_public": false, "history_public_to_subscribers": true,
        "date_created": 0, "subscriber_count": 3, "is_archived": false}]})))
        .route(Method::GET, SUBS, |_, _| Reply::success(json!({"subscriptions": [{
            "stream_id": 1, "name": "Verona", "description": "", "invite_only": false,
            "is_web_public": false, "date_created": 0, "subscriber_count": 2, "subscribers": [8, 9]}]})))
        .route(Method::GET, "/api/v1/streams/1/members", |_, _| {
            Reply::success(json!({"subscribers": [8, 9]}))
        })
        .route(Method::GET, "/api/v1/messages", |_, _| Reply::success(json!({
            "messages": [], "found_anchor": false, "found_newest": true, "found_oldest": true,
            "anchor": 10000000000000000_i64})));
    let client = client(&stub);

    let streams = client.get_streams(true).await.unwrap();
    assert_eq!(streams[0].name, "Verona");
    let subscriptions = client.get_subscriptions(true).await.unwrap();
    assert_eq!(subscriptions[0].subscribers.as_deref(), Some(&[8, 9][..]));
    assert_eq!(client.get_stream_members(1).await.unwrap(), [8, 9]);
    let query = MessagesQuery {
        anchor: Anchor::Oldest,
        num_before: 0,
        num_after: 20,
        narrow: vec![
            NarrowTerm::channel("Verona"),
            NarrowTerm::topic("greetings"),
        ],
        apply_markdown: false,
    };
    assert!(
        client
            .get_messages(&query)
            .await
            .unwrap()
            .messages
            .is_empty()
    );

    let requests = stub.requests();
    assert_eq!(requests[0].query_params()["include_all"], "true");
    assert_eq!(requests[1].query_params()["include_subscribers"], "true");
    let messages = requests[3].query_params();
    assert_eq!(messages["anchor"], "oldest");
    assert_eq!(messages["num_after"], "20");
    assert_eq!(messages["apply_markdown"], "false");
    let narrow: serde_json::Value = serde_json::from_str(&messages["narrow"]).unwrap();
    assert_eq!(
        narrow,
        json!([{"operator": "stream", "operand": "Verona"}, {"operator": "topic", "operand": "greetings"}])
    );
    assert!(requests.iter().all(|r| r.body.is_empty()));
}

#[tokio::test]
async fn bots_are_created_listed_and_rekeyed_with_secret_keys() {
    let stub = Stub::start().await;
    stub.route(Method::POST, "/api/v1/bots", |_, _| {
        Reply::success(json!({
        "user_id": 50, "api_key": "NewBotKeyNewBotKeyNewBotKey12345", "avatar_url": null,
        "default_sending_stream": null, "default_events_register_stream": null,
        "default_all_public_streams": false}))
    })
    .route(Method::GET, "/api/v1/bots", |_, _| {
        Reply::success(json!({"bots": [{
            "username": "hook-bot@zulip.com", "full_name": "Hook",
            "api_key": "NewBotKeyNewBotKeyNewBotKey12345", "avatar_url": null,
            "default_sending_stream": null, "default_events_register_stream": null,
            "default_all_public_streams": false}]}))
    })
    .route(
        Method::POST,
        "/api/v1/bots/50/api_key/regenerate",
        |_, _| Reply::success(json!({"api_key": "RegeneratedKeyRegeneratedKey1234"})),
    );
    let client = client(&stub);
    let bot = NewBot {
        full_name: "Hook".into(),
        short_name: "hook".into(),
        bot_type: BotType::IncomingWebhook,
    };
    let created = client.create_bot(&bot).await.unwrap();
    assert_eq!(created.user_id, 50);
    assert!(!format!("{created:?}").contains("NewBotKey"));
    assert_eq!(created.api_key.expose(), "NewBotKeyNewBotKeyNewBotKey12345");
    let form = stub.requests()[0].form();
    assert_eq!(
        (
            form["full_name"].as_str(),
            form["short_name"].as_str(),
            form["bot_type"].as_str()
        ),
        ("Hook", "hook", "2")
    );

    let bots = client.list_bots().await.unwrap();
    assert_eq!(bots[0].email, "hook-bot@zulip.com");
    assert_eq!(bots[0].user_id, None, "real Zulip does not send it");
    let key = client.regenerate_bot_key(50).await.unwrap();
    assert_eq!(key.expose(), "RegeneratedKeyRegeneratedKey1234");
}

#[tokio::test]
async fn register_snapshot_asks_for_users_and_subscriptions_with_subscribers() {
    let stub = Stub::start().await;
    stub.route(Method::POST, "/api/v1/register", |_, _| {
        Reply::success(json!({
        "queue_id": null, "last_event_id": -1, "zulip_feature_level": 362, "zulip_version": "10.0",
        "realm_users": [user_json(8, EMAIL, "Iago")], "realm_non_active_users": [],
        "cross_realm_bots": [], "subscriptions": [], "unsubscribed": [], "never_subscribed": []}))
    });
    let snapshot = client(&stub).register_snapshot().await.unwrap();
    assert_eq!(snapshot.realm_users.len(), 1);
    let form = stub.requests()[0].form();
    assert_eq!(
        form["fetch_event_types"],
        r#"["realm_user","subscription"]"#
    );
    assert_eq!(form["include_subscribers"], "true");
    assert_eq!(form["client_gravatar"], "true", "the grid shows no avatars");
    assert_eq!(stub.requests().len(), 1, "no queue, nothing to delete");
}

#[tokio::test]
async fn the_event_queue_of_a_snapshot_is_deleted() {
    let stub = Stub::start().await;
    stub.route(Method::POST, "/api/v1/register", |_, _| {
        Reply::success(json!({
        "queue_id": "1517975029:0", "last_event_id": -1, "zulip_feature_level": 362,
        "zulip_version": "10.0", "realm_users": [], "realm_non_active_users": [],
        "cross_realm_bots": [], "subscriptions": [], "unsubscribed": [], "never_subscribed": []}))
    })
    .route(Method::DELETE, "/api/v1/events", |_, _| {
        Reply::success(json!({}))
    });
    client(&stub).register_snapshot().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while stub.requests_to("/api/v1/events").is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let deletes = stub.requests_to("/api/v1/events");
    assert_eq!(deletes.len(), 1, "the queue was not deleted");
    assert_eq!(deletes[0].method, Method::DELETE);
    assert_eq!(deletes[0].form()["queue_id"], "1517975029:0");
}

#[tokio::test]
async fn concurrent_callers_share_one_client() {
    let stub = Stub::start().await;
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&hits);
    stub.route(Method::GET, "/api/v1/users/me", move |_, _| {
        counter.fetch_add(1, Ordering::SeqCst);
        Reply::success(user_json(8, EMAIL, "Iago"))
    });
    let client = client(&stub);
    let calls = (0..5).map(|_| {
        let client = client.clone();
        tokio::spawn(async move { client.get_own_user().await })
    });
    for call in calls {
        call.await.unwrap().unwrap();
    }
    assert_eq!(hits.load(Ordering::SeqCst), 5);
}
