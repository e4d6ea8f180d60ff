#!/usr/bin/env bash
# Builds the UI and the release binaries, then runs Weir's benchmarks, each next to a
# baseline measured in the same run, as medians over several rounds. Loopback only.
#   scripts/bench.sh [webhooks|unsubscribe|load|app|grid|all] [args...]   default: all
#
#   webhooks     weir-server's webhook ingest next to a minimal axum handler, with a
#                crash-durability check (SIGKILL + restart) after every weir round
#   unsubscribe  one request removing 1,000 people from 100 streams in a generated
#                10,000 x 1,000 organization next to raw SQLite changing the same rows,
#                and how time grows from 10 x 10 to 1,000 x 100
#   load         64 clients mixing unsubscribe, subscribe, reads and webhooks, checked
#                against a serial replay; p50/p99 per endpoint
#   app          Weir's cold start to a usable window and its memory with the demo
#                loaded (PSS, app + WebKit processes) next to a minimal Tauri app; runs on
#                a virtual display (xvfb-run) with a private D-Bus session bus
#   grid         the memberships grid's data path: a generated 10,000 x 1,000
#                organization on a weir-server with --rate-limit 200; grid load time, and
#                the requests, time and failures of applying 10,000 cell changes
#   all          all of them but grid, with their default settings
#
# Arguments after the bench name go to that bench only (not with `all`):
#   scripts/bench.sh webhooks --rounds 3 --seconds 3 --concurrency 16
#   scripts/bench.sh unsubscribe --rounds 3
#   scripts/bench.sh load --seconds 30 --clients 64
#   scripts/bench.sh app --rounds 5 --settle-ms 3000
#   scripts/bench.sh grid --people 2000 --streams 200
#   target/release/weir-bench <bench> --help
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

bench="${1:-all}"
[[ $# -gt 0 ]] && shift
case "$bench" in
  webhooks | unsubscribe | load | app | grid) ;;
  all)
    if (($#)); then
      echo "bench: arguments go to one bench: scripts/bench.sh BENCH ARGS..." >&2
      exit 2
    fi
    ;;
  -h | --help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
    ;;
  *)
    echo "bench: unknown bench '$bench' (webhooks, unsubscribe, load, app, grid or all)" >&2
    exit 2
    ;;
esac

if [[ "$bench" == app || "$bench" == all ]]; then
  for tool in xvfb-run dbus-run-session; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "bench: the app bench needs $tool (scripts/setup.sh --test installs it)" >&2
      exit 1
    }
  done
fi

[[ -x scripts/setup.sh ]] && scripts/setup.sh
(cd ui && npm run --silent build)
cargo build --release --locked -p weir-server -p weir-bench -p weir -p weir-bench-minimal-app

run_server_bench() {
  target/release/weir-bench "$@"
}

# A virtual 1280x800 screen, and a private session bus so that nothing autolaunches one.
# The report goes out through fds 3 and 4; the display, the bus and the services the apps
# get activated on it (accessibility bus, keyring) write to a log, shown only on failure.
run_app() {
  local log status=0
  log=$(mktemp -t weir-bench-app-session-XXXXXX.log)
  xvfb-run -a -s "-screen 0 1280x800x24" \
    dbus-run-session -- sh -c 'exec "$0" app "$@" >&3 2>&4 3>&- 4>&-' \
    target/release/weir-bench "$@" 3>&1 4>&2 >"$log" 2>&1 || status=$?
  if ((status)); then
    echo "bench: the app bench failed ($status); display and session bus log:" >&2
    tail -n 40 "$log" >&2
  fi
  rm -f "$log"
  return "$status"
}

case "$bench" in
  webhooks | unsubscribe | load | grid) run_server_bench "$bench" "$@" ;;
  app) run_app "$@" ;;
  all)
    # All run even when one fails; the status is the first failure's.
    status=0
    for server_bench in webhooks unsubscribe load; do
      run_server_bench "$server_bench" || { code=$?; ((status)) || status=$code; }
      echo
    done
    run_app || { code=$?; ((status)) || status=$code; }
    exit "$status"
    ;;
esac
