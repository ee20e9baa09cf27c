#!/bin/sh
# SPDX-License-Identifier: MIT
# test_retry_compiler_crash LAUNCHER: a compiler that crashes once is run again and the compile
# succeeds; one that always crashes fails after three tries; an error in the code fails at once
# with its message; warnings pass through; the launcher's own misuse exits 2.
set -eu
launcher=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/dpu-retry.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A stand-in compiler: crashes (as g++ reports an internal compiler error: exit 1) while it has
# been called fewer than CRASHES times, then fails with an ordinary error when asked to, else
# warns and succeeds. It counts its calls in $work/calls.
cc="$work/cc"
cat > "$cc" <<'CC'
#!/bin/sh
n=$(cat "$CALLS" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$CALLS"
if [ "$n" -le "$CRASHES" ]; then
  echo "x.h:56:1: internal compiler error: in gt_pch_save, at ggc-common.cc:671" >&2; exit 1
fi
if [ "$1" = error ]; then echo "x.cpp:3:1: error: expected ';'" >&2; exit 1; fi
echo "x.cpp:2:1: warning: unused" >&2; echo compiled
CC
chmod +x "$cc"
export CALLS="$work/calls"
run() { # CRASHES ARG: the launcher's exit status; stdout to $work/out, stderr to $work/err
  rm -f "$CALLS"; status=0
  CRASHES=$1 "$launcher" "$cc" "$2" > "$work/out" 2> "$work/err" || status=$?
}

run 1 ok
[ "$status" -eq 0 ] || fail "one crash: exit $status, expected 0"
[ "$(cat "$CALLS")" -eq 2 ] || fail "one crash: $(cat "$CALLS") calls, expected 2"
grep -q "compiled" "$work/out" || fail "one crash: the compiler's output is lost"
grep -q "warning: unused" "$work/err" || fail "one crash: the warning is lost"
grep -q "compiling again" "$work/err" || fail "one crash: the retry is not said"

run 5 ok
[ "$status" -eq 1 ] || fail "always crashing: exit $status, expected 1"
[ "$(cat "$CALLS")" -eq 3 ] || fail "always crashing: $(cat "$CALLS") calls, expected 3"
grep -q "internal compiler error" "$work/err" || fail "always crashing: the crash is not shown"

run 0 error
[ "$status" -eq 1 ] || fail "an error in the code: exit $status, expected 1"
[ "$(cat "$CALLS")" -eq 1 ] || fail "an error in the code: $(cat "$CALLS") calls, expected 1 (no retry)"
grep -q "error: expected ';'" "$work/err" || fail "an error in the code: its message is lost"
! grep -q "compiling again" "$work/err" || fail "an error in the code was retried"

status=0
"$launcher" > /dev/null 2> "$work/err" || status=$?
[ "$status" -eq 2 ] || fail "no compiler: exit $status, expected 2"
grep -q "usage:" "$work/err" || fail "no compiler: no usage line"
echo "PASS: retry-compiler-crash"
