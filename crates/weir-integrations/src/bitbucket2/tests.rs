use serde_json::{Value, json};

use super::*;
use crate::HeaderMap;

const REPO: &str = "https://bitbucket.org/lantern-labs/tidepool";

/// The one message a payload gives (panics when it gives several).
fn run(json: &Value, event: &str, branches: Option<&str>) -> Result<WebhookMessage, HandlerError> {
    run_with_header(json, Some(event), branches)
}

fn run_with_header(
    json: &Value,
    event: Option<&str>,
    branches: Option<&str>,
) -> Result<WebhookMessage, HandlerError> {
    let output = run_all(json, event, branches, None)?;
    let [message]: [WebhookMessage; 1] = output
        .messages
        .try_into()
        .unwrap_or_else(|messages| panic!("not one message: {messages:?}"));
    Ok(message)
}

/// Everything the handler makes of a payload, with the URL's `topic` if given.
fn run_all(
    json: &Value,
    event: Option<&str>,
    branches: Option<&str>,
    topic: Option<&str>,
) -> Result<HandlerOutput, HandlerError> {
    let options: &[(&str, &str)] = match branches {
        Some(branches) => &[("branches", branches)],
        None => &[],
    };
    crate::run_handler(handler, json, event, options, topic)
}

/// A fixture's payload and its `X-Event-Key`.
fn load(name: &str) -> (Value, &'static str) {
    let fixture = FIXTURES
        .iter()
        .find(|fixture| fixture.name == name)
        .unwrap_or_else(|| panic!("no fixture {name}"));
    let event = fixture
        .headers
        .iter()
        .find(|(header, _)| *header == "X-Event-Key")
        .map(|(_, value)| *value)
        .unwrap();
    (serde_json::from_str(fixture.body).unwrap(), event)
}

fn run_fixture(name: &str, branches: Option<&str>) -> Result<WebhookMessage, HandlerError> {
    let (json, event) = load(name);
    run(&json, event, branches)
}

fn ignored_push() -> Result<WebhookMessage, HandlerError> {
    Err(HandlerError::Ignored)
}

fn commit_link(sha: &str) -> String {
    format!("[{}]({REPO}/commits/{sha})", &sha[..11])
}

