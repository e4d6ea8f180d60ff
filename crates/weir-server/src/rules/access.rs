//! Who may see which stream. One place, so that no endpoint reveals a private stream.

use crate::store::{StreamRow, UserRow};

/// Zulip's "can access": metadata and subscribers of the stream are visible.
/// Organization administrators see everything; guests only streams they are in;
/// everyone else public streams and private streams they are in.
pub fn can_access(user: &UserRow, stream: &StreamRow, subscribed: bool) -> bool {
    if user.is_org_admin() || subscribed {
        return true;
    }
    !stream.invite_only && !user.is_guest()
}

/// Whether an unsubscribe request may name the stream: like [`can_access`], except that
/// public streams stay visible to guests (who then simply are not subscribed).
pub fn visible_for_unsubscribe(user: &UserRow, stream: &StreamRow, subscribed: bool) -> bool {
    user.is_org_admin() || subscribed || !stream.invite_only
}
