#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole-plan throughput comparison of issue 25, in one run on one GPU: bench/fidelity.json on
# CUDA by the engine (dpu-cli run, one process per seed, side by side) and by the plain eager
# PyTorch script bench/python/fidelity_plan.py (likewise one process per seed), wall time each and
# the ratio. Raw output to $OUT/compare (default out/gpu/compare).
# Usage: bench/gpu/compare-plan.sh [BUILD_DIR]   Environment: SEEDS (default "1 2 3"), LIMIT (s per side, default 400),
# SIDES (default "engine script"; "engine" times the engine alone)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build-cuda}"
out="${OUT:-$root/out/gpu}/compare"
seeds="${SEEDS:-1 2 3}"
limit="${LIMIT:-400}"
mkdir -p "$out"
export OMP_WAIT_POLICY=passive

for s in $seeds; do
  python3 - "$root/bench/fidelity.json" "$out/plan-$s.json" "$s" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan.update(device="cuda", seeds=[int(sys.argv[3])], threads=2, name=plan["name"] + "-compare-seed" + sys.argv[3])
json.dump(plan, open(sys.argv[2], "w"), indent=1)
PY
done

side() {  # side NAME COMMAND-PREFIX...: one process per seed, side by side; prints the wall seconds
  local name="$1"; shift
  local start pids=() s
  start=$(date +%s.%N)
  for s in $seeds; do
    "$@" "$s" > "$out/$name-$s.log" 2>&1 &
    pids+=($!)
  done
  local rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)"
  return $rc
}
engine() { rm -rf "$out/engine-run-$1"; timeout "$limit" "$build/app/cli/dpu-cli" run "$out/plan-$1.json" --out "$out/engine-run-$1" --quiet; }
script() { timeout "$limit" python3 "$root/bench/python/fidelity_plan.py" --device cuda --threads 2 --seeds "$1"; }

engine_s=$(side engine engine) || echo "compare-plan: an engine process failed (logs in $out)" >&2
echo "engine: $engine_s s for seeds $seeds"
[[ " ${SIDES:-engine script} " == *" script "* ]] || exit 0
script_s=$(side script script) || echo "compare-plan: a script process failed (logs in $out)" >&2
echo "script: $script_s s for seeds $seeds"
for s in $seeds; do echo "engine seed $s: $(wc -l < "$out/engine-run-$s/results.jsonl" 2>/dev/null) records; script: $(tail -n 1 "$out/script-$s.log")"; done
python3 - "$engine_s" "$script_s" "$seeds" <<'PY' | tee "$out/compare.json"
import json, sys
e, p = float(sys.argv[1]), float(sys.argv[2])
print(json.dumps({"engine_seconds": e, "script_seconds": p, "script_over_engine": round(p / e, 2),
                  "seeds": sys.argv[3].split()}))
PY
