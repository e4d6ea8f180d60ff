#!/usr/bin/env bash
# Installs what is missing, then runs Weir (on the local demo server when no account exists).
#   scripts/run.sh           the desktop app (needs a display)
#   scripts/run.sh --xvfb    the desktop app on a virtual display (headless machines)
#   scripts/run.sh --server  only the server, headless, on the demo organization
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/setup.sh

case "${1:-}" in
  --server)
    shift
    exec cargo run --release --locked -p weir-server -- --demo "$@"
    ;;
  --xvfb)
    command -v xvfb-run >/dev/null 2>&1 || { echo "run: install xvfb first (scripts/setup.sh --test does)" >&2; exit 1; }
    (cd ui && npm run --silent build)
    cargo build --release --locked -p weir
    exec xvfb-run -a -s "-screen 0 1280x800x24" target/release/weir
    ;;
esac

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  cat >&2 <<'MSG'
run: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set).
  Weir is a desktop app. Run it from a graphical session, or use
    scripts/run.sh --xvfb     to run it on a virtual display, or
    scripts/run.sh --server   to run only the Zulip-compatible server.
MSG
  exit 1
fi
(cd ui && npm run --silent build)
exec cargo run --release --locked -p weir
