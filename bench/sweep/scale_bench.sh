#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a 1,000-cell sweep costs outside its cells: writing the folder and submitting (against a
# stand-in sbatch), `sweep status` and `sweep merge` over 1,000 finished cells, and one cell's
# peak memory (a short cell and a cell on the default plan's data and model, one round).
#
# Usage: nice -n 10 bench/sweep/scale_bench.sh [WORK_DIR]   (no Slurm needed)
# Environment: DPU_CLI (default build/app/cli/dpu-cli), CELLS (1000).
set -euo pipefail
default_work=/tmp/dpu-sweep-scale.XXXXXX
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cells="${CELLS:-1000}"
mkdir -p "$work/bin"
header

# One real short cell: its records are copied into every cell of the big sweep.
cat >"$work/one.json" <<'JSON'
{"name": "scale", "dataset": {"test_limit": 600},
 "split": {"initial": 300, "per_round": 300, "rounds": 2, "validation": 300},
 "strategies": ["dpu"], "train": {"epochs": 1}}
JSON
/usr/bin/time -f "%M" "$cli" run "$work/one.json" --out "$work/one" --quiet >/dev/null 2>"$work/one.err"
echo "short cell (2 rounds, 300+300 samples): peak RSS $(tail -1 "$work/one.err") kB"
cat >"$work/full.json" <<'JSON'
{"name": "scale-full", "split": {"rounds": 1}, "strategies": ["dpu"], "train": {"epochs": 1}}
JSON
/usr/bin/time -f '%M' "$cli" run "$work/full.json" --out "$work/full" --quiet >/dev/null 2>"$work/full.err"
echo "default-plan cell (default data and model, 1 round, 1 epoch): peak RSS $(tail -1 "$work/full.err") kB"

# A sweep of $cells cells: 10 values of k x seeds.
seeds=$((cells / 10))
python3 - "$work/big.json" "$seeds" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1].replace("big.json", "one.json")))
axes = {"k": [round(0.002 * (i + 1), 3) for i in range(10)], "seeds": [[s + 1] for s in range(int(sys.argv[2]))]}
json.dump({"base": plan, "axes": axes, "slurm": {"throttle": 200}}, open(sys.argv[1], "w"))
PY
# Stand-ins: sbatch accepts, squeue lists nothing (every task ended).
printf '#!/bin/sh\necho 4242\n' >"$work/bin/sbatch"
printf '#!/bin/sh\nexit 0\n' >"$work/bin/squeue"
printf '#!/bin/sh\necho "Slurm accounting storage is disabled" >&2; exit 1\n' >"$work/bin/sacct"
chmod +x "$work/bin/"*
t=$(stamp)
PATH="$work/bin:$PATH" "$cli" sweep run "$work/big.json" --out "$work/big" --backend slurm --no-wait >/dev/null
echo "sweep run --no-wait ($cells cells checked, folder written, one sbatch): $(since "$t") s"
echo "sbatch script: $(wc -c <"$work/big/slurm/submit-1.sbatch") bytes"
for d in "$work/big/cells/"*/; do
  cp "$work/one/results.jsonl" "$work/one/run.json" "$d"
done
t=$(stamp)
PATH="$work/bin:$PATH" "$cli" sweep status "$work/big" | tail -1
echo "sweep status over $cells finished cells: $(since "$t") s"
t=$(stamp)
"$cli" sweep merge "$work/big"
echo "sweep merge: $(since "$t") s, $(wc -c <"$work/big/results.jsonl") bytes"
# The default plan's size of results: 10 rounds x 3 strategies = 30 records per cell.
for d in "$work/big/cells/"*/; do
  for _ in $(seq 15); do cat "$work/one/results.jsonl"; done >"$d/results.jsonl"
done
t=$(stamp)
"$cli" sweep merge "$work/big"
echo "sweep merge, 30 records per cell: $(since "$t") s, $(wc -c <"$work/big/results.jsonl") bytes"
