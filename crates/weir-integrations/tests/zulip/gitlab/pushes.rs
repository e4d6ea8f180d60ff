//! Pushes and tags, branch filtering, system-hook pushes.

use super::{AWESOME, COMMITS_LIMIT, case};
use crate::zulip::{Case, Expect};

pub(super) fn push_cases() -> Vec<Case> {
    let compare = format!(
        "{AWESOME}/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...\
         eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9"
    );
    let b =
        format!("* b ([66abd2da288]({AWESOME}/commit/66abd2da28809ffa128ed0447965cf11d7f863a7))");
    let c =
        format!("* c ([eb6ae1e591e]({AWESOME}/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))");
    let pushed = format!("Tomasz Kolek [pushed]({compare}) 2 commits to branch tomek.\n\n{b}\n{c}");
    let others_row =
        format!("* b ([eb6ae1e591e]({AWESOME}/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))\n");
    let limit_row = format!("{b}\n");
    let more_than_limit = format!(
        "Tomasz Kolek [pushed]({compare}) 50 commits to branch tomek.\n\n{}[and {} more commit(s)]",
        limit_row.repeat(COMMITS_LIMIT),
        50 - COMMITS_LIMIT
    );
    vec![
        case(
            "test_push_event_specified_topic",
            "push_hook",
            "Specific topic",
            &format!("[[my-awesome-project]({AWESOME})] {pushed}"),
        )
        .query("topic", "Specific topic"),
        case(
            "test_push_event_message",
            "push_hook",
            "my-awesome-project / tomek",
            &pushed,
        ),
        case(
            "test_push_local_branch_without_commits",
            "push_hook__push_local_branch_without_commits",
            "my-awesome-project / changes",
            "Eeshan Garg [pushed](https://gitlab.com/eeshangarg/my-awesome-project/-/compare/\
             0000000000000000000000000000000000000000...68d7a5528cf423dfaac37dd62a56ac9cc8a884e3) \
             the branch changes.",
        ),
        case(
            "test_push_event_message_filtered_by_branches",
            "push_hook",
            "my-awesome-project / tomek",
            &pushed,
        )
        .query("branches", "master,tomek"),
        case(
            "test_push_multiple_committers",
            "push_hook__push_multiple_committers",
            "my-awesome-project / tomek",
            &format!(
                "Tomasz Kolek [pushed]({compare}) 2 commits to branch tomek. Commits by Ben (1) \
                 and Tomasz Kolek (1).\n\n{b}\n{c}"
            ),
        ),
        case(
            "test_push_multiple_committers_with_others",
            "push_hook__push_multiple_committers_with_others",
            "my-awesome-project / tomek",
            &format!(
                "Tomasz Kolek [pushed]({compare}) 7 commits to branch tomek. Commits by Ben (3), \
                 baxterthehacker (2), James (1) and others (1).\n\n{}* b ([eb6ae1e591e]({AWESOME}\
                 /commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))",
                others_row.repeat(6)
            ),
        ),
        case(
            "test_push_commits_more_than_limit_event_message",
            "push_hook__push_commits_more_than_limit",
            "my-awesome-project / tomek",
            &more_than_limit,
        ),
        case(
            "test_push_commits_more_than_limit_message_filtered_by_branches",
            "push_hook__push_commits_more_than_limit",
            "my-awesome-project / tomek",
            &more_than_limit,
        )
        .query("branches", "master,tomek"),
        case(
            "test_remove_branch_event_message",
            "push_hook__remove_branch",
            "my-awesome-project / tomek",
            "Tomasz Kolek deleted branch tomek.",
        ),
        case(
            "test_add_tag_event_message",
            "tag_push_hook__add_tag",
            "my-awesome-project",
            "Tomasz Kolek pushed tag xyz.",
        ),
        case(
            "test_remove_tag_event_message",
            "tag_push_hook__remove_tag",
            "my-awesome-project",
            "Tomasz Kolek removed tag xyz.",
        ),
        Case::new(
            "test_push_event_message_filtered_by_branches_ignore",
            "push_hook",
            Expect::Ignored,
        )
        .header("X-Gitlab-Event", "Push Hook")
        .query("branches", "master,development"),
        Case::new(
            "test_push_commits_more_than_limit_message_filtered_by_branches_ignore",
            "push_hook__push_commits_more_than_limit",
            Expect::Ignored,
        )
        .header("X-Gitlab-Event", "Push Hook")
        .query("branches", "master,development"),
        case(
            "test_system_push_event_message",
            "system_hook__push_hook",
            "gitlab / master",
            "John Smith [pushed](http://test.example.com/gitlab/gitlab/-/compare/\
             95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7) \
             1 commit to branch master. Commits by Test User (1).\n\n* Add simple search to \
             projects in public area ([c5feabde2d8](https://test.example.com/gitlab/gitlab/-/\
             commit/c5feabde2d8cd023215af4d2ceeb7a64839fc428))",
        ),
    ]
}
