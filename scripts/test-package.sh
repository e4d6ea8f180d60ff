#!/usr/bin/env bash
# The package test (scripts/test.sh runs it after the suites, in their virtual display and
# private keyring session). Bounded to a few minutes: it bundles the debug build that the
# suites made (a debug-profile .deb and .rpm; scripts/package.sh makes the release ones),
# then:
#   1. packaging/check.sh: file manifest, .rpm = .deb, lintian, rpmlint,
#      desktop-file-validate, appstreamcli, manual pages, changelog, Depends;
#   2. installs the .deb with dpkg -i (root only: CI runs as root on a machine it owns),
#      checks the installed files, libraries, manual pages and weir-server;
#   3. starts the installed /usr/bin/weir through tauri-driver on fresh XDG homes and sees
#      the demo organization's Memberships grid; applies one change
#      (tests/e2e/test_package.py, phase `first`);
#   4. installs the same package again over it: the data directory is untouched, the
#      keyring entry is still there, and the app opens on the same data (phase `again`);
#   5. removes the package (also when a step failed) and checks that the user's data stays.
# It refuses to run when a `weir` package is installed that it did not install.
#
# By hand: xvfb-run -a -s "-screen 0 1280x800x24" scripts/with-keyring.sh scripts/test-package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
started=$SECONDS

# A leftover of an interrupted run of this test (it always removes what it installed).
marker=/var/tmp/weir-package-test.installed
passed=0
ok() {
  passed=$((passed + 1))
  echo "  ok: $*"
}
fail() {
  echo "package test FAILED: $*" >&2
  exit 1
}

if [[ "$(id -u)" -ne 0 ]]; then
  echo "== Package: skipped (installing a package needs root; CI runs as root)"
  exit 0
fi
[[ -n "${DISPLAY:-}" && -n "${WEIR_KEYRING_SESSION:-}" ]] \
  || fail "needs a display and a private keyring session: run it through scripts/test.sh, or
  xvfb-run -a -s \"-screen 0 1280x800x24\" scripts/with-keyring.sh scripts/test-package.sh"

installed() { dpkg-query -W -f='${db:Status-Status}' weir 2>/dev/null | grep -qx installed; }
if installed; then
  if [[ -f "$marker" ]]; then
    echo "package test: removing the weir package left by an interrupted run of this test"
    dpkg --purge weir >/dev/null
    rm -f "$marker"
  else
    fail "a weir package ($(dpkg-query -W -f='${Version}' weir)) is installed, and this test did not
  install it. The test installs and removes its own build: remove that one first
  (dpkg --purge weir), or run the test on another machine."
  fi
fi

# The checkers (Debian's packages), installed when missing as scripts/setup.sh does.
missing=()
for package in lintian desktop-file-utils appstream rpm rpmlint dpkg-dev man-db; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "package test: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== Package: bundle the debug build"
# The app as the end-to-end suite builds it (a no-op after scripts/test.sh's suites).
cargo build --locked --quiet -p weir --bin weir
mapfile -t packages < <(packaging/bundle.sh --debug)
deb=${packages[0]}
rpm=${packages[1]}
echo "  $deb ($(du -h "$deb" | cut -f1)), $rpm ($(du -h "$rpm" | cut -f1))"

echo "== Package: static checks"
packaging/check.sh --debug "$deb" "$rpm"
ok "packaging/check.sh"

