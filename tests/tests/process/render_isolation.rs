//! Rendering never stalls the server (issue 39): slow math and hostile code run on the
//! render pool, each formula is interrupted at its time, and the engine's memory is
//! returned. Each attack runs while a probe sends unauthenticated `GET /server_settings`
//! over and over; the probe's worst latency is the measure.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::Method;
use weir_tests::helloworld::{bot_to, payload};
use weir_tests::server::TestServer;
use weir_tests::*;

/// The worst an unauthenticated request may take while an attack runs.
const PROBE_BOUND: Duration = Duration::from_millis(250);

/// Zulip's math bomb: 2,160 characters of macro expansion within KaTeX's `maxExpand`
/// that take KaTeX seconds.
fn bomb() -> String {
    format!("$$\\def\\a{{{}}}{}$$", "x".repeat(150), "\\a".repeat(999))
}

/// A ```` ```re ```` block of deeply nested parentheses (superlinear for the grammar).
fn nested_re() -> String {
    format!("```re\n{}x{}\n```", "(".repeat(999), ")".repeat(999))
}

/// A ```` ```lisp ```` block whose one short line costs syntect's Lisp grammar seconds.
fn slow_lisp() -> String {
    let line = "/*[\\/*\"?j.[\"\"[(/*(*x\"[/*[n.{({[\\[)o([)[[\"\\<a {\")['";
    format!("```lisp\na\n{line}\nb\n```")
}

/// Sends `GET /server_settings` without credentials until stopped; the worst latency.
struct Probe {
    stop: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<(Duration, usize)>,
}

