//! Issue 11, finding 8: the database holds every API key and `demo-zuliprc` the owner's,
//! so the data dir is 0700 and those files 0600, when created and again at every start.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use weir_tests::*;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The data dir and every file the server keeps in it, with their modes.
fn modes(data_dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut found = vec![(data_dir.to_path_buf(), mode(data_dir))];
    for entry in std::fs::read_dir(data_dir).unwrap() {
        let path = entry.unwrap().path();
        found.push((path.clone(), mode(&path)));
    }
    found
}

#[track_caller]
fn assert_private(data_dir: &Path) {
    let found = modes(data_dir);
    assert!(found.len() >= 3, "database and zuliprc expected: {found:?}");
    for (path, mode) in &found {
        let expected = if path == data_dir { 0o700 } else { 0o600 };
        assert_eq!(*mode, expected, "{} is {mode:o}: {found:?}", path.display());
    }
}

fn start_demo(data_dir: &Path, log_dir: &Path) -> TestServer {
    let args = vec![
        "--data-dir".to_string(),
        data_dir.display().to_string(),
        "--demo".to_string(),
    ];
    TestServer::launch(&args, log_dir).unwrap_or_else(|failure| panic!("{failure}"))
}

#[tokio::test]
async fn a_new_data_dir_and_its_files_are_private() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data_dir = root.path().join("new");
    let server = start_demo(&data_dir, root.path());
    // A write, so that the log files exist too.
    let key = std::fs::read_to_string(data_dir.join("demo-zuliprc")).unwrap();
    let key = key.lines().find_map(|l| l.strip_prefix("key=")).unwrap();
    let api = server.with_key("ada@lumen.test", key);
    api.post("/users/me/api_key/regenerate", &[]).await.ok();
    assert_private(&data_dir);
}

#[tokio::test]
async fn an_open_data_dir_is_made_private_at_start() {
    let _shared = shared();
    let root = tempfile::tempdir().unwrap();
    let data_dir = root.path().join("old");
    drop(start_demo(&data_dir, root.path()));
    // As an older version (or a copy) left it: readable by everyone.
    for (path, _) in modes(&data_dir) {
        let open = if path == data_dir { 0o755 } else { 0o644 };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(open)).unwrap();
    }
    let _server = start_demo(&data_dir, root.path());
    assert_private(&data_dir);
}
