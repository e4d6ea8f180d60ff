//! `--feature-level N` on the command line: a level that is not a feature level (`banana`,
//! `-1`) is refused at start. What each level changes is in `in_process/feature_levels.rs`.

use weir_tests::*;

#[tokio::test]
async fn an_invalid_feature_level_is_refused_at_start() {
    let _shared = shared();
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed.json");
    std::fs::write(&seed, standard_seed().to_string()).unwrap();
    for bad in ["banana", "-1"] {
        let data = dir.path().join(format!("data-{bad}"));
        std::fs::create_dir(&data).unwrap();
        let args: Vec<String> = [
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            data.to_str().unwrap(),
            "--seed",
            seed.to_str().unwrap(),
            "--feature-level",
            bad,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();

        let done = run_server_to_exit(&args, std::time::Duration::from_secs(30));

        assert!(
            done.status.is_some_and(|s| !s.success()),
            "--feature-level {bad} must be refused\n{}",
            done.describe()
        );
        assert!(
            !looks_like_panic(&done.stderr),
            "panicked\n{}",
            done.describe()
        );
    }
}
