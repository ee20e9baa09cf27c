#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A short fidelity run on CUDA: bench/fidelity.json's seed 1 for 3 rounds (FU, DPU, GCPU, RPU),
# its records compared with the first 3 rounds of bench/results/gpu-h100/results-seed-1.jsonl
# (accuracies, bundle bytes, the device file's SHA-256). Fails when the run fails; a difference
# to the records is reported, not failed (a LibTorch or driver update may change the kernels).
# Usage: bench/gpu/fidelity-short.sh BUILD_DIR OUT_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:?usage: fidelity-short.sh BUILD_DIR OUT_DIR}"
out="${2:?usage: fidelity-short.sh BUILD_DIR OUT_DIR}"
mkdir -p "$out"
python3 - "$root/bench/fidelity.json" "$out/plan.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan.update(device="cuda", seeds=[1], name=plan["name"] + "-cuda-short")
plan["split"]["rounds"] = 3
json.dump(plan, open(sys.argv[2], "w"), indent=1)
PY
start=$(date +%s)
"$build/app/cli/dpu-cli" run "$out/plan.json" --out "$out/run" --quiet
echo "fidelity-short: $(( $(date +%s) - start )) s"
python3 - "$out/run/results.jsonl" "$root/bench/results/gpu-h100/results-seed-1.jsonl" <<'PY'
import json, sys
keys = ("candidate_test_accuracy", "test_accuracy", "val_accuracy", "bundle_bytes", "device_sha256", "updated_weights")
def load(path):
    return {(r["strategy"], r["round"]): r for r in map(json.loads, open(path)) if r["round"] <= 3}
new, old = load(sys.argv[1]), load(sys.argv[2])
if len(new) != 12:
    sys.exit(f"fidelity-short: {len(new)} records of rounds 1-3, expected 12")
same = [k for k in new if all(new[k].get(f) == old.get(k, {}).get(f) for f in keys)]
print(f"fidelity-short: {len(same)} of {len(new)} records identical to bench/results/gpu-h100 "
      f"({', '.join(keys)})")
for k in sorted(new):
    if k not in same:
        print("  differs:", k, {f: (new[k].get(f), old.get(k, {}).get(f)) for f in keys if new[k].get(f) != old.get(k, {}).get(f)})
PY
