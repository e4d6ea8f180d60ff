#!/usr/bin/env bash
# Installs what Weir needs and this machine lacks; quick when nothing is missing.
#   scripts/setup.sh          what building and running needs
#   scripts/setup.sh --test   plus what the test suites need
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=false
[[ "${1:-}" == "--test" ]] && want_tests=true

apt_packages=(build-essential pkg-config curl ca-certificates libssl-dev libdbus-1-dev)
if $want_tests; then
  apt_packages+=(python3-venv dbus dbus-x11 gnome-keyring libsecret-1-dev)
fi

missing=()
for package in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [[ "$(id -u)" -ne 0 ]] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  [[ -x "$HOME/.cargo/bin/cargo" ]] || {
    echo "setup: installing Rust with rustup"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal -c clippy,rustfmt
  }
fi

if $want_tests; then
  # The official Python client runs against Weir's server; pinned in requirements.txt.
  requirements=tests/python/requirements.txt
  stamp=.venv/.requirements
  if [[ -f "$requirements" ]] && ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
    echo "setup: creating .venv for the Python client tests"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
  fi
fi
