//! Merge requests, from a project hook and from a system hook.

use super::{AWESOME, EESHAN, case};
use crate::zulip::Case;

pub(super) fn merge_request_cases() -> Vec<Case> {
    let mr2 = format!("[MR #2]({AWESOME}/merge_requests/2)");
    let mr2_titled = format!("[MR #2 NEW MR]({AWESOME}/merge_requests/2)");
    let mr3 = format!("[MR #3]({AWESOME}/merge_requests/3)");
    let eeshan_mr1 = format!("[MR #1]({EESHAN}/merge_requests/1)");
    let quoted = "\n\n~~~ quote\ndescription of merge request\n~~~";
    let project = format!("[[my-awesome-project]({AWESOME})]");
    let topic2 = "my-awesome-project / MR #2 NEW MR";
    let topic3 = "my-awesome-project / MR #3 New Merge Request";
    let readme = "my-awesome-project / MR #1 Update the README with author ...";
    let created2 = format!("Tomasz Kolek created {mr2} from `tomek` to `master`:{quoted}");
    let created2_titled =
        format!("{project} Tomasz Kolek created {mr2_titled} from `tomek` to `master`:{quoted}");
    let created3 = format!(
        "Tomasz Kolek created {mr3} from `tomek` to `master` (assigned to Tomasz Kolek):{quoted}"
    );
    let closed = format!("Tomasz Kolek closed {mr2}.");
    let closed_titled = format!("{project} Tomasz Kolek closed {mr2_titled}.");
    let merged = format!("Tomasz Kolek merged {mr3} from `tomek` to `master`.");
    let sumit = "https://gitlab.com/sumitb16/my-awesome-project/merge_requests/1";
    let mut cases = vec![
        case(
            "test_merge_request_created_without_assignee_event_message",
            "merge_request_hook__merge_request_created_without_assignee",
            topic2,
            &created2,
        ),
        case(
            "test_merge_request_created_with_custom_topic_in_url",
            "merge_request_hook__merge_request_created_without_assignee",
            "notifications",
            &created2_titled,
        )
        .query("topic", "notifications"),
        case(
            "test_merge_request_created_with_assignee_event_message",
            "merge_request_hook__merge_request_created_with_assignee",
            topic3,
            &created3,
        ),
        case(
            "test_merge_request_created_with_multiple_assignees_event_message",
            "merge_request_hook__merge_request_created_with_multiple_assignees",
            "Demo Project / MR #1 Make a trivial change to the README.",
            "Hemanth V. Alluri created [MR #1](https://gitlab.com/Hypro999/demo-project/-/\
             merge_requests/1) from `devel` to `master` (assigned to Hemanth V. Alluri and \
             Hemanth V. Alluri):\n\n~~~ quote\nA trivial change that should probably be \
             ignored.\n~~~",
        ),
        case(
            "test_merge_request_closed_event_message",
            "merge_request_hook__merge_request_closed",
            topic2,
            &closed,
        ),
        case(
            "test_merge_request_closed_event_message_without_using_title",
            "merge_request_hook__merge_request_closed",
            "my-awesome-project / MR #2",
            &closed,
        )
        .query("use_merge_request_title", "false"),
        case(
            "test_merge_request_closed_with_custom_topic_in_url",
            "merge_request_hook__merge_request_closed",
            "notifications",
            &closed_titled,
        )
        .query("topic", "notifications"),
        case(
            "test_merge_request_reopened_event_message",
            "merge_request_hook__merge_request_reopened",
            readme,
            &format!("Eeshan Garg reopened {eeshan_mr1}."),
        ),
        case(
            "test_merge_request_approved_event_message",
            "merge_request_hook__merge_request_approved",
            readme,
            &format!("Eeshan Garg approved {eeshan_mr1}."),
        ),
        case(
            "test_merge_request_approval_event_message",
            "merge_request_hook__merge_request_approval",
            "my-awesome-project / MR #1 Update the README",
            &format!("Sumit Bhanushali added their approval for [MR #1]({sumit})."),
        ),
        case(
            "test_merge_request_unapproval_event_message",
            "merge_request_hook__merge_request_unapproval",
            "my-awesome-project / MR #1 Update the README",
            &format!("Sumit Bhanushali removed their approval for [MR #1]({sumit})."),
        ),
        case(
            "test_merge_request_updated_event_message",
            "merge_request_hook__merge_request_updated",
            topic3,
            &format!(
                "Tomasz Kolek updated {mr3} (assigned to Tomasz Kolek):\n\n~~~ quote\nupdated \
                 desc\n~~~"
            ),
        ),
        case(
            "test_merge_request_added_commit_event_message",
            "merge_request_hook__merge_request_added_commit",
            topic3,
            &format!("Tomasz Kolek added commit(s) to {mr3}."),
        ),
        case(
            "test_merge_request_merged_event_message",
            "merge_request_hook__merge_request_merged",
            topic3,
            &merged,
        ),
        case(
            "test_merge_request_unapproved_event_message",
            "merge_request_hook__merge_request_unapproved",
            readme,
            &format!("Eeshan Garg unapproved {eeshan_mr1}."),
        ),
    ];
    // The same merge request events sent by a system hook.
    cases.extend([
        case(
            "test_system_merge_request_created_without_assignee_event_message",
            "system_hook__merge_request_created_without_assignee",
            topic2,
            &created2,
        ),
        case(
            "test_system_merge_request_created_with_custom_topic_in_url",
            "system_hook__merge_request_created_without_assignee",
            "notifications",
            &created2_titled,
        )
        .query("topic", "notifications"),
        case(
            "test_system_merge_request_created_with_assignee_event_message",
            "system_hook__merge_request_created_with_assignee",
            topic3,
            &created3,
        ),
        case(
            "test_system_merge_request_closed_event_message",
            "system_hook__merge_request_closed",
            topic2,
            &closed,
        ),
        case(
            "test_system_merge_request_merged_event_message",
            "system_hook__merge_request_merged",
            topic3,
            &merged,
        ),
        case(
            "test_system_merge_request_closed_with_custom_topic_in_url",
            "system_hook__merge_request_closed",
            "notifications",
            &closed_titled,
        )
        .query("topic", "notifications"),
    ]);
    cases
}
