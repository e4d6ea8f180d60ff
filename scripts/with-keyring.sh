#!/usr/bin/env bash
# Runs a command with a private session bus and an unlocked gnome-keyring (a real Secret
# Service) on fresh XDG directories, so keyring tests never touch the user's own keyring.
set -euo pipefail
if [[ -z "${WEIR_KEYRING_SESSION:-}" ]]; then
  exec env WEIR_KEYRING_SESSION=1 dbus-run-session -- "$0" "$@"
fi
scratch=$(mktemp -d)
trap 'kill "${keyring_pid:-0}" 2>/dev/null || true; rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache"
export XDG_RUNTIME_DIR="$scratch/runtime"
mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
printf 'weir-test' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
keyring_pid=$!
# Wait until the Secret Service answers on the bus (bounded).
for _ in $(seq 1 50); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; then
    break
  fi
  sleep 0.1
done
"$@"
