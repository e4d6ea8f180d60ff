//! The memberships commands through Tauri's mock runtime, against the local demo
//! server: load, plan, apply with progress on a channel, history, undo, CSV.
// The helpers unwrap as the tests do (see `support`).
#![allow(clippy::unwrap_used)]

use crate::support::{harness, invoke, load_grid};
use serde_json::{Value, json};

/// A public stream and two active people other than the viewer subscribed to it.
fn two_subscribers(grid: &Value) -> (i64, [i64; 2]) {
    let people = grid["people"].as_array().unwrap();
    let me = grid["viewer"]["userId"].as_i64().unwrap();
    for stream in grid["streams"].as_array().unwrap() {
        if stream["inviteOnly"] == true {
            continue;
        }
        let ids: Vec<i64> = stream["subscribers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| &people[i.as_u64().unwrap() as usize])
            .filter(|p| p["isActive"] == true && p["userId"].as_i64() != Some(me))
            .map(|p| p["userId"].as_i64().unwrap())
            .collect();
        if ids.len() >= 2 {
            return (stream["streamId"].as_i64().unwrap(), [ids[0], ids[1]]);
        }
    }
    panic!("the demo has no public stream with two subscribers: {grid}");
}

fn subscribed(grid: &Value, user_id: i64, stream_id: i64) -> bool {
    let people = grid["people"].as_array().unwrap();
    let at = people
        .iter()
        .position(|p| p["userId"].as_i64() == Some(user_id))
        .unwrap();
    grid["streams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["streamId"].as_i64() == Some(stream_id))
        .unwrap()["subscribers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i.as_u64() == Some(at as u64))
}

#[test]
fn the_grid_loads_with_the_owners_rules() {
    let h = harness();
    let grid = load_grid(&h);
    assert_eq!(grid["viewer"]["role"], "owner");
    assert!(grid["people"].as_array().unwrap().len() > 3);
    assert!(
        grid["streams"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["inviteOnly"] == true)
    );
    // An owner may change every active person's cells; deactivated people are refused.
    let table = &grid["permissions"];
    let allowed = json!({"subscribe": null, "unsubscribe": null});
    for person in ["me", "own_bot", "other"] {
        let rules = table[person].as_object().unwrap();
        assert_eq!(rules.len(), 3, "{person}: {table}");
        assert!(rules.values().all(|cell| cell == &allowed), "{table}");
    }
    assert!(
        table["deactivated"]["public"]["subscribe"]
            .as_str()
            .is_some_and(|r| r.contains("Deactivated"))
    );
    // Every person and stream says which row and column of the table is theirs.
    let me = grid["viewer"]["userId"].clone();
    for person in grid["people"].as_array().unwrap() {
        let kind = person["kind"].as_str().unwrap();
        assert!(table.get(kind).is_some(), "{person}");
        assert_eq!(kind == "me", person["userId"] == me, "{person}");
    }
    for stream in grid["streams"].as_array().unwrap() {
        let kind = stream["kind"].as_str().unwrap();
        assert!(table["me"].get(kind).is_some(), "{stream}");
    }
}

#[test]
fn apply_unsubscribes_in_one_request_then_undo_puts_it_back() {
    let h = harness();
    let grid = load_grid(&h);
    let (stream, [a, b]) = two_subscribers(&grid);
    let changes = json!([
        {"userId": a, "streamId": stream, "subscribe": false},
        {"userId": b, "streamId": stream, "subscribe": false},
    ]);
    let plan = invoke(
        &h,
        "plan_membership_changes",
        json!({"request": {"changes": changes}}),
    )
    .unwrap();
    assert_eq!(plan["requests"].as_array().unwrap().len(), 1, "{plan}");
    assert_eq!(plan["cellCount"], 2);

    let outcome = invoke(
        &h,
        "apply_membership_changes",
        json!({"request": {"changes": changes}, "onProgress": "__CHANNEL__:7"}),
    )
    .unwrap();
    assert_eq!(outcome["requestsSent"], 1, "{outcome}");
    let results = outcome["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .all(|r| r["status"] == "removed" && r["ok"] == true),
        "{outcome}"
    );

    let after = load_grid(&h);
    assert!(!subscribed(&after, a, stream) && !subscribed(&after, b, stream));

    let history = invoke(&h, "list_membership_applies", json!({})).unwrap();
    assert_eq!(history.as_array().unwrap().len(), 1);
    assert_eq!(history[0]["changed"], 2);
    let reverse = invoke(
        &h,
        "undo_membership_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap();
    assert_eq!(reverse.as_array().unwrap().len(), 2);
    assert!(
        reverse
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["subscribe"] == true)
    );
    invoke(
        &h,
        "apply_membership_changes",
        json!({"request": {"changes": reverse}, "onProgress": "__CHANNEL__:8"}),
    )
    .unwrap();
    let restored = load_grid(&h);
    assert!(subscribed(&restored, a, stream) && subscribed(&restored, b, stream));
}

#[test]
fn csv_export_then_import_of_an_edit_returns_exactly_the_edit() {
    let h = harness();
    let grid = load_grid(&h);
    let (stream, [a, _]) = two_subscribers(&grid);
    let path = h.data_dir().join("grid.csv");
    let path_text = path.to_str().unwrap();
    invoke(
        &h,
        "export_memberships_csv",
        json!({"request": {"path": path_text, "userIds": [a], "streamIds": [stream], "staged": []}}),
    )
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.trim_end().ends_with(",1"), "{text}");
    let unchanged = invoke(
        &h,
        "import_memberships_csv",
        json!({"request": {"path": path_text}}),
    )
    .unwrap();
    assert_eq!(unchanged["changes"], json!([]));

    std::fs::write(
        &path,
        format!("{},0\n", text.trim_end().trim_end_matches(",1")),
    )
    .unwrap();
    let edited = invoke(
        &h,
        "import_memberships_csv",
        json!({"request": {"path": path_text}}),
    )
    .unwrap();
    assert_eq!(
        edited["changes"],
        json!([{"userId": a, "streamId": stream, "subscribe": false}])
    );
}

#[test]
fn undo_without_any_apply_is_not_found() {
    let h = harness();
    let error = invoke(
        &h,
        "undo_membership_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "not_found");
    assert_eq!(
        invoke(&h, "cancel_membership_apply", json!({})).unwrap(),
        false
    );
}
