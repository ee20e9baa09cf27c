#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unpacks Debian packages (.deb) into a prefix, for a GPU machine without Debian's archive.
# Usage: bench/gpu/setup-deps.sh DEB_DIR PREFIX     (docs/gpu.md lists the packages)
set -euo pipefail
debs="${1:?usage: setup-deps.sh DEB_DIR PREFIX}"
prefix="${2:?usage: setup-deps.sh DEB_DIR PREFIX}"
mkdir -p "$prefix"
for deb in "$debs"/*.deb; do
  dpkg -x "$deb" "$prefix"
done
# Qt's CMake files check that qmake exists, though the build never runs it (its package would
# bring Qt's whole toolchain): a placeholder satisfies the check.
qmake="$prefix/usr/bin/x86_64-linux-gnu-qmake6"
if [[ -d "$prefix/usr/lib/x86_64-linux-gnu/cmake/Qt6" && ! -e "$qmake" ]]; then
  mkdir -p "$(dirname "$qmake")"
  printf '#!/bin/sh\necho "placeholder: qmake is not installed" >&2\nexit 1\n' > "$qmake"
  chmod +x "$qmake"
fi
# Qt6::Core names the mkspecs folder as an include path; it comes from qt6-base-dev-tools'
# siblings, and the build includes nothing from it.
if [[ -d "$prefix/usr/lib/x86_64-linux-gnu/cmake/Qt6" ]]; then
  mkdir -p "$prefix/usr/lib/x86_64-linux-gnu/qt6/mkspecs/linux-g++"
fi
echo "Unpacked $(ls "$debs"/*.deb | wc -l) packages into $prefix"
