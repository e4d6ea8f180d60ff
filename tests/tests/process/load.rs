//! Load with a serial replay: 64 clients for a bounded time mix unsubscribe, subscribe,
//! reads and webhooks (see `weir_tests::load`). No answer may be a 5xx or contradict the
//! replay of the acknowledged operations, and afterwards the memberships equal that
//! replay and every acknowledged webhook message is stored exactly once. p50/p99 per
//! endpoint are printed (`--nocapture`); `scripts/bench.sh load` prints the same table.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use weir_tests::load::{self, LoadConfig};
use weir_tests::{TestServer, alone};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_clients_agree_with_the_serial_replay() {
    let _alone = alone();
    let config = LoadConfig {
        duration: Duration::from_secs(8),
        ..LoadConfig::default()
    };
    let server = TestServer::spawn(load::seed(config.clients), &[]);
    let report = load::run(&server.base_url, &config, Arc::new(AtomicBool::new(false))).await;
    println!(
        "load: {} clients, {} s: {} answers, {} acknowledged writes\n{}",
        config.clients,
        config.duration.as_secs(),
        report.answered,
        report.acknowledged_writes,
        report.latency_table()
    );
    assert_eq!(
        report.server_errors, 0,
        "5xx answers: {:#?}",
        report.problems
    );
    assert_eq!(report.unanswered, 0, "unanswered: {:#?}", report.problems);
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert!(
        report.acknowledged_writes >= config.clients as u64,
        "the load hardly ran: {} writes",
        report.acknowledged_writes
    );
    let differences = load::verify(&server.base_url, &report).await;
    assert!(differences.is_empty(), "{differences:#?}");
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}
