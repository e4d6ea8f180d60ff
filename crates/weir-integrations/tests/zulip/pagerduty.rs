//! `zerver/webhooks/pagerduty/tests.py` (zulip/zulip 7ecd9343), by the shared replay
//! (`mod.rs`): every test, all fixtures being in `shared/reference/fixtures/pagerduty/`.
//! `test_unsupported_webhook_event` posts three fixtures and is three cases here. The two
//! `acknowledge` fixtures are V1 batches (an assignment, then the acknowledgement): Zulip
//! sends both messages and its test checks the last, as these cases do.

use super::{Case, Expect, replay};

const ZT: &str = "https://zulip-test.pagerduty.com";
const WEBDEMO: &str = "https://webdemo.pagerduty.com";
const PIG: &str = "https://pig208.pagerduty.com";
const HARSH: &str = "https://harsh0303.pagerduty.com";
const CHECKOUT: &str = "Critical: Checkout API High Latency";

#[test]
fn zulips_pagerduty_tests_pass() {
    let armooo = format!("[armooo]({ZT}/users/POBCFRJ)");
    let test_service = format!("[Test service]({ZT}/services/PIL5CUQ)");
    let laura = format!("[Laura Haley]({WEBDEMO}/users/P553OPV)");
    let xdb = format!("[Production XDB Cluster]({WEBDEMO}/services/PN49J75)");
    let pig_user = format!("[PIG 208]({PIG}/users/PJ0LVEB)");
    let pig_service = format!("[pig208]({PIG}/services/PA2P440)");
    let harsh = format!("[Harsh Santwani]({HARSH}/users/PXRUEF2)");
    let checkout = format!("[{CHECKOUT}]({HARSH}/incidents/Q3B15VLMF3ASBD)");
    let checkout5 = format!("[{CHECKOUT} (#5)]({HARSH}/incidents/Q3B15VLMF3ASBD)");
    let topic = format!("Incident {CHECKOUT}");
    let topic5 = format!("Incident {CHECKOUT} (#5)");
    let mut cases = vec![
        Case::message(
            "test_trigger",
            "trigger",
            "Incident 3",
            &format!(
                "Incident [3]({ZT}/incidents/P140S4Y) triggered by {test_service} (assigned to \
                 {armooo}).\n\n``` quote\nfoo\n```"
            ),
        ),
        Case::message(
            "test_trigger_v2",
            "trigger_v2",
            "Incident 33",
            &format!(
                "Incident [33]({WEBDEMO}/incidents/PRORDTY) triggered by {xdb} (assigned to \
                 {laura}).\n\n``` quote\nMy new incident\n```"
            ),
        ),
        Case::message(
            "test_triggerer_v3",
            "triggered_v3",
            "Incident Test Incident 3 (#9)",
            &format!(
                "Incident [Test Incident 3 (#9)]({PIG}/incidents/PFQZPSY) triggered by \
                 {pig_service} (assigned to {pig_user})."
            ),
        ),
        Case::message(
            "test_trigger_without_assignee_v2",
            "trigger_without_assignee_v2",
            "Incident 33",
            &format!(
                "Incident [33]({WEBDEMO}/incidents/PRORDTY) triggered by {xdb} (assigned to \
                 nobody).\n\n``` quote\nMy new incident\n```"
            ),
        ),
        Case::message(
            "test_unacknowledge",
            "unacknowledge",
            "Incident 3",
            &format!(
                "Incident [3]({ZT}/incidents/P140S4Y) unacknowledged by {test_service} \
                 (assigned to {armooo}).\n\n``` quote\nfoo\n```"
            ),
        ),
        Case::message(
            "test_unacknowledged_v3",
            "unacknowledged_v3",
            "Incident Test Incident (#10)",
            &format!(
                "Incident [Test Incident (#10)]({PIG}/incidents/PQ1K5C8) unacknowledged by \
                 {pig_service} (assigned to {pig_user})."
            ),
        ),
        Case::message(
            "test_resolved",
            "resolved",
            "Incident 1",
            &format!(
                "Incident [1]({ZT}/incidents/PO1XIJ5) resolved by {armooo}.\n\n``` quote\n\
                 It is on fire\n```"
            ),
        ),
        Case::message(
            "test_resolved_v2",
            "resolve_v2",
            "Incident 33",
            &format!(
                "Incident [33]({WEBDEMO}/incidents/PRORDTY) resolved by {laura}.\n\n``` quote\n\
                 My new incident\n```"
            ),
        ),
        Case::message(
            "test_resolved_v3",
            "resolved_v3",
            "Incident Test Incident (#6)",
            &format!(
                "Incident [Test Incident (#6)]({PIG}/incidents/PCPZE64) resolved by {pig_user}."
            ),
        ),
        Case::message(
            "test_auto_resolved",
            "auto_resolved",
            "Incident 2",
            &format!("Incident [2]({ZT}/incidents/PX7K9J2) resolved.\n\n``` quote\nnew\n```"),
        ),
        Case::last_message(
            "test_acknowledge",
            "acknowledge",
            "Incident 1",
            &format!(
                "Incident [1]({ZT}/incidents/PO1XIJ5) acknowledged by {armooo}.\n\n``` quote\n\
                 It is on fire\n```"
            ),
        ),
        Case::last_message(
            "test_acknowledge_without_trigger_summary_data",
            "acknowledge_without_trigger_summary_data",
            "Incident 1",
            &format!(
                "Incident [1]({ZT}/incidents/PO1XIJ5) acknowledged by {armooo}.\n\n``` quote\n\n```"
            ),
        ),
        Case::message(
            "test_acknowledged_v3",
            "acknowledged_v3",
            "Incident Test Incident (#10)",
            &format!(
                "Incident [Test Incident (#10)]({PIG}/incidents/PQ1K5C8) acknowledged by \
                 {pig_user}."
            ),
        ),
        Case::message(
            "test_acknowledge_v2",
            "acknowledge_v2",
            "Incident 33",
            &format!(
                "Incident [33]({WEBDEMO}/incidents/PRORDTY) acknowledged by {laura}.\n\n``` \
                 quote\nMy new incident\n```"
            ),
        ),
        Case::message(
            "test_incident_assigned_v2",
            "assign_v2",
            "Incident 33",
            &format!(
                "Incident [33]({WEBDEMO}/incidents/PRORDTY) assigned to [Wiley Jacobson]\
                 ({WEBDEMO}/users/PFBSJ2Z).\n\n``` quote\nMy new incident\n```"
            ),
        ),
        Case::message(
            "test_reassigned_v3",
            "reassigned_v3",
            "Incident Test Incident (#3)",
            &format!(
                "Incident [Test Incident (#3)]({PIG}/incidents/PIQUG8X) reassigned to \
                 [Test User]({PIG}/users/PI9DT01)."
            ),
        ),
        Case::message(
            "test_no_subject",
            "mp_fail",
            "Incident 48219",
            "Incident [48219](https://dropbox.pagerduty.com/incidents/PJKGZF9) resolved.\n\n\
             ``` quote\nmp_error_block_down_critical\u{2119}\u{01b4}\n```",
        ),
        Case::message(
            "test_escalated_v3",
            "escalate_v3",
            &topic5,
            &format!("Incident {checkout5} escalated to {harsh}."),
        ),
        Case::message(
            "test_delegated_v3",
            "delegated_v3",
            &topic5,
            &format!(
                "Incident {checkout5} delegated; current escalation policy is [APIs-ep]\
                 ({HARSH}/escalation_policies/P3RAX8S) and current assignee is {harsh}."
            ),
        ),
        Case::message(
            "test_reopened_v3",
            "reopened_v3",
            "Incident Test Incident 2 (#4)",
            &format!("Incident [Test Incident 2 (#4)]({HARSH}/incidents/Q05XJA8GDXGOB3) reopened."),
        ),
        Case::message(
            "test_priority_updated_v3",
            "priority_updated_v3",
            &topic5,
            &format!("Incident {checkout5} priority updated to P2"),
        ),
        Case::message(
            "test_status_updated_v3",
            "status_updated_v3",
            &topic,
            &format!(
                "Incident {checkout} status update published: Investigating a P1 incident with \
                 the Checkout API in us-east-1. Customers may see 504 errors or delays during \
                 purchase. We've identified a database lock and are working on a fix. Expected \
                 remediation within 30 minutes; next update at 08:15 UTC."
            ),
        ),
        Case::message(
            "test_annotated_v3",
            "annotated_v3",
            &topic,
            &format!(
                "Incident {checkout} annotated with: Running KILL on long-running queries from \
                 the reporting-service."
            ),
        ),
        Case::message(
            "test_responder_added_v3",
            "responder_added",
            &topic,
            &format!(
                "Responder {harsh} added to incident {checkout}.\n\n``` quote\nPlease help with \
                 \"{CHECKOUT}\"\n```"
            ),
        ),
        Case::message(
            "test_responder_replied_v3",
            "responder_replied_v3",
            &topic,
            &format!(
                "Responder {harsh} replied to incident {checkout}.\n\n``` quote\nChecking now. \
                 Investigating DB locks on cluster-01 and reviewing latency metrics in Datadog. \
                 Will update in 5 mins.\n\n```"
            ),
        ),
        Case::message(
            "test_conference_bridge_updated_v3",
            "conference_bridge_updated_v3",
            &topic,
            &format!(
                "Incident {checkout} conference bridge updated: https://example.com/123-456-789"
            ),
        ),
        Case::message(
            "test_service_updated_v3",
            "service_updated_v3",
            &topic5,
            &format!("Incident {checkout5} service updated to APIs"),
        ),
        Case::message(
            "test_workflow_started_v3",
            "workflow_started_v3",
            &topic,
            &format!("Incident {checkout} workflow started: Incident WorkFlow (Manually Started)"),
        ),
        Case::message(
            "test_workflow_completed_v3",
            "workflow_completed_v3",
            &topic,
            &format!(
                "Incident {checkout} workflow completed: Incident WorkFlow (Manually Started)"
            ),
        ),
        Case::message(
            "test_workflow_completed_no_summary_v3",
            "workflow_completed_no_summary_v3",
            &topic,
            &format!("Incident {checkout} workflow completed: Incident WorkFlow"),
        ),
    ];
    for fixture in ["unsupported_v1", "unsupported_v2", "unsupported_v3"] {
        cases.push(Case::new(
            "test_unsupported_webhook_event",
            fixture,
            Expect::Error(
                "The 'incident.unsupported' event isn't currently supported by the PagerDuty \
                 webhook; ignoring"
                    .into(),
            ),
        ));
    }
    replay("pagerduty", &cases);
}