/// Every fixture with the topic and content Zulip's templates give it.
fn expectations() -> Vec<(&'static str, String, String)> {
    let pr17 = format!("[PR #17]({REPO}/pull-requests/17)");
    let issue9 = format!("[issue #9]({REPO}/issues/9)");
    let avatar = "https://bytebucket.org/ravatar/%7B89bb6900-7365-48eb-d645-5d0ab07aa5fe%7D?ts=";
    vec![
        (
            "push",
            "tidepool / main".into(),
            format!(
                "Ada Quill [pushed]({REPO}/branches/compare/\
                 23e61e71d0b5a5a02aebb94d10db48844347ef42..a1ed6a9ece94e028370ed94a2eb0841db7d4892e) \
                 1 commit to branch main.\n\n* Handle empty tide tables ({})",
                commit_link("23e61e71d0b5a5a02aebb94d10db48844347ef42")
            ),
        ),
        (
            "push_multiple_committers",
            "tidepool / release/2.4".into(),
            format!(
                "Ada Quill [pushed]({REPO}/branches/compare/\
                 de1b3a84a6f2cdf0c78e1cfa9e8690dea0c7cd74..129f41a7ba12b62384cf3791e64e5083e2f0a639) \
                 4 commits to branch release/2.4. Commits by Bram Okafor (2), Ada Quill (1) and \
                 Chidi (1).\n\n\
                 * Release notes for 2.4 ({})\n\
                 * Pin the station index to the 2025 survey ({})\n\
                 * Fix off-by-one in the lunar table ({})\n\
                 * Speed up the harmonic solver ({})",
                commit_link("de1b3a84a6f2cdf0c78e1cfa9e8690dea0c7cd74"),
                commit_link("d0f50d0548e54b8003994e2487702f11efb87d3c"),
                commit_link("c6ac1e18d0a63fb661867e7d00ef4984a21d9bd5"),
                commit_link("3604815df044033356c95e9b76bf4820ac864864"),
            ),
        ),
        (
            "push_truncated",
            "tidepool / main".into(),
            format!(
                "Ada Quill [pushed]({REPO}/branches/compare/\
                 b008c42810a8e531635ac2581081cb9c2e1c13db..e00fa3f50c1276973ed5b1bdf786d9cc83d5cc56) \
                 5 commits to branch main.\n\n\
                 * Document the station schema ({})\n\
                 * Drop the legacy CSV importer ({})\n\
                 * Normalize station ids ({})\n\
                 * Add Alaska stations ({})\n\
                 * Add Hawaii stations ({})\n\
                 [and more commit(s)]",
                commit_link("b008c42810a8e531635ac2581081cb9c2e1c13db"),
                commit_link("e9346172315790f428962b6d4b4f658bc7c7d141"),
                commit_link("75604c4df6b2c05a435d87b69b1a3c670cd71862"),
                commit_link("f26c85fa67f4964253c2eb5e50511933e25b633e"),
                commit_link("6a1269abc9ca2fbaec0baeee7bfb8b201d8efa91"),
            ),
        ),
        (
            "push_branch_created",
            "tidepool / feature/moon-phase".into(),
            format!(
                "Ada Quill [pushed]({REPO}/branch/feature/moon-phase) the branch feature/moon-phase."
            ),
        ),
        (
            "push_branch_deleted",
            "tidepool / hotfix/flaky-ci".into(),
            "Ada Quill deleted branch hotfix/flaky-ci.".into(),
        ),
        (
            "push_force",
            "tidepool / feature/moon-phase".into(),
            format!(
                "Ada Quill [force pushed]({REPO}/branches/compare/\
                 521bd45e0441127402ed4ab0d28454e66e9dbb29..a665323dc38f4d6721ee0aa83a1cbf530a6fd34c) \
                 to branch feature/moon-phase. Head is now 521bd45e0441127402ed4ab0d28454e66e9dbb29."
            ),
        ),
        (
            "push_tag",
            "tidepool".into(),
            format!("Ada Quill pushed tag [v2.4.0]({REPO}/commits/tag/v2.4.0)."),
        ),
        (
            "pullrequest_created",
            "tidepool / PR #17 Add moon phase overlay".into(),
            format!(
                "Ada Quill created {pr17} from `feature/moon-phase` to `main` (assigned to Dana \
                 Whitlock):\n\n~~~ quote\nDraws the lunar phase next to each tide chart.\n\n\
                 Closes #9.\n~~~"
            ),
        ),
        (
            "pullrequest_updated",
            "tidepool / PR #17 Add moon phase overlay".into(),
            format!(
                "Ada Quill updated {pr17}:\n\n~~~ quote\nDraws the lunar phase next to each tide \
                 chart.\n\nNow also in the print layout.\n~~~"
            ),
        ),
        (
            "pullrequest_approved",
            "tidepool / PR #17 Add moon phase overlay".into(),
            format!("Dana Whitlock approved {pr17}."),
        ),
        (
            "pullrequest_fulfilled",
            "tidepool / PR #17 Add moon phase overlay".into(),
            format!("Dana Whitlock merged {pr17} from `feature/moon-phase` to `main`."),
        ),
        (
            "pullrequest_rejected",
            "tidepool / PR #18 Switch charts to WebGL".into(),
            format!("Dana Whitlock rejected [PR #18]({REPO}/pull-requests/18)."),
        ),
        (
            "pullrequest_comment_created",
            "tidepool / PR #17 Add moon phase overlay".into(),
            format!(
                "Bram Okafor [commented]({REPO}/pull-requests/17/_/diff#comment-48213377) on \
                 {pr17}:\n\n~~~ quote\nCould the overlay respect the dark theme?\n~~~"
            ),
        ),
        (
            "issue_created",
            "tidepool / issue #9 Tide chart ignores daylight saving".into(),
            format!(
                "Ada Quill created {issue9} (assigned to Bram Okafor):\n\n~~~ quote\nTimes shift \
                 by an hour after the DST change in March.\n~~~"
            ),
        ),
        (
            "issue_commented",
            "tidepool / issue #9 Tide chart ignores daylight saving".into(),
            format!("Bram Okafor [commented]({REPO}/issues/9#comment-63012458) on {issue9}."),
        ),
        (
            "issue_updated",
            "tidepool / issue #9 Tide chart ignores daylight saving".into(),
            format!("Bram Okafor updated {issue9}."),
        ),
        (
            "fork",
            "tidepool".into(),
            "Chidi Varga forked the repository into \
             [chidiv/tidepool](https://bitbucket.org/chidiv/tidepool)."
                .into(),
        ),
        (
            "commit_comment_created",
            "tidepool".into(),
            format!(
                "Bram Okafor [commented]({REPO}/commits/\
                 c6ac1e18d0a63fb661867e7d00ef4984a21d9bd5#comment-5120934) on {}:\n~~~ quote\n\
                 This breaks the Hawaii stations.\n~~~",
                commit_link("c6ac1e18d0a63fb661867e7d00ef4984a21d9bd5")
            ),
        ),
        (
            "commit_status_updated",
            "tidepool".into(),
            format!(
                "[System TIDEPOOL-CI](https://ci.lantern-labs.example/builds/812) changed status \
                 of {} to FAILED.",
                commit_link("1906e3b25c05ed5d26833417757280a5c253e313")
            ),
        ),
        (
            "repo_updated",
            "tidepool".into(),
            format!(
                "Ada Quill changed the website of the **tidepool** repo to \
                 **https://tidepool.example**.\n\
                 Ada Quill changed the name of the **tidepool** repo from **tide-tables** to \
                 **tidepool**.\n\
                 Ada Quill changed the links of the **tidepool** repo from \
                 **{{'avatar': {{'href': '{avatar}1709800000'}}}}** to \
                 **{{'avatar': {{'href': '{avatar}default'}}}}**\n\
                 Ada Quill changed the language of the **tidepool** repo to **rust**.\n\
                 Ada Quill changed the full name of the **tidepool** repo from \
                 **lantern-labs/tide-tables** to **lantern-labs/tidepool**.\n\
                 Ada Quill changed the description of the **tidepool** repo to **Tide charts for \
                 coastal stations**."
            ),
        ),
    ]
}

