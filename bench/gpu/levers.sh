#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 26, section 3 on one GPU: the levers' three-seed confirmations on the fidelity setting
# (bench/ablations/base-fidelity.json on CUDA), each (seed, family) its own sweep cell, the three
# sweeps side by side (under NVIDIA MPS when nvidia-cuda-mps-control is there):
#   fu     FU alone, seeds 1-3 (3 cells): every family's difference is to it
#   exact  the paper's DPU, k = 0.01, rewind false / true (6 cells)
#   q4     q4 with coded biases, k = 0.0125, quant_aware false / true x rewind false / true (12 cells)
# then prints bench/ablations/summarise.py --to-fu with FU's records beside each family.
# Usage: bench/gpu/levers.sh [BUILD_DIR]     (default build-cuda)
# Environment: OUT (default out/gpu), LIMIT (s for all, default 540), JOBS (cells at a time per
# sweep, default all), MPS (default: 1 when
# nvidia-cuda-mps-control is there), DEVICE (cuda), ROUNDS/EPOCHS (a short smoke test on a CPU).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build-cuda}"
out="${OUT:-$root/out/gpu}/levers"
cli="$build/app/cli/dpu-cli"
rm -rf "$out"
mkdir -p "$out"
export OMP_WAIT_POLICY=passive
source "$root/bench/gpu/sweep-common.sh"
mps_unless_off levers

device_plan "$root/bench/ablations/base-fidelity.json" "$out/base.json"
seeds='"seeds": [[1], [2], [3]]'
echo "{\"base\": \"base.json\", \"axes\": {$seeds, \"strategies\": [[\"fu\"]]}}" > "$out/fu.json"
echo "{\"base\": \"base.json\", \"axes\": {$seeds, \"strategies\": [[\"dpu\"]], \"rewind\": [false, true]}}" > "$out/exact.json"
echo "{\"base\": \"base.json\", \"axes\": {$seeds, \"strategies\": [[\"dpu\"]], \"k\": [0.0125], \"bundle.values\": [\"q4\"],
  \"bundle.dense_tensors\": [\"coded\"], \"bundle.quant_aware\": [false, true], \"rewind\": [false, true]}}" > "$out/q4.json"

run_sweeps "$out" "$cli" fu exact q4
failed=$?
python3 "$root/bench/ablations/summarise.py" --to-fu --fu "$out/fu/results.jsonl" "$out/exact" "$out/q4"
exit "$failed"
