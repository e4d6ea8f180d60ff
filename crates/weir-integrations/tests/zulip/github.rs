//! `zerver/webhooks/github/tests.py` at zulip/zulip commit 73a1652 (`GitHubWebhookTest`),
//! by the shared replay (`mod.rs`): one case per test whose fixture is in
//! `shared/reference/fixtures/github/`, plus the tests that post a small payload of their
//! own, with Zulip's expected topics and messages transcribed. As Zulip's tests do, each
//! fixture is sent with the `X-GitHub-Event` its name gives (the part before `__`).
//!
//! Not replayed, their fixture not being in the reference set (the versions tests.py at
//! 73a1652 expects were rewritten, replaced or added later upstream):
//! - `test_issue_assigned`, `test_issue_assigned_with_custom_topic_in_url`
//!   (`issues__assigned.json`);
//! - `test_issue_comment_pull_request_comment_msg`
//!   (`issue_comment__pull_request_comment.json`);
//! - `test_discussion_msg` (`discussion.json`), `test_discussion_comment_msg`,
//!   `test_discussion_comment_msg_with_custom_topic_in_url` (`discussion_comment.json`),
//!   `test_discussion_comment_edited_msg` (`discussion_comment__edited.json`);
//! - `GitHubSponsorsHookTests` (six tests of the `githubsponsors` URL, whose fixtures
//!   `cancelled.json`, `created.json`, … are not in the set either).

use super::{Case, Expect, replay};

const TOPIC_REPO: &str = "public-repo";
const TOPIC_ISSUE: &str = "public-repo / issue #2 Spelling error in the README file";
const TOPIC_PR: &str = "public-repo / PR #1 Update the README with new information";
const TOPIC_DEPLOYMENT: &str = "public-repo / Deployment on production";
const TOPIC_ORGANIZATION: &str = "baxterandthehackers organization";
const TOPIC_BRANCH: &str = "public-repo / changes";
const TOPIC_WIKI: &str = "public-repo / wiki pages";

const BAXTER: &str = "https://github.com/baxterthehacker/public-repo";
const COMMIT_ROW: &str = "* Update README.md ([0d1a26e67d8](https://github.com/baxterthehacker/\
                          public-repo/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c))";
const PUSHED: &str = "baxterthehacker [pushed](https://github.com/baxterthehacker/public-repo/\
                      compare/9049f1265b7d...0d1a26e67d8f)";