#[test]
fn every_fixture_gives_zulips_message() {
    let expectations = expectations();
    for fixture in FIXTURES {
        assert!(
            expectations
                .iter()
                .any(|(name, _, _)| *name == fixture.name)
                || fixture.name == "push_multiple_changes",
            "no expectation for {}",
            fixture.name
        );
    }
    for (name, topic, content) in expectations {
        assert_eq!(
            run_fixture(name, None),
            Ok(WebhookMessage { topic, content }),
            "fixture {name}"
        );
    }
}

#[test]
fn a_push_with_several_changes_is_one_message_per_change() {
    let (json, event) = load("push_multiple_changes");
    let output = run_all(&json, Some(event), None, None).unwrap();
    let expected = vec![
        WebhookMessage {
            topic: "tidepool / main".into(),
            content: format!(
                "Ada Quill [pushed]({REPO}/branches/compare/\
                 1906e3b25c05ed5d26833417757280a5c253e313..23e61e71d0b5a5a02aebb94d10db48844347ef42) \
                 1 commit to branch main. Commits by Bram Okafor (1).\n\n\
                 * Tighten the tide table schema ({})",
                commit_link("1906e3b25c05ed5d26833417757280a5c253e313")
            ),
        },
        WebhookMessage {
            topic: "tidepool".into(),
            content: format!("Ada Quill pushed tag [v2.4.1]({REPO}/commits/tag/v2.4.1)."),
        },
    ];
    assert_eq!(output.messages, expected);
    assert_eq!(output.event.as_deref(), Some("push"));
}

#[test]
fn events_are_named_as_zulip_names_them() {
    let expected = [
        ("push", "push"),
        ("push_tag", "push"),
        ("fork", "fork"),
        ("commit_comment_created", "commit_comment"),
        ("commit_status_updated", "change_commit_status"),
        ("issue_created", "issue_created"),
        ("issue_updated", "issue_updated"),
        ("issue_commented", "issue_commented"),
        ("pullrequest_created", "pull_request_created"),
        ("pullrequest_updated", "pull_request_updated"),
        ("pullrequest_approved", "pull_request_approved"),
        ("pullrequest_fulfilled", "pull_request_fulfilled"),
        ("pullrequest_rejected", "pull_request_rejected"),
        (
            "pullrequest_comment_created",
            "pull_request_comment_created",
        ),
        ("repo_updated", "repo:updated"),
    ];
    for (fixture, name) in expected {
        let (json, event) = load(fixture);
        let output = run_all(&json, Some(event), None, None).unwrap();
        assert_eq!(output.event.as_deref(), Some(name), "{fixture}");
        assert!(EVENT_TYPES.contains(&name), "{name}");
    }
    let (json, _) = load("pullrequest_comment_created");
    for action in ["unapproved", "comment_updated", "comment_deleted"] {
        let output = run_all(&json, Some(&format!("pullrequest:{action}")), None, None).unwrap();
        let name = format!("pull_request_{action}");
        assert_eq!(output.event.as_deref(), Some(name.as_str()));
        assert!(EVENT_TYPES.contains(&name.as_str()), "{name}");
    }
}

