#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Summarises bench/fleet-plan/run.sh: per scenario the planner's pick against the exhaustive grid's, and their times; then each DPU run at the reachable recommendation's deployment (the k sweep).
import json
import re
import sys
from pathlib import Path


def load(path):
    return json.loads(Path(path).read_text())


def pick(plan):
    """The recommended candidate, or the nearest when nothing meets the targets."""
    return plan["recommended"] or plan["nearest"]


def line(name, pruned, grid):
    a, b = pick(pruned), pick(grid)
    same = a["strategy"] == b["strategy"] and a["setting_text"] == b["setting_text"]
    gap = 100 * (b["fleet_accuracy"] - a["fleet_accuracy"]) / b["fleet_accuracy"]
    kind = "recommended" if pruned["recommended"] else "nearest (binding: %s)" % pruned["binding"]
    return ("| %s | %s: %s, %s | %.2f %% | %.1f %% | %.3f | %d of %d in %.2f s | %d in %.2f s | %s, %.2f %% below the grid's | %.2f |"
            % (name, kind, a["strategy"], a["setting_text"], 100 * a["fleet_accuracy"], 100 * a["battery_per_year"],
               a.get("fresh_share", float("nan")), pruned["simulated"], pruned["space"], pruned["seconds"],
               grid["simulated"], grid["seconds"], "same pick" if same else "another pick", gap,
               grid["seconds"] / max(pruned["seconds"], 1e-9)))


def strategy_parts(text):
    """'run-q4/dpu (q4, k 0.01)' -> ('run-q4', 'dpu', 'q4', 0.01): the run folder, strategy, coding, k."""
    m = re.fullmatch(r"(.+)/(\w+) \((\w+), k ([\d.]+)\)", text)
    return m.group(1), m.group(2), m.group(3), float(m.group(4))


def deployed(out, run, strategy):
    """(rounds deployed, rounds, mean bundle bytes of a deployed round) of a strategy in its run's
    records: a round the gate holds back sends nothing, and the fleet keeps the version before."""
    rows = [json.loads(x) for x in (out / "runs" / run / "results.jsonl").read_text().splitlines() if x.strip()]
    mine = [r for r in rows if r["strategy"] == strategy]
    sizes = [r["bundle_bytes"] for r in mine if r["deployed"]]
    return len(sizes), len(mine), sum(sizes) / len(sizes)


def sweep_table(out):
    """Each DPU run on the one deployment the planner recommends for the reachable targets."""
    plan = load(out / "at-recommended.json")
    print("\nEvery DPU run at the reachable recommendation's deployment (%s):\n" % plan["candidates"][0]["setting_text"])
    print("| coding | k | rounds deployed | bytes a deployed round | server accuracy | fleet accuracy | battery a year | fresh share | meets the targets |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for c in plan["candidates"]:
        run, strategy, coding, k = strategy_parts(c["strategy"])
        if strategy == "dpu":
            rows.append((coding, k, deployed(out, run, strategy), c))
    order = {"fp32": 0, "q8c": 1, "q4": 2, "ternary": 3}
    for coding, k, (sent, rounds, size), c in sorted(rows, key=lambda r: (order.get(r[0], 9), r[1])):
        print("| %s | %g | %d of %d | %.0f | %.2f %% | %.2f %% | %.2f %% | %.3f | %s |"
              % (coding, k, sent, rounds, size, 100 * c["server_accuracy"], 100 * c["fleet_accuracy"],
                 100 * c["battery_per_year"], c["fresh_share"], "yes" if c["meets_targets"] else "no"))


def main():
    out = Path(sys.argv[1])
    print("| scenario | the planner's answer | fleet accuracy | battery a year | fresh share | planner | grid | against the grid | grid / planner time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in ("reachable", "impossible", "scale", "scale216"):
        pruned, grid = out / (name + "-pruned.json"), out / (name + "-grid.json")
        if pruned.exists() and grid.exists():
            print(line(name, load(pruned), load(grid)))
    if (out / "at-recommended.json").exists():
        sweep_table(out)


if __name__ == "__main__":
    main()
