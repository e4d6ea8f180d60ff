//! Issues, confidential or not.

use super::{ADAM, AWESOME, EESHAN, JOE, case};
use crate::zulip::Case;

pub(super) fn issue_cases() -> Vec<Case> {
    let issue1 = format!("[issue #1]({AWESOME}/issues/1)");
    let quoted = "\n\n~~~ quote\nIssue description\n~~~";
    let topic_new = "my-awesome-project / issue #1 Issue title_new";
    vec![
        case(
            "test_create_issue_without_assignee_event_message",
            "issue_hook__issue_created_without_assignee",
            "my-awesome-project / issue #1 Issue title",
            &format!("Tomasz Kolek created {issue1}:{quoted}"),
        ),
        case(
            "test_create_confidential_issue_without_assignee_event_message",
            "issue_hook__confidential_issue_created_without_assignee",
            "testing / issue #1 Testing",
            &format!("Joe Bloggs created [issue #1]({JOE}/issues/1):\n\n~~~ quote\nTesting\n~~~"),
        ),
        case(
            "test_create_issue_with_custom_topic_in_url",
            "issue_hook__issue_created_without_assignee",
            "notifications",
            &format!(
                "[[my-awesome-project]({AWESOME})] Tomasz Kolek created [issue #1 Issue title]\
                 ({AWESOME}/issues/1):{quoted}"
            ),
        )
        .query("topic", "notifications"),
        case(
            "test_create_issue_with_assignee_event_message",
            "issue_hook__issue_created_with_assignee",
            "my-awesome-project / issue #1 Issue title",
            &format!("Tomasz Kolek created {issue1} (assigned to Tomasz Kolek):{quoted}"),
        ),
        case(
            "test_create_issue_with_two_assignees_event_message",
            "issue_hook__issue_created_with_two_assignees",
            "Zulip GitLab Test / issue #2 Zulip Test Issue 2",
            &format!(
                "Adam Birds created [issue #2]({ADAM}/issues/2) (assigned to Adam Birds and \
                 Eeshan Garg):\n\n~~~ quote\nZulip Test Issue 2\n~~~"
            ),
        ),
        case(
            "test_create_issue_with_three_assignees_event_message",
            "issue_hook__issue_created_with_three_assignees",
            "Zulip GitLab Test / issue #2 Zulip Test Issue 2",
            &format!(
                "Adam Birds created [issue #2]({ADAM}/issues/2) (assigned to Adam Birds, Eeshan \
                 Garg and Tim Abbott):\n\n~~~ quote\nZulip Test Issue 2\n~~~"
            ),
        ),
        case(
            "test_create_confidential_issue_with_assignee_event_message",
            "issue_hook__confidential_issue_created_with_assignee",
            "testing / issue #2 Testing",
            &format!(
                "Joe Bloggs created [issue #2]({JOE}/issues/2) (assigned to Joe Bloggs):\n\n\
                 ~~~ quote\nTesting\n~~~"
            ),
        ),
        case(
            "test_create_issue_with_hidden_comment_in_description",
            "issue_hook__issue_created_with_hidden_comment_in_description",
            "public-repo / issue #3 New Issue with hidden comment",
            "Eeshan Garg created [issue #3](https://gitlab.com/eeshangarg/public-repo/issues/3):\
             \n\n~~~ quote\nThis description actually has a hidden comment in it!\n~~~",
        ),
        case(
            "test_create_confidential_issue_with_hidden_comment_in_description",
            "issue_hook__confidential_issue_created_with_hidden_comment_in_description",
            "testing / issue #1 Testing",
            &format!(
                "Joe Bloggs created [issue #1]({JOE}/issues/1):\n\n~~~ quote\nThis description \
                 actually has a hidden comment in it!\n~~~"
            ),
        ),
        case(
            "test_create_issue_with_null_description",
            "issue_hook__issue_opened_with_null_description",
            "my-awesome-project / issue #7 Issue without description",
            &format!("Eeshan Garg created [issue #7]({EESHAN}/issues/7)."),
        ),
        case(
            "test_update_issue_event_message",
            "issue_hook__issue_updated",
            topic_new,
            &format!("Tomasz Kolek updated {issue1}."),
        ),
        case(
            "test_update_confidential_issue_event_message",
            "issue_hook__confidential_issue_updated",
            "testing / issue #1 Testing",
            &format!("Joe Bloggs updated [issue #1]({JOE}/issues/1)."),
        ),
        case(
            "test_update_issue_with_custom_topic_in_url",
            "issue_hook__issue_updated",
            "notifications",
            &format!(
                "[[my-awesome-project]({AWESOME})] Tomasz Kolek updated [issue #1 Issue \
                 title_new]({AWESOME}/issues/1)."
            ),
        )
        .query("topic", "notifications"),
        case(
            "test_close_issue_event_message",
            "issue_hook__issue_closed",
            topic_new,
            &format!("Tomasz Kolek closed {issue1}."),
        ),
        case(
            "test_close_confidential_issue_event_message",
            "issue_hook__confidential_issue_closed",
            "testing / issue #1 Testing Test",
            &format!("Joe Bloggs closed [issue #1]({JOE}/issues/1)."),
        ),
        case(
            "test_reopen_issue_event_message",
            "issue_hook__issue_reopened",
            topic_new,
            &format!("Tomasz Kolek reopened {issue1}."),
        ),
        case(
            "test_reopen_confidential_issue_event_message",
            "issue_hook__confidential_issue_reopened",
            "testing / issue #1 Testing Test",
            &format!("Joe Bloggs reopened [issue #1]({JOE}/issues/1)."),
        ),
    ]
}
