# SPDX-License-Identifier: MIT
# Summarises a dpu-cli results.jsonl as the paper's Table 2 (accuracy difference and cost ratio to FU).
"""Reads results.jsonl (one JSON object per (seed, round, strategy)) and prints markdown.

Per strategy and seed:
  * mean test accuracy over rounds: the accuracy of the model on the devices after each
    round (`test_accuracy`), averaged over the rounds;
  * difference to FU: the per-round difference to FU's test accuracy of the same seed and
    round, averaged over the rounds (the paper's "average accuracy difference");
  * communication ratio to FU: the bits this strategy sent over all rounds divided by the
    bits FU sent over all rounds (the paper's "ratio of communication cost"). FU also skips
    rounds that do not improve its validation accuracy, so FU itself may send less than a
    full model every round; the ratio to one full model every round is shown as well.
Each figure is then given as mean and sample standard deviation over the seeds.

Only the Python standard library is used.
"""
import argparse
import json
import math
import statistics
import sys
from collections import defaultdict


def mean_sd(values):
    values = list(values)
    if not values:
        return float("nan"), float("nan")
    m = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return m, sd


def fmt(pair, scale=1.0, digits=2, signed=False):
    m, sd = pair
    if math.isnan(m):
        return "n/a"
    sign = "+" if signed else ""
    return f"{m * scale:{sign}.{digits}f} ± {sd * scale:.{digits}f}"


def load(path):
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{number}: not a JSON object ({e})")
    if not records:
        sys.exit(f"{path}: no records")
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+",
                        help="results.jsonl written by dpu-cli run (several: records are merged, e.g. an "
                             "ablation run with the main run's FU)")
    parser.add_argument("--baseline", default="fu", help="strategy the others are compared with (default: fu)")
    parser.add_argument("--per-round", action="store_true", help="also print the mean test accuracy per round")
    args = parser.parse_args()

    records = [r for path in args.results for r in load(path)]
    source = ", ".join(args.results)
    # by[strategy][seed][round] = record
    by = defaultdict(lambda: defaultdict(dict))
    order = []
    for r in records:
        if r["strategy"] not in order:
            order.append(r["strategy"])
        by[r["strategy"]][r["seed"]][r["round"]] = r
    base = args.baseline
    if base not in by:
        sys.exit(f"{source}: no records of the baseline strategy '{base}'")
    seeds = sorted(by[base])
    rounds = sorted({rnd for s in by.values() for seed in s.values() for rnd in seed})
    incomplete = [(st, seed) for st in order for seed in seeds if sorted(by[st].get(seed, {})) != rounds]
    if incomplete:
        print(f"> Warning: incomplete results for {incomplete}; only complete (strategy, seed) pairs are used.\n")

    rows = []
    for st in order:
        acc, diff, ratio_fu, ratio_full, deployed, reinit, seconds = [], [], [], [], [], [], []
        for seed in seeds:
            runs, ref = by[st].get(seed, {}), by[base].get(seed, {})
            if sorted(runs) != rounds or sorted(ref) != rounds:
                continue
            acc.append(statistics.fmean(runs[r]["test_accuracy"] for r in rounds))
            diff.append(statistics.fmean(runs[r]["test_accuracy"] - ref[r]["test_accuracy"] for r in rounds))
            bits = sum(runs[r]["analytic_bits"] for r in rounds)
            ref_bits = sum(ref[r]["analytic_bits"] for r in rounds)
            ratio_fu.append(bits / ref_bits if ref_bits > 0 else float("nan"))
            ratio_full.append(runs[rounds[-1]]["cumulative_ratio"])
            deployed.append(sum(1 for r in rounds if runs[r]["deployed"]))
            reinit.append(sum(1 for r in rounds if runs[r]["reinitialised"]))
            seconds.append(sum(runs[r]["seconds"] for r in rounds))
        rows.append((st, acc, diff, ratio_fu, ratio_full, deployed, reinit, seconds))

    print(f"Seeds: {', '.join(str(s) for s in seeds)}; rounds: {rounds[0]}..{rounds[-1]}; "
          f"samples per round: {by[base][seeds[0]][rounds[0]]['samples']}..{by[base][seeds[0]][rounds[-1]]['samples']}. "
          "Mean ± sample standard deviation over seeds.\n")
    print(f"| Strategy | Mean test accuracy over rounds (%) | Mean difference to {base.upper()} (points) "
          f"| Communication ratio to {base.upper()} | Ratio to a full model every round | Deployed rounds "
          "| Re-initialised rounds | Wall time per seed (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for st, acc, diff, ratio_fu, ratio_full, deployed, reinit, seconds in rows:
        print(f"| {st.upper()} | {fmt(mean_sd(acc), 100)} | {fmt(mean_sd(diff), 100, signed=True)} "
              f"| {fmt(mean_sd(ratio_fu), digits=4)} | {fmt(mean_sd(ratio_full), digits=4)} "
              f"| {fmt(mean_sd(deployed), digits=1)} | {fmt(mean_sd(reinit), digits=1)} "
              f"| {fmt(mean_sd(seconds), digits=0)} |")

    if args.per_round:
        print("\nMean test accuracy (%) of the deployed model per round, over seeds:\n")
        print("| Round | Samples | " + " | ".join(st.upper() for st in order) + " |")
        print("|---|---|" + "---|" * len(order))
        for rnd in rounds:
            cells = []
            for st in order:
                vals = [by[st][seed][rnd]["test_accuracy"] for seed in seeds if rnd in by[st].get(seed, {})]
                cells.append(f"{100 * statistics.fmean(vals):.2f}" if vals else "n/a")
            samples = by[base][seeds[0]][rnd]["samples"]
            print(f"| {rnd} | {samples} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
