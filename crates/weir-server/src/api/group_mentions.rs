//! Zulip's `check_user_group_mention_allowed`: a message that mentions a group with
//! `@*name*` (not the silent `@_*name*`) is refused unless the sender is in the group's
//! `can_mention_group` (recursively), which is `role:everyone` unless someone changed it.
//! Groups are checked in id order; the first refusal names its group.

use std::collections::BTreeSet;

use rusqlite::Connection;

use super::group_access::setting;
use crate::error::{ApiError, Error};
use crate::rules::groups::SettingValue;
use crate::store::{self, Groups, UserRow, system};

/// How a rendered (non-silent) group mention starts; the renderer escapes everything a
/// person writes, so only a mention it made can contain this.
const MENTION: &str = "<span class=\"user-group-mention\" data-user-group-id=\"";

/// The groups a rendered message mentions aloud.
fn mentioned_groups(rendered: &str) -> BTreeSet<i64> {
    rendered
        .match_indices(MENTION)
        .filter_map(|(at, _)| {
            let rest = rendered.get(at + MENTION.len()..)?;
            rest[..rest.find('"')?].parse().ok()
        })
        .collect()
}

/// Refuses the message if `sender` may not mention a group it mentions aloud.
pub fn check_group_mentions(
    conn: &Connection,
    groups: &Groups,
    sender: &UserRow,
    rendered: &str,
) -> Result<(), Error> {
    let mentioned = mentioned_groups(rendered);
    if mentioned.is_empty() {
        return Ok(());
    }
    // In a read job, off the async threads: the cached graph, read only when the groups
    // changed (see `rules/group_graph.rs` for the cost).
    let graph = groups.on_reader(conn)?;
    for group_id in mentioned {
        let Some(group) = store::group_by_id(conn, group_id)? else {
            continue;
        };
        let allowed = setting(&group, "can_mention_group");
        if allowed == SettingValue::Group(system::EVERYONE) {
            continue;
        }
        if !graph.holds(&allowed, sender.user_id) {
            return Err(ApiError::bad_request(format!(
                "You are not allowed to mention user group '{}'.",
                group.name
            ))
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_mentions_aloud_count_and_each_once() {
        let html = "<p><span class=\"user-group-mention\" data-user-group-id=\"30\">@a</span> \
                    <span class=\"user-group-mention silent\" data-user-group-id=\"31\">b</span> \
                    <span class=\"user-group-mention\" data-user-group-id=\"30\">@a</span> \
                    <span class=\"user-group-mention\" data-user-group-id=\"x\">@c</span></p>";
        assert_eq!(mentioned_groups(html), BTreeSet::from([30]));
        assert!(
            mentioned_groups("<p>@<em>a</em> &lt;span class=&quot;user-group-mention&quot;</p>")
                .is_empty()
        );
    }
}