/// `check_webhook(fixture, topic, content)`: the header is the fixture's name before `__`.
fn check(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Case {
    let event = fixture.split("__").next().unwrap_or(fixture);
    Case::message(test, fixture, topic, content).header("x-github-event", event)
}

/// The same, with `topic=notifications` in the URL.
fn check_custom_topic(test: &'static str, fixture: &'static str, content: &str) -> Case {
    check(test, fixture, "notifications", content).query("topic", "notifications")
}

/// `verify_post_is_ignored`: success, nothing sent.
fn ignored(test: &'static str, fixture: &'static str, event: &str) -> Case {
    Case::new(test, fixture, Expect::Ignored).header("x-github-event", event)
}

fn ignored_inline(test: &'static str, body: &str, event: &str) -> Case {
    Case::inline(test, body, Expect::Ignored).header("x-github-event", event)
}

/// The push of `count` commits, `rows` of them listed, then `tail`.
fn push_of(count: usize, committers: &str, rows: usize, tail: &str) -> String {
    let listed = vec![COMMIT_ROW; rows].join("\n");
    let commits = if count > 1 { "commits" } else { "commit" };
    format!("{PUSHED} {count} {commits} to branch changes.{committers}\n\n{listed}{tail}")
}

fn pushes() -> Vec<Case> {
    let one = push_of(1, "", 1, "");
    let several = push_of(
        6,
        " Commits by Tomasz (3), Ben (2) and baxterthehacker (1).",
        6,
        "",
    );
    let others = push_of(
        10,
        " Commits by Tomasz (4), Ben (3), James (2) and others (1).",
        10,
        "",
    );
    let fifty = push_of(50, "", 20, "\n[and 30 more commit(s)]");
    let branches = |case: Case| case.query("branches", "master,changes");
    vec![
        check(
            "test_push_delete_branch",
            "push__delete_branch",
            "public-repo / feature",
            "eeshangarg [deleted](https://github.com/eeshangarg/public-repo/compare/\
             2e8cf535fb38...000000000000) the branch feature.",
        ),
        check(
            "test_push_force_1_commit",
            "push__force_1_commit",
            "zulip / temp",
            "sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/\
             b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n* log: Add important.txt \
             which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/\
             zulip/commit/971d76ca309446a9c20381f6271cea8a59b4e40a))",
        ),
        check(
            "test_push__force_remove_commits",
            "push__force_remove_commits",
            "zulip / temp",
            "sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/\
             2084a91af9ca...9a8749ea8fe7) the branch temp.",
        ),
        check(
            "test_push_local_branch_without_commits",
            "push__local_branch_without_commits",
            "public-repo / feature",
            "eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/feature) the \
             branch feature.",
        ),
        ignored("test_push_merege_queue_ignore", "push__merge_queue", "push"),
        check("test_push_1_commit", "push__1_commit", TOPIC_BRANCH, &one),
        check(
            "test_push_1_commit_without_username",
            "push__1_commit_without_username",
            TOPIC_BRANCH,
            "eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/\
             0383613da871...2e8cf535fb38) 1 commit to branch changes. Commits by John Snow (1).\
             \n\n* Update the README ([2e8cf535fb3](https://github.com/eeshangarg/public-repo/\
             commit/2e8cf535fb38a3dab2476cdf856efda904ad4c94))",
        ),
        branches(check(
            "test_push_1_commit_filtered_by_branches",
            "push__1_commit",
            TOPIC_BRANCH,
            &one,
        )),
        check(
            "test_push_multiple_committers",
            "push__multiple_committers",
            TOPIC_BRANCH,
            &several,
        ),
        check(
            "test_push_multiple_committers_with_others",
            "push__multiple_committers_with_others",
            TOPIC_BRANCH,
            &others,
        ),
        branches(check(
            "test_push_multiple_committers_filtered_by_branches",
            "push__multiple_committers",
            TOPIC_BRANCH,
            &several,
        )),
        branches(check(
            "test_push_multiple_committers_with_others_filtered_by_branches",
            "push__multiple_committers_with_others",
            TOPIC_BRANCH,
            &others,
        )),
        check(
            "test_push_50_commits",
            "push__50_commits",
            TOPIC_BRANCH,
            &fifty,
        ),
        branches(check(
            "test_push_50_commits_filtered_by_branches",
            "push__50_commits",
            TOPIC_BRANCH,
            &fifty,
        )),
        check(
            "test_push_tag_msg",
            "push__tag",
            TOPIC_REPO,
            "baxterthehacker pushed tag abc.",
        ),
    ]
}

fn repository_events() -> Vec<Case> {
    vec![
        check(
            "test_ping_event",
            "ping",
            TOPIC_REPO,
            "GitHub webhook has been successfully configured by TomaszKolek.",
        ),
        check(
            "test_star_event",
            "star",
            "Hello-World",
            "[Codertocat](https://github.com/Codertocat) starred the repository \
             [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).",
        ),
        check(
            "test_ping_organization_event",
            "ping__organization",
            "zulip-test-org",
            "GitHub webhook has been successfully configured by eeshangarg.",
        ),
        check(
            "test_commit_comment_msg",
            "commit_comment",
            TOPIC_REPO,
            &format!(
                "baxterthehacker [commented]({BAXTER}/commit/\
                 9049f1265b7d61be4a8904a9a27120d2064dab3b#commitcomment-11056394) on \
                 [9049f1265b7]({BAXTER}/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b):\n\
                 ~~~ quote\nThis is a really good change! :+1:\n~~~"
            ),
        ),
        check(
            "test_create_msg",
            "create",
            TOPIC_REPO,
            "baxterthehacker created tag 0.0.1.",
        ),
        check(
            "test_delete_msg",
            "delete",
            TOPIC_REPO,
            "baxterthehacker deleted tag simple-tag.",
        ),
        check(
            "test_deployment_msg",
            "deployment",
            TOPIC_DEPLOYMENT,
            "baxterthehacker created new deployment.",
        ),
        check(
            "test_deployment_status_msg",
            "deployment_status",
            TOPIC_DEPLOYMENT,
            "Deployment changed status to success.",
        ),
        check(
            "test_fork_msg",
            "fork",
            TOPIC_REPO,
            "baxterandthehackers forked [public-repo](https://github.com/baxterandthehackers/\
             public-repo).",
        ),
        check(
            "test_membership_msg",
            "membership",
            TOPIC_ORGANIZATION,
            "baxterthehacker added [kdaigle](https://github.com/kdaigle) to the Contractors team.",
        ),
        check(
            "test_membership_removal_msg",
            "membership__removal",
            TOPIC_ORGANIZATION,
            "baxterthehacker removed [kdaigle](https://github.com/kdaigle) from the Contractors \
             team.",
        ),
        check(
            "test_member_msg",
            "member",
            TOPIC_REPO,
            &format!(
                "baxterthehacker added [octocat](https://github.com/octocat) to \
                 [public-repo]({BAXTER})."
            ),
        ),
        check(
            "test_public_msg",
            "public",
            TOPIC_REPO,
            &format!(
                "baxterthehacker made the repository [baxterthehacker/public-repo]({BAXTER}) public."
            ),
        ),
        check(
            "test_wiki_pages_msg",
            "gollum__wiki_pages",
            TOPIC_WIKI,
            &format!(
                "jasonrudolph:\n* created [Home]({BAXTER}/wiki/Home)\n* created \
                 [Home]({BAXTER}/wiki/Home)"
            ),
        ),
        check(
            "test_watch_msg",
            "watch__repository",
            TOPIC_REPO,
            &format!(
                "baxterthehacker starred the repository [baxterthehacker/public-repo]({BAXTER})."
            ),
        ),
        check(
            "test_repository_msg",
            "repository",
            TOPIC_REPO,
            "baxterthehacker created the repository [baxterandthehackers/public-repo]\
             (https://github.com/baxterandthehackers/public-repo).",
        ),
        check(
            "test_team_add_msg",
            "team_add",
            TOPIC_REPO,
            "The repository [baxterandthehackers/public-repo](https://github.com/\
             baxterandthehackers/public-repo) was added to team github.",
        ),
        check(
            "test_release_msg",
            "release",
            TOPIC_REPO,
            &format!(
                "baxterthehacker published release [0.0.1]({BAXTER}/releases/tag/0.0.1) for tag \
                 0.0.1."
            ),
        ),
        check(
            "test_release_msg_with_name",
            "release__with_name",
            TOPIC_REPO,
            &format!(
                "baxterthehacker published release [0.0.1]({BAXTER}/releases/tag/0.0.1) for tag \
                 0.0.1."
            ),
        ),
        check(
            "test_page_build_msg",
            "page_build",
            TOPIC_REPO,
            "GitHub Pages build, triggered by baxterthehacker, has finished building.",
        ),
        check(
            "test_page_build_errored_msg",
            "page_build__errored",
            TOPIC_REPO,
            "GitHub Pages build, triggered by baxterthehacker, has failed: \n~~~ quote\n\
             Something went wrong.\n~~~.",
        ),
        check(
            "test_status_msg",
            "status",
            TOPIC_REPO,
            &format!(
                "[9049f1265b7]({BAXTER}/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed \
                 its status to success."
            ),
        ),
        check(
            "test_status_with_target_url_msg",
            "status__with_target_url",
            TOPIC_REPO,
            &format!(
                "[9049f1265b7]({BAXTER}/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed \
                 its status to [success](https://example.com/build/status)."
            ),
        ),
        check(
            "test_check_run",
            "check_run__completed",
            "hello-world / checks",
            "Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). \
             ([d6fde92930d](http://github.com/github/hello-world/commit/\
             d6fde92930d4715a2b49857d24b940956b26d2d3))",
        ),
        check(
            "test_team_edited_description",
            "team__edited_description",
            "team Testing",
            "**Hypro999** changed the team description to:\n\n~~~ quote\nA temporary team so \
             that I can get some webhook fixtures!\n~~~",
        ),
        check(
            "test_team_edited_name",
            "team__edited_name",
            "team Testing Team",
            "Team `Testing` was renamed to `Testing Team`.",
        ),
        check(
            "test_team_edited_privacy",
            "team__edited_privacy_secret",
            "team Testing Team",
            "Team visibility changed to `secret`",
        ),
        Case::inline(
            "test_team_edited_with_unsupported_keys",
            r#"{"action": "edited", "changes": {"bogus_key1": {}, "bogus_key2": {}},
                "team": {"name": "My Team"}}"#,
            Expect::Messages(vec![(
                "team My Team".to_owned(),
                "Team has changes to `bogus_key1/bogus_key2` data.".to_owned(),
            )]),
        )
        .header("x-github-event", "team"),
    ]
}

