//! `zerver/webhooks/slack_incoming/tests.py` (zulip/zulip e6eaebf5). Zulip's tests post
//! JSON declared `application/json` (its `check_webhook` default) unless they say
//! otherwise; a test without a topic expects the empty topic Zulip stores for
//! `(no topic)`. `test_message_without_payload` posts an empty form; Zulip answers it
//! in Slack's shape (`{"ok": false, "error": …}`), whose text is checked here.

use super::{Case, Expect, replay};

const IMAGE: &str = "https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg";
const HOTEL: &str = "\n :star: \n Doors had too many axe holes, guest in room 237 was far too rowdy, whole place felt stuck in the 1920s.";
const HAUNTED: &str = "[Haunted hotel image](https://is5-ssl.mzstatic.com/image/thumb/Purple3/v4/d3/72/5c/d3725c8f-c642-5d69-1904-aa36e4297885/source/256x256bb.jpg)";
const TIME: &str = "<time:2022-06-23T00:48:26+00:00>";

/// A case posted as JSON, as Zulip's `check_webhook` posts by default.
fn json(test: &'static str, fixture: &'static str, topic: &str, content: &str) -> Case {
    Case::message(test, fixture, topic, content).header("content-type", "application/json")
}

fn pieces(test: &'static str, fixture: &'static str, parts: &[&str]) -> Case {
    json(test, fixture, "", &parts.join("\n\n"))
}

fn alert(port: &str) -> String {
    format!(
        "**Alert:** api-server down - `critical`\n\
         **Description:** api-server at 1.2.3.4:{port} couldn't be scraped **Details:**\n   \
         • **alertname:** `InstanceDown`\n   • **env:** `prod`\n   • **instance:** `1.2.3.4:{port}`\n   \
         • **job:** `api-server`\n   • **severity:** `critical`"
    )
}

