#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs libFuzzer targets until RUNS executions each (default 10 million, the issue's bar) or
# SECONDS of wall time (default 3600), and prints executions, coverage (edges, features) and
# findings per target as a Markdown table.
# Usage: bench/fuzz.sh [SECONDS] [TARGET...]
#   targets: bundle roundtrip plan safetensors idx cifar npy npz data_safetensors image torchscript fleet
#   (default: all), and torchscript_inprocess: the TorchScript harness without the guard's fork
#   (ten times the rate), always in fork mode; each input that ended one of its workers (LibTorch's
#   own crashes) is then replayed through fuzz_torchscript, and only those it does not refuse by
#   name count as findings; the refused ones move to build/fuzz-long/torchscript_inprocess/contained.
#   A worker that crashed in a forward pass (outside the guard) counts as a finding as well.
# Environment: DPU_BUILD_DIR (build/), DPU_FUZZ_RUNS (10000000), DPU_FUZZ_JOBS (1: in-process
# workers per target, splitting the runs; each reports its own coverage, the table gives the
# largest), DPU_FUZZ_MODE (inprocess, or fork: libFuzzer's -fork with -ignore_crashes, which
# restarts workers and goes on after a finding but costs far more CPU per execution).
# In-process, libFuzzer stops at the first finding: the table says so, the input is kept.
# Corpora grow in build/fuzz-long/<target>; findings land there as crash-*/timeout-*/oom-*.
# Run it at `nice -n 19` on a shared machine: the CPU-seconds column then says what it got.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
seconds="${1:-3600}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(bundle roundtrip plan safetensors idx cifar npy npz data_safetensors image torchscript fleet)
runs="${DPU_FUZZ_RUNS:-10000000}"
jobs="${DPU_FUZZ_JOBS:-1}"
mode="${DPU_FUZZ_MODE:-inprocess}"
# the options of the CTest runs (tests/fuzz/CMakeLists.txt)
common=(-rss_limit_mb=2560 -print_final_stats=1 -max_total_time="$seconds")
echo "| target | seconds | CPU seconds | executions | exec/s | exec per CPU s | edges (cov) | features (ft) | corpus | findings |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for t in "${targets[@]}"; do
  maxlen=16384
  if [[ $t == bundle ]]; then
    exe="$build/tests/fuzz_bundle_libfuzzer"
    seeds="$root/tests/data/bundle/corpus"
  elif [[ $t == torchscript || $t == torchscript_inprocess ]]; then
    exe="$build/tests/fuzz_${t}_libfuzzer"
    seeds="$root/tests/data/torchscript" # the test modules: 24 KB each
    maxlen=65536
  else
    exe="$build/tests/fuzz_${t}_libfuzzer"
    seeds="$root/tests/data/fuzz/$t"
  fi
  [[ -x $exe ]] || exe="$(find "$build" -name "fuzz_${t}_libfuzzer" -type f | head -1)"
  [[ -x $exe ]] || { echo "bench/fuzz.sh: no fuzz_${t} in $build (build with scripts/build; needs clang + libFuzzer)" >&2; exit 1; }
  work="$build/fuzz-long/$t"
  mkdir -p "$work/corpus"
  rm -f "$work"/log-*.txt "$work"/cpu-*.txt
  start=$(date +%s)
  pids=()
  tmode=$mode
  [[ $t == torchscript_inprocess ]] && tmode=fork
  sanitizer_opts=detect_leaks=0 ubsan_opts=
  if [[ $tmode == fork ]]; then
    # libFuzzer's fork mode keeps only the first line of a worker's report: the whole report, with
    # its stacks, goes to reports/report.<pid> (a finding that does not replay alone, because it
    # needs the state earlier inputs left in the worker, can only be read there). Frames in
    # uninstrumented libraries come as library+offset: llvm-symbolizer --obj=LIB OFFSET names them.
    mkdir -p "$work/reports"
    rm -f "$work"/reports/report.* # this run's reports only
    sanitizer_opts="$sanitizer_opts:log_path=$work/reports/report"
    ubsan_opts="log_path=$work/reports/report"
  fi
  for ((j = 0; j < jobs; ++j)); do
    log="$work/log-$j.txt"
    if [[ $tmode == fork ]]; then
      opts=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
      # A damaged size makes LibTorch allocate and zero up to gigabytes before it finds the data
      # short: with those allowed, the kernel (page faults) took two thirds of the CPU. Any
      # allocation over 32 MB (the test modules need far less) now ends the worker as an OOM
      # instead: 2.6x the executions in the same time (docs/benchmarks.md, section 13); the
      # guarded replay allows 2,560 MB.
      [[ $t == torchscript_inprocess ]] && opts+=(-malloc_limit_mb=32)
    else
      opts=(-runs=$((runs / jobs)) -seed=$((start + j)))
    fi
    (cd "$work" && exec /usr/bin/time -f '%U %S' -o "$work/cpu-$j.txt" env ASAN_OPTIONS="$sanitizer_opts" UBSAN_OPTIONS="$ubsan_opts" OMP_WAIT_POLICY=passive "$exe" "${opts[@]}" "${common[@]}" -max_len=$maxlen corpus "$seeds" >"$log" 2>&1) &
    pids+=($!)
    [[ $tmode == fork ]] && break
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
  elapsed=$(( $(date +%s) - start ))
  execs=0 cov=0 ft=0
  cpu="$(cat "$work"/cpu-*.txt | awk '{s += $1 + $2} END {printf "%.0f", s}')"
  for log in "$work"/log-*.txt; do
    # In-process runs end with stat:: lines; fork mode (and a run cut short) only has the
    # "#EXECS: cov: C ft: F corp: N ..." progress lines.
    n=
    # (fork mode's own stat:: lines count the parent's executions: none)
    [[ $tmode == fork ]] || n="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -1)"
    last="$(grep -E '^#[0-9]+:?[[:space:]]+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)?[[:space:]]*cov: ' "$log" | tail -1 || true)"
    [[ -n $n ]] || n="$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")"
    c="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")"
    f="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")"
    execs=$(( execs + ${n:-0} ))
    (( ${c:-0} > cov )) && cov=${c:-0}
    (( ${f:-0} > ft )) && ft=${f:-0}
  done
  corpus="$(find "$work/corpus" -type f | wc -l)"
  findings="$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) ! -name '*.replay.txt' | wc -l)"
  if [[ $t == torchscript_inprocess ]]; then
    guarded="$build/tests/fuzz_torchscript_libfuzzer"
    [[ -x $guarded ]] || { echo "bench/fuzz.sh: no fuzz_torchscript in $build to replay with" >&2; exit 1; }
    mkdir -p "$work/contained"
    # One process replays them all (LibTorch takes most of a second to start): libFuzzer runs the
    # files in order and stops at the first that fails, which stays with its report; the rest go
    # on. The workers' 32 MB allocation limit applies here too: a child that reaches it is refused
    # like one LibTorch ended, and the process never loads what its child could not.
    pending=()
    while IFS= read -r -d '' a; do pending+=("$a"); done < <(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) ! -name '*.replay.txt' -print0 | sort -z)
    while ((${#pending[@]} > 0)); do
      out="$work/replay.txt"
      if (cd "$work" && env ASAN_OPTIONS=detect_leaks=0 OMP_WAIT_POLICY=passive "$guarded" -rss_limit_mb=2560 -malloc_limit_mb=32 "${pending[@]}" >"$out" 2>&1); then
        mv "${pending[@]}" "$work/contained/"
        break
      fi
      failed="$(sed -nE 's/^Running: (.*)/\1/p' "$out" | tail -1)"
      [[ -n $failed ]] || { echo "bench/fuzz.sh: the replay did not start: $out" >&2; break; }
      cp "$out" "$failed.replay.txt"
      rest=() after=0
      for a in "${pending[@]}"; do
        if ((after)); then rest+=("$a"); elif [[ $a == "$failed" ]]; then after=1; else mv "$a" "$work/contained/"; fi
      done
      pending=("${rest[@]}")
    done
    left="$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) ! -name '*.replay.txt' | wc -l)"
    # A crash that needs the worker's state (an over-read that faults only once the memory past it
    # has been unmapped, damaged_shared.pt) replays clean: a report whose stack runs through a
    # forward pass, which no child guards, is a finding too.
    forward="$(grep -l 'dpu::ScriptNetwork::forward' "$work"/reports/report.* 2>/dev/null | wc -l || true)"
    ((forward == 0)) || echo "bench/fuzz.sh: $t: $forward worker(s) crashed in a forward pass, outside the guard: grep -l ScriptNetwork::forward $work/reports/report.*" >&2
    findings="$((left + forward)) ($((findings - left)) ended a worker, refused by the guard; $forward crashed in a forward pass)"
  fi
  if [[ -d $work/reports ]]; then
    echo "bench/fuzz.sh: $t: the workers' sanitizer reports by kind (full reports in $work/reports):" >&2
    cat "$work"/reports/report.* 2>/dev/null | sed -nE 's/^==[0-9]+==ERROR: (.*) on (unknown )?address.*/\1/p; s/^==[0-9]+==ERROR: ([^:]+: [a-z -]+).*/\1/p; s/.*(runtime error: [^0-9]*).*/UBSan \1/p; s/.* in fuzzer::Fuzzer::HandleMalloc.*/an allocation over -malloc_limit_mb/p' |
      sort | uniq -c | sort -rn >&2 || true
  fi
  rate=$(( execs / (elapsed > 0 ? elapsed : 1) ))
  cpurate=$(( execs / (cpu > 0 ? cpu : 1) ))
  echo "| $t | $elapsed | $cpu | $execs | $rate | $cpurate | $cov | $ft | $corpus | $findings |"
done
