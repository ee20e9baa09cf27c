#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 23, benchmarks 2 and 3: LoRa time on air against Semtech's formula, the FUOTA delivery times
# recomputed, the fleet simulation's speed (bench_fleet; docs/benchmarks.md, section 16).
#
# Usage: bench/run_fleet.sh [OUT_DIR]        (default OUT_DIR: out/fleet; prints OUT_DIR/summary.md)
# Environment: DPU_BENCH_BUILD_DIR (default build-bench/), DPU_JOBS (default 2), DEVICES (10000),
#              ROUNDS (100), REPS (5). Only dpu_fleet and bench_fleet are built: no LibTorch code.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DPU_BENCH_BUILD_DIR:-$root/build-bench}"
out="${1:-$root/out/fleet}"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DDPU_BUILD_BENCH=ON -DDPU_BUILD_GUI=OFF -DDPU_BUILD_TESTS=OFF
fi
cmake -DDPU_BUILD_BENCH=ON "$build" > /dev/null
cmake --build "$build" -j "${DPU_JOBS:-2}" --target bench_fleet
mkdir -p "$out"
"$build/bench/bench_fleet" --devices "${DEVICES:-10000}" --rounds "${ROUNDS:-100}" --reps "${REPS:-5}" | tee "$out/summary.md"
