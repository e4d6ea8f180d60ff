//! Zulip's own Bitbucket fixtures (from Zulip's source tree, `zerver/webhooks/bitbucket2/
//! fixtures/`) must give the topics, wording and number of messages Zulip's own tests
//! expect. The fixtures are Zulip's, not Weir's, so they are not in this repository: they
//! are read from `shared/reference/fixtures/bitbucket2/` beside it (see `mod.rs`).

use std::collections::BTreeMap;

use weir_integrations::{EventFilter, HeaderMap, Method, Outcome, Request, find, process};

const REPO: &str = "https://bitbucket.org/kolaszek/repository-name";
const TOPIC: &str = "Repository name";
const TOPIC_PR: &str = "Repository name / PR #1 new commit";
const TOPIC_ISSUE: &str = "Repository name / issue #1 Bug";
const TOPIC_BRANCH: &str = "Repository name / master";

struct Case {
    fixture: &'static str,
    header: Option<&'static str>,
    topic: Option<&'static str>,
    expected: Vec<(String, String)>,
}

fn case(fixture: &'static str, header: Option<&'static str>, expected: &[(&str, String)]) -> Case {
    Case {
        fixture,
        header,
        topic: None,
        expected: expected
            .iter()
            .map(|(topic, content)| ((*topic).to_owned(), content.clone()))
            .collect(),
    }
}

fn with_topic(mut case: Case, topic: &'static str) -> Case {
    case.topic = Some(topic);
    case
}

