#!/usr/bin/env bash
# Installs what is missing, then runs Weir on the embedded demo organization.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/setup.sh
exec cargo run --release --locked -p weir-server -- --demo "$@"
