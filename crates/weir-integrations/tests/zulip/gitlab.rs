//! `zerver/webhooks/gitlab/tests.py` at zulip/zulip `dac9e476` (June 2025), the version
//! the fixtures in `shared/reference/fixtures/gitlab/` match: every test whose fixture is
//! there, with Zulip's expected topics and messages transcribed, by the shared replay
//! (`mod.rs`). Every one of them passes.
//!
//! As in Zulip's `check_webhook`, each fixture is sent with the `X-Gitlab-Event` header
//! `fixture_to_headers` derives from its name (`merge_request_hook__…` → `Merge Request
//! Hook`), except the `build_*` fixtures, whose tests name the header themselves.

use super::{Case, Expect, replay};

const AWESOME: &str = "https://gitlab.com/tomaszkolek0/my-awesome-project";
const EESHAN: &str = "https://gitlab.com/eeshangarg/my-awesome-project";
const SATYAM: &str = "https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration";
const JOE: &str = "https://gitlab.example.co.uk/joe.bloggs/testing";
const ADAM: &str = "https://gitlab.com/adambirds/zulip-gitlab-test";
const KOLEK: &str = "https://gitlab.com/TomaszKolek/my-awesome-project";
const RELEASE: &str = "https://example.com/gitlab-org/release-webhook-example";
/// Zulip's `COMMITS_LIMIT`.
const COMMITS_LIMIT: usize = 20;

/// The header Zulip's `fixture_to_headers` gives a fixture: the part of its name before
/// `__`, `_` as spaces, in title case (none for `build_*`).
fn zulip_header(fixture: &str) -> Option<String> {
    if fixture.starts_with("build") {
        return None;
    }
    let first = fixture.split("__").next().unwrap_or_default();
    let words: Vec<String> = first
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        })
        .collect();
    Some(words.join(" "))
}

