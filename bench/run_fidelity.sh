#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fidelity benchmark: runs bench/fidelity.json with dpu-cli and prints the paper's Table 2 form.
#
# Usage: bench/run_fidelity.sh [OUT_DIR]        (default OUT_DIR: out/fidelity)
# Environment: DPU_BUILD_DIR (default build/), DPU_JOBS (default 2), PLAN (default bench/fidelity.json),
#              PYTHON (default python3; only the standard library is needed).
# A killed run continues where it stopped when started again with the same OUT_DIR (--resume).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
plan="${PLAN:-$root/bench/fidelity.json}"
out="${1:-$root/out/fidelity}"
python="${PYTHON:-python3}"

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPU_BUILD_GUI=OFF -DDPU_BUILD_TESTS=OFF
fi
cmake --build "$build" -j "${DPU_JOBS:-2}" --target dpu-cli
cli="$build/app/cli/dpu-cli"

export OMP_WAIT_POLICY=passive
mkdir -p "$out"
echo "Running $plan into $out ($(nproc) cores) ..."
start=$(date +%s)
"$cli" run "$plan" --out "$out" --resume
echo "Finished in $(( $(date +%s) - start )) s"
"$python" "$root/bench/summarise_fidelity.py" --per-round "$out/results.jsonl" | tee "$out/summary.md"
