#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# One line per sweep cell of bench/ablations: its ablation value, re-initialised rounds, accuracy (mean ± std over seeds) and bytes.
"""Usage: summarise.py SWEEP_DIR... (each merged by `dpu-cli sweep merge`)."""
import json
import statistics
import sys


def spread(values):
    """Mean and sample std in points ("82.55" for one seed, "82.55 ± 0.40" for several)."""
    mean = 100 * statistics.mean(values)
    if len(values) < 2:
        return f"{mean:.2f}"
    return f"{mean:.2f} ± {100 * statistics.stdev(values):.2f}"


def main(dirs):
    print("| sweep | cell | seeds | re-initialised rounds (first seed) | deployed rounds | final test (%) "
          "| mean test over rounds (%) | bundle bytes (all rounds, mean) | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in dirs:
        cells = {}
        with open(d + "/results.jsonl") as f:
            for line in f:
                r = json.loads(line)
                # A cell of several strategies (FU beside DPU) gives a line per strategy.
                cell = cells.setdefault((json.dumps(r["axes"], sort_keys=True), r.get("strategy", "")), {})
                cell.setdefault(r.get("seed", 1), []).append(r)
        strategies = {strategy for _, strategy in cells}
        for (axes, strategy), seeds in cells.items():
            name = ", ".join(f"{k} {json.dumps(v)}" for k, v in json.loads(axes).items() if k != "strategies")
            if len(strategies) > 1:
                name += f" · {strategy}"
            finals, means, deployed, total, byts, secs = [], [], 0, 0, [], 0.0
            for rs in seeds.values():
                rs.sort(key=lambda r: r["round"])
                finals.append(rs[-1]["test_accuracy"])
                means.append(sum(r["test_accuracy"] for r in rs) / len(rs))
                deployed += sum(1 for r in rs if r["deployed"])
                total += len(rs)
                byts.append(rs[-1]["cumulative_bundle_bytes"])
                secs += sum(r["seconds"] for r in rs)
            first = seeds[min(seeds)]
            reinit = ",".join(str(r["round"]) for r in first if r["reinitialised"]) or "none"
            print(f"| {d.rstrip('/').split('/')[-1]} | {name} | {len(seeds)} | {reinit} | {deployed}/{total} "
                  f"| {spread(finals)} | {spread(means)} | {round(statistics.mean(byts)):,} | {secs:.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
