#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarises a rate-accuracy sweep: the frontier table in real bundle bytes and the frontier picture.

Usage: summarise.py RUNS_DIR [--cli PATH/dpu-cli] [--out DIR]

The figures are the application's own (`dpu-cli frontier --json`: core's dpu/Frontier.h), so the
table says what the Budget tab and `dpu-cli budget` say. Writes DIR/frontier.png and
DIR/frontier.svg through the application's chart rendering (`dpu-cli frontier --image`) and prints
Markdown: per family and k (mean ± standard deviation over seeds where there are several) the mean test-accuracy difference to FU and the real bundle bytes of all
rounds as a ratio of FU's analytic bits (the paper's denominator), the non-dominated points, and
the issue's target (within 0.5 points of FU at no more than 0.005 of FU's bits).
Only the standard library is needed.
"""
import argparse
import json
import math
import os
import subprocess
import sys

TARGET_POINTS = -0.5  # accuracy difference to FU, in points
TARGET_RATIO = 0.005  # of FU's bits


def frontier(cli, runs):
    p = subprocess.run([cli, "frontier", runs, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"dpu-cli frontier {runs}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def fmt(v, spec):
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs")
    ap.add_argument("--cli", default=os.path.join("build", "app", "cli", "dpu-cli"))
    ap.add_argument("--out", default=None, help="folder for frontier.png and frontier.svg (default: beside RUNS)")
    a = ap.parse_args()
    out = a.out or os.path.dirname(os.path.abspath(a.runs))
    groups = frontier(a.cli, a.runs)
    if not groups:
        sys.exit("no finished runs")
    group = max(groups, key=lambda g: len(g["runs"]))
    for ext in ("png", "svg"):
        path = os.path.join(out, "frontier." + ext)
        p = subprocess.run([a.cli, "frontier", a.runs, "--image", path], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"(no {ext}: {p.stderr.strip()})", file=sys.stderr)

    print(f"Rate-accuracy sweep: {group['model']}, {group['rounds']} rounds, seeds {group['seeds']}, "
          f"{len(group['runs'])} finished runs; FU reference: {group['fu_reference'] or 'none'}\n")
    # With several seeds: mean ± sample standard deviation over the seeds (core's figures).
    spread = any((p.get("seed_units") or 0) > 1 for f in group["families"] for p in f["points"])
    print("| family | k | accuracy | Δ to FU (points) | real B/round | real B/run | all rounds / FU's bits |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    points = []
    for fam in group["families"]:
        for p in fam["points"]:
            acc = p["mean_accuracy"]
            diff = None if p["accuracy_to_fu"] is None else 100.0 * p["accuracy_to_fu"]
            diff_cell, ratio_cell = fmt(diff, "+.2f"), fmt(p["ratio_to_fu"], ".4f")
            if spread and fam["strategy"] != "fu":
                std = p.get("accuracy_to_fu_std")
                diff_cell += " ± " + fmt(None if std is None else 100.0 * std, ".2f")
                ratio_cell += " ± " + fmt(p.get("ratio_to_fu_std"), ".4f")
            print(f"| {fam['family']} | {p['k']:g} | {fmt(100.0 * acc, '.2f')} % | {diff_cell} | "
                  f"{fmt(p['real_bytes_per_update_round'], '.0f')} | {fmt(p['real_bytes_per_run'], '.0f')} | "
                  f"{ratio_cell} |")
            if fam["strategy"] != "fu" and diff is not None and p["ratio_to_fu"] is not None:
                points.append((p["ratio_to_fu"], diff, fam["family"], p["k"]))
    if not points:
        print("\nNo point has an FU reference: run FU too (the sweep's fu-fp32 plan).")
        return
    # Non-dominated: no other point is as cheap and at least as accurate.
    best = [p for p in points if not any(q[0] <= p[0] and q[1] >= p[1] and q != p for q in points)]
    best.sort()
    print("\nNon-dominated points (fewest bits first):\n")
    for ratio, diff, fam, k in best:
        print(f"- {fam} at k={k:g}: {diff:+.2f} points to FU at {ratio:.4f} of FU's bits")
    within = [p for p in points if p[0] <= TARGET_RATIO]
    if within:
        ratio, diff, fam, k = max(within, key=lambda p: p[1])
        verdict = "meets" if diff >= TARGET_POINTS else "misses"
        print(f"\nTarget (≥ {TARGET_POINTS:+.1f} points at ≤ {TARGET_RATIO} of FU's bits): best within the bits is "
              f"{fam} at k={k:g}, {diff:+.2f} points at {ratio:.4f}: {verdict} it on this setting "
              f"(the target is judged on the fidelity setting with three seeds).")
    else:
        print(f"\nTarget: no point at ≤ {TARGET_RATIO} of FU's bits; the cheapest is at {min(points)[0]:.4f}.")


if __name__ == "__main__":
    main()
