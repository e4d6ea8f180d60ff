//! `zerver/webhooks/alertmanager/tests.py` (zulip/zulip 4aab119d): Prometheus
//! Alertmanager, posted with `name=topic&desc=description` as Zulip's URL does.

use super::{Case, replay};

const GRAPH: &str = "http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0";

fn zulips_url(case: Case) -> Case {
    case.query("name", "topic").query("desc", "description")
}

#[test]
fn zulips_alertmanager_tests_pass() {
    replay(
        "alertmanager",
        &[
            zulips_url(Case::message(
                "test_error_issue_message",
                "alert",
                "andromeda",
                &format!(
                    ":alert: **FIRING**\n\
                     * CPU core temperature is 34.75C ([source]({GRAPH}))\n\
                     * CPU core temperature is 17.625C ([source]({GRAPH}))"
                ),
            )),
            zulips_url(Case::message(
                "test_single_error_issue_message",
                "single_alert",
                "andromeda",
                &format!(
                    ":squared_ok: **Resolved** CPU core temperature is 34.75C ([source]({GRAPH}))"
                ),
            )),
            Case::message(
                "without name/desc: the instance label names the topic, alertname describes",
                "single_alert",
                "(unknown)",
                &format!(":squared_ok: **Resolved** High CPU Temperature ([source]({GRAPH}))"),
            ),
        ],
    );
}