#[test]
fn a_topic_in_the_url_puts_the_title_in_pull_request_and_issue_messages() {
    let pr17 = format!("[PR #17 Add moon phase overlay]({REPO}/pull-requests/17)");
    let cases = [
        (
            "pullrequest_approved",
            format!("Dana Whitlock approved {pr17}."),
        ),
        (
            "pullrequest_rejected",
            format!(
                "Dana Whitlock rejected [PR #18 Switch charts to WebGL]({REPO}/pull-requests/18)."
            ),
        ),
    ];
    for (fixture, content) in cases {
        let (json, event) = load(fixture);
        let output = run_all(&json, Some(event), None, Some("notifications")).unwrap();
        assert_eq!(output.messages[0].content, content, "{fixture}");
    }
    let (json, event) = load("issue_updated");
    let with_title = run_all(&json, Some(event), None, Some("t")).unwrap();
    let without = run_all(&json, Some(event), None, None).unwrap();
    assert_ne!(with_title.messages[0].content, without.messages[0].content);
    assert!(
        with_title.messages[0].content.contains("[issue #9 "),
        "{}",
        with_title.messages[0].content
    );
    // Other events read the same either way.
    let (json, event) = load("fork");
    assert_eq!(
        run_all(&json, Some(event), None, Some("t")),
        run_all(&json, Some(event), None, None)
    );
}

#[test]
fn registers_as_zulips_bitbucket2() {
    let integration = crate::find("bitbucket2").unwrap();
    assert_eq!(integration.client_name(), "ZulipBitbucket2Webhook");
    assert_eq!(integration.display_name, "Bitbucket");
    assert_eq!(integration.event_source, EventSource::Header("X-Event-Key"));
    for fixture in integration.fixtures {
        let (json, event) = load(fixture.name);
        let output = run_all(&json, Some(event), None, None).unwrap();
        let name = output.event.unwrap();
        assert!(EVENT_TYPES.contains(&name.as_str()), "{name}");
    }
    // The endpoint looks the header up by this spelling; HTTP/2 sends it lower case.
    let mut headers = HeaderMap::new();
    headers.insert("x-event-key", "repo:push".parse().unwrap());
    assert!(headers.get("X-Event-Key").is_some());
}

#[test]
fn unsupported_events_name_the_header() {
    let (pull_request, _) = load("pullrequest_created");
    assert_eq!(
        run(&pull_request, "pullrequest:changes_request_created", None),
        Err(HandlerError::UnsupportedEvent(
            "pullrequest:changes_request_created".into()
        ))
    );
    let transfer = json!({"actor": {"display_name": "Ada"}, "repository": {"name": "x"}});
    assert_eq!(
        run(&transfer, "repo:transfer", None),
        Err(HandlerError::UnsupportedEvent("repo:transfer".into()))
    );
    assert_eq!(
        run(&json!([1, 2]), "repo:push", None),
        Err(HandlerError::UnsupportedEvent("repo:push".into()))
    );
    // Like Zulip, pushes are recognised by their payload, whatever the header says.
    let (push, _) = load("push_tag");
    assert_eq!(
        run(&push, "pullrequest:push", None).map(|message| message.topic),
        Ok("tidepool".into())
    );
}

