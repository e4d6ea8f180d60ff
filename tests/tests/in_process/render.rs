//! The Markdown renderer messages go through: `POST /api/v1/messages/render`, and the
//! rendered HTML of messages an incoming webhook stored (Hello World's payloads, hostile
//! ones included), which must match Zulip's rendering and never carry a live script.

use weir_tests::helloworld::*;
use weir_tests::*;

const SCRIPT_TITLE: &str = include_str!("../../fixtures/webhooks/helloworld/script_title.json");
const JAVASCRIPT_URL: &str = include_str!("../../fixtures/webhooks/helloworld/javascript_url.json");

// ---------------------------------------------------------------------- rendering

#[tokio::test]
async fn render_returns_zulips_html_for_the_hello_world_markdown() {
    let server = TestServer::standard();

    let r = server
        .as_user(&MEMBER)
        .post(
            "/messages/render",
            &[("content", json!(hello_markdown(ADA_TITLE, ADA_URL)))],
        )
        .await;

    assert_eq!(
        r.ok()["rendered"],
        hello_html(ADA_TITLE, ADA_URL),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn render_agrees_with_the_stored_rendering() {
    let server = TestServer::standard();
    let title = "Grace Hopper & COBOL";
    let url = "https://en.wikipedia.org/wiki/Grace_Hopper";
    assert_webhook_success(&hello(&server, &bot_to("Engineering"), &payload(title, url)).await);
    let stored = read_all(
        &server.as_user(&OWNER),
        json!([{"operator": "channel", "operand": "Engineering"}]),
        true,
    )
    .await;

    let r = server
        .as_user(&OWNER)
        .post(
            "/messages/render",
            &[("content", json!(hello_markdown(title, url)))],
        )
        .await;

    assert_eq!(r.ok()["rendered"], stored[0]["content"], "{}", r.debug());
    assert_eq!(
        r.json["rendered"],
        hello_html("Grace Hopper &amp; COBOL", url),
        "{}",
        r.debug()
    );
}

#[tokio::test]
async fn render_neutralises_hostile_markdown() {
    let server = TestServer::standard();
    let nina = server.as_user(&MEMBER2);

    for content in [
        hello_markdown("<script>alert(1)</script>", ADA_URL),
        hello_markdown("Click me", "javascript:alert(1)"),
        "<img src=x onerror=alert(1)>".to_string(),
        "[x](javascript:alert(1))".to_string(),
    ] {
        let r = nina
            .post("/messages/render", &[("content", json!(content))])
            .await;
        let html = r.ok()["rendered"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", r.debug()));
        assert_harmless(html, &content);
    }
}

#[tokio::test]
async fn render_requires_content_and_authentication() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).post("/messages/render", &[]).await;
    let body = r.err(
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'content' argument",
    );
    assert_eq!(body["var_name"], "content");

    server
        .anon()
        .post("/messages/render", &[("content", json!("hi"))])
        .await
        .unauthorized("Not logged in: API authentication or user session required");
}

// ---------------------------------------------------------------------- hostile payloads

#[tokio::test]
async fn a_script_in_the_title_is_escaped_in_the_rendered_message() {
    let server = TestServer::standard();
    let m = hello_one(
        &server,
        &bot_to("Engineering"),
        SCRIPT_TITLE,
        "script title",
    )
    .await;
    // The Markdown source is stored as the integration built it...
    assert_eq!(
        m["content"],
        hello_markdown(
            "<script>alert(1)</script>",
            "https://en.wikipedia.org/wiki/Cross-site_scripting"
        ),
        "{m:#}"
    );
    // ...and rendered without a live script.
    let rendered = read_all(
        &server.as_user(&OWNER),
        json!([{"operator": "channel", "operand": "Engineering"}]),
        true,
    )
    .await;
    let html = rendered[0]["content"].as_str().unwrap();
    assert_harmless(html, "script title");
    assert!(
        html.contains("&lt;script&gt;"),
        "the title should be shown, escaped:\n{html}"
    );
}

#[tokio::test]
async fn a_javascript_url_is_not_a_live_link_in_the_rendered_message() {
    let server = TestServer::standard();
    let urls = [
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "https://x.test/\"onmouseover=\"alert(1)",
    ];
    let mut bodies = vec![JAVASCRIPT_URL.to_string()];
    bodies.extend(urls.iter().map(|u| payload("Click me", u)));

    for body in bodies {
        let m = hello_one(&server, &bot_to("Engineering"), &body, &body).await;
        let rendered = server
            .as_user(&OWNER)
            .get(
                "/messages",
                &[
                    ("anchor", json!(m["id"])),
                    ("num_before", json!(0)),
                    ("num_after", json!(0)),
                    ("apply_markdown", json!(true)),
                ],
            )
            .await;
        let html = rendered.ok()["messages"][0]["content"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(!html.is_empty(), "{}", rendered.debug());
        assert_harmless(&html, &body);
    }
}