fn cases() -> Vec<Case> {
    let first_commit = format!(
        "* first commit ([84b96adc644]({REPO}/commits/84b96adc644a30fd6465b3d196369d880762afed))"
    );
    let pr1 = format!("[PR #1]({REPO}/pull-requests/1)");
    let pr1_titled = format!("[PR #1 new commit]({REPO}/pull-requests/1)");
    let created = |link: &str| {
        format!(
            "Tomasz created {link} from `new-branch` to `master` (assigned to Tomasz Kolek):\
             \n\n~~~ quote\ndescription\n~~~"
        )
    };
    let tag_a = format!("Tomasz pushed tag [a]({REPO}/commits/tag/a).");
    vec![
        case(
            "commit_comment_created",
            None,
            &[(
                TOPIC,
                format!(
                    "Tomasz [commented]({REPO}/commits/32c4ea19aa3af10acd08e419e2c354941a365d74\
                     #comment-3354963) on [32c4ea19aa3]({REPO}/commits/\
                     32c4ea19aa3af10acd08e419e2c354941a365d74):\n~~~ quote\nNice fix!\n~~~"
                ),
            )],
        ),
        case(
            "commit_status_changed",
            None,
            &[(
                TOPIC,
                format!(
                    "[System mybuildtool](https://my-build-tool.com/builds/MY-PROJECT/BUILD-777) \
                     changed status of [9fec847784a]({REPO}/commits/\
                     9fec847784abb10b2fa567ee63b85bd238955d0e) to SUCCESSFUL."
                ),
            )],
        ),
        case(
            "force_push",
            None,
            &[(
                TOPIC_BRANCH,
                format!(
                    "Tomasz [force pushed]({REPO}/branch/master) to branch master. Head is now \
                     25f93d22b719e2d678a7ad5ee0ef0d1fcdf39c12."
                ),
            )],
        ),
        case(
            "fork",
            None,
            &[(
                TOPIC,
                "Tomasz forked the repository into [kolaszek/repository-name2]\
                 (https://bitbucket.org/kolaszek/repository-name2)."
                    .to_owned(),
            )],
        ),
        case(
            "issue_commented",
            None,
            &[(
                TOPIC_ISSUE,
                format!(
                    "Tomasz [commented]({REPO}/issues/2#comment-28973596) on \
                     [issue #1]({REPO}/issues/2/bug)."
                ),
            )],
        ),
        with_topic(
            case(
                "issue_commented",
                None,
                &[(
                    "notifications",
                    format!(
                        "Tomasz [commented]({REPO}/issues/2#comment-28973596) on \
                         [issue #1 Bug]({REPO}/issues/2/bug)."
                    ),
                )],
            ),
            "notifications",
        ),
        case(
            "issue_updated",
            None,
            &[(
                TOPIC_ISSUE,
                format!("Tomasz updated [issue #1]({REPO}/issues/2/bug)."),
            )],
        ),
        case(
            "more_than_one_push_event",
            Some("pullrequest:push"),
            &[
                (
                    TOPIC_BRANCH,
                    format!(
                        "Tomasz [pushed]({REPO}/branch/master) 1 commit to branch master.\
                         \n\n{first_commit}"
                    ),
                ),
                (TOPIC, tag_a.clone()),
            ],
        ),
        case(
            "pull_request_approved_or_unapproved",
            Some("pullrequest:approved"),
            &[(TOPIC_PR, format!("Tomasz approved {pr1}."))],
        ),
        with_topic(
            case(
                "pull_request_approved_or_unapproved",
                Some("pullrequest:approved"),
                &[("notifications", format!("Tomasz approved {pr1_titled}."))],
            ),
            "notifications",
        ),
        case(
            "pull_request_approved_or_unapproved",
            Some("pullrequest:unapproved"),
            &[(TOPIC_PR, format!("Tomasz unapproved {pr1}."))],
        ),
        case(
            "pull_request_created_or_updated",
            Some("pullrequest:created"),
            &[(TOPIC_PR, created(&pr1))],
        ),
        with_topic(
            case(
                "pull_request_created_or_updated",
                Some("pullrequest:created"),
                &[("notifications", created(&pr1_titled))],
            ),
            "notifications",
        ),
        case(
            "pull_request_created_or_updated",
            Some("pullrequest:updated"),
            &[(
                TOPIC_PR,
                format!(
                    "Tomasz updated {pr1} (assigned to Tomasz Kolek):\n\n~~~ quote\n\
                     description\n~~~"
                ),
            )],
        ),
        case(
            "pull_request_created_or_updated_without_username",
            Some("pullrequest:created"),
            &[(TOPIC_PR, created(&pr1))],
        ),
        case(
            "push_multiple_committers_with_others",
            None,
            &[(
                TOPIC_BRANCH,
                format!(
                    "Tomasz [pushed]({REPO}/branch/master) 10 commits to branch master. Commits \
                     by Tomasz (4), James (3), Brendon (2) and others (1).\n\n{}{first_commit}",
                    format!("{first_commit}\n").repeat(9)
                ),
            )],
        ),
        case("push_one_tag", Some("pullrequest:push"), &[(TOPIC, tag_a)]),
        case(
            "push_remove_tag",
            Some("pullrequest:push"),
            &[(
                TOPIC,
                format!("Tomasz removed tag [a]({REPO}/commits/tag/a)."),
            )],
        ),
        case("push_without_changes", None, &[]),
        case(
            "remove_branch",
            None,
            &[(TOPIC_BRANCH, "Tomasz deleted branch master.".to_owned())],
        ),
        case(
            "repo_updated",
            Some("repo:updated"),
            &[(
                "new-name",
                "eeshangarg changed the website of the **new-name** repo to \
                 **http://zulipchat.com**.\neeshangarg changed the name of the **new-name** repo \
                 from **test-repo** to **new-name**.\neeshangarg changed the language of the \
                 **new-name** repo to **python**.\neeshangarg changed the full name of the \
                 **new-name** repo from **webhooktest/test-repo** to **webhooktest/new-name**.\n\
                 eeshangarg changed the description of the **new-name** repo to **Random \
                 description.**"
                    .to_owned(),
            )],
        ),
    ]
}

#[test]
fn zulips_bitbucket2_fixtures_give_zulips_messages() {
    let Some(dir) = super::fixtures_dir("bitbucket2") else {
        return;
    };
    let integration = find("bitbucket2").unwrap();
    let mut failures = Vec::new();
    for case in cases() {
        let path = dir.join(format!("{}.json", case.fixture));
        let body = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut headers = HeaderMap::new();
        if let Some(header) = case.header {
            headers.insert("X-Event-Key", header.parse().unwrap());
        }
        let request = Request {
            method: &Method::POST,
            headers: &headers,
            body: &body,
            options: &BTreeMap::new(),
            filter: &EventFilter::default(),
            topic: case.topic,
        };
        let got: Vec<(String, String)> = match process(integration, &request) {
            Ok(Outcome::Messages(messages)) => messages
                .into_iter()
                .map(|message| (message.topic, message.content))
                .collect(),
            Ok(Outcome::Ignored) => Vec::new(),
            other => panic!("{}: {other:?}", case.fixture),
        };
        if got != case.expected {
            failures.push(format!(
                "{} ({:?}, topic {:?}):\n  got      {got:?}\n  expected {:?}",
                case.fixture, case.header, case.topic, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
