//! The integration registry, `GET /api/v1/integrations`: what it lists, who may read it,
//! and that every fixture it ships is a payload its integration accepts.

use serde_json::Value;
use weir_tests::helloworld::*;
use weir_tests::*;

#[tokio::test]
async fn the_registry_lists_hello_world_with_its_fixtures() {
    let server = TestServer::standard();

    let r = server.as_user(&MEMBER).get("/integrations", &[]).await;

    let list = r.ok()["integrations"]
        .as_array()
        .unwrap_or_else(|| panic!("no `integrations` list\n{}", r.debug()));
    let hw = list
        .iter()
        .find(|i| i["name"] == "helloworld")
        .unwrap_or_else(|| panic!("no helloworld\n{}", r.debug()));
    assert_eq!(hw["display_name"], "Hello World", "{hw:#}");
    assert_eq!(hw["categories"], json!(["misc"]), "{hw:#}");
    let fixtures = hw["fixtures"]
        .as_array()
        .unwrap_or_else(|| panic!("no fixtures: {hw:#}"));
    assert!(!fixtures.is_empty(), "{hw:#}");
    for f in fixtures {
        assert!(f["name"].as_str().is_some_and(|n| !n.is_empty()), "{f:#}");
        assert!(f["headers"].is_array() || f["headers"].is_object(), "{f:#}");
        let body = f["body"]
            .as_str()
            .unwrap_or_else(|| panic!("fixture body: {f:#}"));
        let parsed: Value = serde_json::from_str(body).expect("fixture body not JSON");
        assert!(parsed["featured_title"].is_string() && parsed["featured_url"].is_string());
    }
    for i in list {
        assert!(
            i["name"]
                .as_str()
                .is_some_and(|n| !n.is_empty() && n == n.to_lowercase()),
            "integration names are lower case: {i:#}"
        );
    }
}

#[tokio::test]
async fn every_hello_world_fixture_posts_its_article() {
    let server = TestServer::standard();
    let r = server.as_user(&MEMBER).get("/integrations", &[]).await;
    let hw = r.ok()["integrations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "helloworld")
        .unwrap_or_else(|| panic!("no helloworld\n{}", r.debug()))
        .clone();

    for f in hw["fixtures"].as_array().unwrap() {
        let body = f["body"].as_str().unwrap();
        let parsed: Value = serde_json::from_str(body).unwrap();
        let m = hello_one(
            &server,
            &bot_to("Verona"),
            body,
            f["name"].as_str().unwrap(),
        )
        .await;
        assert_stream_message(
            &m,
            &WEBHOOK_BOT,
            VERONA,
            "Hello World",
            &hello_markdown(
                parsed["featured_title"].as_str().unwrap(),
                parsed["featured_url"].as_str().unwrap(),
            ),
        );
    }
}

#[tokio::test]
async fn the_registry_needs_a_rest_login() {
    let server = TestServer::standard();

    server
        .anon()
        .get("/integrations", &[])
        .await
        .unauthorized("Not logged in: API authentication or user session required");
    server
        .as_user(&WEBHOOK_BOT)
        .get("/integrations", &[])
        .await
        .unauthorized("This API is not available to incoming webhook bots.");
}
