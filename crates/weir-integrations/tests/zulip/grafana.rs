//! `zerver/webhooks/grafana/tests.py` (zulip/zulip 8d713439). Zulip's tests declare most
//! bodies `application/x-www-form-urlencoded` while sending JSON; the view reads the body
//! as JSON all the same, and so do these cases. Four of Zulip's `_v7` fixtures are shipped
//! under their earlier names (`alert`, `no_message_alert`, `alert_ok`, `alert_pending`:
//! see the fixtures' README), with the same expectations.

use super::{Case, Expect, replay};

const VISUALIZATION: &str =
    "[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)";
const TESTING: &str = "Someone is testing the alert notification within grafana.";
const ANOMALOUS: &str = "Unable to parse request: Did Grafana generate this event?";
const V11_LINKS: &str = "[Generator](https://play.grafana.org/alerting/grafana/dd2f0260-3cfc-4c65-a4c4-f3f632c551f4/view?orgId=1)\n\
    [Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DMemory+%28copy%29&matcher=debug%3Dtrue&matcher=grafana_folder%3Ddevice&orgId=1)\n\
    [Image](https://grafana.com/assets/img/blog/mixed_styles.png)";
const V11_VALUES: &str = "Values:\n- A: 2473545728\n- B: 0\n- C: 1\n- minute: 9\n\nAnnotations:\n- summary: High memory usage\n\n";

fn v8_alert(
    name: &str,
    time: &str,
    zone: &str,
    value: &str,
    kind: &str,
    ids: (&str, &str),
) -> String {
    format!(
        ":alert: **FIRING**\n\n**High {name} usage**\n\nThis alert was fired at <time:2021-10-12T{time}+02:00>.\n\n\
         Labels:\n- alertname: High {name} usage\n- team: blue\n- zone: {zone}\n\n\
         Values:\n[ metric='' labels={{}} value={value} ]\n\n\
         Annotations:\n- description: The system has high {kind} usage\n\
         - runbook_url: https://myrunbook.com/runbook/1234\n- summary: This alert was triggered for zone {zone}\n\n\
         [Generator](https://play.grafana.org/alerting/{}/edit)\n\
         [Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3D{}%2Cteam%3Dblue%2Czone%3D{zone})",
        ids.0, ids.1
    )
}

#[test]
fn zulips_grafana_tests_pass() {
    replay(
        "grafana",
        &[
            Case::message(
                "test_alert_v7 (alert_v7.json, shipped as alert.json)",
                "alert",
                "[Alerting] Test notification",
                &format!(
                    ":alert: **ALERTING**\n\n[Test rule](http://localhost:3000/)\n\n{TESTING}\n\n\
                     **High value:** 100\n**Higher Value:** 200\n\n{VISUALIZATION}"
                ),
            )
            .form(),
            Case::message(
                "test_no_data_alert_v7",
                "no_data_alert_v7",
                "[Alerting] No Data alert",
                ":alert: **ALERTING**\n\n[No Data alert](http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=6&orgId=1)\n\nThe panel has no data.",
            )
            .form(),
            Case::message(
                "test_no_message_alert_v7 (shipped as no_message_alert.json)",
                "no_message_alert",
                "[Alerting] No Message alert",
                ":alert: **ALERTING**\n\n[No Message alert](http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=8&orgId=1)\n\n**A-series:** 21.573108436586445",
            )
            .form(),
            Case::message(
                "test_alert_ok_v7 (shipped as alert_ok.json)",
                "alert_ok",
                "[Ok] Test notification",
                &format!(
                    ":squared_ok: **OK**\n\n[Test rule](http://localhost:3000/)\n\n{TESTING}\n\n\
                     **High value:** 0\n\n{VISUALIZATION}"
                ),
            )
            .form(),
            Case::message(
                "test_alert_paused_v7",
                "alert_paused_v7",
                "[Paused] Test notification",
                &format!(
                    ":info: **PAUSED**\n\n[Test rule](http://localhost:3000/)\n\n{TESTING}\n\n\n{VISUALIZATION}"
                ),
            )
            .form(),
            Case::message(
                "test_alert_pending_v7 (shipped as alert_pending.json)",
                "alert_pending",
                "[Pending] Test notification",
                &format!(
                    ":info: **PENDING**\n\n[Test rule](http://localhost:3000/)\n\n{TESTING}\n\n\
                     **High value:** 100\n**Higher Value:** 200\n\n{VISUALIZATION}"
                ),
            )
            .form(),
            Case::message(
                "test_alert_v8",
                "alert_v8",
                "[TestAlert]",
                ":checkbox: **RESOLVED**\n\n**TestAlert**\n\n\
                 This alert was fired at <time:2022-08-31T05:54:04+00:00>.\n\n\
                 This alert was resolved at <time:2022-08-31T10:30:00+00:00>.\n\n\
                 Labels:\n- alertname: TestAlert\n- instance: Grafana\n\n\
                 Values:\n[ metric='foo' labels={instance=bar} value=10 ]\n\n\
                 Annotations:\n- summary: Notification test\n\n\
                 [Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)",
            )
            .form(),
            Case::new(
                "test_alert_multiple_v8",
                "alert_multiple_v8",
                Expect::Messages(vec![
                    (
                        "[High memory usage]".into(),
                        v8_alert("memory", "09:51:03", "us-1", "14151.331895396988", "memory", ("1afz29v7z", "T2")),
                    ),
                    (
                        "[High CPU usage]".into(),
                        v8_alert("CPU", "09:56:03", "eu-1", "47043.702386305304", "CPU", ("d1rdpdv7k", "T1")),
                    ),
                ]),
            )
            .header("content-type", "application/json"),
            Case::message(
                "test_alert_values_v11",
                "alert_values_v11",
                "[Memory (copy)]",
                &format!(
                    ":alert: **FIRING**\n\n**Memory (copy)**\n\n\
                     This alert was fired at <time:2024-03-01T02:09:00+00:00>.\n\n\
                     Labels:\n- alertname: Memory (copy)\n- debug: true\n- grafana_folder: device\n\n\
                     {V11_VALUES}{V11_LINKS}"
                ),
            )
            .form(),
            Case::message(
                "test_alert_no_alertname_v11",
                "alert_no_alertname_v11",
                "[e6349a25f5ef0e9e]",
                &format!(
                    ":alert: **FIRING**\n\n\
                     This alert was fired at <time:2024-03-01T02:09:00+00:00>.\n\n\
                     Labels:\n- debug: true\n- grafana_folder: device\n\n\
                     {V11_VALUES}{V11_LINKS}"
                ),
            )
            .form(),
            Case::new(
                "test_anomalous_webhook_payload_test_notification",
                "alert_test_anomalous_notification",
                Expect::Error(ANOMALOUS.into()),
            ),
            Case::new(
                "test_anomalous_webhook_payload_alerts_style_missing_fields",
                "alert_alerts_style_missing_fields",
                Expect::Error(ANOMALOUS.into()),
            ),
            Case::new(
                "only_events=[\"resolved\"] leaves a firing alert out",
                "alert_values_v11",
                Expect::Error("Filtered".into()),
            )
            .query("only_events", r#"["resolved"]"#),
        ],
    );
}
