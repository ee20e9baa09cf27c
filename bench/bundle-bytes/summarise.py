#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarises measure.py's records: per run, the mean bytes per delta round (round 2 on) by part
(weights' positions, values, headers and tables; biases; scales; envelope, tensor table and
section H) and, with two runs, the first's bytes against the second's.

  python3 bench/bundle-bytes/summarise.py records.jsonl [--ratio int8 fp32]
"""
import argparse
import json
from collections import defaultdict

PARTS = ["weight positions", "weight values", "weight headers+tables", "biases", "scales", "envelope+table+H", "total"]


def parts(r):
    w = r["roles"].get("weights", {})
    b = lambda bits: bits / 8.0
    return {
        "weight positions": b(w.get("position_bits", 0)),
        "weight values": b(w.get("value_bits", 0) + w.get("cq_bits", 0)),
        "weight headers+tables": b(w.get("header_bits", 0) + w.get("table_bits", 0) + w.get("padding_bits", 0)),
        "biases": r["roles"].get("biases", {}).get("bytes", 0),
        "scales": r["roles"].get("scales", {}).get("bytes", 0),
        "envelope+table+H": r["envelope"] + r["tensor_table"] + r["section_H"],
        "total": r["bytes"],
    }


def summarise(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    sums, counts = defaultdict(lambda: defaultdict(float)), defaultdict(int)
    for r in rows:
        if r["round"] < 2:
            continue
        for k, v in parts(r).items():
            sums[r["run"]][k] += v
        counts[r["run"]] += 1
    return {run: {k: v / counts[run] for k, v in s.items()} for run, s in sums.items()}, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("records")
    ap.add_argument("--ratio", nargs=2, metavar=("RUN", "OVER"))
    a = ap.parse_args()
    means, counts = summarise(a.records)
    runs = list(means)
    print("| part (mean bytes per delta round) | " + " | ".join(f"{r} ({counts[r]} rounds)" for r in runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for p in PARTS:
        print(f"| {p} | " + " | ".join(f"{means[r][p]:,.0f} ({100 * means[r][p] / means[r]['total']:.1f} %)" for r in runs) + " |")
    if a.ratio:
        x, y = (means[a.ratio[0]], means[a.ratio[1]])
        print(f"\n{a.ratio[0]} / {a.ratio[1]}: " + ", ".join(f"{p} {x[p] / y[p]:.3f}" for p in PARTS if y[p] > 0))


if __name__ == "__main__":
    main()
