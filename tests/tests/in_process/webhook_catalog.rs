//! `register`'s `realm_incoming_webhook_bots`: the integrations weir-server serves, in
//! Zulip's shape at each feature level (207: display names and event types; 318:
//! `config_options` with the URL options; 403: `url_options`; 485: `input_type`). Every
//! answer is validated against Zulip's document by the harness, as everywhere; the list
//! is checked against the server's own registry (`GET /integrations`) and Zulip's names
//! (`zulip-data/integrations.json`), never against a list written here.

use serde_json::Value;
use weir_tests::*;

fn at_level(level: u32) -> TestServer {
    TestServer::standard_with(&["--feature-level", &level.to_string()])
}

/// `realm_incoming_webhook_bots` as `register` answers it to a member.
async fn catalog(server: &TestServer) -> Vec<Value> {
    let r = server
        .as_user(&MEMBER)
        .post(
            "/register",
            &[("fetch_event_types", json!(["realm_incoming_webhook_bots"]))],
        )
        .await;
    let body = r.ok();
    assert!(body.get("realm_users").is_none(), "{}", r.debug());
    body["realm_incoming_webhook_bots"]
        .as_array()
        .unwrap_or_else(|| panic!("no realm_incoming_webhook_bots\n{}", r.debug()))
        .clone()
}

/// The server's own registry (Weir's `GET /integrations`).
async fn registry(server: &TestServer) -> Vec<Value> {
    let r = server.as_user(&MEMBER).get("/integrations", &[]).await;
    r.ok()["integrations"]
        .as_array()
        .unwrap_or_else(|| panic!("no integrations\n{}", r.debug()))
        .clone()
}

fn names(list: &[Value]) -> Vec<&str> {
    list.iter().filter_map(|i| i["name"].as_str()).collect()
}

fn keys(item: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = item
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    keys.sort_unstable();
    keys
}

fn find<'a>(list: &'a [Value], name: &str) -> &'a Value {
    list.iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {list:#?}"))
}

