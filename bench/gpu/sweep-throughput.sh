#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Several runs sharing one GPU, through the product's own `dpu-cli sweep run --backend local`:
#   plan   bench/fidelity.json as a sweep of 12 cells (3 seeds x FU, DPU, GCPU, RPU), --jobs JOBS_PLAN
#          (default 12); its records compared with bench/results/gpu-h100 (same figures expected)
#   one    one cell of the k sweep alone (FU and DPU, k = 0.01, seed 1): the one-at-a-time rate
#   ksweep 8 values of k x 3 seeds (FU and DPU) on the fidelity setting, --jobs JOBS_K (default 24)
# Prints wall seconds and cells per minute; raw output under $OUT/sweeps (default out/gpu/sweeps).
# Usage: bench/gpu/sweep-throughput.sh [BUILD_DIR]
# Environment: STEPS (default "plan one ksweep"), DEVICE (cuda), ROUNDS/EPOCHS (a short smoke
# test on a CPU), LIMIT (s per step, default 300), MPS=1 (run the steps under NVIDIA's
# Multi-Process Service, started here and stopped at the end: the cells' kernels then run side by
# side on the GPU instead of in turns; docs/gpu.md "Several runs on one GPU").
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build-cuda}"
out="${OUT:-$root/out/gpu}/sweeps"
steps=" ${STEPS:-plan one ksweep} "
cli="$build/app/cli/dpu-cli"
mkdir -p "$out"
export OMP_WAIT_POLICY=passive
source "$root/bench/gpu/sweep-common.sh"
if [[ "${MPS:-0}" == 1 ]]; then
  start_mps sweep-throughput
fi

# The base plan: bench/fidelity.json on DEVICE (ROUNDS and EPOCHS shorten it for a smoke test).
device_plan "$root/bench/fidelity.json" "$out/base.json"
cat > "$out/plan-sweep.json" <<JSON
{"base": "base.json", "axes": {"seeds": [[1], [2], [3]], "strategies": [["fu"], ["dpu"], ["gcpu"], ["rpu"]]}}
JSON
cat > "$out/k-sweep.json" <<JSON
{"base": "base.json", "axes": {"k": [0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05],
  "seeds": [[1], [2], [3]], "strategies": [["fu", "dpu"]]}}
JSON

seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }
sweep() {  # sweep NAME SWEEP_FILE JOBS: runs it, prints "NAME: S s, N cells, C cells/min"
  local start s n
  rm -rf "$out/$1"
  start=$(date +%s.%N)
  if ! timeout "${LIMIT:-300}" "$cli" sweep run "$2" --out "$out/$1" --backend local --jobs "$3" > "$out/$1.log" 2>&1; then
    echo "$1: sweep run failed; the end of $out/$1.log:"
    tail -n 3 "$out/$1.log"
  fi
  s=$(seconds "$start")
  n=$(grep -l '"code": *0' "$out/$1"/cells/*/exit.json 2>/dev/null | wc -l)
  "$cli" sweep merge "$out/$1" > /dev/null 2>&1
  echo "$1: $s s, $n cells done at --jobs $3, $(python3 -c "print(round(60 * $n / $s, 2))") cells/min"
}

if [[ "$steps" == *" plan "* ]]; then
  sweep plan "$out/plan-sweep.json" "${JOBS_PLAN:-12}"
  # The same figures as the plan run whole (one process per seed) on the H100?
  python3 - "$out/plan/results.jsonl" "$root/bench/results/gpu-h100" <<'PY'
import json, sys
keys = ("test_accuracy", "val_accuracy", "bundle_bytes", "device_sha256", "updated_weights")
new = {(r["seed"], r["strategy"], r["round"]): r for r in map(json.loads, open(sys.argv[1]))}
old = {}
for seed in (1, 2, 3):
    for r in map(json.loads, open(f"{sys.argv[2]}/results-seed-{seed}.jsonl")):
        old[(seed, r["strategy"], r["round"])] = r
same = [k for k in new if k in old and all(new[k].get(f) == old[k].get(f) for f in keys)]
print(f"plan as 12 cells: {len(same)} of {len(new)} records identical to bench/results/gpu-h100 ({', '.join(keys)})")
PY
fi

if [[ "$steps" == *" one "* ]]; then
  python3 - "$out/base.json" "$out/one.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan.update(k=0.01, seeds=[1], strategies=["fu", "dpu"], name=plan["name"] + "-one-cell")
json.dump(plan, open(sys.argv[2], "w"), indent=1)
PY
  rm -rf "$out/one"
  start=$(date +%s.%N)
  timeout "${LIMIT:-300}" "$cli" run "$out/one.json" --out "$out/one" --quiet > "$out/one.log" 2>&1 || echo "one: failed"
  s=$(seconds "$start")
  echo "one cell alone: $s s, $(python3 -c "print(round(60 / $s, 2))") cells/min"
fi

if [[ "$steps" == *" ksweep "* ]]; then
  sweep ksweep "$out/k-sweep.json" "${JOBS_K:-24}"
fi
