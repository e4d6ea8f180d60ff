//! Unit tests of the channel table, the planner and the applier, on a small
//! organization: Ada (1, the viewer), Grace (2), Linus (3); groups `role:nobody` (10),
//! `role:everyone` (11), `role:members` (12), `role:administrators` (13), `platform`
//! (20, Grace), `ops` (21, with `platform` as subgroup).

use std::sync::Mutex;

use serde_json::{Value, json};
use zulip_api::{RegisterResponse, Role};

use super::*;
use crate::client::{ClientError, SettingUpdate, UserGroup};
use crate::memberships::{Cancel, GroupSetting};

fn group(id: i64, name: &str, members: &[i64], subgroups: &[i64]) -> UserGroup {
    UserGroup {
        id,
        name: name.into(),
        description: String::new(),
        members: members.to_vec(),
        direct_subgroup_ids: subgroups.to_vec(),
        is_system_group: name.starts_with("role:"),
        deactivated: false,
        can_manage_group: None,
        can_add_members_group: None,
        can_remove_members_group: None,
    }
}

fn groups() -> Vec<UserGroup> {
    vec![
        group(10, "role:nobody", &[], &[]),
        group(11, "role:everyone", &[1, 2, 3], &[]),
        group(12, "role:members", &[1, 2, 3], &[]),
        group(13, "role:administrators", &[], &[]),
        group(20, "platform", &[2], &[]),
        group(21, "ops", &[], &[20]),
        UserGroup {
            deactivated: true,
            ..group(22, "old team", &[], &[])
        },
    ]
}

fn stream(id: i64, name: &str, private: bool, administrators: Value) -> Value {
    json!({
        "stream_id": id, "name": name, "description": format!("About {name}"),
        "invite_only": private, "history_public_to_subscribers": !private,
        "can_add_subscribers_group": 10, "can_remove_subscribers_group": 13,
        "can_administer_channel_group": administrators, "can_send_message_group": 11,
        "can_subscribe_group": 10,
    })
}

fn person(id: i64, name: &str) -> Value {
    json!({"user_id": id, "email": format!("{id}@example.com"), "full_name": name,
        "is_active": true, "is_bot": false, "role": 400})
}

/// `general` (public, 101), `secret` (private, subscribed, 102), `hidden` (private, not
/// subscribed, 103; administered by `ops`), at `level`, with `supported` when given.
fn register(level: u32, supported: Option<Value>) -> RegisterResponse {
    let mut body = json!({
        "zulip_feature_level": level,
        "realm_users": [person(1, "Ada"), person(2, "Grace"), person(3, "Linus")],
        "subscriptions": [stream(102, "secret", true, json!(10))],
        "never_subscribed": [
            stream(101, "general", false, json!({"direct_members": [1, 3], "direct_subgroups": []})),
            stream(103, "hidden", true, json!(21)),
        ],
    });
    if let (Some(object), Some(supported)) = (body.as_object_mut(), supported) {
        object.insert("server_supported_permission_settings".into(), supported);
    }
    serde_json::from_value(body).unwrap()
}

fn loaded(user_id: i64, role: Role, level: u32) -> LoadedChannels {
    LoadedChannels::build(register(level, None), user_id, role, groups())
}

fn cell<'a>(table: &'a ChannelTable, stream_id: i64, setting: &str) -> &'a ChannelCell {
    table
        .channels
        .iter()
        .find(|row| row.stream_id == stream_id)
        .and_then(|row| row.cells.iter().find(|cell| cell.setting == setting))
        .unwrap()
}

fn change(stream_id: i64, setting: &str, group_id: i64) -> ChannelSettingChange {
    ChannelSettingChange {
        stream_id,
        setting: setting.into(),
        value: GroupSetting::Named(group_id),
    }
}

