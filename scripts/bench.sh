#!/usr/bin/env bash
# Builds the release binaries, then runs the webhook ingest benchmark: weir-server next to
# a minimal axum handler measured in the same run, medians over several rounds, and a
# crash-durability check (SIGKILL + restart) after every weir round. Loopback only.
#   scripts/bench.sh                      defaults: 5 rounds x 5 s, concurrency 32
#   scripts/bench.sh --rounds 3 --seconds 3 --concurrency 16
#   target/release/weir-bench webhooks --help
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[[ -x scripts/setup.sh ]] && scripts/setup.sh
cargo build --release --locked -p weir-server -p weir-bench
exec target/release/weir-bench webhooks "$@"
