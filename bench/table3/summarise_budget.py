#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Table 3 at equal training budget: FU given DPU's epochs (plan fu_epochs) against the Table 3 cells' FU and DPU.
"""Usage: summarise_budget.py FORM=BUDGET.jsonl:CELL.jsonl ...

FORM names the row (fp32, sparse, int8); BUDGET.jsonl holds FU's records with fu_epochs (a
sweep's results.jsonl, merged or not); CELL.jsonl the Table 3 cell of the same form with FU at
train.epochs and DPU. Prints, per form: DPU's epochs in round 2 (fu_epochs, twice it on the
sparse model, whose FU fine-tunes after pruning for as long again), FU at train.epochs, FU at
DPU's epochs, DPU (test accuracy in %, mean ± std over seeds) and DPU minus FU at DPU's epochs,
seed by seed, as mean ± std in points.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ablations"))
from summarise import spread  # noqa: E402  (mean ± std in points, as the ablations print them)


def round2(path, strategy):
    """Round 2's records of `strategy` in a records file, by seed."""
    with open(path) as f:
        rs = [json.loads(line) for line in f if line.strip()]
    return sorted((r for r in rs if r["strategy"] == strategy and r["round"] == 2), key=lambda r: r["seed"])


def row(form, budget_path, cell_path):
    """One form's row of the table, as markdown."""
    long_fu = round2(budget_path, "fu")
    fu, dpu = round2(cell_path, "fu"), round2(cell_path, "dpu")
    if [r["seed"] for r in long_fu] != [r["seed"] for r in dpu]:
        sys.exit(f"{form}: the budget run and the cell have other seeds")
    epochs = long_fu[0].get("axes", {}).get("fu_epochs", 0) * (2 if form == "sparse" else 1)
    delta = [d["test_accuracy"] - f["test_accuracy"] for d, f in zip(dpu, long_fu)]
    mean = 100 * statistics.mean(delta)
    sd = f" ± {100 * statistics.stdev(delta):.2f}" if len(delta) > 1 else ""
    return (f"| {form} | {epochs} | {spread([r['test_accuracy'] for r in fu])} | "
            f"{spread([r['test_accuracy'] for r in long_fu])} | {spread([r['test_accuracy'] for r in dpu])} | "
            f"{mean:+.2f}{sd} |")


def main(args):
    print("| deployed model | DPU's epochs in round 2 | FU, train.epochs | FU at DPU's epochs | DPU | DPU - FU at DPU's epochs |")
    print("|---|---:|---:|---:|---:|---:|")
    for arg in args:
        form, _, paths = arg.partition("=")
        budget_path, _, cell_path = paths.partition(":")
        print(row(form, budget_path, cell_path))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