scratch=$(mktemp -d)
we_installed=false
cleanup() {
  status=$?
  # tauri-driver's process group (it, WebKitWebDriver, the app), if pytest was killed
  # before it could stop it (test_package.py writes its id, and removes it when done).
  if [[ -f "$scratch/tauri-driver.pgid" ]]; then
    kill -KILL -- "-$(cat "$scratch/tauri-driver.pgid")" 2>/dev/null || true
  fi
  if [[ -n "${server_pid:-}" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  if $we_installed; then
    echo "package test: removing the package it installed"
    dpkg --purge weir >/dev/null 2>&1 || echo "package test: dpkg --purge weir failed" >&2
    rm -f "$marker"
  fi
  rm -rf "$scratch"
  exit "$status"
}
trap cleanup EXIT

install_deb() {
  touch "$marker"
  we_installed=true
  dpkg -i "$deb" > "$scratch/dpkg.log" 2>&1 || {
    cat "$scratch/dpkg.log" >&2
    fail "dpkg -i $deb failed (above)"
  }
  installed || fail "dpkg -i left weir $(dpkg-query -W -f='${db:Status-Status}' weir)"
}

echo "== Package: install"
install_deb
ok "dpkg -i: weir $(dpkg-query -W -f='${Version}' weir) installed"
for path in $(grep -v '^#' packaging/files.txt); do
  [[ -f "$path" ]] || fail "$path is not installed"
done
[[ -x /usr/bin/weir && -x /usr/bin/weir-server ]] || fail "the binaries are not executable"
unresolved=$(ldd /usr/bin/weir /usr/bin/weir-server | grep 'not found' || true)
[[ -z "$unresolved" ]] || fail "shared libraries not found: $unresolved"
ok "every file of packaging/files.txt is in place; every shared library resolves"
[[ "$(man -w weir)" == /usr/share/man/man1/weir.1.gz && "$(man -w weir-server)" == /usr/share/man/man1/weir-server.1.gz ]] \
  || fail "man -w does not find the manual pages"
ok "man weir, man weir-server"

# The installed weir-server, headless: the demo organization on a free loopback port.
server_dir="$scratch/server"
mkdir -p "$server_dir"
/usr/bin/weir-server --demo --listen 127.0.0.1:0 --data-dir "$server_dir/data" \
  > "$server_dir/stdout" 2> "$server_dir/stderr" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$server_dir/stdout" && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
url=$(sed -n 's/^listening on //p' "$server_dir/stdout")
settings=$([[ -n "$url" ]] && curl -sS --max-time 10 --noproxy '*' "$url/api/v1/server_settings" || true)
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
[[ "$settings" == *'"result":"success"'* ]] \
  || fail "the installed weir-server did not serve the demo: $(cat "$server_dir/stderr") $settings"
ok "/usr/bin/weir-server --demo serves /api/v1/server_settings at $url"

# The app, twice on the same XDG homes: the data it keeps is the user's.
homes="$scratch/xdg"
mkdir -p "$homes/data" "$homes/config" "$homes/cache"
data="$homes/data/dev.weir.desktop"
artifacts="$PWD/artifacts/package"
rm -rf "$artifacts"
mkdir -p "$artifacts"
python=${WEIR_PYTHON:-.venv/bin/python}
run_app() {
  WEIR_PACKAGE_PHASE=$1 WEIR_PACKAGE_APP=/usr/bin/weir \
    WEIR_PACKAGE_DATA_HOME="$homes/data" WEIR_PACKAGE_CONFIG_HOME="$homes/config" \
    WEIR_PACKAGE_CACHE_HOME="$homes/cache" WEIR_PACKAGE_ARTIFACTS="$artifacts" \
    WEIR_PACKAGE_STATE="$scratch/state.json" PYTHONDONTWRITEBYTECODE=1 \
    timeout 300 "$python" -m pytest tests/e2e/test_package.py -q -p no:cacheprovider -rA \
    || fail "the installed app ($1 start) failed; screenshots and tauri-driver's log: $artifacts"
}
# The API keys the app stored, from the test session's Secret Service.
keyring_items() {
  "$python" - <<'PY'
import secretstorage
with secretstorage.dbus_init() as bus:
    items = secretstorage.search_items(bus, {"service": "weir-dev"})
    print("\n".join(sorted(
        f"{sorted(item.get_attributes().items())} {item.get_secret().hex()}" for item in items
    )))
PY
}
snapshot() { (cd "$data" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

echo "== Package: the installed app, first start"
run_app first
for file in accounts.sqlite3 memberships-journal.sqlite3 server/weir.sqlite3; do
  [[ -s "$data/$file" ]] || fail "the app left no $data/$file"
done
snapshot > "$scratch/before.sum"
keyring_items > "$scratch/keys-before"
[[ -s "$scratch/keys-before" ]] || fail "the app stored no key in the Secret Service (service weir-dev)"
ok "first start: the demo's Memberships grid; accounts, journal, server database and keyring entry kept"

echo "== Package: install again over it"
install_deb
snapshot > "$scratch/after.sum"
diff -u "$scratch/before.sum" "$scratch/after.sum" >&2 || fail "installing over it changed the user's data (above)"
keyring_items > "$scratch/keys-after"
cmp -s "$scratch/keys-before" "$scratch/keys-after" || fail "installing over it changed the keyring's entries"
ok "dpkg -i again: the data directory and the keyring entries are unchanged"

echo "== Package: the installed app, after the upgrade"
run_app again
ok "second start: same account, the applied change and its journal entry still there"

echo "== Package: remove"
dpkg --purge weir > "$scratch/dpkg.log" 2>&1 || { cat "$scratch/dpkg.log" >&2; fail "dpkg --purge weir failed"; }
we_installed=false
rm -f "$marker"
! installed || fail "weir is still installed after dpkg --purge"
[[ ! -e /usr/bin/weir && ! -e /usr/share/doc/weir ]] || fail "dpkg --purge left files behind"
[[ -s "$data/accounts.sqlite3" && -s "$data/server/weir.sqlite3" ]] || fail "removing the package removed the user's data"
ok "dpkg --purge: the package's files are gone, the user's data stays"

echo "package test: took $((SECONDS - started)) s"
echo "package: $passed passed, 0 failed"
