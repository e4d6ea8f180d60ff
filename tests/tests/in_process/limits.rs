//! Requests that ask for too much: every list has a documented maximum answered with a
//! 400 naming the parameter, rendering is bounded, and form and multipart bodies share
//! one limit (issue 11, findings 1, 3, 6 and 10). That the largest accepted request never
//! holds up the others and that SIGTERM stops a busy server promptly needs a process:
//! `process/limits.rs`.

use serde_json::Value;
use weir_tests::*;

/// The documented limits (README, "Limits").
const MAX_SUBSCRIPTIONS: usize = 1_000;
const MAX_PRINCIPALS: usize = 1_000;

fn names(count: usize) -> Vec<String> {
    (0..count).map(|n| format!("stream {n:05}")).collect()
}

fn subscription_objects(names: &[String]) -> Value {
    Value::Array(names.iter().map(|name| json!({ "name": name })).collect())
}

// ------------------------------------------------------------ finding 1: list limits

#[tokio::test]
async fn an_unsubscribe_naming_more_streams_than_the_limit_is_refused() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);
    let before = server.subscription_state().await;
    let mut too_many = names(MAX_SUBSCRIPTIONS);
    too_many.push("Verona".into());

    let r = member
        .delete(
            "/users/me/subscriptions",
            &[("subscriptions", json!(too_many))],
        )
        .await;

    r.bad_request("subscriptions is too long (limit: 1000 items)");
    assert_eq!(server.subscription_state().await, before);
}

#[tokio::test]
async fn a_subscribe_naming_more_streams_than_the_limit_is_refused() {
    let server = TestServer::standard();
    let before = server.subscription_state().await;

    let r = server
        .as_user(&OWNER)
        .post(
            "/users/me/subscriptions",
            &[(
                "subscriptions",
                subscription_objects(&names(MAX_SUBSCRIPTIONS + 1)),
            )],
        )
        .await;

    r.bad_request("subscriptions is too long (limit: 1000 items)");
    assert_eq!(server.subscription_state().await, before);
}

#[tokio::test]
async fn more_principals_than_the_limit_are_refused_on_both_endpoints() {
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);
    let principals: Vec<u64> = (0..=MAX_PRINCIPALS as u64).map(|n| 101 + n % 6).collect();

    owner
        .delete(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!(["Verona"])),
                ("principals", json!(principals)),
            ],
        )
        .await
        .bad_request("principals is too long (limit: 1000 items)");
    owner
        .post(
            "/users/me/subscriptions",
            &[
                ("subscriptions", json!([{"name": "Verona"}])),
                ("principals", json!(principals)),
            ],
        )
        .await
        .bad_request("principals is too long (limit: 1000 items)");
}

#[tokio::test]
async fn a_stream_description_longer_than_zulips_limit_is_refused() {
    let server = TestServer::standard();
    let owner = server.as_user(&OWNER);
    let subscribe = |description: String| {
        let owner = owner.clone();
        async move {
            let subscriptions = json!([{"name": "Long story", "description": description}]);
            owner
                .post(
                    "/users/me/subscriptions",
                    &[("subscriptions", subscriptions)],
                )
                .await
        }
    };

    subscribe("d".repeat(1_025))
        .await
        .bad_request("subscriptions[0][\"description\"] is too long (limit: 1024 characters)");
    subscribe("d".repeat(1_024)).await.ok();
}

// --------------------------------------------------------- findings 3 and 6: rendering

#[tokio::test]
async fn content_longer_than_a_message_may_be_is_not_rendered() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);

    member
        .post(
            "/messages/render",
            &[("content", json!("x".repeat(10_000)))],
        )
        .await
        .ok();
    // 16,000 channel links (208 KB) once took seconds.
    member
        .post(
            "/messages/render",
            &[("content", json!("#**Verona** ".repeat(16_000)))],
        )
        .await
        .bad_request("Message too long (limit: 10000 characters)");
    member
        .post(
            "/messages/render",
            &[("content", json!(">".repeat(1_000_000)))],
        )
        .await
        .bad_request("Message too long (limit: 10000 characters)");
}

#[tokio::test]
async fn mentions_never_land_inside_an_attribute() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);
    let render = |content: &'static str| {
        let member = member.clone();
        async move {
            let r = member
                .post("/messages/render", &[("content", json!(content))])
                .await;
            r.ok()["rendered"].as_str().unwrap().to_owned()
        }
    };

    assert_eq!(
        render("[x](#**Engineering**)").await,
        "<p><a href=\"#**Engineering**\">x</a></p>"
    );
    assert_eq!(
        render("[x](<https://a.org/@**Mark Member**>)").await,
        "<p><a href=\"https://a.org/@**Mark Member**\">x</a></p>"
    );
    let fenced = render("> ```#**Engineering**\n> code\n> ```").await;
    assert!(
        // Zulip lower-cases the fence's language tag.
        fenced.contains("data-code-language=\"#**engineering**\"")
            && !fenced.contains("data-stream-id"),
        "{fenced}"
    );
    // In text, they still resolve.
    assert!(
        render("see #**Engineering**")
            .await
            .contains("data-stream-id=\"11\"")
    );
}

// ------------------------------------------------------- finding 10: one body limit

/// `subscriptions=["xxx…"]` as a form body and as a multipart body of the same size.
fn bodies(name_len: usize) -> [(&'static str, Vec<u8>); 2] {
    let value = json!(["x".repeat(name_len)]).to_string();
    let form = form_body(&[("subscriptions", json!(["x".repeat(name_len)]))]).into_bytes();
    let boundary = "weirboundary7MA4YWxkTrZu0gW";
    let multipart = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"subscriptions\"\r\n\r\n\
         {value}\r\n--{boundary}--\r\n"
    )
    .into_bytes();
    [
        ("application/x-www-form-urlencoded", form),
        (
            "multipart/form-data; boundary=weirboundary7MA4YWxkTrZu0gW",
            multipart,
        ),
    ]
}

#[tokio::test]
async fn multipart_and_form_bodies_share_one_limit_and_one_answer() {
    let server = TestServer::standard();
    let member = server.as_user(&MEMBER);
    for (name_len, status, msg) in [
        (
            3 << 20,
            400,
            "Channel name too long (limit: 60 characters).",
        ),
        (6 << 20, 413, "Request body too large (limit: 5 MiB)"),
    ] {
        for (content_type, body) in bodies(name_len) {
            let request = member
                .request(Method::DELETE, "/users/me/subscriptions")
                .header("Content-Type", content_type)
                .body(body);
            let r = member.send(request, content_type).await;
            assert_eq!(
                (r.status, r.json["msg"].as_str()),
                (status, Some(msg)),
                "{}",
                r.debug()
            );
        }
    }
}
