//! The Channels page's commands through Tauri's mock runtime, against the local demo
//! server: the table, one setting staged on three channels and applied in three
//! requests with progress, checked by loading again, undone from the journal.
// The helpers unwrap as the tests do (see `support`).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use crate::support::{harness, invoke};

const SETTING: &str = "can_remove_subscribers_group";

fn cell<'a>(table: &'a Value, stream_id: &Value) -> &'a Value {
    table["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| &row["streamId"] == stream_id)
        .and_then(|row| {
            row["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["setting"] == SETTING)
        })
        .unwrap()
}

#[test]
fn a_setting_on_three_channels_is_applied_and_undone_from_the_journal() {
    let h = harness();
    let table = invoke(&h, "load_channel_settings", json!({})).unwrap();
    let settings: Vec<&str> = table["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    // The local server speaks Zulip 11 (level 421): Zulip 10's five, then the five
    // message settings of 396–407, as its `server_supported_permission_settings` lists.
    assert_eq!(
        settings,
        [
            "can_send_message_group",
            "can_add_subscribers_group",
            "can_remove_subscribers_group",
            "can_subscribe_group",
            "can_administer_channel_group",
            "can_move_messages_out_of_channel_group",
            "can_move_messages_within_channel_group",
            "can_resolve_topics_group",
            "can_delete_any_message_group",
            "can_delete_own_message_group",
        ]
    );
    assert_eq!(table["viewer"]["role"], "owner");
    let column = table["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == SETTING)
        .unwrap();
    let team = table["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| {
            g["isSystemGroup"] == false
                && column["choices"]
                    .as_array()
                    .unwrap()
                    .contains(&g["groupId"])
        })
        .unwrap();
    let targets: Vec<Value> = table["channels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| cell(&table, &row["streamId"])["denied"].is_null())
        .take(3)
        .map(|row| row["streamId"].clone())
        .collect();
    assert_eq!(targets.len(), 3);
    let before: Vec<Value> = targets
        .iter()
        .map(|id| cell(&table, id)["value"].clone())
        .collect();
    let changes: Vec<Value> = targets
        .iter()
        .map(|id| json!({"streamId": id, "setting": SETTING, "value": team["groupId"]}))
        .collect();

    let plan = invoke(
        &h,
        "plan_channel_setting_changes",
        json!({"request": {"changes": changes}}),
    )
    .unwrap();
    assert_eq!(
        (plan["requestCount"].as_u64(), plan["changeCount"].as_u64()),
        (Some(3), Some(3))
    );
    assert!(plan["skipped"].as_array().unwrap().is_empty(), "{plan}");

    let outcome = invoke(
        &h,
        "apply_channel_setting_changes",
        json!({"request": {"changes": changes}, "onProgress": "__CHANNEL__:21"}),
    )
    .unwrap();
    assert_eq!(outcome["requestsSent"], 3, "{outcome}");
    assert!(outcome["journalId"].is_number());
    let after = invoke(&h, "load_channel_settings", json!({})).unwrap();
    for id in &targets {
        assert_eq!(cell(&after, id)["value"], team["groupId"]);
        assert_eq!(cell(&after, id)["label"], team["label"]);
    }

    let undo = invoke(
        &h,
        "undo_channel_setting_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap();
    assert_eq!(undo.as_array().unwrap().len(), 3, "{undo}");
    let history = invoke(&h, "list_channel_setting_applies", json!({})).unwrap();
    assert_eq!(history[0]["changed"], 3, "{history}");
    invoke(
        &h,
        "apply_channel_setting_changes",
        json!({"request": {"changes": undo}, "onProgress": "__CHANNEL__:22"}),
    )
    .unwrap();
    let restored = invoke(&h, "load_channel_settings", json!({})).unwrap();
    let now: Vec<Value> = targets
        .iter()
        .map(|id| cell(&restored, id)["value"].clone())
        .collect();
    assert_eq!(now, before);
}

#[test]
fn undo_with_nothing_applied_is_not_found() {
    let h = harness();
    let error = invoke(
        &h,
        "undo_channel_setting_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "not_found");
}
