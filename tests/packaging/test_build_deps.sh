#!/bin/sh
# SPDX-License-Identifier: MIT
# test_build_deps SOURCE_DIR BUILD_DIR [PACKAGE]: the build-dependency guard (scripts/check-deps)
# passes with scripts/deps's list, and with PACKAGE taken off that list fails naming PACKAGE.
set -eu
source=$1 build=$2 package=${3:-}
fail() { echo "FAIL: $*" >&2; exit 1; }

"$source/scripts/check-deps" "$build" || fail "the guard rejects scripts/deps's own list"

if [ -n "$package" ]; then
  list=$("$source/scripts/deps" --list)
  echo "$list" | grep -qx "$package" || fail "$package is not on scripts/deps's list"
  without=$(echo "$list" | grep -vx "$package")
  status=0
  out=$("$source/scripts/check-deps" "$build" --packages "$without" 2>&1) || status=$?
  echo "$out"
  [ "$status" -eq 1 ] || fail "without $package the guard exits $status, expected 1"
  echo "$out" | grep -q "missing package $package:" || fail "without $package the guard does not name it"
  echo "PASS: without $package the guard fails naming it"
fi
