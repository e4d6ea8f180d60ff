//! Command wiring through Tauri's mock runtime: real commands, real state (an in-memory
//! secret store instead of the OS keyring), the local server on loopback.
// The helpers here unwrap as the tests do, but clippy's allow-unwrap-in-tests and
// allow-expect-in-tests (clippy.toml) reach only the #[test] functions of an integration
// test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use crate::support::{harness, invoke, load_grid};
use serde_json::{Value, json};

#[test]
fn first_start_connects_to_the_demo_server() {
    let h = harness();
    let status = invoke(&h, "app_status", json!({})).unwrap();
    assert_eq!(status["accounts"].as_array().unwrap().len(), 1, "{status}");
    assert_eq!(status["accounts"][0]["isDemo"], true);
    assert_eq!(status["accounts"][0]["isActive"], true);
    assert_eq!(status["localServer"]["running"], true);
    let url = status["localServer"]["url"].as_str().unwrap();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(status["keyring"]["available"], true);
}

#[test]
fn the_memberships_page_loads_with_one_register() {
    let h = harness();
    // What the page asks for: the header, and the grid.
    let overview = invoke(&h, "organization_overview", json!({})).unwrap();
    assert_eq!(overview["realmName"], "Lumen Labs");
    assert_eq!(overview["me"]["role"], "owner");
    let grid = load_grid(&h);
    let people = grid["people"].as_array().unwrap();
    let streams = grid["streams"].as_array().unwrap();
    assert!(
        streams
            .iter()
            .any(|s| s["name"] == "leadership" && s["inviteOnly"] == true)
    );
    // Subscriber sets (indices into `people`), not only their sizes.
    assert!(streams.iter().all(|s| {
        s["subscribers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| (i.as_u64().unwrap() as usize) < people.len())
    }));
    let roles: Vec<&str> = people.iter().filter_map(|u| u["role"].as_str()).collect();
    for role in ["owner", "administrator", "moderator", "member", "guest"] {
        assert!(roles.contains(&role), "{role} missing");
    }
    // The whole organization is fetched once: `register` is for the grid only.
    let status = invoke(&h, "local_server_status", json!({})).unwrap();
    let paths: Vec<&str> = status["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["path"].as_str())
        .collect();
    let registers = paths.iter().filter(|p| **p == "/api/v1/register").count();
    assert_eq!(registers, 1, "{paths:?}");
}

#[test]
fn adding_an_account_with_a_wrong_key_is_refused_with_a_code() {
    let h = harness();
    let url = invoke(&h, "app_status", json!({})).unwrap()["localServer"]["url"].clone();
    let error = invoke(
        &h,
        "add_account",
        json!({"request": {"site": url, "email": "bruno@lumen.test", "apiKey": "x".repeat(32)}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "unauthorized", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    let accounts = invoke(&h, "list_accounts", json!({})).unwrap();
    assert_eq!(accounts.as_array().unwrap().len(), 1);
}

#[test]
fn a_malformed_site_is_invalid_site_not_network() {
    let h = harness();
    let error = invoke(
        &h,
        "add_account",
        json!({"request": {"site": "https:/chat.example.com", "email": "a@b.c", "apiKey": "x".repeat(32)}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "invalid_site", "{error}");
}

#[test]
fn bad_arguments_are_rejected_before_the_command_runs() {
    let h = harness();
    assert!(
        invoke(
            &h,
            "switch_account",
            json!({"request": {"id": "not a number"}})
        )
        .is_err()
    );
    let error = invoke(&h, "open_external", json!({"url": "file:///etc/passwd"})).unwrap_err();
    assert_eq!(error["code"], "invalid_input");
}

#[test]
fn reset_gives_a_fresh_demo_and_keeps_serving() {
    let h = harness();
    let status = invoke(&h, "reset_demo_data", json!({})).unwrap();
    assert_eq!(status["running"], true);
    let overview = invoke(&h, "organization_overview", json!({})).unwrap();
    assert_eq!(overview["realmName"], "Lumen Labs");
}

#[test]
fn plugin_commands_outside_the_capability_are_refused() {
    let h = harness();
    let refused = invoke(
        &h,
        "plugin:opener|open_url",
        json!({"url": "https://example.com"}),
    );
    assert!(refused.is_err(), "{refused:?}");
}

#[test]
fn the_local_server_starts_on_demand_and_the_demo_account_comes_back() {
    let h = harness();
    let demo = invoke(&h, "app_status", json!({})).unwrap()["accounts"][0]["id"].clone();
    invoke(&h, "remove_account", json!({"request": {"id": demo}})).unwrap();
    assert_eq!(invoke(&h, "list_accounts", json!({})).unwrap(), json!([]));

    let status = invoke(&h, "start_local_server", json!({})).unwrap();
    assert_eq!(status["running"], true);
    let accounts = invoke(&h, "list_accounts", json!({})).unwrap();
    assert_eq!(accounts[0]["isDemo"], true, "{accounts}");
}

/// What a command answered when called with no arguments: it ran (and answered or failed
/// with an `IpcError`), or it was reached but refused the missing arguments. Anything else
/// (not allowed by the capability, not registered) is `Err` with Tauri's message.
fn reached(outcome: Result<Value, Value>) -> Result<(), String> {
    match outcome {
        Ok(_) => Ok(()),
        Err(error) if error.get("code").is_some() && error.get("message").is_some() => Ok(()),
        Err(Value::String(text)) if text.starts_with("invalid args") => Ok(()),
        Err(other) => Err(other.to_string()),
    }
}

/// The plugin permissions the window holds, each named exactly (no `:default` set, no
/// wildcard), with why the page needs it. A new one must be added here with its reason.
const PLUGIN_PERMISSIONS: &[(&str, &str)] = &[(
    "dialog:allow-open",
    "the zuliprc picker (Accounts): a native open dialog whose only answer is the chosen path",
)];

/// The capability's permissions: Weir's own (`allow-<command>`) and the plugins'.
fn granted_permissions() -> (std::path::PathBuf, Vec<String>, Vec<String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities/default.json");
    let capability: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (mut plugins, mut own): (Vec<String>, Vec<String>) = capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|permission| {
            // An object form ({"identifier": ..., "allow": [...]}) is a scoped grant: it
            // is listed by its identifier and so must be one of the reviewed ones.
            permission
                .as_str()
                .or_else(|| permission["identifier"].as_str())
                .unwrap()
                .to_owned()
        })
        .partition(|permission| permission.contains(':'));
    plugins.sort();
    own.sort();
    (path, own, plugins)
}

/// The list in `src/commands/list.rs` drives `build.rs` and the handler; the capability
/// file is written by hand, so a command missing there (or granted but gone) fails here.
#[test]
fn the_capability_grants_exactly_the_registered_commands() {
    let (path, granted, _) = granted_permissions();
    let mut expected: Vec<String> = weir_app::commands::COMMANDS
        .iter()
        .map(|name| format!("allow-{}", name.replace('_', "-")))
        .collect();
    expected.sort();
    assert_eq!(
        granted,
        expected,
        "{} must grant `allow-<name>` for every command of src/commands/list.rs, and nothing else",
        path.display()
    );
}

/// Plugin permissions are reviewed one by one: exactly those of [`PLUGIN_PERMISSIONS`].
#[test]
fn the_capability_grants_only_the_listed_plugin_permissions() {
    let (path, _, granted) = granted_permissions();
    let mut expected: Vec<String> = PLUGIN_PERMISSIONS
        .iter()
        .map(|(name, why)| {
            assert!(!why.trim().is_empty(), "{name} needs a reason");
            (*name).to_owned()
        })
        .collect();
    expected.sort();
    assert_eq!(
        granted,
        expected,
        "{} grants plugin permissions other than the reviewed ones (PLUGIN_PERMISSIONS)",
        path.display()
    );
    for name in &granted {
        assert!(
            !name.ends_with(":default") && !name.contains('*'),
            "{name}: grant a plugin's single commands, not a set"
        );
    }
}

#[test]
fn the_page_may_open_files_but_not_save_or_ask() {
    let h = harness();
    // Refused by the capability before the plugin runs (no dialog opens).
    for (cmd, args) in [
        ("plugin:dialog|save", json!({"options": {}})),
        ("plugin:dialog|message", json!({"message": "hi"})),
        ("plugin:dialog|ask", json!({"message": "hi"})),
        ("plugin:dialog|confirm", json!({"message": "hi"})),
    ] {
        let refused = invoke(&h, cmd, args);
        assert!(refused.is_err(), "{cmd}: {refused:?}");
        assert!(reached(refused).is_err(), "{cmd} was reached");
    }
}

#[test]
fn every_command_is_registered_and_allowed() {
    let h = harness();
    let refused: Vec<String> = weir_app::commands::COMMANDS
        .iter()
        .filter_map(|name| {
            reached(invoke(&h, name, json!({})))
                .err()
                .map(|error| format!("{name}: {error}"))
        })
        .collect();
    assert!(refused.is_empty(), "commands not reachable: {refused:#?}");
    // The check itself can fail: a name outside the list is not reached.
    assert!(reached(invoke(&h, "no_such_command", json!({}))).is_err());
}
