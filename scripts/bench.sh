#!/usr/bin/env bash
# Builds the UI and the release binaries, then runs Weir's benchmarks, each next to a
# baseline measured in the same run, as medians over several rounds. Loopback only.
#   scripts/bench.sh [webhooks|integrations|unsubscribe|load|app|grid|all] [args...]
#                                                                  default: all
#
#   webhooks     weir-server's webhook ingest next to a minimal axum handler and to the
#                same handler committing each body to SQLite first (the floor of durable
#                ingest), with a crash-durability check (SIGKILL + restart) after every
#                weir round;
#                --reference-bin measures another weir-server build (an earlier commit)
#                in every round too, to judge a change against the build before it
#   integrations one webhook request through weir_integrations::process (JSON parse,
#                handler, filter; no server): a GitHub push of 20 commits, a GitLab
#                merge request, a Sentry issue and a Bitbucket push, each next to Hello
#                World in the same round (median time per call and the ratio)
#   unsubscribe  one request removing 1,000 people from 100 streams in a generated
#                10,000 x 1,000 organization next to raw SQLite changing the same rows,
#                and how time grows from 10 x 10 to 1,000 x 100
#   load         64 clients mixing unsubscribe, subscribe, reads and webhooks, checked
#                against a serial replay; p50/p99 per endpoint
#   app          Weir's cold start to a usable window and its memory with the demo
#                loaded (PSS, app + WebKit processes) next to a minimal Tauri app; runs on
#                a virtual display (xvfb-run) with a private D-Bus session bus
#   grid         the memberships grid: a generated 10,000 x 1,000 organization (300 groups) on a
#                weir-server with --rate-limit 200; the data path (grid load time, the
#                requests, time and failures of applying 10,000 cell changes), then the
#                release app in its WebKit window through tauri-driver (time to a usable
#                grid, frame times scrolling and toggling, memory next to the demo); runs
#                on a virtual display with a private keyring (scripts/with-keyring.sh);
#                --no-window measures the data path only
#   all          all of them but grid, with their default settings
#
# Arguments after the bench name go to that bench only (not with `all`):
#   scripts/bench.sh webhooks --rounds 3 --seconds 3 --concurrency 16
#   scripts/bench.sh webhooks --rounds 9 --seconds 3 --reference-bin /tmp/weir-server-before
#   scripts/bench.sh integrations --rounds 9 --millis 200
#   scripts/bench.sh unsubscribe --rounds 3
#   scripts/bench.sh load --seconds 30 --clients 64
#   scripts/bench.sh app --rounds 5 --settle-ms 3000
#   scripts/bench.sh grid --people 2000 --streams 200 --window-rounds 3 --frames 300
#   scripts/bench.sh grid --acceleration always   # the app composites even without a GPU
#   scripts/bench.sh grid --people 100000 --streams 2000 --window-rounds 3 --window-only
#   target/release/weir-bench <bench> --help
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

bench="${1:-all}"
[[ $# -gt 0 ]] && shift
case "$bench" in
  webhooks | integrations | unsubscribe | load | app | grid) ;;
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
    echo "bench: unknown bench '$bench' (webhooks, integrations, unsubscribe, load, app, grid or all)" >&2
    exit 2
    ;;
esac

windowed=false
case "$bench" in
  app | all) windowed=true ;;
  grid) [[ " $* " == *" --no-window "* ]] || windowed=true ;;
esac
if $windowed; then
  tools=(xvfb-run dbus-run-session)
  [[ "$bench" == grid ]] && tools+=(gnome-keyring-daemon tauri-driver WebKitWebDriver)
  for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || [[ -x "$HOME/.cargo/bin/$tool" ]] || {
      echo "bench: the $bench bench needs $tool (scripts/setup.sh --test installs it)" >&2
      exit 1
    }
  done
fi

[[ -x scripts/setup.sh ]] && scripts/setup.sh
if [[ "$bench" == integrations ]]; then
  # Pure code in the bench's own process: neither the UI nor the other binaries.
  cargo build --release --locked -p weir-bench
else
  (cd ui && npm run --silent build)
  cargo build --release --locked -p weir-server -p weir-bench -p weir -p weir-bench-minimal-app
fi

run_server_bench() {
  target/release/weir-bench "$@"
}

# A virtual 1280x800 screen, and a private session bus so that nothing autolaunches one
# (for grid, also a private unlocked keyring: scripts/with-keyring.sh). The report goes
# out through fds 3 and 4; the display, the bus and the services the apps get activated
# on it (accessibility bus, keyring) write to a log, shown only on failure.
run_windowed() {
  local bench=$1 log status=0
  shift
  local session=(dbus-run-session --)
  [[ "$bench" == grid ]] && session=(scripts/with-keyring.sh)
  log=$(mktemp -t "weir-bench-$bench-session-XXXXXX.log")
  xvfb-run -a -s "-screen 0 1280x800x24" \
    "${session[@]}" sh -c 'exec "$0" "$@" >&3 2>&4 3>&- 4>&-' \
    target/release/weir-bench "$bench" "$@" 3>&1 4>&2 >"$log" 2>&1 || status=$?
  if ((status)); then
    echo "bench: the $bench bench failed ($status); display and session bus log:" >&2
    tail -n 40 "$log" >&2
  fi
  rm -f "$log"
  return "$status"
}

case "$bench" in
  webhooks | integrations | unsubscribe | load) run_server_bench "$bench" "$@" ;;
  grid)
    if $windowed; then run_windowed grid "$@"; else run_server_bench grid "$@"; fi
    ;;
  app) run_windowed app "$@" ;;
  all)
    # All run even when one fails; the status is the first failure's.
    status=0
    for server_bench in webhooks integrations unsubscribe load; do
      run_server_bench "$server_bench" || { code=$?; ((status)) || status=$code; }
      echo
    done
    run_windowed app || { code=$?; ((status)) || status=$code; }
    exit "$status"
    ;;
esac