fn issues() -> Vec<Case> {
    let issue_2 = format!("{BAXTER}/issues/2");
    let gh = "https://github.com/sbansal1999/testing-gh";
    let sbansal = "[sbansal1999](https://github.com/sbansal1999)";
    let milestone = format!("milestone [some_random_milestone]({gh}/milestone/1)");
    let topic_9 = "testing-gh / issue #9 idk man";
    let topic_6 = "testing-gh / issue #6 This is a sample issue to test GH I...";
    vec![
        check(
            "test_issue_comment_msg",
            "issue_comment",
            TOPIC_ISSUE,
            &format!(
                "baxterthehacker [commented]({issue_2}#issuecomment-99262140) on [issue #2]\
                 ({issue_2}):\n\n~~~ quote\nYou are totally right! I'll get this fixed right \
                 away.\n~~~"
            ),
        ),
        check(
            "test_issue_comment_deleted_msg",
            "issue_comment__deleted",
            "Scheduler / issue #5 This is a new issue",
            "eeshangarg deleted a [comment](https://github.com/eeshangarg/Scheduler/issues/5\
             #issuecomment-425164194) on [issue #5](https://github.com/eeshangarg/Scheduler/\
             issues/5):\n\n~~~ quote\nThis is a comment on this new issue.\n~~~",
        ),
        check_custom_topic(
            "test_issue_comment_msg_with_custom_topic_in_url",
            "issue_comment",
            &format!(
                "baxterthehacker [commented]({issue_2}#issuecomment-99262140) on [issue #2 \
                 Spelling error in the README file]({issue_2}):\n\n~~~ quote\nYou are totally \
                 right! I'll get this fixed right away.\n~~~"
            ),
        ),
        check(
            "test_issue_msg",
            "issues",
            TOPIC_ISSUE,
            &format!(
                "baxterthehacker opened [issue #2]({issue_2}):\n\n~~~ quote\nIt looks like you \
                 accidentally spelled 'commit' with two 't's.\n~~~"
            ),
        ),
        check_custom_topic(
            "test_issue_msg_with_custom_topic_in_url",
            "issues",
            &format!(
                "baxterthehacker opened [issue #2 Spelling error in the README file]({issue_2}):\
                 \n\n~~~ quote\nIt looks like you accidentally spelled 'commit' with two 't's.\
                 \n~~~"
            ),
        ),
        check(
            "test_issue_unassigned",
            "issues__unassigned",
            topic_9,
            &format!("sbansal1999 unassigned sbansal1999 from [issue #9]({gh}/issues/9)."),
        ),
        check_custom_topic(
            "test_issue_unassigned_with_custom_topic_in_url",
            "issues__unassigned",
            &format!("sbansal1999 unassigned sbansal1999 from [issue #9 idk man]({gh}/issues/9)."),
        ),
        check(
            "test_issue_labeled",
            "issues__labeled",
            topic_9,
            &format!("{sbansal} added the bug label to [Issue #9]({gh}/issues/9)."),
        ),
        check_custom_topic(
            "test_issue_labeled_with_custom_topic_in_url",
            "issues__labeled",
            &format!("{sbansal} added the bug label to [Issue #9 idk man]({gh}/issues/9)."),
        ),
        check(
            "test_issue_unlabeled",
            "issues__unlabeled",
            topic_9,
            &format!("{sbansal} removed the bug label from [Issue #9]({gh}/issues/9)."),
        ),
        check(
            "test_issue_milestoned",
            "issues__milestoned",
            topic_6,
            &format!("{sbansal} added {milestone} to [issue #6]({gh}/issues/6)."),
        ),
        check_custom_topic(
            "test_issue_milestoned_with_custom_topic_in_url",
            "issues__milestoned",
            &format!(
                "{sbansal} added {milestone} to [issue #6 This is a sample issue to test GH \
                 Integration Func]({gh}/issues/6)."
            ),
        ),
        check(
            "test_issue_demilestoned",
            "issues__demilestoned",
            topic_6,
            &format!("{sbansal} removed {milestone} from [issue #6]({gh}/issues/6)."),
        ),
    ]
}

