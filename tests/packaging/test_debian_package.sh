#!/bin/sh
# SPDX-License-Identifier: MIT
# test_debian_package CPACK READELF BUILD_DIR VERSION SOURCE_DIR: builds the .deb from the build tree,
# checks its control fields and file list, installs it with dpkg into a scratch root (root or
# not, the system's dpkg database is never touched), runs what it installed and removes it again.
set -eu
cpack=$1 readelf=$2 build=$3 version=$4 source=$5

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpu-deb-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# dpkg looks for ldconfig and start-stop-daemon in PATH; a normal user's PATH lacks sbin.
PATH=$PATH:/usr/sbin:/sbin
export PATH

# --- the package, as `cmake --build . --target package` makes it (gzip here only to be quick) ---
"$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/out" \
  -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
arch=$(dpkg --print-architecture)
deb=$tmp/out/dpu-planner_${version}_${arch}.deb
[ -f "$deb" ] || { ls -l "$tmp/out"; fail "no $deb"; }
echo "built $(basename "$deb") ($(wc -c <"$deb") bytes)"

# --- control fields (dpkg-deb -I) ---
field() { dpkg-deb -f "$deb" "$1"; }
dpkg-deb -I "$deb" >"$tmp/info.txt" || fail "dpkg-deb -I"
cat "$tmp/info.txt"
[ "$(field Package)" = dpu-planner ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), project version $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = science ] || fail "Section: $(field Section)"
field Maintainer | grep -Eq '^[^<]+ <[^@ ]+@[^> ]+>$' || fail "Maintainer: $(field Maintainer)"
field Homepage | grep -Eq '^https?://' || fail "Homepage: $(field Homepage)"
[ "$(field Description | wc -l)" -ge 2 ] || fail "Description lacks the extended description"
field Recommends | grep -qw libopenblas0-pthread || fail "Recommends: $(field Recommends)"

# --- file list (dpkg-deb -c): every file under /usr, each expected one present ---
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/list.txt"
grep -v -e '^/$' -e '^/usr/' "$tmp/list.txt" && fail "files outside /usr"
expected="/usr/bin/dpu-planner /usr/bin/dpu-cli /usr/bin/dpu-apply
  /usr/share/applications/dpu-planner.desktop
  /usr/share/icons/hicolor/scalable/apps/dpu-planner.svg
  /usr/share/icons/hicolor/48x48/apps/dpu-planner.png
  /usr/share/icons/hicolor/256x256/apps/dpu-planner.png
  /usr/share/doc/dpu-planner/copyright /usr/share/doc/dpu-planner/README.md"
for preset in "$source"/resources/plans/*.json; do
  expected="$expected /usr/share/dpu-planner/plans/$(basename "$preset")"
done
for f in $expected; do
  grep -qx "$f" "$tmp/list.txt" || fail "$f is not in the package"
done
grep -Eq '\.(a|h|o)$' "$tmp/list.txt" && fail "build artefacts (static libraries, headers) in the package"

# --- install into a scratch root with a fresh dpkg database ---
root=$tmp/root
admin=$root/var/lib/dpkg
mkdir -p "$admin/info" "$admin/updates" "$admin/triggers"
: >"$admin/status"
dpkg_root() {
  dpkg --root="$root" --admindir="$admin" --log="$tmp/dpkg.log" --force-not-root \
    --force-depends --force-script-chrootless "$@"
}
# --force-depends: the scratch database knows no other package, so every Depends is "missing".
dpkg_root -i "$deb" >"$tmp/dpkg-i.txt" 2>&1 || { cat "$tmp/dpkg-i.txt"; fail "dpkg -i"; }
dpkg_root -s dpu-planner | grep -qx 'Status: install ok installed' || fail "dpkg -s: not installed"
for f in $expected; do
  [ -f "$root$f" ] || fail "$f did not land in the root"
done

# Debian package owning a library path; Debian 12 merges /lib into /usr/lib, so try both spellings.
owner() {
  for p in "$1" "$(readlink -f "$1")" "${1#/usr}" "/usr$1"; do
    dpkg -S "$p" 2>/dev/null | sed -n '1s/^\([^:]*\):.*/\1/p' | grep . && return 0
  done
  return 0
}

# --- the installed files stand alone: no RPATH into the build tree, every library resolves ---
for exe in dpu-planner dpu-cli dpu-apply; do
  bin=$root/usr/bin/$exe
  [ -x "$bin" ] || fail "$exe is not executable"
  if "$readelf" -d "$bin" | grep -E 'RPATH|RUNPATH' | grep -Eq "$build|$source"; then
    "$readelf" -d "$bin" | grep -E 'RPATH|RUNPATH'
    fail "$exe has an RPATH into the build or source tree"
  fi
  ldd "$bin" | grep -q 'not found' && { ldd "$bin"; fail "$exe has unresolved libraries"; }
  # The package owning each directly linked library must be a Depends (as dpkg-shlibdeps finds it).
  ldd "$bin" >"$tmp/ldd.txt"
  for lib in $("$readelf" -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(awk -v l="$lib" '$1 == l && $2 == "=>" {print $3}' "$tmp/ldd.txt")
    [ -n "$path" ] || fail "$exe: $lib not resolved"
    pkg=$(owner "$path")
    [ -n "$pkg" ] || fail "$exe: no Debian package owns $path"
    field Depends | tr ',|' '\n' | awk -v p="$pkg" '$1 == p {found = 1} END {exit !found}' \
      || fail "$exe links $lib from $pkg, not in Depends: $(field Depends)"
  done
done

# --- the desktop entry launches an installed program with an installed icon ---
desktop=$root/usr/share/applications/dpu-planner.desktop
exec_name=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
icon_name=$(sed -n 's/^Icon=//p' "$desktop")
[ -x "$root/usr/bin/$exec_name" ] || fail "desktop Exec=$exec_name is not installed"
[ -f "$root/usr/share/icons/hicolor/scalable/apps/$icon_name.svg" ] || fail "desktop Icon=$icon_name has no icon"

# --- run what was installed ---
QT_QPA_PLATFORM=offscreen
export QT_QPA_PLATFORM
out=$("$root/usr/bin/dpu-planner" --version) || fail "dpu-planner --version failed"
echo "$out"
[ "$out" = "dpu-planner $version" ] || fail "dpu-planner --version says '$out'"
out=$("$root/usr/bin/dpu-cli" --version) || fail "dpu-cli --version failed"
echo "$out"
[ "$out" = "dpu-cli $version" ] || fail "dpu-cli --version says '$out'"
status=0
"$root/usr/bin/dpu-apply" >"$tmp/apply.txt" 2>&1 || status=$?
[ "$status" -eq 1 ] && grep -q '^usage: dpu-apply' "$tmp/apply.txt" || { cat "$tmp/apply.txt"; fail "dpu-apply usage (exit $status)"; }

# --- and remove it again ---
dpkg_root -r dpu-planner >"$tmp/dpkg-r.txt" 2>&1 || { cat "$tmp/dpkg-r.txt"; fail "dpkg -r"; }
for f in $expected; do
  [ ! -e "$root$f" ] || fail "$f is left after dpkg -r"
done
echo "PASS: dpu-planner $version packaged, installed, run and removed"
