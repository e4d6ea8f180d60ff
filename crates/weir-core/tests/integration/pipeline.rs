//! The one apply pipeline against the local server (weir-server's demo organization), for
//! each kind of change: apply, journal, undo from the journal (reopened, as after a
//! restart, for the groups), and the server's own answer checked after each step.
// The helpers unwrap as the tests do: clippy's allow-unwrap-in-tests reaches only the
// #[test] functions of an integration test, not its helpers (rust-clippy#11119).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use weir_core::channels::{ChannelSettingChange, load_channels};
use weir_core::memberships::{
    Change, GroupMemberChange, GroupSetting, Journal, JournalAccount, load_matrix,
};
use weir_core::pipeline::{ChannelSettings, GroupMembers, Memberships, Pipeline};

use crate::channels::demo;

fn who() -> JournalAccount<'static> {
    JournalAccount {
        account_id: 1,
        site: "local",
        email: "owner@example.com",
    }
}

#[tokio::test]
async fn memberships_apply_and_undo_through_the_journal() {
    let (dir, _server, client) = demo().await;
    let pipeline = Pipeline::new(Journal::open(&dir.path().join("journal.sqlite3")).unwrap());
    let matrix = Arc::new(load_matrix(&client).await.unwrap());
    // Someone active, not the owner, and a public channel they are not in.
    let (person, stream) = matrix
        .channels()
        .iter()
        .filter(|channel| !channel.invite_only)
        .find_map(|channel| {
            let (_, person) = matrix.people().iter().enumerate().find(|(at, p)| {
                p.is_active
                    && !p.is_bot
                    && p.user_id != matrix.viewer().user_id
                    && u32::try_from(*at)
                        .is_ok_and(|at| channel.subscribers.binary_search(&at).is_err())
            })?;
            Some((person.user_id, channel.stream_id))
        })
        .unwrap();
    let change = Change {
        user_id: person,
        stream_id: stream,
        subscribe: true,
    };
    let mut forgotten = false;
    let applied = pipeline
        .run::<Memberships>(
            &client,
            &who(),
            matrix,
            vec![change],
            || forgotten = true,
            |_| {},
        )
        .await
        .unwrap();
    assert!(forgotten && applied.journal_id.is_some());
    assert!(
        client
            .get_stream_members(stream)
            .await
            .unwrap()
            .contains(&person)
    );
    let undo = pipeline.undo::<Memberships>(1, None).unwrap().unwrap();
    assert_eq!(undo, [change.reversed()]);
    let matrix = Arc::new(load_matrix(&client).await.unwrap());
    pipeline
        .run::<Memberships>(&client, &who(), matrix, undo, || {}, |_| {})
        .await
        .unwrap();
    assert!(
        !client
            .get_stream_members(stream)
            .await
            .unwrap()
            .contains(&person)
    );
}

#[tokio::test]
async fn a_group_apply_is_undone_from_the_journal_after_a_restart() {
    let (dir, _server, client) = demo().await;
    let path = dir.path().join("journal.sqlite3");
    let matrix = Arc::new(load_matrix(&client).await.unwrap());
    let group = matrix
        .groups()
        .list()
        .iter()
        .find(|g| !g.is_system_group && matrix.group_rule(g.group_id, true).is_ok())
        .unwrap()
        .group_id;
    let person = matrix
        .people()
        .iter()
        .find(|p| p.is_active && matrix.is_direct_member(p.user_id, group) == Some(false))
        .unwrap()
        .user_id;
    let change = GroupMemberChange::person(person, group, true);
    let mut progress = Vec::new();
    {
        let pipeline = Pipeline::new(Journal::open(&path).unwrap());
        let applied = pipeline
            .run::<GroupMembers>(
                &client,
                &who(),
                matrix,
                vec![change],
                || {},
                |p| {
                    progress.push(p);
                },
            )
            .await
            .unwrap();
        assert_eq!(applied.report.failed_count(), 0, "{:?}", applied.report);
    }
    assert_eq!(progress.len(), 1);
    let members = |groups: Vec<weir_core::client::UserGroup>| {
        groups
            .into_iter()
            .find(|g| g.id == group)
            .map(|g| g.members)
            .unwrap_or_default()
    };
    assert!(members(client.get_user_groups().await.unwrap()).contains(&person));

    // A restart: the pipeline and its journal opened again from the file.
    let pipeline = Pipeline::new(Journal::open(&path).unwrap());
    let undo = pipeline.undo::<GroupMembers>(1, None).unwrap().unwrap();
    assert_eq!(
        undo,
        [GroupMemberChange {
            member: false,
            ..change
        }]
    );
    let matrix = Arc::new(load_matrix(&client).await.unwrap());
    pipeline
        .run::<GroupMembers>(&client, &who(), matrix, undo, || {}, |_| {})
        .await
        .unwrap();
    assert!(!members(client.get_user_groups().await.unwrap()).contains(&person));
    assert_eq!(pipeline.history::<GroupMembers>(1, 10).unwrap().len(), 2);
}

#[tokio::test]
async fn channel_settings_apply_and_undo_through_the_journal() {
    let (dir, _server, client) = demo().await;
    let pipeline = Pipeline::new(Journal::open(&dir.path().join("journal.sqlite3")).unwrap());
    let loaded = Arc::new(load_channels(&client).await.unwrap());
    let setting = "can_send_message_group";
    let row = loaded
        .table
        .channels
        .iter()
        .find(|row| {
            row.cells
                .iter()
                .any(|c| c.setting == setting && c.denied.is_none())
        })
        .unwrap();
    let before = row
        .cells
        .iter()
        .find(|c| c.setting == setting)
        .and_then(|c| c.value.clone())
        .unwrap();
    let members = loaded
        .table
        .groups
        .iter()
        .find(|g| g.name == "role:members")
        .unwrap()
        .group_id;
    let change = ChannelSettingChange {
        stream_id: row.stream_id,
        setting: setting.into(),
        value: GroupSetting::Named(members),
    };
    let stream_id = row.stream_id;
    let applied = pipeline
        .run::<ChannelSettings>(
            &client,
            &who(),
            Arc::clone(&loaded),
            vec![change],
            || {},
            |_| {},
        )
        .await
        .unwrap();
    assert_eq!(applied.report.failed_count(), 0, "{:?}", applied.report);
    let value = |streams: Vec<zulip_api::Stream>| {
        streams
            .into_iter()
            .find(|s| s.stream_id == stream_id)
            .and_then(|s| GroupSetting::from_value(&s.can_send_message_group))
    };
    assert_eq!(
        value(client.get_streams(true).await.unwrap()),
        Some(GroupSetting::Named(members))
    );
    // While an apply holds the slot, another is refused.
    let guard = pipeline.begin().unwrap();
    let busy = pipeline
        .run::<ChannelSettings>(&client, &who(), loaded, Vec::new(), || {}, |_| {})
        .await;
    assert!(matches!(busy, Err(weir_core::CoreError::Busy(_))));
    drop(guard);
    let undo = pipeline.undo::<ChannelSettings>(1, None).unwrap().unwrap();
    let fresh = Arc::new(load_channels(&client).await.unwrap());
    pipeline
        .run::<ChannelSettings>(&client, &who(), fresh, undo, || {}, |_| {})
        .await
        .unwrap();
    assert_eq!(value(client.get_streams(true).await.unwrap()), Some(before));
}
