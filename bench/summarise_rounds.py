#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# One line per run folder: accuracy, real bundle bytes and the quantisation loss of its rounds.
"""Usage: summarise_rounds.py RUN_DIR... (each with a results.jsonl of one seed and strategy).

Quantisation loss: the mean, over deployed rounds, of the trained candidate's test accuracy
minus the accuracy of what the devices decoded (0 for exact codings)."""
import json
import sys


def main(dirs):
    print("| run | deployed rounds | final test (%) | mean test over rounds (%) | quantisation loss (points) "
          "| bundle bytes (all rounds) | mean k |")
    print("|---|---|---|---|---|---|---|")
    for d in dirs:
        with open(d + "/results.jsonl") as f:
            rs = [json.loads(line) for line in f]
        dep = [r for r in rs if r["deployed"]]
        loss = sum(r["candidate_test_accuracy"] - r["test_accuracy"] for r in dep) / max(len(dep), 1)
        k = sum(r.get("round_k", 0) for r in rs) / len(rs)
        print(f"| {d.rstrip('/').split('/')[-1]} | {len(dep)}/{len(rs)} | {100 * rs[-1]['test_accuracy']:.2f} "
              f"| {100 * sum(r['test_accuracy'] for r in rs) / len(rs):.2f} | {100 * loss:+.3f} "
              f"| {sum(r['bundle_bytes'] for r in rs)} | {k:.4f} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