impl Probe {
    fn start(server: &TestServer) -> Probe {
        let api = server.anon();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let task = tokio::spawn(async move {
            let (mut worst, mut count) = (Duration::ZERO, 0);
            while !flag.load(Ordering::Relaxed) {
                let started = Instant::now();
                let answer = api
                    .request_unauthenticated(Method::GET, "/server_settings")
                    .send()
                    .await
                    .expect("server_settings answers");
                assert_eq!(answer.status(), 200);
                let _ = answer.bytes().await;
                worst = worst.max(started.elapsed());
                count += 1;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            (worst, count)
        });
        Probe { stop, task }
    }

    async fn finish(self) -> (Duration, usize) {
        self.stop.store(true, Ordering::Relaxed);
        self.task.await.expect("probe")
    }
}

/// A Hello World webhook whose featured title is a math bomb (no account needed but the
/// bot's key, as any service holding the webhook URL); panics unless it succeeds.
async fn webhook_bomb(anon: Api) {
    let answer = anon
        .request_unauthenticated(Method::POST, "/external/helloworld")
        .query(&bot_to(ENGINEERING.name))
        .header("Content-Type", "application/json")
        .body(payload(&bomb(), "https://x.test/a"))
        .send()
        .await
        .expect("webhook answers");
    assert_eq!(answer.status(), 200);
}

/// `count` bombs at once; waits for them all.
async fn bombs(server: &TestServer, count: usize) {
    let tasks: Vec<_> = (0..count)
        .map(|_| tokio::spawn(webhook_bomb(server.anon())))
        .collect();
    for task in tasks {
        task.await.expect("bomb");
    }
}

async fn send(api: &Api, content: &str) -> u64 {
    let r = api
        .post(
            "/messages",
            &[
                ("type", json!("stream")),
                ("to", json!(ENGINEERING.name)),
                ("topic", json!("math")),
                ("content", json!(content)),
            ],
        )
        .await;
    r.ok()["id"].as_u64().expect("id")
}

/// The stored HTML of message `id`.
async fn rendered(api: &Api, id: u64) -> String {
    read_all(api, json!([]), true)
        .await
        .iter()
        .find(|m| m["id"].as_u64() == Some(id))
        .and_then(|m| m["content"].as_str())
        .expect("the message")
        .to_owned()
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn math_bombs_and_nested_code_do_not_stall_other_requests() {
    let _alone = alone();
    let server = TestServer::spawn_standard();
    // Warm: KaTeX and the grammars load once, before the measure.
    send(&server.as_user(&MEMBER), "$$x$$ ```re\n(a)\n```").await;
    let probe = Probe::start(&server);
    let started = Instant::now();
    let code: Vec<_> = [nested_re(), slow_lisp(), nested_re(), slow_lisp()]
        .into_iter()
        .map(|content| {
            let api = server.as_user(&MEMBER);
            tokio::spawn(async move { send(&api, &content).await })
        })
        .collect();
    bombs(&server, 4).await;
    for task in code {
        task.await.expect("code");
    }
    let spent = started.elapsed();
    let (worst, probes) = probe.finish().await;
    eprintln!("math bombs and nested code: {spent:?} of attacks, {probes} probes, worst {worst:?}");
    assert!(probes > 5, "{probes} probes");
    assert!(worst < PROBE_BOUND, "worst probe {worst:?}");
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_busy_engine_costs_no_message_its_math_and_recovers_at_once() {
    let _alone = alone();
    let server = TestServer::spawn_standard();
    let member = server.as_user(&MEMBER);
    let quiet = rendered(&member, send(&member, "$$e^{i\\pi}+1=0$$").await).await;
    assert!(
        quiet.contains("katex") && !quiet.contains("tex-error"),
        "{quiet}"
    );
    // Formulas sent while bombs keep the engine busy render as on a quiet server.
    let busy = async {
        let mut ids = Vec::new();
        for _ in 0..6 {
            ids.push(send(&member, "$$e^{i\\pi}+1=0$$").await);
        }
        ids
    };
    let (ids, ()) = tokio::join!(busy, bombs(&server, 3));
    for id in ids {
        assert_eq!(rendered(&member, id).await, quiet, "message {id}");
    }
    // The bombs' own messages show the formula as Zulip shows one it cannot render.
    let bombed = server
        .as_user(&OWNER)
        .get(
            "/messages",
            &[
                ("anchor", json!("newest")),
                ("num_before", json!(1)),
                ("num_after", json!(0)),
                (
                    "narrow",
                    json!([{"operator": "sender", "operand": WEBHOOK_BOT.email}]),
                ),
            ],
        )
        .await;
    let html = bombed.ok()["messages"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(html.contains("tex-error"), "{html}");
    // A second after a bomb, the next formula renders normally.
    webhook_bomb(server.anon()).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let started = Instant::now();
    let after = rendered(&member, send(&member, "$$e^{i\\pi}+1=0$$").await).await;
    eprintln!("formula after a bomb: {:?}", started.elapsed());
    assert_eq!(after, quiet);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn group_notices_with_math_do_not_stall_writes() {
    let _alone = alone();
    let server = TestServer::spawn_standard();
    let owner = server.as_user(&OWNER);
    let r = owner
        .post(
            "/user_groups/create",
            &[
                ("name", json!("a*b $$\\sqrt{x}$$ c")),
                ("description", json!("math in a name")),
                ("members", json!([OWNER.id])),
            ],
        )
        .await;
    let group = r.ok()["group_id"].as_u64().expect("group_id");
    let probe = Probe::start(&server);
    let changes = async {
        let mut worst = Duration::ZERO;
        for (add, who) in [
            (true, MEMBER.id),
            (true, MEMBER2.id),
            (false, MEMBER.id),
            (false, MEMBER2.id),
        ] {
            let key = if add { "add" } else { "delete" };
            let started = Instant::now();
            owner
                .post(
                    &format!("/user_groups/{group}/members"),
                    &[(key, json!([who]))],
                )
                .await
                .ok();
            worst = worst.max(started.elapsed());
        }
        worst
    };
    let ((), worst_change) = tokio::join!(bombs(&server, 3), changes);
    let (worst, probes) = probe.finish().await;
    eprintln!(
        "group notices under math: worst change {worst_change:?}, worst probe {worst:?} ({probes} probes)"
    );
    assert!(worst < PROBE_BOUND, "worst probe {worst:?}");
    assert!(
        worst_change < Duration::from_secs(3),
        "worst change {worst_change:?}"
    );
    // The notice renders the group's formula.
    let notices = read_all(&server.as_user(&MEMBER), json!([]), true).await;
    let notice = notices
        .iter()
        .rev()
        .find(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("the group"))
        })
        .expect("a notice");
    assert!(
        !notice["content"]
            .as_str()
            .unwrap_or_default()
            .contains("tex-error"),
        "{notice}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_engines_memory_is_returned() {
    let _alone = alone();
    let server = TestServer::spawn_standard();
    let member = server.as_user(&MEMBER);
    send(&member, "$$x$$").await;
    let before = rss_kib(server.pid());
    bombs(&server, 8).await;
    let peak = rss_kib(server.pid());
    let started = Instant::now();
    let mut now = peak;
    while started.elapsed() < Duration::from_secs(60) {
        now = rss_kib(server.pid());
        if now <= before + 40 * 1024 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    eprintln!(
        "RSS: {} MiB before, {} MiB after 8 bombs, {} MiB {:?} later",
        before / 1024,
        peak / 1024,
        now / 1024,
        started.elapsed()
    );
    assert!(
        now <= before + 40 * 1024,
        "{before} KiB before, {now} KiB after"
    );
}
