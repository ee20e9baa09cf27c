#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# One line per sweep cell of bench/ablations: its ablation value, re-initialised rounds, accuracy (mean ± std over seeds) and bytes.
"""Usage: summarise.py [--to-fu [--fu RECORDS] [--from-round N]] SWEEP_DIR... (each merged by `dpu-cli sweep merge`).

--to-fu: per cell whose records hold FU beside DPU (or DPU and dpu-memory), each one's difference to FU seed by seed (mean
test accuracy over the rounds, and the last round), its bundle bytes over FU's, its deployed
rounds and its quantisation loss (decoded against float candidate, deployed partial rounds).
--fu RECORDS: FU's records (results.jsonl) for cells that hold none, by seed.
--from-round N: only rounds N and later (2: after the shared base a sparse or INT8 model's round 1
deploys to every strategy), with a column of the weights or codes a deployed round changes."""
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


def points(values):
    """Mean ± sample std of values already in points, signed."""
    if len(values) < 2:
        return f"{values[0]:+.2f}" if values else "-"
    return f"{statistics.mean(values):+.2f} ± {statistics.stdev(values):.2f}"


def to_fu(dirs, fu_records=None, first=1):
    changed = " changed per deployed round |" if first > 1 else ""
    print("| sweep | cell | seeds | Δ to FU, mean over rounds (points) | Δ to FU, last round | bytes / FU's "
          "| deployed rounds | quantisation loss (points) | per seed (mean over rounds) |" + changed)
    print("|---|---|---|---:|---:|---:|---:|---:|---|" + ("---:|" if first > 1 else ""))
    for d in dirs:
        cells = {}
        with open(d if d.endswith(".jsonl") else d + "/results.jsonl") as f:  # a sweep, or its records kept
            for line in f:
                r = json.loads(line)
                # A seed of its own cell (a "seeds" axis) joins the family's other seeds.
                axes = {k: v for k, v in r.get("axes", {}).items() if k not in ("seeds", "strategies")}
                cell = cells.setdefault(json.dumps(axes, sort_keys=True), {})
                cell.setdefault(r.get("seed", 1), {}).setdefault(r["strategy"], []).append(r)
        for axes, seeds in cells.items():
            name = ", ".join(f"{k} {json.dumps(v)}" for k, v in json.loads(axes).items()
                             if k not in ("strategies", "seeds"))
            for seed, by in seeds.items():
                if "fu" not in by and fu_records and seed in fu_records:
                    by["fu"] = fu_records[seed]
            # Every partial-updating strategy of the cell (DPU, or DPU beside dpu-memory) against FU.
            others = sorted({s for by in seeds.values() for s in by if s != "fu"})
            for strategy in others:
                row(d, name + (f" · {strategy}" if len(others) > 1 else ""), seeds, strategy, first)


def row(d, name, seeds, strategy, first):
    """One line of the --to-fu table: `strategy` against FU, seed by seed, over rounds `first` on."""
    means, lasts, ratios, losses, deployed, total, changed = [], [], [], [], 0, 0, []
    for by in seeds.values():
        if "fu" not in by or strategy not in by or len(by["fu"]) != len(by[strategy]):
            continue  # a seed still running, or no FU to compare with
        fu, dpu = (sorted((r for r in by[s] if r["round"] >= first), key=lambda r: r["round"])
                   for s in ("fu", strategy))
        means.append(100 * (statistics.mean(r["test_accuracy"] for r in dpu)
                            - statistics.mean(r["test_accuracy"] for r in fu)))
        lasts.append(100 * (dpu[-1]["test_accuracy"] - fu[-1]["test_accuracy"]))
        ratios.append(sum(r["bundle_bytes"] for r in dpu) / sum(r["bundle_bytes"] for r in fu))
        changed += [r["updated_weights"] for r in dpu if r["deployed"]]
        losses += [100 * (r["candidate_test_accuracy"] - r["test_accuracy"]) for r in dpu
                   if r["deployed"] and r["bundle_kind"] != "full"]
        deployed += sum(1 for r in dpu if r["deployed"])
        total += len(dpu)
    if not means:
        return
    ratio = (f"{statistics.mean(ratios):.4f} ± {statistics.stdev(ratios):.4f}" if len(ratios) > 1
             else f"{ratios[0]:.4f}")
    loss = f"{statistics.mean(losses):.2f}" if losses else "-"
    print(f"| {d.rstrip('/').split('/')[-1].removesuffix('.jsonl')} | {name} | {len(means)} | {points(means)} | {points(lasts)} "
          f"| {ratio} | {deployed}/{total} | {loss} | {' / '.join(f'{m:+.2f}' for m in means)} |"
          + (f" {statistics.mean(changed):,.0f} |" if first > 1 else ""))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--to-fu"]:
        args = sys.argv[2:]
        fu = None
        if args[:1] == ["--fu"]:
            fu = {}
            for line in open(args[1]):
                r = json.loads(line)
                if r["strategy"] == "fu":
                    fu.setdefault(r["seed"], []).append(r)
            args = args[2:]
        first = 1
        if args[:1] == ["--from-round"]:
            first = int(args[1])
            args = args[2:]
        to_fu(args, fu, first)
    else:
        main(sys.argv[1:])
