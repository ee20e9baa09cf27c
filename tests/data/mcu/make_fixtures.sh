#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates the mcu_apply fixtures: two real rounds of DPU on Fashion-MNIST's MLP per value coding.
# Usage: tests/data/mcu/make_fixtures.sh [DPU_CLI]   (default build/app/cli/dpu-cli)
# Each coding gets CODING/round-001.dpub (a re-initialising delta: the device needs no file
# before it) and CODING/round-002.dpub (a plain delta over round 1's file), so the test needs no
# 2.7 MB device file in the repository: the chain starts from nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cli="${1:-$here/../../../build/app/cli/dpu-cli}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for coding in fp32 fp16 q8 q8c q4 ternary; do
  # initial 300 and 200 per round: round 2 (|D| 500 <= 2 x 300) is a delta, not a re-initialisation
  cat >"$work/plan-$coding.json" <<PLAN
{"name": "mcu-$coding", "dataset": {"train_limit": 1200, "test_limit": 400},
 "split": {"initial": 300, "per_round": 200, "rounds": 2, "validation": 200},
 "strategies": ["dpu"], "k": 0.02, "train": {"epochs": 1}, "seeds": [4],
 "bundle": {"values": "$coding"}}
PLAN
  "$cli" run "$work/plan-$coding.json" --out "$work/run-$coding" --quiet
  mkdir -p "$here/$coding"
  for r in 001 002; do
    src="$work/run-$coding/bundles/seed-4/dpu/round-$r.dpub"
    [[ -f "$src" ]] || { echo "error: the $coding run did not deploy round $r" >&2; exit 1; }
    cp "$src" "$here/$coding/round-$r.dpub"
  done
done
