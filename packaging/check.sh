#!/usr/bin/env bash
# Checks a built .deb and .rpm without installing them; exits non-zero at the first
# problem. Run by scripts/package.sh on the release packages and by
# scripts/test-package.sh on the debug ones (`--debug`: debug binaries are not stripped,
# the one thing lintian and rpmlint are told to accept for them).
#   packaging/check.sh [--debug] PACKAGE.deb PACKAGE.rpm
#
# * the .deb holds exactly the files in packaging/files.txt, the .rpm the same ones but
#   the lintian overrides (Debian-only);
# * lintian: no error and no warning (packaging/lintian-overrides says which tags are
#   overridden and why); rpmlint --strict with packaging/rpmlint.toml;
# * the desktop entry passes desktop-file-validate, the AppStream metainfo
#   `appstreamcli validate`, the manual pages `man --warnings`, the changelog
#   dpkg-parsechangelog (same version as the package);
# * Depends names every package that dpkg-shlibdeps finds the binaries need.
set -euo pipefail
cd "$(dirname "$0")/.."

debug=false
if [[ "${1:-}" == "--debug" ]]; then
  debug=true
  shift
fi
(($# == 2)) || { echo "usage: packaging/check.sh [--debug] PACKAGE.deb PACKAGE.rpm" >&2; exit 2; }
deb=$(realpath "$1")
rpm=$(realpath "$2")

checks=0
ok() {
  checks=$((checks + 1))
  echo "  ok: $*"
}
fail() {
  echo "packaging/check.sh: $deb: $*" >&2
  exit 1
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tree="$scratch/tree"
dpkg-deb -x "$deb" "$tree"
field() { dpkg-deb -f "$deb" "$1"; }
version=$(field Version)

# The files: exactly the manifest (a missing or an unexpected file fails).
grep -v '^#' packaging/files.txt | sed '/^$/d' | sort > "$scratch/expected"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {sub(/^\.?\//, "", $6); print "/" $6}' | sort > "$scratch/deb-files"
if ! diff -u "$scratch/expected" "$scratch/deb-files" > "$scratch/diff"; then
  fail "its files differ from packaging/files.txt (- expected, + in the package):
$(cat "$scratch/diff")"
fi
ok "the .deb holds the $(wc -l < "$scratch/deb-files") files of packaging/files.txt"
rpm -qpl "$rpm" 2>/dev/null | sort > "$scratch/rpm-files"
grep -v '^/usr/share/lintian/' "$scratch/deb-files" > "$scratch/deb-files-but-lintian"
if ! diff -u "$scratch/deb-files-but-lintian" "$scratch/rpm-files" > "$scratch/diff"; then
  fail "the .rpm's files differ from the .deb's (- .deb, + .rpm):
$(cat "$scratch/diff")"
fi
ok "the .rpm holds the same files (but the lintian overrides)"

# The control fields lintian does not judge.
[[ "$(field Package)" == weir ]] || fail "Package: $(field Package)"
[[ "$(field Maintainer)" =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] || fail "Maintainer: $(field Maintainer)"
[[ -n "$(field Homepage)" && -n "$(field Section)" ]] || fail "no Homepage or Section"
[[ "$(field Recommends)" == *gnome-keyring* ]] || fail "Recommends: $(field Recommends) (no Secret Service)"
ok "control: Maintainer $(field Maintainer), Section $(field Section), Recommends $(field Recommends)"

# Depends: every package that the binaries' shared libraries come from.
mkdir -p "$scratch/shlibs/debian"
printf 'Source: weir\n\nPackage: weir\nArchitecture: any\n' > "$scratch/shlibs/debian/control"
needed=$(cd "$scratch/shlibs" && dpkg-shlibdeps -O "$tree/usr/bin/weir" "$tree/usr/bin/weir-server" 2>/dev/null \
  | sed 's/^shlibs:Depends=//' | tr ',' '\n' | sed 's/ *(.*//; s/^ *//' | sort -u)
depends=$(field Depends | tr ',' '\n' | sed 's/ *(.*//; s/^ *//' | sort -u)
missing=$(comm -23 <(echo "$needed") <(echo "$depends"))
[[ -z "$missing" ]] || fail "Depends lacks what dpkg-shlibdeps finds the binaries need: $missing
(add it to bundle.linux.deb.depends in src-tauri/tauri.conf.json)"
ok "Depends covers dpkg-shlibdeps' $(echo "$needed" | wc -l) packages"

# lintian: errors and warnings fail; the package's own overrides apply.
suppress=()
$debug && suppress=(--suppress-tags unstripped-binary-or-object)
lintian_out="$scratch/lintian"
if ! lintian --fail-on error,warning --display-info --tag-display-limit 0 "${suppress[@]}" "$deb" \
  > "$lintian_out" 2>&1; then
  cat "$lintian_out" >&2
  fail "lintian found errors or warnings (above)"
fi
sed -n 's/^/    /p' "$lintian_out" | grep -v 'running with root privileges' || true
ok "lintian: no error, no warning$($debug && echo ' (debug build: unstripped-binary-or-object suppressed)')"

# rpmlint, strict: any warning fails too.
rpmlintrc="$scratch/rpmlintrc"
: > "$rpmlintrc"
$debug && echo 'addFilter("unstripped-binary-or-object")' > "$rpmlintrc"
if ! rpmlint --strict -c packaging/rpmlint.toml -r "$rpmlintrc" "$rpm" > "$scratch/rpmlint" 2>&1; then
  cat "$scratch/rpmlint" >&2
  fail "rpmlint found problems (above)"
fi
ok "rpmlint --strict: $(grep -o '[0-9]* errors, [0-9]* warnings' "$scratch/rpmlint" || echo clean)"

desktop=("$tree"/usr/share/applications/*.desktop)
desktop-file-validate "${desktop[@]}" || fail "desktop-file-validate rejects ${desktop[*]#"$tree"}"
ok "desktop-file-validate ${desktop[*]#"$tree"}"

appstreamcli validate --no-net --explain "$tree/usr/share/metainfo/dev.weir.desktop.metainfo.xml" \
  || fail "appstreamcli validate rejects the metainfo"
appstreamcli validate-tree --no-net "$tree" || fail "appstreamcli validate-tree rejects the tree"
ok "appstreamcli validate and validate-tree"

for page in "$tree"/usr/share/man/man1/*.1.gz; do
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
  [[ -z "$warnings" ]] || fail "man --warnings on ${page#"$tree"}: $warnings"
done
ok "man --warnings: $(ls "$tree"/usr/share/man/man1 | tr '\n' ' ')"

changelog_version=$(zcat "$tree/usr/share/doc/weir/changelog.gz" | dpkg-parsechangelog -l - -S Version)
[[ "$changelog_version" == "$version" ]] || fail "the changelog's version $changelog_version is not $version"
ok "changelog.gz parses, version $version"

echo "packaging/check.sh: $checks checks passed on $(basename "$deb") and $(basename "$rpm")"
