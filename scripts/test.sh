#!/usr/bin/env bash
# Installs what is missing, then runs every check and test suite. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/setup.sh --test

echo "== format and lints"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== tests (unit, black-box HTTP, official Python client, keyring)"
scripts/with-keyring.sh cargo test --workspace --locked
