//! `zerver/webhooks/jira/tests.py` as in Zulip main (December 2025, the tests of the
//! fixtures of zulip/zulip `dac9e47`), by the shared replay (`mod.rs`): every test whose
//! fixture is in `shared/reference/fixtures/jira/`, one case per fixture a test sends.
//! Zulip's tests send no event header (the event is the body's `webhookEvent`).
//!
//! Not as Zulip's tests expect:
//! - `test_commented` (v1, v2), `test_commented_with_two_full_links`,
//!   `test_comment_edited`, `test_reassigned` (v1, v2): Zulip names the assignee
//!   `othello@zulip.com` by the full name of the Zulip user with that address in its
//!   test organization ("Othello, the Moor of Venice"). Handlers here see only the
//!   request, so they write what Zulip writes when no user has the address: the
//!   address. These cases expect Zulip's text with that one substitution
//!   ([`by_address`]); everything else in them is Zulip's.
//! - Not replayed: `test_created_with_topic_with_spaces_double_escaped` (Zulip unquotes
//!   Jira's `topic` a second time, `unquote_url_parameters`; Weir does not) and
//!   `test_created_with_channel_with_spaces_escaped` / `..._double_escaped` (the same
//!   for the channel name, which the server resolves, not the integration).

use super::{Case, Expect, replay};

const BUG15: &str = "[BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15)";
const TEST1: &str = "[TEST-1: Fix That](https://zulipp.atlassian.net/browse/TEST-1)";
const SP1_TOPIC: &str = "SP-1: Add support for newer format Jira issue comment events";
const SP1: &str = "[SP-1: Add support for newer format Jira issue comment events](https://f20171170.atlassian.net/browse/SP-1)";
const OTHELLO: &str = "**Othello, the Moor of Venice**";

/// Zulip's expected text with its test organization's user for `othello@zulip.com`
/// replaced by the address, as Zulip writes it when no user has the address.
fn by_address(zulip_text: &str) -> String {
    zulip_text.replace(OTHELLO, "**othello@zulip.com**")
}

fn created(author: &str, issue: &str, assignee: &str) -> String {
    format!("{author} created {issue}:\n\n* **Priority**: Major\n* **Assignee**: {assignee}")
}

