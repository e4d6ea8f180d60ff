//! The Channels page's client calls against the local server (weir-server, the demo
//! organization): the table from one `register`, a setting set on three channels in one
//! staged step with `PATCH /streams/{id}`, read back with `GET /streams`, and undone.
// The helpers unwrap as the tests do: clippy's allow-unwrap-in-tests reaches only the
// #[test] functions of an integration test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use weir_core::channels::{
    ChannelSettingChange, apply_channel_settings, load_channels, plan_channel_settings,
};
use weir_core::memberships::{Cancel, GroupSetting};
use weir_core::{ClientConfig, Credentials, Secret, TlsOptions, ZulipClient};
use weir_server::embed::local::{Options, Organization, Server};

const SETTING: &str = "can_remove_subscribers_group";

pub async fn demo() -> (tempfile::TempDir, Server, ZulipClient) {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(Options::new(dir.path().join("server"), Organization::Demo))
        .await
        .unwrap();
    let credentials = Credentials {
        site: server.url().to_owned(),
        email: server.owner().email.clone(),
        key: Secret::new(server.owner().api_key.clone()),
    };
    let client = ZulipClient::new(
        credentials,
        &TlsOptions::default(),
        &ClientConfig::default(),
    )
    .unwrap();
    (dir, server, client)
}

/// Each channel's value of the setting, as `GET /streams` gives it.
async fn values(client: &ZulipClient, stream_ids: &[i64]) -> Vec<GroupSetting> {
    let streams = client.get_streams(true).await.unwrap();
    stream_ids
        .iter()
        .map(|id| {
            let stream = streams.iter().find(|s| s.stream_id == *id).unwrap();
            GroupSetting::from_value(&stream.can_remove_subscribers_group).unwrap()
        })
        .collect()
}

#[tokio::test]
async fn a_setting_set_on_three_channels_reaches_the_server_and_is_undone() {
    let (_dir, _server, client) = demo().await;
    let loaded = load_channels(&client).await.unwrap();
    let table = &loaded.table;
    assert!(table.settings.iter().any(|s| s.name == SETTING));
    assert!(!table.channels.is_empty() && !table.groups.is_empty());
    let setting = table.settings.iter().find(|s| s.name == SETTING).unwrap();
    // A group of the demo organization that is not a system group.
    let team = table
        .groups
        .iter()
        .find(|g| !g.is_system_group && setting.choices.contains(&g.group_id))
        .unwrap();
    let targets: Vec<i64> = table
        .channels
        .iter()
        .filter(|row| {
            row.cells
                .iter()
                .any(|c| c.setting == SETTING && c.denied.is_none())
        })
        .take(3)
        .map(|row| row.stream_id)
        .collect();
    assert_eq!(targets.len(), 3, "the owner may change three channels");
    let before = values(&client, &targets).await;
    let changes: Vec<ChannelSettingChange> = targets
        .iter()
        .map(|id| ChannelSettingChange {
            stream_id: *id,
            setting: SETTING.into(),
            value: GroupSetting::Named(team.group_id),
        })
        .collect();
    let plan = plan_channel_settings(&loaded, &changes);
    assert_eq!((plan.requests.len(), plan.skipped.len()), (3, 0));
    let report = apply_channel_settings(&client, &plan, &Cancel::new(), |_, _| {}).await;
    assert_eq!(report.failed_count(), 0, "{report:?}");
    assert_eq!(
        values(&client, &targets).await,
        vec![GroupSetting::Named(team.group_id); 3]
    );

    // A stale table: the server refuses, since `old` no longer matches.
    let stale = apply_channel_settings(&client, &plan, &Cancel::new(), |_, _| {}).await;
    assert_eq!(stale.failed_count(), 3);
    assert!(
        stale.cells[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("'old' value does not match")),
        "{stale:?}"
    );

    // Undo, planned against a fresh table.
    let undo = report.reverse();
    let fresh = load_channels(&client).await.unwrap();
    let plan = plan_channel_settings(&fresh, &undo);
    assert_eq!(plan.requests.len(), 3);
    let undone = apply_channel_settings(&client, &plan, &Cancel::new(), |_, _| {}).await;
    assert_eq!(undone.failed_count(), 0, "{undone:?}");
    assert_eq!(values(&client, &targets).await, before);
}