fn cases() -> Vec<Case> {
    let title = "## [Sample title.](https://www.google.com)";
    let image = format!("[]({IMAGE})");
    let mut cases = vec![
        json("test_message", "text", "", "Hello, world."),
        Case::new("test_null_message", "null_text", Expect::Ignored)
            .header("content-type", "application/json"),
        Case::message(
            "test_message_as_www_urlencoded",
            "urlencoded_text",
            "devops",
            ":zap: chris has started deploying project tag v0.0.2rc10 to staging",
        )
        .extension("txt")
        .form(),
        Case::inline(
            "test_message_without_payload",
            "",
            Expect::Error("Missing 'payload' argument".into()),
        )
        .form(),
        json(
            "test_message_with_actions",
            "actions",
            "C1H9RESGL",
            &format!(
                "Danny Torrence left the following *review* for your property:\n\n\
                 [Overlook Hotel](https://google.com) {HOTEL}\n\n{HAUNTED}\n\n**Average Rating**\n1.0"
            ),
        ),
        json(
            "test_message_with_blocks",
            "blocks",
            "",
            &format!(
                "Danny Torrence left the following review for your property:\n\n\
                 [Overlook Hotel](https://example.com) {HOTEL}\n\n{HAUNTED}\n\n**Average Rating**\n1.0"
            ),
        ),
        json(
            "test_message_with_attachment",
            "attachment",
            "prometheus-alerts",
            &format!(
                "## [[FIRING:2] InstanceDown for api-server (env=\"prod\", severity=\"critical\")](https://alertmanager.local//#/alerts?receiver=default)\n\n\
                 :chart_with_upwards_trend: **[Graph](http://generator.local/1)**   :notebook: **[Runbook](https://runbook.local/1)**\n\n\
                 **Alert details**:\n{}\n\n{}",
                alert("8080"),
                alert("8081")
            ),
        ),
        json(
            "test_complicated",
            "complicated",
            "",
            &format!(
                "## Hello from TaskBot\n\n\
                 Hey there 👋 I'm TaskBot. I'm here to help you create and manage tasks in Slack.\n\
                 There are two ways to quickly create tasks:\n\n\
                 **1️⃣ Use the `/task` command**. Type `/task` followed by a short description of your tasks and I'll ask for a due date (if applicable). Try it out by using the `/task` command in this channel.\n\n\
                 **2️⃣ Use the *Create a Task* action.** If you want to create a task from a message, select `Create a Task` in a message's context menu. Try it out by selecting the *Create a Task* action for this message (shown below).\n\n\
                 [image1](https://api.slack.com/img/blocks/bkb_template_images/onboardingComplex.jpg)\n\n\
                 ➕ To start tracking your team's tasks, **add me to a channel** and I'll introduce myself. I'm usually added to a team or project channel. Type `/invite @TaskBot` from the channel or pick a channel on the right.\n\n\
                 ----\n\n\
                 [cute cat]({IMAGE})\n\n\
                 👀 View all tasks with `/task list`\n\n\
                 ❓Get help at any time with:\n- `/task help`, or\n- type **help** in a DM with me"
            ),
        ),
        json(
            "test_attachment_blocks",
            "attachment_blocks",
            "",
            &format!(
                "This is a section block with an accessory image.\n\n[cute cat]({IMAGE})\n\n\
                 This is a section block with a button.\n\n\
                 | | |\n|-|-|\n| one | two |\n| three | four |\n| five |  |"
            ),
        ),
        json(
            "test_attachment_fields",
            "attachment_fields",
            "",
            "Build bla bla succeeded\n\n**Requested by**: Some user\n**Duration**: 00:02:03\n\
             **Build pipeline**: ConsumerAddressModule\n**Title with null value**\n\
             **Title without value**\nValue with null title\nValue without title",
        ),
        pieces(
            "test_attachment_pieces",
            "attachment_pieces",
            &["## Test", &image, TIME],
        ),
        pieces(
            "test_attachment_pieces_title_null",
            "attachment_pieces_title_null",
            &[
                "Sample pretext.",
                "Sample text.",
                &image,
                "Sample footer.",
                TIME,
            ],
        ),
        pieces(
            "test_attachment_pieces_image_url_null",
            "attachment_pieces_image_url_null",
            &[
                title,
                "Sample pretext.",
                "Sample text.",
                "Sample footer.",
                TIME,
            ],
        ),
        pieces(
            "test_attachment_pieces_ts_null",
            "attachment_pieces_ts_null",
            &[
                title,
                "Sample pretext.",
                "Sample text.",
                &image,
                "Sample footer.",
            ],
        ),
        pieces(
            "test_attachment_pieces_text_null",
            "attachment_pieces_text_null",
            &[title, "Sample pretext.", &image, "Sample footer.", TIME],
        ),
        pieces(
            "test_attachment_pieces_pretext_null",
            "attachment_pieces_pretext_null",
            &[title, "Sample text.", &image, "Sample footer.", TIME],
        ),
        pieces(
            "test_attachment_pieces_footer_null",
            "attachment_pieces_footer_null",
            &[title, "Sample pretext.", "Sample text.", &image, TIME],
        ),
        pieces(
            "test_attachment_pieces_title_link_null",
            "attachment_pieces_title_link_null",
            &[
                "## Sample title.",
                "Sample pretext.",
                "Sample text.",
                &image,
                "Sample footer.",
                TIME,
            ],
        ),
        pieces(
            "test_attachment_relative_title_link",
            "attachment_relative_title_link",
            &["## Sample title.", "Sample text."],
        ),
        Case::new(
            "test_attachment_pieces_all_null",
            "attachment_pieces_all_null",
            Expect::Ignored,
        )
        .header("content-type", "application/json"),
        json("test_broken_image", "broken_image", "", "Some image here"),
        json(
            "test_message_changed",
            "message_changed",
            "general",
            "Hello world from edited Slack message!",
        ),
        json(
            "test_event_message_changed",
            "event_message_changed",
            "general",
            "Hello world from edited Slack event message!",
        ),
    ];
    // test_message_formatting: Zulip's subtests, each a custom payload {"text": …}.
    for (slack, zulip) in [
        ("some *foo* word", "some **foo** word"),
        ("*foo*", "**foo**"),
        ("*foo* *bar*", "**foo** **bar**"),
        ("*foo*a*bar*", "*foo*a*bar*"),
        ("some _foo_ word", "some *foo* word"),
    ] {
        let body = serde_json::json!({ "text": slack }).to_string();
        let expect = Expect::Messages(vec![(String::new(), zulip.to_owned())]);
        cases.push(
            Case::inline("test_message_formatting", &body, expect)
                .header("content-type", "application/json"),
        );
    }
    cases
}

#[test]
fn zulips_slack_incoming_tests_pass() {
    replay("slack_incoming", &cases());
}
