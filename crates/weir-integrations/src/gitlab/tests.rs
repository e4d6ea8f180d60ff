use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::bodies::strip_html_comments;
use super::*;
use crate::{EventFilter, HeaderMap, Method, Outcome, Request, process};

const WEB: &str = "https://gitlab.com/lantern-labs/tidepool";

fn sample(name: &str) -> (Value, &'static str) {
    let fixture = FIXTURES
        .iter()
        .find(|fixture| fixture.name == name)
        .unwrap_or_else(|| panic!("no sample {name}"));
    (
        serde_json::from_str(fixture.body).unwrap(),
        fixture.headers[0].1,
    )
}

/// What the handler makes of `json` sent with `event`, the URL options and topic given.
fn run_with(
    json: &Value,
    event: Option<&str>,
    options: &[(&str, &str)],
    topic: Option<&str>,
) -> Result<HandlerOutput, HandlerError> {
    crate::run_handler(handler, json, event, options, topic)
}

/// The one message of a sample, and Zulip's name for its event.
fn message_of(name: &str) -> (String, String, String) {
    let (json, event) = sample(name);
    let output = run_with(&json, Some(event), &[], None).unwrap();
    let [message]: [WebhookMessage; 1] = output.messages.try_into().unwrap();
    (output.event.unwrap(), message.topic, message.content)
}

#[test]
fn a_push_lists_its_commits_and_committers() {
    let (event, topic, content) = message_of("push");
    assert_eq!(event, "Push Hook");
    assert_eq!(topic, "tidepool / main");
    assert_eq!(
        content,
        format!(
            "Ines Okafor [pushed]({WEB}/-/compare/1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e...\
             9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d) 2 commits to branch main. Commits by \
             Ines Okafor (1) and Ravi Lindqvist (1).\n\n\
             * Read tide heights as decimetres ([4c1f0e2a9b7]({WEB}/-/commit/\
             4c1f0e2a9b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f))\n\
             * Alert when the spring tide tops 4.2 m ([9e8d7c6b5a4]({WEB}/-/commit/\
             9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d))"
        )
    );
}

#[test]
fn merge_requests_name_branches_assignees_and_description() {
    let (event, topic, content) = message_of("merge_request_opened");
    assert_eq!(event, "Merge Request Hook open");
    assert_eq!(topic, "tidepool / MR #42 Harbour alerts for spring tides");
    assert_eq!(
        content,
        format!(
            "Ravi Lindqvist created [MR #42]({WEB}/-/merge_requests/42) from `spring-alerts` to \
             `main` (assigned to Ines Okafor):\n\n~~~ quote\nAdds an alert when the forecast \
             tops the threshold.\n\nCloses #17.\n~~~"
        )
    );
    let (event, _, content) = message_of("merge_request_merged");
    assert_eq!(event, "Merge Request Hook merge");
    assert_eq!(
        content,
        format!(
            "Ines Okafor merged [MR #42]({WEB}/-/merge_requests/42) from `spring-alerts` to `main`."
        )
    );
}

#[test]
fn an_issue_quotes_its_description_without_html_comments() {
    let (event, topic, content) = message_of("issue_opened");
    assert_eq!(event, "Issue Hook open");
    assert_eq!(
        topic,
        "tidepool / issue #17 Spring tides flood the low dock before any alert"
    );
    assert_eq!(
        content,
        format!(
            "Ines Okafor created [issue #17]({WEB}/-/issues/17) (assigned to Ravi Lindqvist):\n\n\
             ~~~ quote\nThe 4 March tide reached the dock at 06:10; the first alert came at \
             06:45.\n\n\nFeed excerpt attached.\n~~~"
        )
    );
    assert_eq!(
        strip_html_comments("a<!-- x\n-->b<!---->c<!-- open"),
        "abc<!-- open"
    );
    assert_eq!(strip_html_comments("<!-->-->z"), "z");
}

