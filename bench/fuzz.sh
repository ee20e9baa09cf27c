#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target for SECONDS each (default 600) on both cores (two fork workers) and
# prints executions, coverage (edges, features) and findings per target as a Markdown table.
# Usage: bench/fuzz.sh [SECONDS] [TARGET...]   (targets: bundle roundtrip plan safetensors idx cifar;
# build first with scripts/build; DPU_BUILD_DIR picks the build, DPU_FUZZ_JOBS the workers).
# Corpora grow in build/fuzz-long/<target>; findings land there as crash-*/timeout-*/oom-*.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
seconds="${1:-600}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(bundle roundtrip plan safetensors idx cifar)
jobs="${DPU_FUZZ_JOBS:-2}"
echo "| target | seconds | executions | exec/s | edges (cov) | features (ft) | findings |"
echo "|---|---|---|---|---|---|---|"
for t in "${targets[@]}"; do
  if [[ $t == bundle ]]; then
    exe="$build/tests/core/patch/fuzz_bundle_libfuzzer"
    seeds="$root/tests/data/bundle/corpus"
  else
    exe="$build/tests/fuzz_${t}_libfuzzer"
    seeds="$root/tests/data/fuzz/$t"
  fi
  [[ -x $exe ]] || exe="$(find "$build" -name "fuzz_${t}_libfuzzer" -type f | head -1)"
  [[ -x $exe ]] || { echo "bench/fuzz.sh: no fuzz_${t} in $build (build with scripts/build; needs clang + libFuzzer)" >&2; exit 1; }
  work="$build/fuzz-long/$t"
  mkdir -p "$work/corpus"
  log="$work/log.txt"
  # -fork runs the workers as separate processes that merge into one corpus; a crash is
  # recorded and fuzzing goes on (-ignore_crashes) so one finding does not hide the next.
  (cd "$work" && ASAN_OPTIONS=detect_leaks=0 "$exe" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$seconds" -rss_limit_mb=2560 -max_len=16384 -print_final_stats=1 \
      corpus "$seeds" >"$log" 2>&1) || true
  # Fork mode prints "#EXECS: cov: C ft: F corp: N exec/s R oom/timeout/crash: a/b/c time: Ts ..." lines.
  last="$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)"
  execs="$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")"
  cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")"
  ft="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")"
  findings="$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)"
  rate=$(( ${execs:-0} / seconds ))
  echo "| $t | $seconds | ${execs:-?} | $rate | ${cov:-?} | ${ft:-?} | $findings |"
done