#[test]
fn missing_or_mistyped_keys_are_named() {
    let (mut push, _) = load("push");
    push.as_object_mut().unwrap().remove("actor");
    assert_eq!(
        run(&push, "repo:push", None),
        Err(HandlerError::MissingKey("actor".into()))
    );
    let (mut push, _) = load("push");
    push["push"]["changes"][0]["commits"][0]
        .as_object_mut()
        .unwrap()
        .remove("hash");
    assert_eq!(
        run(&push, "repo:push", None),
        Err(HandlerError::MissingKey("hash".into()))
    );
    let (mut pull_request, event) = load("pullrequest_created");
    pull_request["pullrequest"]["id"] = json!("17");
    assert_eq!(
        run(&pull_request, event, None),
        Err(HandlerError::MissingKey("id".into()))
    );
    let (mut issue, event) = load("issue_created");
    issue["actor"] = Value::Null;
    assert_eq!(
        run(&issue, event, None),
        Err(HandlerError::MissingKey("actor".into()))
    );
    let (mut status, event) = load("commit_status_updated");
    status["commit_status"]["links"] = json!([]);
    assert_eq!(
        run(&status, event, None),
        Err(HandlerError::MissingKey("commit".into()))
    );
    let repo_updated = json!({"actor": {}, "repository": {"name": "x"}, "changes": {}});
    assert_eq!(
        run(&repo_updated, "repo:updated", None),
        Err(HandlerError::MissingKey("website".into()))
    );
}

#[test]
fn branches_option_filters_on_the_last_change() {
    let message = run_fixture("push", Some(" dev , main")).unwrap();
    assert_eq!(message.topic, "tidepool / main");
    assert_eq!(run_fixture("push", Some("dev,mainline")), ignored_push());
    assert_eq!(run_fixture("push", Some("")), ignored_push());
    assert_eq!(
        run_fixture("push_branch_deleted", Some("main")),
        ignored_push()
    );
    assert!(run_fixture("push_force", Some("feature/moon-phase")).is_ok());
    // Tags are never filtered, nor a push whose last change is a tag (as in Zulip).
    assert!(run_fixture("push_tag", Some("main")).is_ok());
    let (json, event) = load("push_multiple_changes");
    assert_eq!(
        run_all(&json, Some(event), Some("dev"), None),
        run_all(&json, Some(event), None, None)
    );
    // Options only matter for pushes.
    assert!(run_fixture("pullrequest_created", Some("dev")).is_ok());
}

#[test]
fn pushes_without_changes_send_nothing() {
    let push = json!({"push": {"changes": []}, "actor": {}, "repository": {"name": "x"}});
    assert_eq!(run(&push, "repo:push", None), ignored_push());
}

fn commit(index: usize, author: Value) -> Value {
    json!({
        "hash": format!("{index:040x}"),
        "message": format!("Change {index}\n\nDetails"),
        "author": author,
        "links": {"html": {"href": format!("https://bb.test/c/{index}")}},
    })
}

fn push_of(commits: Vec<Value>, truncated: bool) -> Value {
    json!({
        "actor": {"nickname": "ada"},
        "repository": {"name": "r"},
        "push": {"changes": [{
            "old": {"type": "branch", "name": "main"},
            "new": {"type": "branch", "name": "main", "target": {"hash": "f"}},
            "forced": false,
            "truncated": truncated,
            "links": {"html": {"href": "https://bb.test/compare"}},
            "commits": commits,
        }]},
    })
}

#[test]
fn lists_twenty_commits_then_counts_the_rest() {
    let commits = (0..23)
        .map(|index| commit(index, json!({"user": {"nickname": "ada"}})))
        .collect();
    let message = run(&push_of(commits, false), "repo:push", None).unwrap();
    let lines: Vec<&str> = message.content.lines().collect();
    assert_eq!(
        lines[0],
        "ada [pushed](https://bb.test/compare) 23 commits to branch main."
    );
    assert_eq!(lines.len(), 2 + 20 + 1);
    assert_eq!(lines[2], "* Change 0 ([00000000000](https://bb.test/c/0))");
    assert_eq!(
        lines[21],
        "* Change 19 ([00000000000](https://bb.test/c/19))"
    );
    assert_eq!(lines[22], "[and 3 more commit(s)]");
}

