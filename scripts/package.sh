#!/usr/bin/env bash
# Builds Weir's packages from a clean checkout: installs what is missing (scripts/setup.sh),
# builds the release app and weir-server, and writes
#   target/release/bundle/deb/weir_<version>_amd64.deb
#   target/release/bundle/rpm/weir-<version>-1.x86_64.rpm
# then checks both (packaging/check.sh: lintian, rpmlint, desktop-file-validate,
# appstreamcli, the file manifest). A cold release build takes 10–20 minutes on 2 cores.
#   scripts/package.sh              build and check
#   scripts/package.sh --no-check   build only (no lintian and friends installed)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/setup.sh

check=true
[[ "${1:-}" == "--no-check" ]] && check=false

# What packaging adds to setup.sh's list: Python for the changelog, and the checkers.
wanted=(python3 gzip)
$check && wanted+=(lintian desktop-file-utils appstream rpm rpmlint dpkg-dev man-db)
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [[ "$(id -u)" -ne 0 ]] && sudo="sudo"
  echo "package: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# weir-server first (packaging/stage.sh takes it from target/release/), then the UI, the
# app and both bundles through the Tauri CLI.
cargo build --release --locked -p weir-server --bin weir-server
mapfile -t packages < <(packaging/bundle.sh)
if $check; then
  packaging/check.sh "${packages[@]}"
fi
echo "package: built"
for package in "${packages[@]}"; do
  echo "  $package ($(du -h "$package" | cut -f1))"
done
echo "install: sudo apt install ./${packages[0]}   (or: sudo dnf install ./${packages[1]})"
