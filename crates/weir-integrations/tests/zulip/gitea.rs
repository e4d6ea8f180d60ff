//! `zerver/webhooks/gitea/tests.py` at zulip/zulip `4f77fa9c`, plus
//! `test_pull_request_closed_different_user` from Zulip main: every test whose fixture
//! is in `shared/reference/fixtures/gitea/`, by the shared replay (`mod.rs`). Zulip's
//! tests send the fixture's name before `__` as `X-Gitea-Event`; the pull request
//! comment tests also send `X-Gitea-Event-Type: pull_request_comment`. All pass.

use super::{Case, Expect, replay};

const TRY: &str = "https://try.gitea.io/kostekIV/test";
const DUMMY: &str = "https://dummy-gitea.com/TestOrg/test-repo";

/// A case sent as Zulip's tests send it: the event header from the fixture's name.
fn case(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Case {
    let event = fixture.split("__").next().unwrap_or(fixture);
    Case::message(test, fixture, topic, content).header("X-Gitea-Event", event)
}

fn pr_comment(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Case {
    case(test, fixture, topic, content).header("X-Gitea-Event-Type", "pull_request_comment")
}

#[test]
fn zulips_gitea_tests_pass() {
    let quote = |text: &str| format!(":\n\n~~~ quote\n{text}\n~~~");
    let issue3 = format!("[issue #3]({TRY}/issues/3)");
    let pr5 = format!("[PR #5]({TRY}/pulls/5)");
    let push = format!(
        "kostekIV [pushed]({TRY}/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...\
         2ec0c971d04723523aa20f2b378f8b419b47d4ec) 5 commits to branch d.\n\n\
         * commit ([2ec0c971d04]({TRY}/commit/2ec0c971d04723523aa20f2b378f8b419b47d4ec))\n\
         * commit ([6cb1701c8b0]({TRY}/commit/6cb1701c8b0114ad716f4cd49153076e7109cb85))\n\
         * commit ([6773eabc077]({TRY}/commit/6773eabc0778a3e38997c06a13f5f0c48b67e5dc))\n\
         * commit ([337402cf675]({TRY}/commit/337402cf675ce7082ddcd23d06a116c85241825a))\n\
         * commit ([0a38cad3fac]({TRY}/commit/0a38cad3fac3a13bb78b738d13f15ce9cc3343fa))"
    );
    replay(
        "gitea",
        &[
            case(
                "test_multiple_commits",
                "push__5_commits",
                "test / d",
                &push,
            ),
            case(
                "test_new_branch",
                "create__branch",
                "test / test-branch",
                &format!("kostekIV created [test-branch]({TRY}/src/test-branch) branch."),
            ),
            case(
                "test_pull_request_opened",
                "pull_request__opened",
                "test / PR #1905 New pr",
                &format!("kostekIV opened [PR #4]({TRY}/pulls/4) from `test-branch` to `master`."),
            ),
            case(
                "test_pull_request_merged",
                "pull_request__merged",
                "zulip-terminal / PR #1905 Fix remove-op on reaction event",
                &format!(
                    "kostekIV merged [PR #1905]({TRY}/pulls/4) from `reaction-metadata` to \
                     `main`."
                ),
            ),
            case(
                "test_pull_request_edited",
                "pull_request__edited",
                "test / PR #1906 test 2",
                &format!("kostekIV edited {pr5}."),
            ),
            case(
                "test_pull_request_reopened",
                "pull_request__reopened",
                "test / PR #1906 test 2",
                &format!("kostekIV reopened {pr5} from `d` to `master`."),
            ),
            case(
                "test_pull_request_closed",
                "pull_request__closed",
                "test / PR #1906 test 2",
                &format!("kostekIV closed {pr5} from `d` to `master`."),
            ),
            case(
                "test_pull_request_closed_different_user",
                "pull_request__closed_diff_user",
                "test / PR #126085 PR closed",
                "Aneesh-Hegde closed [PR #1](https://gitea.com/Aneesh-Hegde/test-repo/pulls/1) \
                 from `main` to `main`.",
            ),
            case(
                "test_pull_request_assigned",
                "pull_request__assigned",
                "test / PR #1906 test 2",
                &format!(
                    "kostekIV assigned kostekIV to {pr5} from `d` to `master` (assigned to \
                     kostekIV)."
                ),
            ),
            case(
                "test_issues_opened",
                "issues__opened",
                "test / issue #3 Test issue",
                &format!("kostekIV opened {issue3}{}", quote("Test body")),
            ),
            case(
                "test_issues_edited",
                "issues__edited",
                "test / issue #3 Test issue 2",
                &format!(
                    "kostekIV edited {issue3} (assigned to kostekIV){}",
                    quote("Test body")
                ),
            ),
            case(
                "test_issues_closed",
                "issues__closed",
                "test / issue #3 Test issue 2",
                &format!(
                    "kostekIV closed {issue3} (assigned to kostekIV){}",
                    quote("Test body")
                ),
            ),
            case(
                "test_issues_assigned",
                "issues__assigned",
                "test / issue #3 Test issue",
                &format!(
                    "kostekIV assigned kostekIV to {issue3} (assigned to kostekIV){}",
                    quote("Test body")
                ),
            ),
            case(
                "test_issues_reopened",
                "issues__reopened",
                "test / issue #3 Test issue 2",
                &format!(
                    "kostekIV reopened {issue3} (assigned to kostekIV){}",
                    quote("Test body")
                ),
            ),
            case(
                "test_issue_comment_new",
                "issue_comment__new",
                "test / issue #3 Test issue",
                &format!(
                    "kostekIV [commented]({TRY}/issues/3#issuecomment-24400) on {issue3}{}",
                    quote("test comment")
                ),
            ),
            case(
                "test_issue_comment_in_pr",
                "issue_comment__in_pr",
                "test / issue #1 dummy",
                &format!(
                    "kostekIV [commented]({TRY}/pulls/1/files#issuecomment-24399) on \
                     [issue #1]({TRY}/issues/1){}",
                    quote("test comment")
                ),
            ),
            case(
                "test_issue_comment_edited",
                "issue_comment__edited",
                "test / issue #3 Test issue 2",
                &format!(
                    "kostekIV edited a [comment]({TRY}/issues/3#issuecomment-24400) on \
                     {issue3}{}",
                    quote("edit test comment")
                ),
            ),
            Case::new(
                "test_push_filtered_by_branches_ignore",
                "push__5_commits",
                Expect::Ignored,
            )
            .header("X-Gitea-Event", "push")
            .query("branches", "changes,development"),
            pr_comment(
                "test_pull_request_comment_created",
                "issue_comment__created_pr",
                "test-repo / PR #1 Fixing a bug in the feature",
                &format!(
                    "TestUser [commented]({DUMMY}/pulls/1#issuecomment-123456) on [PR #1 \
                     Fixing a bug in the feature]({DUMMY}/pulls/1){}",
                    quote("Thanks for the fix! Could you also consider this edge case?")
                ),
            ),
            pr_comment(
                "test_pull_request_comment_edited",
                "issue_comment__edited_pr",
                "test-repo / PR #1 Fixing a bug in the feature",
                &format!(
                    "TestUser edited a [comment]({DUMMY}/pulls/1#issuecomment-123456) on [PR \
                     #1 Fixing a bug in the feature]({DUMMY}/pulls/1){}",
                    quote(
                        "Thanks for the fix! Could you also consider **this important** edge \
                         case?"
                    )
                ),
            ),
            case(
                "test_delete_branch",
                "delete__branch",
                "TestDeleter deleted branch test-branch-to-delete.",
                "TestDeleter deleted branch `test-branch-to-delete`.",
            ),
            case(
                "test_delete_tag",
                "delete__tag",
                "TestDeleter deleted tag v1.0.0-test.",
                "TestDeleter deleted tag `v1.0.0-test`.",
            ),
        ],
    );
}
