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

/// Zulip's `user_has_content_access`: who may read a stream's messages and link to it
/// (`#**name**` renders as a link only for them): subscribers, and anyone but a guest
/// for public streams. Administrators have metadata access only.
pub fn has_content_access(user: &UserRow, stream: &StreamRow, subscribed: bool) -> bool {
    subscribed || (!stream.invite_only && !user.is_guest())
}

/// Zulip's `can_access_stream_history`: who reads a stream's messages from before they
/// joined (or without joining) when they narrow to it. Public streams: anyone but a
/// guest, and subscribed guests; private streams: subscribers, when the stream's history
/// is public to subscribers. Everyone else reads only the messages they received.
pub fn can_access_history(user: &UserRow, stream: &StreamRow, subscribed: bool) -> bool {
    if !stream.invite_only && !user.is_guest() {
        return true;
    }
    subscribed && (!stream.invite_only || stream.history_public_to_subscribers)
}

/// Whether an unsubscribe request may name the stream: like [`can_access`], except that
/// public streams stay visible to guests (who then simply are not subscribed).
pub fn visible_for_unsubscribe(user: &UserRow, stream: &StreamRow, subscribed: bool) -> bool {
    user.is_org_admin() || subscribed || !stream.invite_only
}

/// What the one sending rule says about a stream (Zulip's
/// `access_stream_for_send_message`): every path that creates a message asks it
/// (`POST /messages`, webhooks), so that none is more permissive than another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendAccess {
    Allowed,
    /// The sender sees the stream but may not post there: Zulip's
    /// `Not authorized to send to channel '<name>'`.
    Refused,
    /// The sender may not even see the stream: answered as a missing stream (Weir's
    /// rule that private streams never leak).
    Hidden,
}

/// Zulip's rule: a subscriber may post; so may a bot whose owner is subscribed;
/// anyone but a guest may post to a public stream. `owner_subscribed` is false for
/// senders that are not bots.
pub fn send_access(
    sender: &UserRow,
    invite_only: bool,
    subscribed: bool,
    owner_subscribed: bool,
) -> SendAccess {
    if subscribed || owner_subscribed || (!invite_only && !sender.is_guest()) {
        return SendAccess::Allowed;
    }
    if sender.is_org_admin() || (!invite_only && !sender.is_guest()) {
        SendAccess::Refused
    } else {
        SendAccess::Hidden
    }
}

#[cfg(test)]
mod tests {
    use zulip_api::Role;

    use super::*;

    fn user(role: Role) -> UserRow {
        UserRow {
            user_id: 1,
            email: "a@x.test".into(),
            full_name: "A".into(),
            role,
            bot_type: None,
            bot_owner_id: None,
            api_key: String::new(),
            is_active: true,
            is_system_bot: false,
            date_joined: String::new(),
            timezone: String::new(),
        }
    }

    #[test]
    fn guests_post_only_where_they_are_subscribed() {
        let guest = user(Role::Guest);
        assert_eq!(send_access(&guest, false, false, false), SendAccess::Hidden);
        assert_eq!(send_access(&guest, false, true, false), SendAccess::Allowed);
        assert_eq!(send_access(&guest, true, false, false), SendAccess::Hidden);
    }

    #[test]
    fn members_post_to_public_streams_and_private_ones_they_or_their_owner_are_in() {
        let member = user(Role::Member);
        assert_eq!(
            send_access(&member, false, false, false),
            SendAccess::Allowed
        );
        assert_eq!(send_access(&member, true, false, false), SendAccess::Hidden);
        assert_eq!(send_access(&member, true, false, true), SendAccess::Allowed);
        let admin = user(Role::Administrator);
        assert_eq!(send_access(&admin, true, false, false), SendAccess::Refused);
    }
}
