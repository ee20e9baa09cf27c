#!/bin/sh
# SPDX-License-Identifier: MIT
# The fleet planner against the exhaustive grid over the same space (issue 42): the flagship scenario with reachable targets, one nothing meets, and 10,000 devices (the whole space, and 216 candidates).
# Usage: bench/fleet-plan/run.sh OUT_DIR RUN_DIR...   (dpu-cli from build/app/cli unless DPU_CLI is set)
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
python3 "$(dirname "$0")/summarise.py" "$out"
