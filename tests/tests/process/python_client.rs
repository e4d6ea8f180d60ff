//! Zulip's official Python client (`zulip` on PyPI) against Weir's server: runs
//! `tests/python` with pytest, pointed at a server seeded with the standard organization,
//! with Zulip's OpenAPI document (as JSON) for validating the client's answers.
//!
//! The interpreter is `WEIR_PYTHON` if set, else `<workspace>/.venv/bin/python` (created
//! by the README's test command).

use std::path::PathBuf;
use std::process::Command;

use weir_tests::*;

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("WEIR_PYTHON").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let venv = workspace_root().join(".venv").join("bin").join("python");
    if !venv.exists() {
        panic!(
            "no Python environment for the official-client suite: {} does not exist and \
             WEIR_PYTHON is not set. Run the README's test command, which creates it \
             (python3 -m venv .venv && .venv/bin/pip install -r tests/python/requirements.txt).",
            venv.display()
        );
    }
    venv
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_python_client_works_against_weir() {
    let _shared = shared();
    run_pytest(TestServer::spawn_standard()).await;
}

/// The same suite against a server at Zulip 10's level 362, which Weir spoke before 421.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_python_client_works_against_weir_at_level_362() {
    let _shared = shared();
    run_pytest(TestServer::spawn_standard_with(&["--feature-level", "362"])).await;
}

/// Runs `tests/python` against `server`, its answers validated at the server's level.
async fn run_pytest(server: TestServer) {
    let python = python();
    let root = workspace_root();
    // Zulip's OpenAPI document, as the harness reads it, for `openapi_check.py`.
    let scratch = tempfile::tempdir().unwrap();
    let openapi_json = scratch.path().join("zulip-openapi.json");
    let document = serde_json::to_vec(weir_tests::openapi::Spec::global().document()).unwrap();
    std::fs::write(&openapi_json, document).unwrap();

    let level = server.feature_level.to_string();
    let output = tokio::task::spawn_blocking({
        let site = server.base_url.clone();
        move || {
            Command::new(&python)
                .args([
                    "-m",
                    "pytest",
                    "tests/python",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                ])
                .current_dir(&root)
                .env("WEIR_SITE", site)
                .env("WEIR_OPENAPI_JSON", &openapi_json)
                .env("WEIR_FEATURE_LEVEL", level)
                .env("WEIR_OWNER_EMAIL", OWNER.email)
                .env("WEIR_OWNER_KEY", OWNER.key)
                .env("WEIR_MEMBER_EMAIL", MEMBER.email)
                .env("WEIR_MEMBER_KEY", MEMBER.key)
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .output()
                .unwrap_or_else(|e| panic!("could not run {}: {e}", python.display()))
        }
    })
    .await
    .unwrap();

    assert!(
        output.status.success(),
        "pytest failed ({})\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- server stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        server.stderr()
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(" passed")
            && !stdout.contains("skipped")
            && !stdout.contains("no tests ran"),
        "the Python tests did not all run\n{stdout}"
    );
}
