//! The pipeline without a server: the apply slot, and the journal's round trip of each
//! kind (record, reopen the file, undo). `tests/integration/pipeline.rs` runs the three
//! kinds against the local server.

use super::*;
use crate::channels::{ChannelApplyReport, ChannelCellResult, ChannelSettingChange};
use crate::memberships::{
    ApplyReport, CellResult, CellStatus, Change, GroupApplyReport, GroupCellResult,
    GroupMemberChange, GroupSetting,
};

fn who() -> JournalAccount<'static> {
    JournalAccount {
        account_id: 7,
        site: "https://chat.example.com",
        email: "ada@example.com",
    }
}

fn pipeline_at(path: &std::path::Path) -> Pipeline {
    Pipeline::new(Journal::open(path).unwrap())
}

#[test]
fn one_apply_at_a_time_and_the_slot_frees_on_drop() {
    let pipeline = Pipeline::new(Journal::open_in_memory().unwrap());
    assert!(!pipeline.cancel(), "nothing runs yet");
    let guard = pipeline.begin().unwrap();
    assert_eq!(pipeline.begin().err(), Some(Busy));
    assert!(pipeline.cancel());
    assert!(guard.cancel().is_cancelled());
    drop(guard);
    assert!(!pipeline.cancel());
    assert!(pipeline.begin().is_ok());
}

#[test]
fn a_panic_during_an_apply_frees_the_slot() {
    let pipeline = Pipeline::new(Journal::open_in_memory().unwrap());
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _guard = pipeline.begin().unwrap();
        panic!("the apply panicked");
    }));
    assert!(panicked.is_err());
    assert!(pipeline.begin().is_ok(), "Apply must not stay locked");
}

#[test]
fn a_group_apply_is_undone_after_the_journal_is_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite3");
    let add = GroupMemberChange::person(4, 10, true);
    let remove = GroupMemberChange::person(2, 10, false);
    let failed = GroupMemberChange::person(5, 11, true);
    let report = GroupApplyReport {
        requests_total: 2,
        requests_sent: 2,
        cells: vec![
            GroupCellResult {
                change: add,
                error: None,
            },
            GroupCellResult {
                change: remove,
                error: None,
            },
            GroupCellResult {
                change: failed,
                error: Some("Insufficient permission".into()),
            },
        ],
    };
    let id = {
        let pipeline = pipeline_at(&path);
        pipeline
            .record::<GroupMembers>(&who(), &[add, remove, failed], &report)
            .unwrap()
            .unwrap()
    };
    // A restart: a new journal on the same file.
    let pipeline = pipeline_at(&path);
    let history = pipeline.history::<GroupMembers>(7, 10).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].id, history[0].changed, history[0].failed),
        (id, 2, 1)
    );
    let undo = pipeline.undo::<GroupMembers>(7, None).unwrap().unwrap();
    assert_eq!(
        undo,
        [
            GroupMemberChange {
                member: false,
                ..add
            },
            GroupMemberChange {
                member: true,
                ..remove
            }
        ]
    );
    assert_eq!(
        pipeline.undo::<GroupMembers>(7, Some(id)).unwrap().unwrap(),
        undo
    );
    // Other kinds and other accounts do not see it.
    assert!(pipeline.undo::<Memberships>(7, None).unwrap().is_none());
    assert!(pipeline.undo::<ChannelSettings>(7, None).unwrap().is_none());
    assert!(pipeline.undo::<GroupMembers>(8, None).unwrap().is_none());
}

#[test]
fn each_kind_keeps_its_own_history_in_the_one_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite3");
    let subscribe = Change {
        user_id: 3,
        stream_id: 101,
        subscribe: true,
    };
    let memberships = ApplyReport {
        requests_total: 1,
        requests_sent: 1,
        cancelled: false,
        cells: vec![CellResult {
            change: subscribe,
            status: CellStatus::Subscribed,
        }],
    };
    let set = ChannelSettingChange {
        stream_id: 101,
        setting: "can_send_message_group".into(),
        value: GroupSetting::Named(20),
    };
    let channels = ChannelApplyReport {
        requests_total: 1,
        requests_sent: 1,
        cancelled: false,
        cells: vec![ChannelCellResult {
            change: set.clone(),
            old: Some(GroupSetting::Anonymous {
                direct_members: vec![1],
                direct_subgroups: vec![],
            }),
            attempted: true,
            error: None,
        }],
    };
    {
        let pipeline = pipeline_at(&path);
        pipeline
            .record::<Memberships>(&who(), &[subscribe], &memberships)
            .unwrap();
        pipeline
            .record::<ChannelSettings>(&who(), std::slice::from_ref(&set), &channels)
            .unwrap();
        // An apply that sent nothing is not journalled.
        let empty = ChannelApplyReport::default();
        assert_eq!(
            pipeline
                .record::<ChannelSettings>(&who(), &[], &empty)
                .unwrap(),
            None
        );
    }
    let pipeline = pipeline_at(&path);
    assert_eq!(
        pipeline.undo::<Memberships>(7, None).unwrap().unwrap(),
        [subscribe.reversed()]
    );
    assert_eq!(
        pipeline.undo::<ChannelSettings>(7, None).unwrap().unwrap(),
        [ChannelSettingChange {
            value: GroupSetting::Anonymous {
                direct_members: vec![1],
                direct_subgroups: vec![],
            },
            ..set
        }]
    );
    assert_eq!(pipeline.history::<Memberships>(7, 10).unwrap().len(), 1);
    assert_eq!(
        pipeline.journal().list(7, 10).unwrap().len(),
        1,
        "the grid's own list"
    );
    assert_eq!(pipeline.history::<ChannelSettings>(7, 10).unwrap().len(), 1);
}
