#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every value coding (fp32, fp16, q8, q8c, q8c-dense, q4, ternary) on the delta rounds of a run.
#
# Usage: bench/bundle/codings.sh RUN_DIR OUT [STRATEGY]
#   RUN_DIR   a dpu-cli run with its bundles (bundles/seed-S/{initial.safetensors,STRATEGY/round-NNN.dpub})
#   STRATEGY  default dpu
# Applies every round's bundle in order with dpu-apply from initial.safetensors, and for each delta
# round re-encodes the old -> new pair in every coding with bench_bundle (which checks each bundle
# with the device decoder) into OUT/pairs/LABEL/bench.json; then bench/bundle/codings.py OUT prints
# the tables (also in OUT/summary.md). Environment: DPU_BUILD_DIR (default build/, configured with
# -DDPU_BUILD_BENCH=ON), PYTHON (python3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
python="${PYTHON:-python3}"
[[ $# -ge 2 && $# -le 3 ]] || { sed -n 5,12p "$0"; exit 2; }
run="$1" out="$2" strategy="${3:-dpu}"
cmake --build "$build" -j "${DPU_JOBS:-2}" --target bench_bundle dpu-apply >/dev/null
bench="$build/bench/bench_bundle" apply="$build/app/apply/dpu-apply"
mkdir -p "$out/pairs" "$out/device"
work="$out/device"
for seed in "$run"/bundles/seed-*; do
  [[ -d "$seed/$strategy" ]] || continue
  cp "$seed/initial.safetensors" "$work/cur.safetensors"
  for b in "$seed/$strategy"/round-*.dpub; do
    r="$(basename "$b" .dpub)"
    cp "$work/cur.safetensors" "$work/old.safetensors"
    "$apply" "$b" "$work/cur.safetensors" >/dev/null
    # manifest byte 0 (bundle offset 16): 2 = delta; reinit+delta rounds ship a seed instead
    [[ "$(od -An -tu1 -j16 -N1 "$b" | tr -d ' ')" == 2 ]] || continue
    d="$out/pairs/$(basename "$seed")-$strategy-$r"
    mkdir -p "$d"
    "$bench" "$work/old.safetensors" "$work/cur.safetensors" "$d" > "$d/bench.json"
    echo "$(basename "$d"): q8 $(stat -c %s "$d/q8.dpub") q8c $(stat -c %s "$d/q8c.dpub")"
  done
done
"$python" "$root/bench/bundle/codings.py" "$out" | tee "$out/summary.md"