/// The URL options the registry lists for an integration, as keys.
fn url_option_keys(entry: &Value) -> Vec<String> {
    entry["url_options"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|o| o.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn the_catalog_lists_exactly_the_integrations_the_server_serves() {
    let server = TestServer::standard();
    let served = registry(&server).await;

    let listed = catalog(&server).await;

    assert_eq!(names(&listed), names(&served));
    assert!(names(&listed).contains(&"bitbucket2"), "{listed:#?}");
    for name in names(&listed) {
        let r = post_webhook::<&str, &str>(&server, name, &[("api_key", "nope")], &[], "{}").await;
        assert_ne!(
            r.status,
            404,
            "{name} is listed but not served\n{}",
            r.debug()
        );
    }
    let r = post_webhook::<&str, &str>(&server, "zendesk", &[("api_key", "nope")], &[], "{}").await;
    assert_eq!(r.status, 404, "{}", r.debug());
    assert!(!names(&listed).contains(&"zendesk"));
}

#[tokio::test]
async fn below_level_207_only_names_and_the_old_config_object() {
    let server = at_level(206);

    let listed = catalog(&server).await;

    assert!(!listed.is_empty());
    for item in &listed {
        assert_eq!(keys(item), ["config", "name"], "{item:#}");
        assert!(item["config"].is_object(), "{item:#}");
    }
}

#[tokio::test]
async fn level_207_adds_display_names_and_event_types() {
    let server = at_level(207);
    let served = registry(&server).await;

    let listed = catalog(&server).await;

    for item in &listed {
        assert_eq!(
            keys(item),
            ["all_event_types", "config", "display_name", "name"],
            "{item:#}"
        );
        let entry = find(&served, item["name"].as_str().unwrap_or_default());
        assert_eq!(item["display_name"], entry["display_name"], "{item:#}");
        let events = entry["event_types"].as_array().cloned().unwrap_or_default();
        if events.is_empty() {
            assert!(item["all_event_types"].is_null(), "{item:#}");
        } else {
            assert_eq!(item["all_event_types"], Value::Array(events), "{item:#}");
        }
    }
    assert!(find(&listed, "helloworld")["all_event_types"].is_null());
    let bitbucket = find(&listed, "bitbucket2")["all_event_types"].clone();
    assert!(
        bitbucket
            .as_array()
            .is_some_and(|events| events.contains(&json!("pull_request_created"))),
        "{bitbucket:#}"
    );
}

#[tokio::test]
async fn level_318_carries_the_url_options_in_config_options() {
    let server = at_level(318);
    let served = registry(&server).await;

    let listed = catalog(&server).await;

    for item in &listed {
        assert_eq!(
            keys(item),
            ["all_event_types", "config_options", "display_name", "name"],
            "{item:#}"
        );
        let entry = find(&served, item["name"].as_str().unwrap_or_default());
        let listed_keys: Vec<&str> = item["config_options"]
            .as_array()
            .map(|o| o.iter().filter_map(|o| o["key"].as_str()).collect())
            .unwrap_or_default();
        for key in url_option_keys(entry) {
            assert!(listed_keys.contains(&key.as_str()), "{key}: {item:#}");
        }
    }
    assert_eq!(
        find(&listed, "bitbucket2")["config_options"],
        json!([{"key": "branches", "label": "", "validator": "check_string"}])
    );
    assert_eq!(find(&listed, "helloworld")["config_options"], json!([]));
}

#[tokio::test]
async fn level_403_moves_them_to_url_options() {
    let server = at_level(403);
    let served = registry(&server).await;

    let listed = catalog(&server).await;

    for item in &listed {
        assert_eq!(
            keys(item),
            [
                "all_event_types",
                "config_options",
                "display_name",
                "name",
                "url_options"
            ],
            "{item:#}"
        );
        let entry = find(&served, item["name"].as_str().unwrap_or_default());
        let listed_keys: Vec<String> = item["url_options"]
            .as_array()
            .map(|o| {
                o.iter()
                    .filter_map(|o| o["key"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(listed_keys, url_option_keys(entry), "{item:#}");
        for option in item["url_options"].as_array().into_iter().flatten() {
            let validator = option["validator"].as_str().unwrap_or_default();
            assert!(
                ["check_string", "check_bool"].contains(&validator),
                "{option:#}"
            );
        }
    }
    let bitbucket = find(&listed, "bitbucket2");
    assert_eq!(bitbucket["config_options"], json!([]));
    assert_eq!(
        bitbucket["url_options"],
        json!([{"key": "branches", "label": "", "validator": "check_string"}])
    );
}

/// Level 485 calls a URL option's `validator` `input_type` (same values); one below, 484,
/// still says `validator`.
#[tokio::test]
async fn level_485_says_input_type_where_484_says_validator() {
    for (level, key, old) in [
        (484, "validator", "input_type"),
        (485, "input_type", "validator"),
    ] {
        let listed = catalog(&at_level(level)).await;

        let options: Vec<&Value> = listed
            .iter()
            .flat_map(|item| item["url_options"].as_array().into_iter().flatten())
            .collect();
        assert!(!options.is_empty(), "{level}: no URL options at all");
        for option in &options {
            let kind = option[key].as_str().unwrap_or_default();
            assert!(
                ["check_string", "check_bool"].contains(&kind),
                "{level}: {option:#}"
            );
            assert!(option.get(old).is_none(), "{level}: {option:#}");
        }
        let branches = &find(&listed, "bitbucket2")["url_options"][0];
        assert_eq!(branches["key"], "branches", "{level}");
        assert_eq!(branches[key], "check_string", "{level}");
    }
}

/// Zulip's names for its integrations (`zulip-data/integrations.json`), when the shared
/// reference is beside the repository.
fn zulip_display_names() -> Option<Vec<(String, String)>> {
    let path = workspace_root().join("../shared/reference/zulip-data/integrations.json");
    let text = std::fs::read_to_string(&path).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    Some(
        json["integrations"]
            .as_array()?
            .iter()
            .filter_map(|i| {
                Some((
                    i["name"].as_str()?.into(),
                    i["display_name"].as_str()?.into(),
                ))
            })
            .collect(),
    )
}

#[tokio::test]
async fn display_names_are_zulips() {
    let Some(zulip) = zulip_display_names() else {
        eprintln!(
            "WARNING: ../shared/reference/zulip-data/integrations.json is absent: Zulip's display names were not checked"
        );
        return;
    };
    let listed = catalog(&TestServer::standard()).await;
    for item in &listed {
        let name = item["name"].as_str().unwrap_or_default();
        let theirs = zulip.iter().find(|(n, _)| n == name);
        assert_eq!(
            theirs.map(|(_, display)| display.as_str()),
            item["display_name"].as_str(),
            "{name}: Zulip names it otherwise (or does not have it)"
        );
    }
}
