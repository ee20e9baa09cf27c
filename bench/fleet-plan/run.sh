#!/bin/sh
# SPDX-License-Identifier: MIT
# The fleet planner against the exhaustive grid over the same space (issue 42): the flagship scenario with reachable targets, one nothing meets, and 10,000 devices (the whole space, and 216 candidates).
# Usage: bench/fleet-plan/run.sh OUT_DIR RUN_DIR...   (dpu-cli from build/app/cli unless DPU_CLI is set;
# a RUN_DIR may be a folder of runs, e.g. a sweep's DIR/cells)
set -eu
out=$1; shift
cli=${DPU_CLI:-build/app/cli/dpu-cli}
mkdir -p "$out"
# The flagship (docs/benchmarks.md section 18): 200 nodes, EU868, FUOTASim's SF mix, 1 % sub-band,
# 10 % loss, 80 % available, a round a day; the planner may vary period, delivery, sub-band,
# catch-ups and repairs.
link="--link lorawan-eu868 --sf-mix fuotasim --duty-cycle 0.01 --loss 0.1 --availability 0.8 --period 86400"
reachable="--fresh-share 0.9 --fresh-days 3 --battery-per-year 0.1"
impossible="--fresh-share 0.95 --fresh-days 1 --battery-per-year 0.05"
run() { # NAME ARGS...: the pruned search, then the exhaustive grid, as JSON
    name=$1; shift
    # shellcheck disable=SC2086
    "$cli" fleet plan "$@" --json --quiet --no-estimates > "$out/$name-pruned.json" || [ $? -eq 3 ]
    # shellcheck disable=SC2086
    "$cli" fleet plan "$@" --json --quiet --no-estimates --exhaustive > "$out/$name-grid.json" || [ $? -eq 3 ]
}
# shellcheck disable=SC2086
run reachable "$@" --devices 200 $link $reachable
# shellcheck disable=SC2086
run impossible "$@" --devices 200 $link $impossible
# shellcheck disable=SC2086
run scale "$@" --devices 10000 $link $reachable
# shellcheck disable=SC2086
run scale216 "$@" --devices 10000 $link $reachable --keep order,repairs
# Every strategy at the deployment the planner recommends for the reachable targets, each listed
# (--all): what the k sweep buys in accuracy and costs in battery at one setting.
setting=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["recommended"]["setting"]
delivery = {"multicast-per-sf": "--multicast-per-sf", "multicast": "--multicast", "unicast": "--unicast"}[s["delivery"]]
print("--duty-cycle %g --period %d %s --catch-up %s --order %s --repairs %d" % (s["duty_cycle"],
      round(3600 * s["round_period_h"]), delivery, s["catch_up"], s["order"], s["repairs"]))' "$out/reachable-pruned.json")
# shellcheck disable=SC2086
"$cli" fleet plan "$@" --devices 200 --link lorawan-eu868 --sf-mix fuotasim --loss 0.1 --availability 0.8 \
    $setting $reachable --keep period,delivery,sub-band,catch-up,order,repairs --exhaustive --all \
    --json --quiet --no-estimates > "$out/at-recommended.json" || [ $? -eq 3 ]
# The runs' plans and records beside the searches (bytes a round, the coding and k of each)
for d in "$@"; do
    for r in "$d" "$d"/*; do
        if [ -f "$r/plan.json" ] && [ -f "$r/results.jsonl" ]; then
            mkdir -p "$out/runs/$(basename "$r")"
            cp "$r/plan.json" "$r/results.jsonl" "$out/runs/$(basename "$r")/"
        fi
    done
done
python3 "$(dirname "$0")/summarise.py" "$out"
