//! Unit tests of the memberships module, on a small organization built in memory.

mod apply;
mod group_members;
mod group_table;
mod groups;
mod matrix;
mod plan;
mod table;

use zulip_api::{Role, User};

use super::{Change, Matrix, Snapshot, SnapshotStream};

pub(super) use crate::test_support::{bot, user};

pub(super) fn stream(
    stream_id: i64,
    name: &str,
    invite_only: bool,
    subscribers: &[i64],
) -> SnapshotStream {
    SnapshotStream {
        stream_id,
        name: name.to_string(),
        invite_only,
        subscribers: subscribers.to_vec(),
        settings: Default::default(),
    }
}

/// People 1..=people (1 is the viewer, with `role`), streams 101..=100+streams; every
/// person subscribed to every stream when `full`.
pub(super) fn organization(
    role: Role,
    people: i64,
    streams: i64,
    full: bool,
    level: u32,
) -> Matrix {
    let users: Vec<User> = (1..=people)
        .map(|id| {
            user(
                id,
                &format!("Person {id}"),
                if id == 1 { role } else { Role::Member },
            )
        })
        .collect();
    let everyone: Vec<i64> = if full {
        (1..=people).collect()
    } else {
        Vec::new()
    };
    let streams = (101..=100 + streams)
        .map(|id| stream(id, &format!("stream {id}"), false, &everyone))
        .collect();
    build(Snapshot {
        feature_level: level,
        me: 1,
        users,
        streams,
        ..Default::default()
    })
}

pub(super) fn build(snapshot: Snapshot) -> Matrix {
    match Matrix::build(snapshot) {
        Ok(matrix) => matrix,
        Err(error) => panic!("matrix: {error}"),
    }
}

pub(super) fn unsubscribe(user_id: i64, stream_id: i64) -> Change {
    Change {
        user_id,
        stream_id,
        subscribe: false,
    }
}

pub(super) fn subscribe(user_id: i64, stream_id: i64) -> Change {
    Change {
        user_id,
        stream_id,
        subscribe: true,
    }
}