fn pull_requests() -> Vec<Case> {
    let pr_1 = format!("{BAXTER}/pull/1");
    let title = "Update the README with new information";
    let tushar = "https://github.com/tushar912/public-repo/pull/1";
    let opened_quote = "\n\n~~~ quote\nThis is a pretty simple change that we need to pull into \
                        master.\n~~~";
    let branches = "from `baxterthehacker:changes` to `baxterthehacker:master`";
    let requested = "**eeshangarg** requested [showell](https://github.com/showell) for a review";
    let scheduler_1 = "https://github.com/eeshangarg/Scheduler/pull/1";
    vec![
        check(
            "test_pull_request_opened_msg",
            "pull_request__opened",
            TOPIC_PR,
            &format!("baxterthehacker opened [PR #1]({pr_1}) {branches}:{opened_quote}"),
        ),
        check(
            "test_pull_request_opened_with_preassigned_assignee_msg",
            "pull_request__opened_with_preassigned_assignee",
            "Scheduler / PR #4 Improve README",
            "eeshangarg opened [PR #4](https://github.com/eeshangarg/Scheduler/pull/4) from \
             `eeshangarg:improve-readme-2` to `eeshangarg:master` (assigned to eeshangarg).",
        ),
        check_custom_topic(
            "test_pull_request_opened_msg_with_custom_topic_in_url",
            "pull_request__opened",
            &format!("baxterthehacker opened [PR #1 {title}]({pr_1}) {branches}:{opened_quote}"),
        ),
        check(
            "test_pull_request_synchronized_msg",
            "pull_request__synchronized",
            TOPIC_PR,
            &format!("baxterthehacker updated [PR #1]({pr_1})."),
        ),
        check(
            "test_pull_request_closed_msg",
            "pull_request__closed",
            TOPIC_PR,
            &format!("baxterthehacker closed without merge [PR #1]({pr_1})."),
        ),
        check_custom_topic(
            "test_pull_request_closed_msg_with_custom_topic_in_url",
            "pull_request__closed",
            &format!("baxterthehacker closed without merge [PR #1 {title}]({pr_1})."),
        ),
        check(
            "test_pull_request_merged_msg",
            "pull_request__merged",
            TOPIC_PR,
            &format!("baxterthehacker merged [PR #1]({pr_1})."),
        ),
        check(
            "test_pull_request_review_msg",
            "pull_request_review",
            TOPIC_PR,
            &format!(
                "baxterthehacker submitted [PR review]({pr_1}#pullrequestreview-2626884):\n\n\
                 ~~~ quote\nLooks great!\n~~~"
            ),
        ),
        check_custom_topic(
            "test_pull_request_review_msg_with_custom_topic_in_url",
            "pull_request_review",
            &format!(
                "baxterthehacker submitted [PR review for #1 {title}]({pr_1}\
                 #pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~"
            ),
        ),
        check(
            "test_pull_request_review_msg_with_empty_body",
            "pull_request_review__empty_body",
            "groonga / PR #1581 grn_db_value_lock: unlock GRN_TYPE obj...",
            "kou submitted [PR review](https://github.com/groonga/groonga/pull/1581\
             #pullrequestreview-1483047907).",
        ),
        check(
            "test_pull_request_review_comment_msg",
            "pull_request_review_comment",
            TOPIC_PR,
            &format!(
                "baxterthehacker created [PR review comment]({pr_1}#discussion_r29724692):\n\n\
                 ~~~ quote\nMaybe you should use more emojji on this line.\n~~~"
            ),
        ),
        check_custom_topic(
            "test_pull_request_review_comment_with_custom_topic_in_url",
            "pull_request_review_comment",
            &format!(
                "baxterthehacker created [PR review comment on #1 {title}]({pr_1}\
                 #discussion_r29724692):\n\n~~~ quote\nMaybe you should use more emojji on this \
                 line.\n~~~"
            ),
        ),
        check(
            "test_pull_request_locked",
            "pull_request__locked",
            TOPIC_PR,
            &format!(
                "tushar912 has locked [PR #1]({tushar}) as off-topic and limited conversation to \
                 collaborators."
            ),
        ),
        check(
            "test_pull_request_unlocked",
            "pull_request__unlocked",
            TOPIC_PR,
            &format!("tushar912 has unlocked [PR #1]({tushar})."),
        ),
        check(
            "test_pull_request_auto_merge_enabled",
            "pull_request__auto_merge_enabled",
            TOPIC_PR,
            &format!("tushar912 has enabled auto merge for [PR #1]({tushar})."),
        ),
        check(
            "test_pull_request_auto_merge_disabled",
            "pull_request__auto_merge_disabled",
            TOPIC_PR,
            &format!("tushar912 has disabled auto merge for [PR #1]({tushar})."),
        ),
        check(
            "test_pull_request_edited_msg",
            "pull_request__edited",
            TOPIC_PR,
            &format!("baxterthehacker edited [PR #1]({pr_1})."),
        ),
        check(
            "test_pull_request_edited_with_body_change",
            "pull_request__edited_with_body_change",
            TOPIC_PR,
            "cozyrohan edited [PR #1](https://github.com/cozyrohan/public-repo/pull/1):\n\n\
             ~~~ quote\nPR EDITED\n~~~",
        ),
        check(
            "test_pull_request_synchronized_with_body",
            "pull_request__synchronized_with_body",
            TOPIC_PR,
            &format!("baxterthehacker updated [PR #1]({pr_1})."),
        ),
        check(
            "test_pull_request_assigned_msg",
            "pull_request__assigned",
            TOPIC_PR,
            &format!("baxterthehacker assigned baxterthehacker to [PR #1]({pr_1})."),
        ),
        check_custom_topic(
            "test_pull_request_assigned_msg_with_custom_topic_in_url",
            "pull_request__assigned",
            &format!("baxterthehacker assigned baxterthehacker to [PR #1 {title}]({pr_1})."),
        ),
        check(
            "test_pull_request_unassigned_msg",
            "pull_request__unassigned",
            "helloworld / PR #1 Mention that Zulip rocks!",
            "eeshangarg unassigned [PR #1](https://github.com/zulip-test-org/helloworld/pull/1).",
        ),
        check(
            "test_pull_request_ready_for_review_msg",
            "pull_request__ready_for_review",
            "temp-test-github-webhook / PR #2 Test",
            "**Hypro999** has marked [PR #2](https://github.com/Hypro999/temp-test-github-webhook/\
             pull/2) as ready for review.",
        ),
        check(
            "test_pull_request_review_requested_msg",
            "pull_request__review_requested",
            "Scheduler / PR #1 This is just a test commit",
            &format!("{requested} on [PR #1]({scheduler_1})."),
        ),
        check(
            "test_pull_request__review_requested_team_reviewer_msg",
            "pull_request__review_requested_team_reviewer",
            "webhook-test / PR #4 testing webhook",
            "**singhsourabh** requested [authority](https://github.com/orgs/test-org965/teams/\
             authority) for a review on [PR #4](https://github.com/test-org965/webhook-test/pull/\
             4).",
        ),
        check_custom_topic(
            "test_pull_request_review_requested_with_custom_topic_in_url",
            "pull_request__review_requested",
            &format!("{requested} on [PR #1 This is just a test commit]({scheduler_1})."),
        ),
    ]
}