#[test]
fn rows_are_sorted_with_privacy_values_and_labels() {
    let table = loaded(1, Role::Owner, 362).table;
    let names: Vec<&str> = table.channels.iter().map(|row| row.name.as_str()).collect();
    assert_eq!(names, ["general", "hidden", "secret"]);
    assert_eq!(table.channels[0].privacy, Privacy::Public);
    assert_eq!(table.channels[2].privacy, Privacy::PrivateProtectedHistory);
    assert!(table.channels[2].subscribed && !table.channels[1].subscribed);
    let columns: Vec<&str> = table.settings.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        columns,
        [
            "can_send_message_group",
            "can_add_subscribers_group",
            "can_remove_subscribers_group",
            "can_subscribe_group",
            "can_administer_channel_group"
        ]
    );
    let administrators = cell(&table, 101, "can_administer_channel_group");
    assert_eq!(administrators.label, "Ada, Linus");
    assert_eq!(
        cell(&table, 103, "can_administer_channel_group").label,
        "ops"
    );
    assert_eq!(
        cell(&table, 101, "can_send_message_group").label,
        "Everyone, guests included"
    );
    assert!(
        table.groups.iter().all(|group| group.group_id != 22),
        "deactivated"
    );
}

#[test]
fn choices_follow_each_settings_rules() {
    let table = loaded(1, Role::Owner, 362).table;
    let choices = |name: &str| {
        table
            .settings
            .iter()
            .find(|s| s.name == name)
            .unwrap()
            .choices
            .clone()
    };
    assert!(choices("can_send_message_group").contains(&11));
    assert!(
        !choices("can_subscribe_group").contains(&11),
        "role:everyone"
    );
    assert!(
        choices("can_subscribe_group").contains(&10)
            && choices("can_subscribe_group").contains(&20)
    );
}

#[test]
fn owners_may_change_all_but_the_content_settings_of_a_private_channel_they_cannot_read() {
    let table = loaded(1, Role::Owner, 362).table;
    assert_eq!(cell(&table, 101, "can_subscribe_group").denied, None);
    assert_eq!(cell(&table, 102, "can_add_subscribers_group").denied, None);
    assert_eq!(
        cell(&table, 103, "can_add_subscribers_group")
            .denied
            .as_deref(),
        Some(ChannelDenied::NoContentAccess.to_string().as_str())
    );
    assert_eq!(cell(&table, 103, "can_send_message_group").denied, None);
}

#[test]
fn members_change_only_the_channels_they_administer() {
    // Linus is named in general's anonymous group; Grace is in ops through platform.
    let linus = loaded(3, Role::Member, 362).table;
    assert_eq!(cell(&linus, 101, "can_send_message_group").denied, None);
    assert_eq!(
        cell(&linus, 103, "can_send_message_group")
            .denied
            .as_deref(),
        Some(ChannelDenied::NotAdministrator.to_string().as_str())
    );
    let grace = loaded(2, Role::Member, 362).table;
    assert_eq!(cell(&grace, 103, "can_send_message_group").denied, None);
    let guest = loaded(3, Role::Guest, 362).table;
    assert!(cell(&guest, 101, "can_send_message_group").denied.is_some());
}

#[test]
fn an_old_server_shows_what_it_has_read_only() {
    let table = loaded(1, Role::Owner, 330).table;
    let names: Vec<&str> = table.settings.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "can_remove_subscribers_group",
            "can_administer_channel_group"
        ]
    );
    assert!(table.settings.iter().all(|s| s.read_only.is_none()));
    let older = loaded(1, Role::Owner, 200).table;
    assert_eq!(older.settings.len(), 1);
    assert!(older.settings[0].read_only.is_some());
    assert!(
        cell(&older, 101, "can_remove_subscribers_group")
            .denied
            .is_some()
    );
}

#[test]
fn the_servers_description_decides_the_columns() {
    let supported = json!({"stream": {"can_subscribe_group": {"allow_everyone_group": false}}});
    let built = LoadedChannels::build(register(362, Some(supported)), 1, Role::Owner, groups());
    assert_eq!(built.table.settings.len(), 1);
    assert_eq!(built.table.channels[0].cells.len(), 1);
}