#[test]
fn notes_pipelines_jobs_tags_and_releases_read_as_in_zulip() {
    let (event, topic, content) = message_of("note_merge_request");
    assert_eq!(event, "Note Hook MergeRequest");
    assert_eq!(topic, "tidepool / MR #42 Harbour alerts for spring tides");
    assert_eq!(
        content,
        format!(
            "Ines Okafor [commented]({WEB}/-/merge_requests/42#note_1850442) on [MR #42]({WEB}/-/\
             merge_requests/42):\n\n~~~ quote\nCould the threshold come from the settings \
             instead of a constant?\n~~~"
        )
    );
    let (event, topic, content) = message_of("pipeline");
    assert_eq!(
        (event.as_str(), topic.as_str()),
        ("Pipeline Hook", "tidepool / spring-alerts")
    );
    assert_eq!(
        content,
        format!(
            "[Pipeline (1283350)]({WEB}/-/pipelines/1283350) changed status to failed with \
             build(s):\n* [cargo test]({WEB}/-/jobs/5521907) - failed\n* [cargo build]({WEB}/-/\
             jobs/5521906) - success\n  * built artifact: *tidepool-linux.tar.gz* [[Browse]\
             ({WEB}/-/jobs/5521906/artifacts/browse)|[Download]({WEB}/-/jobs/5521906/artifacts/\
             download)]."
        )
    );
    let (event, topic, content) = message_of("job");
    assert_eq!(
        (event.as_str(), topic.as_str()),
        ("Job Hook", "tidepool / spring-alerts")
    );
    assert_eq!(content, "Build cargo test from test stage started.");
    let (_, topic, content) = message_of("tag_push");
    assert_eq!(
        (topic.as_str(), content.as_str()),
        ("tidepool", "Ines Okafor pushed tag v2.3.0.")
    );
    let (event, _, content) = message_of("release");
    assert_eq!(event, "Release Hook");
    assert_eq!(
        content,
        format!(
            "Release [Tidepool 2.3.0]({WEB}/-/releases/v2.3.0) for tag v2.3.0 was created.\n\
             ~~~ quote\n## 2.3.0\n\n- Spring tide alerts\n- Heights in decimetres\n~~~"
        )
    );
}

#[test]
fn a_status_reads_differently_for_jobs_and_pipelines() {
    let (mut job, _) = sample("job");
    job["build_status"] = json!("pending");
    let output = run_with(&job, Some("Build Hook"), &[], None).unwrap();
    assert_eq!(
        output.messages[0].content,
        "Build cargo test from test stage changed status to pending."
    );
    let (mut pipeline, _) = sample("pipeline");
    pipeline["object_attributes"]["status"] = json!("created");
    pipeline["builds"] = json!([]);
    let output = run_with(&pipeline, Some("Pipeline Hook"), &[], None).unwrap();
    assert_eq!(
        output.messages[0].content,
        format!(
            "[Pipeline (1283350)]({WEB}/-/pipelines/1283350) changed status to created with \
             build(s):\n."
        )
    );
}

#[test]
fn system_hooks_are_named_after_their_event() {
    let (mut push, _) = sample("push");
    let output = run_with(&push, Some("System Hook"), &[], None).unwrap();
    assert_eq!(output.event.as_deref(), Some("Push Hook"));
    push.as_object_mut().unwrap().remove("event_name");
    push["object_kind"] = json!("tag_push");
    let output = run_with(&push, Some("System Hook"), &[], None).unwrap();
    assert_eq!(output.event.as_deref(), Some("Tag Push Hook"));
    push["event_name"] = json!("repository_update");
    assert_eq!(
        run_with(&push, Some("System Hook"), &[], None),
        Err(HandlerError::UnsupportedEvent(
            "Repository Update Hook".into()
        ))
    );
    let (mr, _) = sample("merge_request_opened");
    let output = run_with(&mr, Some("System Hook"), &[], None).unwrap();
    assert_eq!(output.event.as_deref(), Some("Merge Request Hook open"));
    assert_eq!(py_title("merge request"), "Merge Request");
    assert_eq!(py_title("wIKI pAGE's 2x"), "Wiki Page'S 2X");
}

#[test]
fn events_zulip_does_not_handle_are_unsupported_by_their_full_name() {
    let (mut mr, _) = sample("merge_request_opened");
    mr["object_attributes"]["action"] = json!("lock");
    assert_eq!(
        run_with(&mr, Some("Merge Request Hook"), &[], None),
        Err(HandlerError::UnsupportedEvent(
            "Merge Request Hook lock".into()
        ))
    );
    // Without an action, an item is taken as opened.
    mr["object_attributes"]
        .as_object_mut()
        .unwrap()
        .remove("action");
    let output = run_with(&mr, Some("Merge Request Hook"), &[], None).unwrap();
    assert_eq!(output.event.as_deref(), Some("Merge Request Hook open"));
    let (note, _) = sample("note_merge_request");
    assert_eq!(
        run_with(&note, Some("Confidential Note Hook"), &[], None),
        Err(HandlerError::UnsupportedEvent(
            "Confidential Note Hook MergeRequest".into()
        ))
    );
    assert_eq!(
        run_with(&note, Some("Deployment Hook"), &[], None),
        Err(HandlerError::UnsupportedEvent("Deployment Hook".into()))
    );
    assert_eq!(
        run_with(&note, None, &[], None),
        Err(HandlerError::MissingEventHeader)
    );
    for event in EVENT_TYPES {
        assert!(
            bodies::body(event, &json!({}), false)
                .is_err_and(|error| { !matches!(error, HandlerError::UnsupportedEvent(_)) })
        );
    }
}