/// Zulip's tests that expect success without a message (`verify_post_is_ignored`).
fn ignored_posts() -> Vec<Case> {
    let mut cases = vec![
        ignored(
            "test_check_run_in_progress_ignore",
            "check_run__in_progress",
            "check_run",
        ),
        ignored(
            "test_repository_vulnerability_alert_ignore",
            "repository_vulnerability_alert",
            "repository_vulnerability_alert",
        ),
    ];
    for (test, fixture) in [
        (
            "test_push_1_commit_filtered_by_branches_ignore",
            "push__1_commit",
        ),
        (
            "test_push_50_commits_filtered_by_branches_ignore",
            "push__50_commits",
        ),
        (
            "test_push_multiple_committers_filtered_by_branches_ignore",
            "push__multiple_committers",
        ),
        (
            "test_push_multiple_committers_with_others_filtered_by_branches_ignore",
            "push__multiple_committers_with_others",
        ),
    ] {
        cases.push(ignored(test, fixture, "push").query("branches", "master,development"));
    }
    for action in [
        "approved",
        "converted_to_draft",
        "labeled",
        "review_request_removed",
        "unlabeled",
    ] {
        let body = format!(r#"{{"action":"{action}"}}"#);
        cases.push(ignored_inline(
            "test_ignored_pull_request_actions",
            &body,
            "pull_request",
        ));
    }
    for action in [
        "added_to_repository",
        "created",
        "deleted",
        "removed_from_repository",
    ] {
        let body = format!(r#"{{"action":"{action}"}}"#);
        cases.push(ignored_inline("test_ignored_team_actions", &body, "team"));
    }
    for event in [
        "check_suite",
        "label",
        "meta",
        "milestone",
        "organization",
        "project_card",
        "repository_vulnerability_alert",
    ] {
        cases.push(ignored_inline("test_ignored_events", "{}", event));
    }
    cases
}

#[test]
fn zulips_github_tests_pass() {
    let cases: Vec<Case> = [
        pushes(),
        repository_events(),
        issues(),
        pull_requests(),
        ignored_posts(),
    ]
    .concat();
    replay("github", &cases);
}