#[test]
fn the_plan_sends_one_request_per_channel_and_says_what_it_leaves_out() {
    let loaded = loaded(1, Role::Owner, 362);
    let changes = [
        change(101, "can_remove_subscribers_group", 20),
        change(102, "can_remove_subscribers_group", 20),
        change(102, "can_send_message_group", 12),
        change(101, "can_send_message_group", 11), // already so
        change(103, "can_subscribe_group", 20),    // no content access
        change(101, "can_subscribe_group", 11),    // role:everyone refused
        change(101, "can_subscribe_group", 22),    // deactivated group
        change(104, "can_subscribe_group", 20),    // no such channel
        change(101, "can_create_topic_group", 20), // not on this server
    ];
    let plan = plan_channel_settings(&loaded, &changes);
    let requests: Vec<(i64, usize)> = plan
        .requests
        .iter()
        .map(|r| (r.stream_id, r.settings.len()))
        .collect();
    assert_eq!(requests, [(101, 1), (102, 2)]);
    assert_eq!(plan.change_count(), 3);
    assert_eq!(
        plan.requests[0].settings[0].old,
        Some(GroupSetting::Named(13))
    );
    let skipped: Vec<(i64, &str, Option<String>)> = plan
        .skipped
        .iter()
        .map(|(c, skip)| (c.stream_id, c.setting.as_str(), skip.reason()))
        .collect();
    assert!(skipped.contains(&(101, "can_send_message_group", None)));
    assert!(skipped.contains(&(
        103,
        "can_subscribe_group",
        Some(ChannelDenied::NoContentAccess.to_string())
    )));
    // The cell staged twice keeps its last change: the deactivated group.
    assert!(skipped.contains(&(
        101,
        "can_subscribe_group",
        Some(ChannelSkip::UnknownGroup.to_string())
    )));
    assert!(skipped.contains(&(
        104,
        "can_subscribe_group",
        Some(ChannelSkip::UnknownChannel.to_string())
    )));
    assert!(skipped.contains(&(
        101,
        "can_create_topic_group",
        Some(ChannelSkip::UnknownSetting.to_string())
    )));
    let everyone = plan_channel_settings(&loaded, &[change(101, "can_subscribe_group", 11)]);
    assert_eq!(
        everyone.skipped[0].1,
        ChannelSkip::NotAllowed("Everyone, guests included".into())
    );
}

/// Records each call; fails the channels listed.
#[derive(Default)]
struct FakeApi {
    calls: Mutex<Vec<(i64, Vec<SettingUpdate>)>>,
    failing: Vec<i64>,
}

impl ChannelSettingsApi for FakeApi {
    async fn update_channel(
        &self,
        stream_id: i64,
        updates: &[SettingUpdate],
    ) -> Result<(), ClientError> {
        self.calls
            .lock()
            .unwrap()
            .push((stream_id, updates.to_vec()));
        if self.failing.contains(&stream_id) {
            return Err(ClientError::Decode("refused".into()));
        }
        Ok(())
    }
}

#[tokio::test]
async fn apply_sends_new_and_old_and_undo_sets_back_what_succeeded() {
    let loaded = loaded(1, Role::Owner, 362);
    let plan = plan_channel_settings(
        &loaded,
        &[
            change(101, "can_remove_subscribers_group", 20),
            change(102, "can_remove_subscribers_group", 20),
        ],
    );
    let api = FakeApi {
        failing: vec![102],
        ..FakeApi::default()
    };
    let mut progress = Vec::new();
    let report = apply_channel_settings(&api, &plan, &Cancel::new(), |done, total| {
        progress.push((done, total));
    })
    .await;
    assert_eq!(progress, [(1, 2), (2, 2)]);
    let calls = api.calls.lock().unwrap().clone();
    assert_eq!(calls[0].0, 101);
    assert_eq!(
        calls[0].1,
        [SettingUpdate {
            name: "can_remove_subscribers_group",
            new: json!(20),
            old: Some(json!(13)),
        }]
    );
    assert_eq!(report.failed_count(), 1);
    assert_eq!(
        report.reverse(),
        [change(101, "can_remove_subscribers_group", 13)]
    );
}

#[tokio::test]
async fn a_cancelled_apply_sends_nothing_more() {
    let loaded = loaded(1, Role::Owner, 362);
    let plan = plan_channel_settings(&loaded, &[change(101, "can_remove_subscribers_group", 20)]);
    let cancel = Cancel::new();
    cancel.cancel();
    let api = FakeApi::default();
    let report = apply_channel_settings(&api, &plan, &cancel, |_, _| {}).await;
    assert!(report.cancelled && api.calls.lock().unwrap().is_empty());
    assert_eq!(report.requests_sent, 0);
    assert!(report.reverse().is_empty() && !report.cells[0].attempted);
}
