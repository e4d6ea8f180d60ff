//! Wiki pages, jobs (and their legacy name, builds), pipelines, the test event and
//! releases.

use super::{AWESOME, KOLEK, RELEASE, case};
use crate::zulip::Case;

pub(super) fn other_cases() -> Vec<Case> {
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
