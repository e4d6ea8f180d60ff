//! What every target shares: the time budget, the corpus, the number of cases.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::test_runner::{Config, FileFailurePersistence};

/// Most any single input may take, in a debug build on a busy two-core machine. Linear
/// work on the largest accepted inputs takes milliseconds; the blow-ups this catches
/// took seconds to minutes.
pub const BUDGET: Duration = Duration::from_secs(2);

/// Runs `work`, failing with `what` when it takes longer than [`BUDGET`].
#[track_caller]
pub fn within_budget<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = work();
    let elapsed = started.elapsed();
    assert!(
        elapsed <= BUDGET,
        "{what} took {elapsed:?}, over the {BUDGET:?} budget per input"
    );
    out
}

/// proptest settings: `PROPTEST_CASES` or `default_cases`; failures are recorded in
/// `tests/fuzz/regressions/<target>.txt` (commit them: they run first from then on).
pub fn config(target: &'static str, default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default_cases);
    Config {
        cases,
        // Shrinking slow cases could take minutes; a bounded search still shrinks a lot.
        max_shrink_iters: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions(
            target,
        )))),
        ..Config::default()
    }
}

/// The fixed inputs of one target: `(file name, content)`, sorted by name.
pub fn corpus(target: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/corpus")
        .join(target);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("corpus {}: {error}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "corpus {} is empty", dir.display());
    files
}

/// `tests/fuzz/regressions/<target>.txt`, relative to the crate (tests run there).
fn regressions(target: &'static str) -> &'static str {
    match target {
        "filters" => "tests/fuzz/regressions/filters.txt",
        "render" => "tests/fuzz/regressions/render.txt",
        "requests" => "tests/fuzz/regressions/requests.txt",
        "seeds" => "tests/fuzz/regressions/seeds.txt",
        "webhooks" => "tests/fuzz/regressions/webhooks.txt",
        _ => "tests/fuzz/regressions/other.txt",
    }
}
