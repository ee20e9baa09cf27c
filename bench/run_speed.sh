#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Speed benchmark: engine (bench_speed) against the PyTorch reference (python/dpu_round.py), alternating.
#
# Usage: bench/run_speed.sh [OUT_DIR]           (default OUT_DIR: out/speed)
# Environment: DPU_BENCH_BUILD_DIR (default build-bench/), DPU_JOBS (default 2), REPS (default 5),
#              THREADS (default 2), SAMPLES (default 5000), EPOCHS (default 5), VGG_SAMPLES (default 256),
#              PROFILE (default 1: one per-phase profile of each implementation at the end).
# The Python side must be Debian's interpreter with python3-torch (the same libtorch 1.13.1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DPU_BENCH_BUILD_DIR:-$root/build-bench}"
out="${1:-$root/out/speed}"
reps="${REPS:-5}"
threads="${THREADS:-2}"
samples="${SAMPLES:-5000}"
epochs="${EPOCHS:-5}"
vgg_samples="${VGG_SAMPLES:-256}"
python=/usr/bin/python3

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DDPU_BUILD_BENCH=ON -DDPU_BUILD_GUI=OFF -DDPU_BUILD_TESTS=OFF
fi
cmake -DDPU_BUILD_BENCH=ON "$build" > /dev/null
cmake --build "$build" -j "${DPU_JOBS:-2}" --target bench_speed
engine="$build/bench/bench_speed"
reference="$root/bench/python/dpu_round.py"
"$python" -c 'import torch' 2>/dev/null || { echo "$python has no torch (install python3-torch)" >&2; exit 1; }

# Both sides: passive OpenMP waiting and the same number of intra-op threads.
export OMP_WAIT_POLICY=passive
mkdir -p "$out"
log="$out/runs.jsonl"
: > "$log"
round=(--samples "$samples" --epochs "$epochs" --threads "$threads")
run() { # label, command...: appends the command's JSON line to the log
  local label="$1"; shift
  echo "[$(date +%T)] $label" >&2
  "$@" | tail -n 1 | tee -a "$log"
}

echo "Machine: $(nproc) cores, $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), threads $threads" >&2
for ((rep = 1; rep <= reps; ++rep)); do
  run "rep $rep: engine DPU round"   "$engine" --task dpu-round "${round[@]}"
  run "rep $rep: python DPU round"   "$python" "$reference" --task dpu-round "${round[@]}"
  run "rep $rep: engine MLP train"   "$engine" --task train --model mlp "${round[@]}"
  run "rep $rep: python MLP train"   "$python" "$reference" --task train --model mlp "${round[@]}"
  run "rep $rep: engine VGG train"   "$engine" --task train --model vgg --samples "$vgg_samples" --epochs 1 --threads "$threads"
  run "rep $rep: python VGG train"   "$python" "$reference" --task train --model vgg --samples "$vgg_samples" --epochs 1 --threads "$threads"
done
run "engine: DPU round vs FU round, bookkeeping ($reps reps)" "$engine" --task ratio --reps "$reps" "${round[@]}"
if [[ "${PROFILE:-1}" == 1 ]]; then
  run "engine: per-phase profile of a DPU round" "$engine" --task profile "${round[@]}"
  run "python: per-phase profile of a DPU round" "$python" "$reference" --task dpu-round --profile "${round[@]}"
fi
"$python" "$root/bench/summarise_speed.py" "$log" | tee "$out/summary.md"
