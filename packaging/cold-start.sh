#!/usr/bin/env bash
# Cold start of Weir binaries, for the README's Install section: the wall time from
# spawning the binary to its `ui ready` line on stderr (the page's first IPC call: the
# window is usable), each run on fresh empty XDG data, config and cache homes, so the app
# creates its data and starts its local server as on a first start. Each round starts
# every binary once, in the order given and in reverse every other round; prints each
# time and the median per binary.
#
# Needs a display and a Secret Service; on a headless machine:
#   xvfb-run -a -s "-screen 0 1280x800x24" scripts/with-keyring.sh \
#     packaging/cold-start.sh 5 /usr/bin/weir target/debug/weir
set -euo pipefail
rounds=${1:?usage: packaging/cold-start.sh ROUNDS BINARY...}
shift
(($#)) || { echo "usage: packaging/cold-start.sh ROUNDS BINARY..." >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One cold start: prints seconds to `ui ready`, then ends the app (by its process group).
start_once() {
  local binary=$1 home="$scratch/run"
  rm -rf "$home"
  mkdir -p "$home/data" "$home/config" "$home/cache"
  local begin end
  begin=$(date +%s.%N)
  XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
    RUST_LOG=info setsid "$binary" > /dev/null 2> "$home/stderr" &
  local pid=$!
  for _ in $(seq 1 1200); do # 60 s at most
    if grep -qs 'ui ready' "$home/stderr"; then
      end=$(date +%s.%N)
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [[ -n "${end:-}" ]] || { echo "cold-start: $binary never printed 'ui ready'" >&2; tail "$home/stderr" >&2; return 1; }
  echo "$end - $begin" | bc
}

declare -A times
forward=("$@")
backward=()
for ((i = $# - 1; i >= 0; i--)); do backward+=("${forward[i]}"); done
for round in $(seq 1 "$rounds"); do
  order=("${forward[@]}")
  ((round % 2)) || order=("${backward[@]}")
  for binary in "${order[@]}"; do
    t=$(start_once "$binary")
    times[$binary]+="$t "
    printf 'round %d  %-28s %.3f s\n' "$round" "$binary" "$t"
  done
done
for binary in "$@"; do
  median=$(tr ' ' '\n' <<< "${times[$binary]}" | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
  printf 'median over %d  %-28s %.2f s  (%s)\n' "$rounds" "$binary" "$median" "$(du -h "$(readlink -f "$binary")" | cut -f1)"
done
