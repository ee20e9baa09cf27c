#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The paper's Table 3 from a merged sweep of bench/table3: initial, vanilla update and DPU per deployed form, with cost ratios.
"""Usage: summarise.py SWEEP_DIR (merged by `dpu-cli sweep merge`).

Initial: round 1's deployed model (the same for FU and DPU); vanilla update: FU's round 2;
DPU: DPU's round 2. Test accuracy as mean ± std over seeds; in brackets the analytic cost of
round 2 against a full update of the dense FP32 model (the paper's ratio), then the real
bundle's bytes against the dense FP32 full bundle of the same run's round 1.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ablations"))
from summarise import spread  # noqa: E402  (mean ± std in points, as the ablations print them)


def main(folder):
    runs = {}
    with open(folder + "/results.jsonl") as f:
        for line in f:
            r = json.loads(line)
            form = r["axes"].get("deployed", "fp32")
            runs.setdefault(form, {}).setdefault((r["strategy"], r["round"]), []).append(r)
    full_bits = {}
    dense_full_bytes = None
    if "fp32" in runs:
        dense_full_bytes = statistics.mean(r["bundle_bytes"] for r in runs["fp32"][("fu", 1)])
    print("| deployed model | initial | vanilla update (FU) | DPU, k = 0.2 |")
    print("|---|---|---|---|")
    for form in ("fp32", "sparse", "int8"):
        if form not in runs:
            continue
        cells = runs[form]
        # The dense FP32 full round's bits: round 1's cumulative ratio is bits / that.
        base = cells[("fu", 1)][0]
        full = base["analytic_bits"] / base["cumulative_ratio"]

        def cell(strategy):
            rs = cells[(strategy, 2)]
            ratio = statistics.mean(r["analytic_bits"] for r in rs) / full
            text = f"{spread([r['test_accuracy'] for r in rs])} ({ratio:.2f}"
            if dense_full_bytes:
                text += f"; bytes {statistics.mean(r['bundle_bytes'] for r in rs) / dense_full_bytes:.2f}"
            return text + ")"

        initial = spread([r["test_accuracy"] for r in cells[("fu", 1)]])
        print(f"| {form} | {initial} | {cell('fu')} | {cell('dpu')} |")


if __name__ == "__main__":
    main(sys.argv[1])
