#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark 1 of issue 23: catch-up bundle bytes against the chain of missed bundles and the full model.
#
# Usage: bench/bundle/catchup.sh OUT [ROUNDS] [EPOCHS]
#   Runs the default plan (dpu-cli plan --default: MLP, Fashion-MNIST, {1000, 1000}, k = 0.01,
#   seed 1) with ROUNDS rounds (default 10) and EPOCHS epochs (default 6) once per value coding
#   (fp32 with DPU, FU and RPU; fp16, q8, q8c, q4, ternary with DPU and RPU: FU ships full
#   bundles whatever the coding), exports every strategy with `bundle export --catchup all`
#   (which applies every catch-up bundle with the device decoder and checks it against the chain)
#   and prints the table of bench/bundle/catchup.py (also OUT/summary.md).
#   Environment: DPU_BUILD_DIR (default build/), PYTHON (python3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
python="${PYTHON:-python3}"
[[ $# -ge 1 && $# -le 3 ]] || { sed -n 5,13p "$0"; exit 2; }
out="$1" rounds="${2:-10}" epochs="${3:-6}"
cli="$build/app/cli/dpu-cli"
export OMP_WAIT_POLICY=passive
mkdir -p "$out"
for coding in fp32 fp16 q8 q8c q4 ternary; do
  strategies='["dpu", "rpu"]'
  [[ $coding == fp32 ]] && strategies='["dpu", "fu", "rpu"]'
  "$cli" plan --default | "$python" -c '
import json, sys
p = json.load(sys.stdin)
p["name"] = "catchup-" + sys.argv[1]
p["split"]["rounds"] = int(sys.argv[2])
p["train"]["epochs"] = int(sys.argv[3])
p["strategies"] = json.loads(sys.argv[4])
p["bundle"]["values"] = sys.argv[1]
json.dump(p, sys.stdout, indent=2)' "$coding" "$rounds" "$epochs" "$strategies" > "$out/plan-$coding.json"
  [[ -f "$out/run-$coding/results.jsonl" && -f "$out/run-$coding/.done" ]] ||
    { "$cli" run "$out/plan-$coding.json" --out "$out/run-$coding" --quiet --resume && touch "$out/run-$coding/.done"; }
  for s in $(echo "$strategies" | tr -d '[],"'); do
    "$cli" bundle export "$out/run-$coding" --strategy "$s" --out "$out/export-$coding-$s" --catchup all > /dev/null
    echo "$coding $s: $(grep -c from_version "$out/export-$coding-$s/catchup.json") versions"
  done
done
"$python" "$root/bench/bundle/catchup.py" "$out" | tee "$out/summary.md"
