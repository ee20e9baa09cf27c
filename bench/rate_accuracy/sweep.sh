#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Rate-accuracy sweep: one run per (family, k) on the default plan's setting, then the table and the frontier picture.
#
# Usage: bench/rate_accuracy/sweep.sh [OUT_DIR]          (default OUT_DIR: out/rate_accuracy)
# Environment:
#   KS        the k values (default "0.0025 0.005 0.0075 0.01 0.015 0.02 0.03 0.05")
#   FAMILIES  family list (default bench/rate_accuracy/families.txt)
#   SET       base-plan overrides, "KEY=VALUE ..." (e.g. "split.rounds=2 train.epochs=1" for a quick look;
#             default: none, i.e. the default plan: 10 rounds, 6 epochs, one seed)
#   BASE      base plan file (default: `dpu-cli plan`)
#   ONLY      run at most this many runs this time (default: all), e.g. to spread the sweep out
#   DPU_BUILD_DIR (default build/), DPU_JOBS (default 2), PYTHON (default python3)
# Every run is `dpu-cli run PLAN --out OUT_DIR/runs/NAME --resume`: a finished run (run.json says so)
# is skipped, a killed one continues; start the script again to go on. Runs one at a time (each uses
# every core); run it under `nice` on a shared machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
out="${1:-$root/out/rate_accuracy}"
python="${PYTHON:-python3}"
ks="${KS:-0.0025 0.005 0.0075 0.01 0.015 0.02 0.03 0.05}"
families="${FAMILIES:-$here/families.txt}"
only="${ONLY:-0}"

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPU_BUILD_TESTS=OFF
fi
cmake --build "$build" -j "${DPU_JOBS:-2}" --target dpu-cli
cli="$build/app/cli/dpu-cli"
export OMP_WAIT_POLICY=passive

mkdir -p "$out/plans" "$out/runs"
base="${BASE:-$out/base-plan.json}"
if [[ -z "${BASE:-}" ]]; then
  "$cli" plan > "$base.tmp" && mv "$base.tmp" "$base"
fi
# shellcheck disable=SC2086  # KS and SET are lists
mapfile -t plans < <("$python" "$here/make_plans.py" "$base" "$families" "$out/plans" --ks $ks --set ${SET:-})

finished() { # run.json says the run ended with every round
  [[ -f "$1/run.json" ]] && "$python" -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])).get("state") != "finished")' "$1/run.json"
}
done_now=0 skipped=0 started=$(date +%s)
for plan in "${plans[@]}"; do
  name="$(basename "$plan" .json)"
  dir="$out/runs/$name"
  if finished "$dir"; then
    skipped=$((skipped + 1))
    continue
  fi
  if (( only > 0 && done_now >= only )); then
    echo "ONLY=$only runs done; start again to go on"
    break
  fi
  echo "[$(date +%H:%M:%S)] $name"
  t0=$(date +%s)
  "$cli" run "$plan" --out "$dir" --resume --quiet
  echo "    $(( $(date +%s) - t0 )) s"
  done_now=$((done_now + 1))
done
echo "Ran $done_now, skipped $skipped finished, in $(( $(date +%s) - started )) s"
"$python" "$here/summarise.py" --cli "$cli" "$out/runs" --out "$out" | tee "$out/summary.md"