/// A test of `check_webhook(fixture, topic, message)`.
fn case(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Case {
    let case = Case::message(test, fixture, topic, content);
    match zulip_header(fixture) {
        Some(header) => case.header("X-Gitlab-Event", &header),
        None => case,
    }
}

fn push_cases() -> Vec<Case> {
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

fn issue_cases() -> Vec<Case> {
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

fn note_cases() -> Vec<Case> {
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

fn merge_request_cases() -> Vec<Case> {
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

fn other_cases() -> Vec<Case> {
    let wiki = format!("[wiki page \"how to\"]({AWESOME}/wikis/how-to).");
    let branch = "my-awesome-project / master";
    let job = |test, fixture, header, content: &str| {
        Case::message(test, fixture, branch, content).header("X-Gitlab-Event", header)
    };
    let created = "Build job_name from test stage was created.";
    let started = "Build job_name from test stage started.";
    let succeeded = "Build job_name from test stage changed status to success.";
    let pipeline = format!("[Pipeline (4414206)]({KOLEK}/-/pipelines/4414206)");
    let job_name = format!("[job_name]({KOLEK}/-/jobs/4541112)");
    let job_name2 = format!("[job_name2]({KOLEK}/-/jobs/4541113)");
    let release = format!(
        "Release [v1.1]({RELEASE}/-/releases/v1.1) for tag v1.1 was created.\n~~~ quote\n\
         ## v1.1 (2024-09-06)\n\n- Feature added\n~~~"
    );
    vec![
        case(
            "test_wiki_page_opened_event_message",
            "wiki_page_hook__wiki_page_opened",
            "my-awesome-project",
            &format!("Tomasz Kolek created {wiki}"),
        ),
        case(
            "test_wiki_page_edited_event_message",
            "wiki_page_hook__wiki_page_edited",
            "my-awesome-project",
            &format!("Tomasz Kolek updated {wiki}"),
        ),
        job(
            "test_build_created_event_message",
            "build_created",
            "Job Hook",
            created,
        ),
        job(
            "test_build_started_event_message",
            "build_started",
            "Job Hook",
            started,
        ),
        job(
            "test_build_succeeded_event_message",
            "build_succeeded",
            "Job Hook",
            succeeded,
        ),
        job(
            "test_build_created_event_message_legacy_event_name",
            "build_created",
            "Build Hook",
            created,
        ),
        job(
            "test_build_started_event_message_legacy_event_name",
            "build_started",
            "Build Hook",
            started,
        ),
        job(
            "test_build_succeeded_event_message_legacy_event_name",
            "build_succeeded",
            "Build Hook",
            succeeded,
        ),
        case(
            "test_pipeline_succeeded_with_artifacts_event_message",
            "pipeline_hook__pipeline_succeeded_with_artifacts",
            "onlysomeproject / test/links-in-zulip-pipeline-message",
            &artifacts_pipeline(),
        ),
        case(
            "test_pipeline_succeeded_event_message",
            "pipeline_hook__pipeline_succeeded",
            branch,
            &format!(
                "{pipeline} changed status to success with build(s):\n* {job_name2} - success\n\
                 * {job_name} - success."
            ),
        ),
        case(
            "test_pipeline_started_event_message",
            "pipeline_hook__pipeline_started",
            branch,
            &format!(
                "{pipeline} started with build(s):\n* {job_name} - running\n* {job_name2} - \
                 pending."
            ),
        ),
        case(
            "test_pipeline_pending_event_message",
            "pipeline_hook__pipeline_pending",
            branch,
            &format!(
                "{pipeline} was created with build(s):\n* {job_name2} - pending\n* {job_name} - \
                 created."
            ),
        ),
        case(
            "test_issue_type_test_payload",
            "test_hook__issue_test_payload",
            "public-repo",
            "Webhook for **public-repo** has been configured successfully! :tada:",
        ),
        case(
            "test_job_hook_event",
            "job_hook__build_created",
            "gitlab_test / gitlab-script-trigger",
            "Build test from test stage was created.",
        ),
        case(
            "test_job_hook_event_topic",
            "job_hook__build_created",
            "provided topic",
            "[[gitlab_test](http://192.168.64.1:3005/gitlab-org/gitlab-test)] Build test from \
             test stage was created.",
        )
        .query("topic", "provided topic"),
        case(
            "test_release_created_event_message",
            "release_hook__create",
            "release-webhook-example",
            &release,
        ),
        case(
            "test_release_created_event_message_custom_topic_in_url",
            "release_hook__create",
            "Specific topic",
            &format!("[[release-webhook-example]({RELEASE})] {release}"),
        )
        .query("topic", "Specific topic"),
        case(
            "test_release_update_event_message",
            "release_hook__update",
            "release-webhook-example",
            &release.replace("was created", "was updated"),
        ),
        case(
            "test_release_delete_event_message",
            "release_hook__delete",
            "release-webhook-example",
            "Release v1.1 for tag v1.1 was deleted.",
        ),
    ]
}

/// `test_pipeline_succeeded_with_artifacts_event_message`'s message.
fn artifacts_pipeline() -> String {
    let base = "https://gitlab.example.com/group1/onlysomeproject/-";
    let job = |name: &str, id: u32| format!("* [{name}]({base}/jobs/{id}) - success\n");
    let artifact = |file: &str, id: u32| {
        format!(
            "  * built artifact: *{file}* [[Browse]({base}/jobs/{id}/artifacts/browse)|\
             [Download]({base}/jobs/{id}/artifacts/download)]\n"
        )
    };
    let builds = [
        job("cleanup:cleanup docker image", 58592),
        job("pages", 58591),
        artifact("artifacts.zip", 58591),
        job("black+pytest:future environment", 58590),
        job("docs:anaconda environment", 58589),
        artifact("sphinx-docs.zip", 58589),
        job("pytest:current environment", 58588),
        job("black:current environment", 58587),
        job("setup:docker image", 58586),
    ]
    .concat();
    format!(
        "[Pipeline (22668)]({base}/pipelines/22668) changed status to success with build(s):\n\
         {}.",
        builds.trim_end_matches('\n')
    )
}

#[test]
fn zulips_gitlab_tests_pass() {
    let cases: Vec<Case> = [
        push_cases(),
        issue_cases(),
        note_cases(),
        merge_request_cases(),
        other_cases(),
    ]
    .concat();
    assert_eq!(
        cases.len(),
        83,
        "one case per test of tests.py with its fixture present"
    );
    replay("gitlab", &cases);
}

#[test]
fn fixture_headers_are_zulips() {
    assert_eq!(
        zulip_header("merge_request_hook__merge_request_closed").as_deref(),
        Some("Merge Request Hook")
    );
    assert_eq!(zulip_header("push_hook").as_deref(), Some("Push Hook"));
    assert_eq!(zulip_header("build_created"), None);
}
