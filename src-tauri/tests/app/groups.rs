//! Groups on the memberships grid through Tauri's mock runtime, against the local demo
//! server (its teams come from `GET /user_groups`): subgroups expanded, a group row on
//! three channels in one request, a sync in at most two, copy.
// The helpers unwrap as the tests do (see `support`).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use crate::support::{harness, invoke, load_grid};

fn group<'a>(grid: &'a Value, name: &str) -> &'a Value {
    grid["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == name)
        .unwrap_or_else(|| panic!("no group {name} in {}", grid["groups"]))
}

fn indices(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap())
        .collect()
}

fn user_ids(grid: &Value, people: &[u64]) -> Vec<i64> {
    people
        .iter()
        .map(|i| grid["people"][*i as usize]["userId"].as_i64().unwrap())
        .collect()
}

#[test]
fn the_grid_carries_the_demo_teams_with_subgroups_expanded() {
    let h = harness();
    let grid = load_grid(&h);
    let engineering = group(&grid, "engineering");
    let mut expected = indices(&engineering["directMembers"]);
    for sub in ["backend", "frontend"] {
        expected.extend(indices(&group(&grid, sub)["members"]));
    }
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(indices(&engineering["members"]), expected);
    assert_eq!(
        engineering["directSubgroupIds"].as_array().unwrap().len(),
        2
    );
    assert!(
        grid["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["isSystemGroup"] == true)
    );
}

#[test]
fn a_group_row_on_three_channels_is_one_request_and_a_sync_at_most_two() {
    let h = harness();
    let grid = load_grid(&h);
    let team = group(&grid, "on-call");
    let members = user_ids(&grid, &indices(&team["members"]));
    let streams: Vec<i64> = grid["streams"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["inviteOnly"] == false)
        .map(|s| s["streamId"].as_i64().unwrap())
        .take(3)
        .collect();
    let changes: Vec<Value> = streams
        .iter()
        .flat_map(|s| {
            members
                .iter()
                .map(move |u| json!({"userId": u, "streamId": s, "subscribe": true}))
        })
        .collect();
    let plan = invoke(
        &h,
        "plan_membership_changes",
        json!({"request": {"changes": changes}}),
    )
    .unwrap();
    assert_eq!(plan["requests"].as_array().unwrap().len(), 1, "{plan}");

    let stream = streams[0];
    let sync = invoke(
        &h,
        "plan_group_sync",
        json!({"request": {"streamId": stream, "groupId": team["groupId"],
                           "keep": {"bots": false, "admins": false, "others": false}}}),
    )
    .unwrap();
    let sync_changes = sync.as_array().unwrap();
    assert!(!sync_changes.is_empty());
    let plan = invoke(
        &h,
        "plan_membership_changes",
        json!({"request": {"changes": sync}}),
    )
    .unwrap();
    let requests = plan["requests"].as_array().unwrap().len();
    assert!((1..=2).contains(&requests), "{plan}");
    assert_eq!(
        plan["cellCount"].as_u64().unwrap() as usize,
        sync_changes.len()
    );
    let outcome = invoke(
        &h,
        "apply_membership_changes",
        json!({"request": {"changes": sync}, "onProgress": "__CHANNEL__:9"}),
    )
    .unwrap();
    assert_eq!(outcome["requestsSent"].as_u64().unwrap() as usize, requests);
    let after = load_grid(&h);
    let channel = after["streams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["streamId"].as_i64() == Some(stream))
        .unwrap();
    let mut now = user_ids(&after, &indices(&channel["subscribers"]));
    now.sort_unstable();
    let mut wanted = members.clone();
    wanted.sort_unstable();
    assert_eq!(now, wanted, "the channel's subscribers are the team");
    let again = invoke(
        &h,
        "plan_group_sync",
        json!({"request": {"streamId": stream, "groupId": team["groupId"],
                           "keep": {"bots": false, "admins": false, "others": false}}}),
    )
    .unwrap();
    assert_eq!(again, json!([]), "a synced channel needs no change");
}

#[test]
fn copy_stages_a_persons_channels_and_refuses_unknown_people() {
    let h = harness();
    let grid = load_grid(&h);
    let me = grid["viewer"]["userId"].as_i64().unwrap();
    let other = grid["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["isActive"] == true && p["userId"].as_i64() != Some(me))
        .unwrap()["userId"]
        .as_i64()
        .unwrap();
    let changes = invoke(
        &h,
        "copy_memberships",
        json!({"request": {"from": me, "to": [other]}}),
    )
    .unwrap();
    assert!(
        changes
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["userId"].as_i64() == Some(other) && c["subscribe"] == true)
    );
    let error = invoke(
        &h,
        "copy_memberships",
        json!({"request": {"from": me, "to": [999_999]}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "invalid_input", "{error}");
}

#[test]
fn the_groups_page_plans_one_request_per_group_applies_and_undoes() {
    let h = harness();
    let grid = load_grid(&h);
    let backend = group(&grid, "backend");
    let designers = group(&grid, "designers");
    assert_eq!(
        backend["addDenied"],
        Value::Null,
        "the owner may edit {backend}"
    );
    let system = grid["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["isSystemGroup"] == true)
        .unwrap();
    assert!(
        system["addDenied"]
            .as_str()
            .unwrap()
            .contains("System groups")
    );
    let in_backend = user_ids(&grid, &indices(&backend["directMembers"]));
    let in_designers = user_ids(&grid, &indices(&designers["directMembers"]));
    let newcomer = grid["people"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["isActive"] == true && p["isBot"] == false)
        .map(|p| p["userId"].as_i64().unwrap())
        .find(|id| !in_backend.contains(id) && !in_designers.contains(id))
        .unwrap();
    let (b, d) = (backend["groupId"].clone(), designers["groupId"].clone());
    let changes = json!([
        {"userId": newcomer, "groupId": b, "member": true},
        {"userId": in_backend[0], "groupId": b, "member": false},
        {"userId": newcomer, "groupId": d, "member": true},
        {"userId": in_designers[0], "groupId": d, "member": true},
    ]);
    let plan = invoke(
        &h,
        "plan_group_member_changes",
        json!({"request": {"changes": changes}}),
    )
    .unwrap();
    assert_eq!(plan["requests"].as_array().unwrap().len(), 2, "{plan}");
    assert_eq!(plan["cellCount"], 3);
    assert_eq!(plan["skipped"].as_array().unwrap().len(), 1);
    let report = invoke(
        &h,
        "apply_group_member_changes",
        json!({"request": {"changes": changes}, "onProgress": "__CHANNEL__:11"}),
    )
    .unwrap();
    assert_eq!(report["requestsSent"], 2, "{report}");
    assert!(
        report["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["error"].is_null()),
        "{report}"
    );
    let after = load_grid(&h);
    let now = user_ids(&after, &indices(&group(&after, "backend")["directMembers"]));
    assert!(now.contains(&newcomer) && !now.contains(&in_backend[0]));

    // Undo: the reverse of what was applied, read back from the journal, restores both
    // groups exactly.
    let reverse: Vec<Value> = report["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let change = &c["change"];
            json!({"userId": change["userId"], "groupId": change["groupId"],
                   "member": change["member"] == false})
        })
        .collect();
    let undo = invoke(
        &h,
        "undo_group_member_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap();
    assert_eq!(undo, Value::Array(reverse.clone()));
    let history = invoke(&h, "list_group_member_applies", json!({})).unwrap();
    assert_eq!(history.as_array().unwrap().len(), 1, "{history}");
    assert_eq!(history[0]["changed"], 3);
    invoke(
        &h,
        "apply_group_member_changes",
        json!({"request": {"changes": reverse}, "onProgress": "__CHANNEL__:12"}),
    )
    .unwrap();
    let restored = load_grid(&h);
    for (name, before) in [("backend", &in_backend), ("designers", &in_designers)] {
        let mut now = user_ids(
            &restored,
            &indices(&group(&restored, name)["directMembers"]),
        );
        let mut before = before.clone();
        now.sort_unstable();
        before.sort_unstable();
        assert_eq!(now, before, "{name} restored");
    }
}

#[test]
fn a_group_applys_undo_survives_a_restart() {
    let h = harness();
    let grid = load_grid(&h);
    let backend = group(&grid, "backend");
    let mut before = user_ids(&grid, &indices(&backend["directMembers"]));
    let newcomer = grid["people"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["isActive"] == true && p["isBot"] == false)
        .map(|p| p["userId"].as_i64().unwrap())
        .find(|id| !before.contains(id))
        .unwrap();
    let b = backend["groupId"].clone();
    let leaving = before[0];
    let changes = json!([
        {"userId": newcomer, "groupId": b, "member": true},
        {"userId": leaving, "groupId": b, "member": false},
    ]);
    invoke(
        &h,
        "apply_group_member_changes",
        json!({"request": {"changes": changes}, "onProgress": "__CHANNEL__:21"}),
    )
    .unwrap();

    // The app quits and starts again: the history and the undo come from the journal.
    let h = h.restart();
    let history = invoke(&h, "list_group_member_applies", json!({})).unwrap();
    assert_eq!(history.as_array().unwrap().len(), 1, "{history}");
    assert_eq!(history[0]["changed"], 2);
    let undo = invoke(
        &h,
        "undo_group_member_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap();
    let mut reverse = undo.as_array().unwrap().clone();
    reverse.sort_by_key(|c| c["userId"].as_i64());
    let mut expected = vec![
        json!({"userId": newcomer, "groupId": b, "member": false}),
        json!({"userId": leaving, "groupId": b, "member": true}),
    ];
    expected.sort_by_key(|c| c["userId"].as_i64());
    assert_eq!(reverse, expected);
    invoke(
        &h,
        "apply_group_member_changes",
        json!({"request": {"changes": undo}, "onProgress": "__CHANNEL__:22"}),
    )
    .unwrap();
    let restored = load_grid(&h);
    let mut now = user_ids(
        &restored,
        &indices(&group(&restored, "backend")["directMembers"]),
    );
    now.sort_unstable();
    before.sort_unstable();
    assert_eq!(now, before);
}

#[test]
fn a_group_is_created_from_selected_people_and_bad_names_are_refused() {
    let h = harness();
    let grid = load_grid(&h);
    let me = grid["viewer"]["userId"].as_i64().unwrap();
    invoke(
        &h,
        "create_user_group",
        json!({"request": {"name": "new-hires", "description": "This month", "members": [me]}}),
    )
    .unwrap();
    let after = load_grid(&h);
    let created = group(&after, "new-hires");
    assert_eq!(created["description"], "This month");
    assert_eq!(
        user_ids(&after, &indices(&created["directMembers"])),
        vec![me]
    );
    let error = invoke(
        &h,
        "create_user_group",
        json!({"request": {"name": "  ", "description": "", "members": []}}),
    )
    .unwrap_err();
    assert_eq!(error["code"], "invalid_input", "{error}");
}

#[test]
fn subgroups_are_applied_with_members_undone_and_cycles_refused() {
    let h = harness();
    let grid = load_grid(&h);
    let id = |name: &str| group(&grid, name)["groupId"].as_i64().unwrap();
    let (engineering, backend, designers) = (id("engineering"), id("backend"), id("designers"));
    let changes = json!([
        {"userId": 0, "groupId": engineering, "member": true, "subgroupId": designers},
        {"userId": 0, "groupId": engineering, "member": false, "subgroupId": backend},
        // engineering already contains backend: this would make a cycle.
        {"userId": 0, "groupId": backend, "member": true, "subgroupId": engineering},
    ]);
    let plan = invoke(
        &h,
        "plan_group_member_changes",
        json!({"request": {"changes": changes}}),
    )
    .unwrap();
    assert_eq!(plan["requests"].as_array().unwrap().len(), 1, "{plan}");
    assert_eq!(plan["requests"][0]["subgroups"], true);
    let skipped = &plan["skipped"][0];
    assert_eq!(skipped["change"]["subgroupId"], engineering, "{plan}");
    assert!(
        skipped["reason"]
            .as_str()
            .unwrap()
            .contains("cannot contain itself")
    );
    let report = invoke(
        &h,
        "apply_group_member_changes",
        json!({"request": {"changes": changes}, "onProgress": "__CHANNEL__:13"}),
    )
    .unwrap();
    assert_eq!(report["requestsSent"], 1, "{report}");
    assert_eq!(report["cells"].as_array().unwrap().len(), 2, "{report}");
    let after = load_grid(&h);
    let subgroups = |grid: &Value| {
        let mut ids: Vec<i64> = group(grid, "engineering")["directSubgroupIds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        ids.sort_unstable();
        ids
    };
    let mut expected = vec![designers, id("frontend")];
    expected.sort_unstable();
    assert_eq!(subgroups(&after), expected);
    // Members through a subgroup follow: a designer is now in engineering.
    let designer = indices(&group(&after, "designers")["directMembers"])[0];
    assert!(indices(&group(&after, "engineering")["members"]).contains(&designer));

    // Undo from the journal restores the subgroups.
    let undo = invoke(
        &h,
        "undo_group_member_apply",
        json!({"request": {"id": null}}),
    )
    .unwrap();
    assert!(
        undo.as_array()
            .unwrap()
            .iter()
            .all(|c| c["subgroupId"].is_i64()),
        "{undo}"
    );
    invoke(
        &h,
        "apply_group_member_changes",
        json!({"request": {"changes": undo}, "onProgress": "__CHANNEL__:14"}),
    )
    .unwrap();
    let mut before = vec![backend, id("frontend")];
    before.sort_unstable();
    assert_eq!(subgroups(&load_grid(&h)), before);
}