#[test]
fn names_authors_as_zulip_does() {
    let authors = [
        json!({"raw": "  Bo   Ek <bo@x>"}),
        json!({"user": {"display_name": "Cy Di", "nickname": "cy"}}),
        json!({"user": {"uuid": "{x}"}}),
        json!({"user": {"nickname": "ada"}}),
        json!({"raw": "Bo"}),
    ];
    let commits = authors
        .into_iter()
        .enumerate()
        .map(|(index, author)| commit(index, author))
        .collect();
    let message = run(&push_of(commits, false), "repo:push", None).unwrap();
    assert!(
        message.content.starts_with(
            "ada [pushed](https://bb.test/compare) 5 commits to branch main. Commits by Bo (2), \
             Cy Di (1), Unknown user (1) and others (1).\n\n"
        ),
        "{}",
        message.content
    );
    let blank = vec![commit(0, json!({"raw": " "}))];
    assert_eq!(
        run(&push_of(blank, false), "repo:push", None),
        Err(HandlerError::MissingKey("raw".into()))
    );
}

#[test]
fn removed_tags_and_unlinked_new_branches() {
    let (mut tag, _) = load("push_tag");
    let change = &mut tag["push"]["changes"][0];
    change["old"] = change["new"].take();
    assert_eq!(
        run(&tag, "repo:push", None).map(|message| message.content),
        Ok(format!(
            "Ada Quill removed tag [v2.4.0]({REPO}/commits/tag/v2.4.0)."
        ))
    );
    let (mut created, _) = load("push_branch_created");
    created["push"]["changes"][0]["links"]
        .as_object_mut()
        .unwrap()
        .remove("html");
    assert_eq!(
        run(&created, "repo:push", None).map(|message| message.content),
        Ok("Ada Quill pushed the branch feature/moon-phase.".into())
    );
}

#[test]
fn other_pull_request_actions() {
    let (json, _) = load("pullrequest_comment_created");
    let content = |event| run(&json, event, None).map(|message| message.content);
    let pr17 = format!("[PR #17]({REPO}/pull-requests/17)");
    let comment = format!("[comment]({REPO}/pull-requests/17/_/diff#comment-48213377)");
    let quote = "\n\n~~~ quote\nCould the overlay respect the dark theme?\n~~~";
    assert_eq!(
        content("pullrequest:comment_updated"),
        Ok(format!("Bram Okafor updated a {comment} on {pr17}:{quote}"))
    );
    assert_eq!(
        content("pullrequest:comment_deleted"),
        Ok(format!("Bram Okafor deleted a {comment} on {pr17}:{quote}"))
    );
    assert_eq!(
        content("pullrequest:unapproved"),
        Ok(format!("Bram Okafor unapproved {pr17}."))
    );
}

/// Hostile payloads: every object key of every fixture removed, nulled, or replaced by
/// another type. The handler must answer, never panic.
#[test]
fn survives_mangled_fixtures() {
    fn paths(value: &Value, prefix: String, out: &mut Vec<String>) {
        match value {
            Value::Object(fields) => {
                for (key, child) in fields {
                    let path = format!("{prefix}/{key}");
                    out.push(path.clone());
                    paths(child, path, out);
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    paths(child, format!("{prefix}/{index}"), out);
                }
            }
            _ => {}
        }
    }
    for fixture in FIXTURES {
        let (json, event) = load(fixture.name);
        let mut all = Vec::new();
        paths(&json, String::new(), &mut all);
        for path in all {
            for replacement in [Value::Null, json!(7), json!("x"), json!([]), json!({})] {
                let mut mangled = json.clone();
                *mangled.pointer_mut(&path).unwrap() = replacement;
                let _ = run_all(&mangled, Some(event), None, None);
            }
            let (parent, key) = path.rsplit_once('/').unwrap();
            let mut mangled = json.clone();
            if let Some(fields) = mangled.pointer_mut(parent).and_then(Value::as_object_mut) {
                fields.remove(key);
            }
            let _ = run_all(&mangled, Some(event), Some("main"), Some("t"));
        }
    }
}

#[test]
fn only_pull_requests_and_repository_updates_need_the_event_header() {
    let (push, _) = load("push");
    assert!(
        run_with_header(&push, None, None).is_ok(),
        "a push is known by its payload"
    );
    let (pull_request, _) = load("pullrequest_created");
    assert_eq!(
        run_with_header(&pull_request, None, None),
        Err(HandlerError::MissingEventHeader)
    );
    let unknown =
        serde_json::json!({"actor": {"display_name": "Ada"}, "repository": {"name": "x"}});
    assert_eq!(
        run_with_header(&unknown, None, None),
        Err(HandlerError::MissingEventHeader)
    );
}
