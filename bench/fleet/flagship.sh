#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 23, benchmark 4: the flagship scenario (200 alpine nodes, LoRaWAN EU868 with FUOTASim's
# SF mix, 1 % duty cycle, 10 % frame loss, 80 % availability per round, a round a day) over
# finished runs of each coding; prints one Markdown table (docs/benchmarks.md, section 18).
#
# Usage: bench/fleet/flagship.sh RUN_DIR... [-- EXTRA dpu-cli fleet OPTIONS]
# Environment: DPU_CLI (default build/app/cli/dpu-cli), DRAIN (rounds after the last, default 20).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${DPU_CLI:-$root/build/app/cli/dpu-cli}"
runs=()
extra=()
while (($#)); do
  if [[ "$1" == "--" ]]; then shift; extra=("$@"); break; fi
  runs+=("$1"); shift
done
echo "| run | strategy | bytes sent per round (all sessions) | v1 to 90 % (days) | latest to 50 % / 90 % (days) | J/device/update round | battery/year | fleet acc | server acc |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for run in "${runs[@]}"; do
  "$cli" fleet "$run" --devices 200 --link lorawan-eu868 --sf-mix fuotasim --duty-cycle 0.01 --loss 0.1 \
        --availability 0.8 --drain "${DRAIN:-20}" "${extra[@]}" --json 2>/dev/null |
  python3 -c '
import json, sys
run = sys.argv[1]
d = json.load(sys.stdin)
days = lambda s: "never" if s is None else "%.1f" % (s / 86400)
for s in d["strategies"]:
    rounds = [r for r in s["rounds"] if r.get("bundle_bytes", 0) > 0]
    mean = sum(r["bundle_bytes"] for r in rounds) / max(1, len(rounds))
    v1 = s["time_to_share_s"][1]["90"] if len(s["time_to_share_s"]) > 1 else None
    latest = s["latest_time_to_share_s"]
    print("| %s | %s | %.0f | %s | %s / %s | %.1f J | %.0f %% | %.2f %% | %.2f %% |" % (
        run, s["strategy"], mean, days(v1), days(latest["50"]), days(latest["90"]),
        s["energy_per_update_round_j"], 100 * s["battery_share_per_year"],
        100 * s["mean_fleet_accuracy"], 100 * s["mean_server_accuracy"]))
' "$(basename "$run")"
done
