#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Summarises bench/fleet-plan/run.sh: per scenario the planner's pick against the exhaustive grid's, and their times.
import json
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


def main():
    out = Path(sys.argv[1])
    print("| scenario | the planner's answer | fleet accuracy | battery a year | fresh share | planner | grid | against the grid | grid / planner time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in ("reachable", "impossible", "scale", "scale216"):
        pruned, grid = out / (name + "-pruned.json"), out / (name + "-grid.json")
        if pruned.exists() and grid.exists():
            print(line(name, load(pruned), load(grid)))


if __name__ == "__main__":
    main()
