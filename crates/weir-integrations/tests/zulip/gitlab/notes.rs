//! Comments on commits, merge requests, issues, designs and snippets.

use super::{AWESOME, SATYAM, case};
use crate::zulip::Case;

pub(super) fn note_cases() -> Vec<Case> {
    let mr_note = format!(
        "[commented]({SATYAM}/-/merge_requests/1#note_1406328457) on [MR #1]({SATYAM}/-/\
         merge_requests/1):\n\n~~~ quote\nI am not sure if this new feature is even required or \
         not.\n~~~"
    );
    let issue_note = format!(
        "[commented]({SATYAM}/-/issues/1#note_1406279810) on [issue #1]({SATYAM}/-/issues/1):\
         \n\n~~~ quote\nThis is again a random comment.\n~~~"
    );
    let design_note = format!(
        "Satyam Bansal [commented]({SATYAM}/-/issues/1/designs/Screenshot.png#note_1458583152) \
         on design [Screenshot.png]({SATYAM}/-/issues/1/designs/Screenshot.png):\n\n~~~ quote\n\
         hello\n~~~"
    );
    let project = format!("[[testing-zulip-gitlab-integration]({SATYAM})]");
    let snippet = format!("{SATYAM}/-/snippets/2547713");
    vec![
        case(
            "test_note_commit_event_message",
            "note_hook__commit_note",
            "testing-zulip-gitlab-integration",
            &format!(
                "Satyam Bansal [commented]({SATYAM}/-/commit/\
                 82689ddf00fd7bdadb5c2afb3b94bd555edc9d01#note_1406241063) on [82689ddf00f]\
                 ({SATYAM}/-/commit/82689ddf00fd7bdadb5c2afb3b94bd555edc9d01):\n~~~ quote\nWow \
                 what a beautiful commit.\n~~~"
            ),
        ),
        case(
            "test_note_merge_request_event_message",
            "note_hook__merge_request_note",
            "testing-zulip-gitlab-integration / MR #1 add new-feature",
            &format!("Satyam Bansal {mr_note}"),
        ),
        case(
            "test_note_merge_request_event_message_without_merge_request_title",
            "note_hook__merge_request_note",
            "testing-zulip-gitlab-integration / MR #1",
            &format!("Satyam Bansal {mr_note}"),
        )
        .query("use_merge_request_title", "false"),
        case(
            "test_note_merge_request_with_custom_topic_in_url",
            "note_hook__merge_request_note",
            "notifications",
            &format!(
                "{project} Satyam Bansal {}",
                mr_note.replace("[MR #1]", "[MR #1 add new-feature]")
            ),
        )
        .query("topic", "notifications"),
        case(
            "test_note_issue_event_message",
            "note_hook__issue_note",
            "testing-zulip-gitlab-integration / issue #1 Add more lines",
            &format!("Satyam Bansal {issue_note}"),
        ),
        case(
            "test_note_design_event_message",
            "note_hook__design_note",
            "testing-zulip-gitlab-integration / design Screenshot.png",
            &design_note,
        ),
        case(
            "test_note_confidential_issue_event_message",
            "note_hook__confidential_issue_note",
            "testing-zulip-gitlab-integration / issue #1 Add more lines",
            &format!(
                "Satyam Bansal [commented]({SATYAM}/-/issues/1#note_1406130881) on [issue #1]\
                 ({SATYAM}/-/issues/1):\n\n~~~ quote\nSome more comments\n~~~"
            ),
        ),
        case(
            "test_note_issue_with_custom_topic_in_url",
            "note_hook__issue_note",
            "notifications",
            &format!(
                "{project} Satyam Bansal {}",
                issue_note.replace("[issue #1]", "[issue #1 Add more lines]")
            ),
        )
        .query("topic", "notifications"),
        case(
            "test_note_design_with_custom_topic_in_url",
            "note_hook__design_note",
            "notifications",
            &format!("{project} {design_note}"),
        )
        .query("topic", "notifications"),
        case(
            "test_note_snippet_old_event_message",
            "note_hook__snippet_note_old",
            "my-awesome-project / snippet #2 test",
            &format!(
                "Tomasz Kolek [commented]({AWESOME}/snippets/2#note_14172058) on [snippet #2]\
                 ({AWESOME}/-/snippets/2):\n\n~~~ quote\nNice snippet\n~~~"
            ),
        ),
        case(
            "test_note_snippet_event_message",
            "note_hook__snippet_note",
            "testing-zulip-gitlab-integration / snippet #2547713 a ver...",
            &format!(
                "Satyam Bansal [commented]({snippet}#note_1424268837) on [snippet #2547713]\
                 ({snippet}):\n\n~~~ quote\nsome comment\n~~~"
            ),
        ),
        case(
            "test_note_snippet_with_custom_topic_in_url",
            "note_hook__snippet_note",
            "notifications",
            &format!(
                "{project} Satyam Bansal [commented]({snippet}#note_1424268837) on [snippet \
                 #2547713 a very new new feature]({snippet}):\n\n~~~ quote\nsome comment\n~~~"
            ),
        )
        .query("topic", "notifications"),
    ]
}