#[test]
fn the_branches_option_drops_pushes_to_other_branches() {
    let (push, event) = sample("push");
    let only = |branches: &str| run_with(&push, Some(event), &[("branches", branches)], None);
    assert_eq!(only("dev, release"), Err(HandlerError::Ignored));
    // Whole names, not parts of them (Zulip once matched substrings).
    assert_eq!(only("mainline"), Err(HandlerError::Ignored));
    assert!(only("dev, main ").is_ok());
    // Other events are not filtered by branch.
    let (tag, event) = sample("tag_push");
    assert!(run_with(&tag, Some(event), &[("branches", "dev")], None).is_ok());
}

#[test]
fn use_merge_request_title_is_read_as_a_json_boolean() {
    let (note, event) = sample("note_merge_request");
    let topic = |value: &str| {
        run_with(
            &note,
            Some(event),
            &[("use_merge_request_title", value)],
            None,
        )
        .map(|output| output.messages[0].topic.clone())
    };
    assert_eq!(topic("false"), Ok("tidepool / MR #42".to_owned()));
    assert_eq!(topic("0"), Ok("tidepool / MR #42".to_owned()));
    assert_eq!(topic("\"Off\""), Ok("tidepool / MR #42".to_owned()));
    assert_eq!(
        topic("true"),
        Ok("tidepool / MR #42 Harbour alerts for spring tides".to_owned())
    );
    assert_eq!(
        topic("False"),
        Err(HandlerError::MissingKey("use_merge_request_title".into()))
    );
}

#[test]
fn a_chosen_topic_puts_the_project_and_the_title_in_the_message() {
    let (mr, event) = sample("merge_request_merged");
    let output = run_with(&mr, Some(event), &[], Some("Deploys")).unwrap();
    assert_eq!(
        output.messages[0].content,
        format!(
            "[[tidepool]({WEB})] Ines Okafor merged [MR #42 Harbour alerts for spring tides]\
             ({WEB}/-/merge_requests/42) from `spring-alerts` to `main`."
        )
    );
}

#[test]
fn missing_keys_are_named() {
    let (mut push, event) = sample("push");
    push.as_object_mut().unwrap().remove("user_name");
    assert_eq!(
        run_with(&push, Some(event), &[], None),
        Err(HandlerError::MissingKey("user_name".into()))
    );
    let (mut mr, event) = sample("merge_request_opened");
    mr["object_attributes"]["iid"] = json!("42");
    assert_eq!(
        run_with(&mr, Some(event), &[], None),
        Err(HandlerError::MissingKey("iid".into()))
    );
    let (mut note, event) = sample("note_merge_request");
    note["object_attributes"]["noteable_type"] = json!("DesignManagement::Design");
    note["repository"]["homepage"] = json!(WEB);
    note["object_attributes"]["position"] = json!({"new_path": "designs/flat.png"});
    assert_eq!(
        run_with(&note, Some(event), &[], None),
        Err(HandlerError::MissingKey("new_path".into()))
    );
}

#[test]
fn filters_match_zulips_full_event_names() {
    let (body, event) = sample("merge_request_opened");
    let mut headers = HeaderMap::new();
    headers.insert("x-gitlab-event", event.parse().unwrap());
    let body = body.to_string();
    let exclude = vec!["Merge Request Hook o*".to_owned()];
    let filter = EventFilter::new(None, Some(&exclude)).unwrap();
    let request = Request {
        method: &Method::POST,
        headers: &headers,
        body: body.as_bytes(),
        options: &BTreeMap::new(),
        filter: &filter,
        topic: None,
    };
    assert_eq!(
        process(&integration(), &request),
        Ok(Outcome::Filtered {
            event: "Merge Request Hook open".into()
        })
    );
}
