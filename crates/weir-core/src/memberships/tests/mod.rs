//! Unit tests of the memberships module, on a small organization built in memory.

mod apply;
mod matrix;
mod plan;
mod table;

use zulip_api::{Role, User};

use super::{Change, Matrix, Snapshot, SnapshotStream};

pub(super) fn user(user_id: i64, full_name: &str, role: Role) -> User {
    User {
        user_id,
        email: format!("user{user_id}@example.com"),
        full_name: full_name.to_string(),
        role,
        is_admin: role.is_org_admin(),
        is_owner: role == Role::Owner,
        is_guest: role == Role::Guest,
        is_bot: false,
        bot_type: None,
        bot_owner_id: None,
        is_active: true,
        avatar_url: None,
        avatar_version: 1,
        date_joined: String::new(),
        timezone: String::new(),
        delivery_email: None,
        profile_data: None,
        is_system_bot: None,
    }
}

pub(super) fn bot(user_id: i64, owner: i64) -> User {
    User {
        is_bot: true,
        bot_type: Some(zulip_api::BotType::Generic),
        bot_owner_id: Some(owner),
        email: format!("bot{user_id}-bot@example.com"),
        ..user(user_id, &format!("Bot {user_id}"), Role::Member)
    }
}

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
