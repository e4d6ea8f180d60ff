#!/usr/bin/env bash
# Makes the .deb and the .rpm with the Tauri CLI (from the repository root, where it finds
# src-tauri/tauri.conf.json) and gives them their Debian and RPM file names (the CLI names
# them after the product, Weir_0.1.0_amd64.deb; the package is `weir`).
#   packaging/bundle.sh            release: `tauri build` (the UI, the app, the bundles)
#   packaging/bundle.sh --debug    from the debug build already made: `tauri bundle --debug`
# Prints the two packages' paths, .deb first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

tauri=ui/node_modules/.bin/tauri
[[ -x "$tauri" ]] || { echo "bundle: $tauri is missing: run scripts/setup.sh" >&2; exit 1; }
if [[ "${1:-}" == "--debug" ]]; then
  profile=debug
  command=(bundle --debug)
else
  profile=release
  command=(build)
fi
out="${CARGO_TARGET_DIR:-target}/$profile/bundle"
rm -f "$out"/deb/*.deb "$out"/rpm/*.rpm
"$tauri" "${command[@]}" --bundles deb,rpm --ci >&2

shopt -s nullglob
debs=("$out"/deb/*.deb)
rpms=("$out"/rpm/*.rpm)
((${#debs[@]} == 1 && ${#rpms[@]} == 1)) || {
  echo "bundle: expected one .deb and one .rpm in $out, found: ${debs[*]} ${rpms[*]}" >&2
  exit 1
}
deb="$out/deb/$(basename "${debs[0]}" | sed 's/^Weir/weir/')"
rpm="$out/rpm/$(basename "${rpms[0]}" | sed 's/^Weir/weir/')"
[[ "${debs[0]}" == "$deb" ]] || mv -f "${debs[0]}" "$deb"
[[ "${rpms[0]}" == "$rpm" ]] || mv -f "${rpms[0]}" "$rpm"
echo "$deb"
echo "$rpm"
