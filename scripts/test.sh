#!/usr/bin/env bash
# Installs what is missing, then runs every check and test suite. CI runs exactly this.
#   scripts/test.sh           everything (what CI runs)
#   scripts/test.sh --quick   the everyday tier: lints, unit tests and the suites that run
#                             in process; no process-level suites, Python or end to end
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

quick=false
case "${1:-}" in
  "") ;;
  --quick) quick=true ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

scripts/setup.sh --test

echo "== UI: types, lint, format, unit tests, build"
(cd ui && npm run --silent check && npm run --silent lint && npm run --silent test && npm run --silent build)

echo "== Rust: format and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

if $quick; then
  echo "== Rust tests (quick): unit tests, fuzz targets, black-box suites in process"
  # One cargo invocation over the workspace: the same features, so the same builds, as
  # the full run's.
  exec cargo test --workspace --locked --lib --bins \
    --test in_process --test app --test fuzz --test integrations
fi

echo "== Rust tests: unit, black-box HTTP, Python client, keyring, end to end"
# A virtual display for the app, and a private session bus with a real Secret Service.
xvfb-run -a -s "-screen 0 1280x800x24" scripts/with-keyring.sh cargo test --workspace --locked

# -- Package (issue 23): the debug build as a .deb and .rpm, checked, installed, started,
# upgraded in place and removed (root only; see scripts/test-package.sh).
xvfb-run -a -s "-screen 0 1280x800x24" scripts/with-keyring.sh scripts/test-package.sh
