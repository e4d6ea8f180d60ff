#!/usr/bin/env bash
# Installs what Weir needs and this machine lacks; quick when nothing is missing.
#   scripts/setup.sh          what building and running needs
#   scripts/setup.sh --test   plus what the test suites need
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

want_tests=false
[[ "${1:-}" == "--test" ]] && want_tests=true

# Building: a C toolchain, the keyring's D-Bus, and Tauri's WebKitGTK stack.
apt_packages=(build-essential pkg-config curl ca-certificates file libssl-dev libdbus-1-dev
  libwebkit2gtk-4.1-dev libxdo-dev libayatana-appindicator3-dev librsvg2-dev)
command -v node >/dev/null 2>&1 || apt_packages+=(nodejs npm)
if $want_tests; then
  # Tests: Python for the official client, a Secret Service, a virtual display and the
  # WebDriver that drives WebKitGTK, and a colour emoji font for its screenshots.
  apt_packages+=(python3-venv dbus dbus-x11 gnome-keyring xvfb xauth webkit2gtk-driver
    fonts-noto-color-emoji)
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

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((node_major < 20)); then
  echo "setup: Node.js 20 or newer is needed for the UI build (found ${node_major}); install it and re-run" >&2
  exit 1
fi

# Rust: the toolchain rust-toolchain.toml pins, with rustfmt and clippy. rustup would
# fetch it on first use too; installing it here keeps that out of the first build.
toolchain=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: installing Rust $toolchain with rustup"
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
    | sh -s -- -y --profile minimal --default-toolchain "$toolchain" -c clippy,rustfmt
elif command -v rustup >/dev/null 2>&1 && ! rustup toolchain list | grep -q "^$toolchain-"; then
  echo "setup: installing Rust $toolchain (rust-toolchain.toml) with rustup"
  rustup toolchain install "$toolchain" --profile minimal -c clippy,rustfmt
fi

# The UI's packages, reinstalled only when the lock file changed.
if [[ ! -f ui/node_modules/.package-lock.json ]] || ! cmp -s ui/package-lock.json ui/node_modules/.weir-lock; then
  echo "setup: installing the UI's npm packages"
  (cd ui && npm ci --no-audit --no-fund --loglevel=error)
  cp ui/package-lock.json ui/node_modules/.weir-lock
fi

if $want_tests; then
  command -v tauri-driver >/dev/null 2>&1 || {
    echo "setup: installing tauri-driver"
    cargo install tauri-driver --locked --quiet
  }
  # The official Python client and the end-to-end WebDriver script run from .venv.
  wanted=$(cat tests/python/requirements.txt tests/e2e/requirements.txt 2>/dev/null)
  if [[ ! -x .venv/bin/python ]] || [[ "$wanted" != "$(cat .venv/.requirements 2>/dev/null)" ]]; then
    echo "setup: preparing .venv for the Python-driven tests"
    python3 -m venv .venv
    for requirements in tests/python/requirements.txt tests/e2e/requirements.txt; do
      [[ -f "$requirements" ]] && .venv/bin/pip install -q --disable-pip-version-check -r "$requirements"
    done
    printf '%s' "$wanted" > .venv/.requirements
  fi
fi
