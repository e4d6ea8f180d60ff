//! The zuliprc import through Tauri's mock runtime: a typed `~` is the home directory,
//! and a file that cannot be opened is told apart (by code) from one that is not a
//! zuliprc, each in plain words.
// The helpers unwrap as the tests do; allow-unwrap-in-tests (clippy.toml) reaches only
// the #[test] functions of an integration test (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use crate::support::{harness, invoke};
use serde_json::json;

fn import(h: &crate::support::Harness, path: &str) -> serde_json::Value {
    invoke(h, "import_zuliprc", json!({"request": {"path": path}})).unwrap_err()
}

#[test]
fn a_missing_or_folder_path_is_unreadable_in_plain_words() {
    let h = harness();
    let missing = h.data_dir().join("no-such-zuliprc");
    let error = import(&h, &format!("  {}  ", missing.display()));
    assert_eq!(error["code"], "zuliprc_unreadable", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.ends_with(&format!("there is no file at {}", missing.display())),
        "{message}"
    );

    let error = import(&h, &h.data_dir().display().to_string());
    assert_eq!(error["code"], "zuliprc_unreadable", "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("is a folder"),
        "{error}"
    );
    let accounts = invoke(&h, "list_accounts", json!({})).unwrap();
    assert_eq!(accounts.as_array().unwrap().len(), 1, "{accounts}");
}

#[test]
fn a_file_that_is_not_a_zuliprc_is_invalid() {
    let h = harness();
    let notes = h.data_dir().join("notes.txt");
    std::fs::write(&notes, "[user]\nname = Ada\n").unwrap();
    let error = import(&h, &notes.display().to_string());
    assert_eq!(error["code"], "invalid_zuliprc", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("it has no [api] section"),
        "{error}"
    );
}

#[test]
fn a_typed_tilde_is_the_home_directory() {
    let h = harness();
    let Some(home) = std::env::home_dir() else {
        return;
    };
    let status = invoke(&h, "app_status", json!({})).unwrap();
    assert_eq!(status["homeDir"], home.display().to_string());

    // A name no home holds: the answer names the expanded path, never `~`.
    let name = "weir-test-no-such-zuliprc-7f3c";
    let error = import(&h, &format!("~/{name}"));
    assert_eq!(error["code"], "zuliprc_unreadable", "{error}");
    let expected = home.join(name).display().to_string();
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&expected), "{message}");
    assert!(!message.contains('~'), "{message}");

    let error = invoke(
        &h,
        "delete_zuliprc",
        json!({"request": {"path": format!("~/{name}")}}),
    )
    .unwrap_err();
    assert!(
        error["message"].as_str().unwrap().contains(&expected),
        "{error}"
    );
}
