#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# One line per sweep cell of bench/ablations: its ablation value, re-initialised rounds, accuracy and bytes.
"""Usage: summarise.py SWEEP_DIR... (each merged by `dpu-cli sweep merge`)."""
import json
import sys


def main(dirs):
    print("| sweep | cell | re-initialised rounds | deployed rounds | final test (%) "
          "| mean test over rounds (%) | bundle bytes (all rounds) | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for d in dirs:
        cells = {}
        with open(d + "/results.jsonl") as f:
            for line in f:
                r = json.loads(line)
                cells.setdefault(json.dumps(r["axes"], sort_keys=True), []).append(r)
        for axes, rs in cells.items():
            rs.sort(key=lambda r: r["round"])
            name = ", ".join(f"{k} {json.dumps(v)}" for k, v in json.loads(axes).items() if k != "strategies")
            reinit = ",".join(str(r["round"]) for r in rs if r["reinitialised"]) or "none"
            deployed = sum(1 for r in rs if r["deployed"])
            mean = sum(r["test_accuracy"] for r in rs) / len(rs)
            print(f"| {d.rstrip('/').split('/')[-1]} | {name} | {reinit} | {deployed}/{len(rs)} "
                  f"| {100 * rs[-1]['test_accuracy']:.2f} | {100 * mean:.2f} "
                  f"| {rs[-1]['cumulative_bundle_bytes']} | {sum(r['seconds'] for r in rs):.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
