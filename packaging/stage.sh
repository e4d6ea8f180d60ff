#!/usr/bin/env bash
# Prepares the generated files that src-tauri/tauri.conf.json's `bundle.linux.*.files`
# take from target/packaging/: the weir-server binary of the same profile as the app, the
# gzipped manual pages and the Debian-format changelog made from CHANGELOG.md.
#
# The Tauri CLI runs it as `build.beforeBundleCommand`, with TAURI_ENV_DEBUG=true for a
# `--debug` bundle; by hand: packaging/stage.sh [release|debug].
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

profile=${1:-}
if [[ -z "$profile" ]]; then
  profile=release
  [[ "${TAURI_ENV_DEBUG:-false}" == "true" ]] && profile=debug
fi
case "$profile" in
  release) cargo_profile=(--release) ;;
  debug) cargo_profile=() ;;
  *) echo "stage: unknown profile '$profile' (release or debug)" >&2; exit 2 ;;
esac

target_dir=${CARGO_TARGET_DIR:-target}
out="$target_dir/packaging"
rm -rf "$out"
mkdir -p "$out"

# weir-server: scripts/package.sh builds it right before (release); the test suites have
# built the debug one (scripts/test.sh). Built here only when missing, so that a bundle
# never waits for a second build with other features (the workspace's test build unifies
# features across crates; a lone `cargo build -p weir-server` would recompile).
server="$target_dir/$profile/weir-server"
if [[ ! -x "$server" ]]; then
  echo "stage: building weir-server ($profile)"
  cargo build "${cargo_profile[@]}" --locked -p weir-server --bin weir-server
fi
install -m 0755 "$server" "$out/weir-server"

# Manual pages: gzip -9n (no name or time stamp: the same bytes every build).
for page in packaging/man/*.1; do
  gzip -9n -c "$page" > "$out/$(basename "$page").gz"
  chmod 0644 "$out/$(basename "$page").gz"
done

# The changelog: a native package's /usr/share/doc/weir/changelog.gz, in Debian format.
python3 packaging/changelog.py > "$out/changelog"
gzip -9n -c "$out/changelog" > "$out/changelog.gz"
chmod 0644 "$out/changelog.gz"
echo "stage: $profile files in $out"
