#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sweep backends compared in one run: a 12-cell sweep of short plans, local with 1 and 2 jobs and
# through a one-node Slurm (tests/support/one-node-slurm.sh) with the same slots, interleaved.
#
# Usage: nice -n 10 bench/sweep/sweep_bench.sh [WORK_DIR]   (as root; needs slurm-wlm and munge)
# Environment: DPU_CLI (default build/app/cli/dpu-cli), POLL (the Slurm follow interval, 1 s).
# Prints the wall time of each backend, the Slurm/local ratios and the overhead Slurm adds per
# cell, and checks that each backend's merged results equal the local ones with the same threads
# per cell (the records without their wall-clock field).
set -euo pipefail
default_work=/tmp/dpu-sweep-bench.XXXXXX
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
poll="${POLL:-1}"

cat >"$work/sweep.json" <<'JSON'
{"base": {"name": "bench-sweep", "dataset": {"test_limit": 600},
          "split": {"initial": 300, "per_round": 300, "rounds": 2, "validation": 300},
          "strategies": ["dpu"], "train": {"epochs": 1}},
 "axes": {"k": [0.005, 0.01, 0.02], "bundle.values": ["fp32", "q8"], "seeds": [[1], [2]]}}
JSON

"$root/tests/support/one-node-slurm.sh" start "$work/slurm" --owner $$ >/dev/null
trap '"$root/tests/support/one-node-slurm.sh" stop "$work/slurm"' EXIT
export SLURM_CONF="$work/slurm/slurm.conf"
cores="$(nproc)"
header

declare -A wall
run() { # label, then the sweep run options
  local label="$1" start end
  shift
  start=$(date +%s.%N)
  "$cli" sweep run "$work/sweep.json" --out "$work/$label" "$@" >"$work/$label.log" 2>&1
  end=$(date +%s.%N)
  "$cli" sweep merge "$work/$label" >/dev/null
  wall[$label]=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')
  printf '%-28s %7s s\n' "$label" "${wall[$label]}"
}
# Interleaved, so that a change of load on the shared cores touches both sides.
run local-1-job --jobs 1
run slurm-1-task-x-${cores}cpu --backend slurm --cpus-per-task "$cores" --throttle 1 --poll "$poll"
run local-${cores}-jobs --jobs "$cores"
run slurm-${cores}-tasks-x-1cpu --backend slurm --cpus-per-task 1 --throttle "$cores" --poll "$poll"

cells=12
awk -v l1="${wall[local-1-job]}" -v s1="${wall[slurm-1-task-x-${cores}cpu]}" \
    -v ln="${wall[local-${cores}-jobs]}" -v sn="${wall[slurm-${cores}-tasks-x-1cpu]}" -v n="$cores" -v c="$cells" 'BEGIN {
  printf "local %d jobs / local 1 job:        %.2fx the wall time\n", n, ln / l1
  printf "slurm 1 slot / local 1 job:         %.2fx, +%.1f s per cell\n", s1 / l1, (s1 - l1) / c
  printf "slurm %d slots / local %d jobs:       %.2fx, +%.1f s per cell (per slot: %.1f s)\n", n, n, sn / ln, (sn - ln) / c, (sn - ln) * n / c
}'

python3 - "$work" local-1-job "slurm-1-task-x-${cores}cpu" "local-${cores}-jobs" "slurm-${cores}-tasks-x-1cpu" <<'PY'
import json, sys
work, labels = sys.argv[1], sys.argv[2:]
def records(label):
    out = {}
    for line in open(f"{work}/{label}/results.jsonl"):
        r = json.loads(line)
        r.pop("seconds", None)
        out[(r["cell"], r["strategy"], r["seed"], r["round"])] = r
    return out
def compare(a, b):
    ra, rb = records(a), records(b)
    print(f"{b}: {len(rb)} records, {'the same as' if ra == rb else 'DIFFERENT from'} {a}'s")
compare(labels[0], labels[1])  # the same threads per cell
compare(labels[2], labels[3])
compare(labels[0], labels[2])  # other threads per cell: equal only if the kernels reduce alike
PY