#[test]
fn zulips_jira_tests_pass() {
    let created_bug15 = created("Leo Franchi", BUG15, "no one");
    let commented = format!(
        "Leo Franchi commented on {BUG15} (assigned to {OTHELLO}):\n\n``` quote\nAdding a \
         comment. Oh, what a comment it is!\n```"
    );
    let markup = "Leonardo Franchi [Administrator] commented on [TEST-7: Testing of rich text]\
        (https://zulipp.atlassian.net/browse/TEST-7):\n\n``` quote\nThis is a comment that likes \
        to **exercise** a lot of _different_ `conventions` that `jira uses`.\r\n\r\n~~~\n\r\n\
        this code is not highlighted, but monospaced\r\n\n~~~\r\n\r\n~~~\n\r\ndef python():\r\n\
        \x20   print \"likes to be formatted\"\r\n\n~~~\r\n\r\n[http://www.google.com](http://www.\
        google.com) is a bare link, and [Google](http://www.google.com) is given a title.\r\n\
        \r\nThanks!\r\n\r\n~~~ quote\n\r\nSomeone said somewhere\r\n\n~~~\n```";
    let deleted = format!("Leo Franchi deleted {BUG15}.");
    let reassigned = format!(
        "Leo Franchi updated {BUG15} (assigned to {OTHELLO}):\n\n* Changed assignee to {OTHELLO}"
    );
    let priority = format!(
        "Leonardo Franchi [Administrator] updated {TEST1} (assigned to **leo@zulip.com**):\n\n\
         * Changed priority from **Critical** to **Major**"
    );
    let status = format!(
        "Leonardo Franchi [Administrator] updated {TEST1}:\n\n* Changed status from **To Do** \
         to **In Progress**"
    );
    let important = "This is a very important issue! I’m on it!";
    let mut cases = vec![
        Case::message(
            "test_custom_channel",
            "created_v2",
            "BUG-15: New bug with hook",
            &created_bug15,
        ),
        Case::message(
            "test_created",
            "created_v1",
            "BUG-15: New bug with hook",
            &created_bug15,
        ),
        Case::message(
            "test_created",
            "created_v2",
            "BUG-15: New bug with hook",
            &created_bug15,
        ),
    ];
    for fixture in ["created_with_unicode_v1", "created_with_unicode_v2"] {
        cases.push(Case::message(
            "test_created_with_unicode",
            fixture,
            "BUG-15: New bug with à hook",
            &created(
                "Leo Franchià",
                "[BUG-15: New bug with à hook](http://lfranchi.com:8080/browse/BUG-15)",
                "no one",
            ),
        ));
    }
    for fixture in ["created_assignee_v1", "created_assignee_v2"] {
        cases.push(Case::message(
            "test_created_assignee",
            fixture,
            "TEST-4: Test Created Assignee",
            &created(
                "Leonardo Franchi [Administrator]",
                "[TEST-4: Test Created Assignee](https://zulipp.atlassian.net/browse/TEST-4)",
                "Leonardo Franchi [Administrator]",
            ),
        ));
    }
    for fixture in ["commented_v1", "commented_v2"] {
        cases.push(Case::message(
            "test_commented [assignee by address]",
            fixture,
            "BUG-15: New bug with hook",
            &by_address(&commented),
        ));
    }
    cases.extend([
        Case::message(
            "test_commented_with_two_full_links [assignee by address]",
            "commented_v2_with_two_full_links",
            "BUG-15: New bug with hook",
            &by_address(&format!(
                "Leo Franchi commented on {BUG15} (assigned to {OTHELLO}):\n\n``` quote\nThis \
                 is the [first link](https://google.com) and this is the [second link]\
                 (https://google.com) and this is the end.\n```"
            )),
        ),
        Case::message(
            "test_comment_edited [assignee by address]",
            "comment_edited_v2",
            "BUG-15: New bug with hook",
            &by_address(&format!(
                "Leo Franchi edited a comment on {BUG15} (assigned to {OTHELLO}):\n\n``` quote\n\
                 Adding a comment. Oh, what a comment it is!\n```"
            )),
        ),
        Case::message(
            "test_comment_deleted",
            "comment_deleted_v2",
            "TOM-1: New Issue",
            "Tomasz Kolek deleted a comment from [TOM-1: New Issue](https://zuliptomek.\
             atlassian.net/browse/TOM-1) (assigned to **kolaszek@go2.pl**).",
        ),
    ]);
    for fixture in ["commented_markup_v1", "commented_markup_v2"] {
        cases.push(Case::message(
            "test_commented_markup",
            fixture,
            "TEST-7: Testing of rich text",
            markup,
        ));
    }
    for (test, fixtures, topic, content) in [
        (
            "test_deleted",
            ["deleted_v1", "deleted_v2"],
            "BUG-15: New bug with hook",
            deleted,
        ),
        (
            "test_reassigned [assignee by address]",
            ["reassigned_v1", "reassigned_v2"],
            "BUG-15: New bug with hook",
            by_address(&reassigned),
        ),
        (
            "test_priority_updated",
            ["updated_priority_v1", "updated_priority_v2"],
            "TEST-1: Fix That",
            priority,
        ),
        (
            "test_status_changed",
            ["change_status_v1", "change_status_v2"],
            "TEST-1: Fix That",
            status,
        ),
    ] {
        for fixture in fixtures {
            cases.push(Case::message(test, fixture, topic, &content));
        }
    }
    cases.extend([
        Case::message(
            "test_comment_event_comment_created",
            "comment_created",
            SP1_TOPIC,
            &format!(
                "Hemanth V. Alluri commented on {SP1}\n``` quote\nSounds like it’s pretty \
                 important. I’ll get this fixed ASAP!\n```"
            ),
        ),
        Case::message(
            "test_comment_event_comment_created_no_issue_details",
            "comment_created_no_issue_details",
            "10000: Upgrade Jira to get the issue title here.",
            "Hemanth V. Alluri commented on 10000: Upgrade Jira to get the issue title here.\n\
             ``` quote\nSounds like it’s pretty important. I’ll get this fixed ASAP!\n```",
        ),
        Case::message(
            "test_comment_event_comment_edited",
            "comment_updated",
            SP1_TOPIC,
            &format!(
                "Hemanth V. Alluri updated their comment on {SP1}\n``` quote\n{important}\n```"
            ),
        ),
        Case::message(
            "test_comment_event_comment_deleted",
            "comment_deleted",
            SP1_TOPIC,
            &format!(
                "Hemanth V. Alluri deleted their comment on {SP1}\n``` quote\n~~{important}~~\n```"
            ),
        ),
        Case::new(
            "test_anomalous_webhook_payload_error",
            "example_anomalous_payload",
            Expect::Error("Unable to parse request: Did Jira generate this event?".into()),
        ),
    ]);
    for action in [
        "attachment_created",
        "issuelink_created",
        "issuelink_deleted",
        "jira:version_released",
        "jira:worklog_updated",
        "sprint_closed",
        "sprint_started",
        "worklog_created",
        "worklog_updated",
    ] {
        let body = serde_json::json!({ "webhookEvent": action }).to_string();
        cases.push(Case::new("test_ignored_events", action, Expect::Ignored).body(&body));
    }
    replay("jira", &cases);
}
