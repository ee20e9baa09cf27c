#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The desktop application on a GPU-backed core: dpu-planner runs bench/fidelity.json's setting on
# CUDA (seed 1, FU and DPU, 6 rounds of 5 epochs) on the offscreen platform with one 1366x768
# screen, and saves the window two thirds into the run (--screenshot). Fails unless the run used
# CUDA and the PNG was written. SHOT_DEVICE=cpu takes the same picture on a machine without a GPU.
# Usage: bench/gpu/window-shot.sh BUILD_DIR OUT_PNG
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:?usage: window-shot.sh BUILD_DIR OUT_PNG}"
png="${2:?usage: window-shot.sh BUILD_DIR OUT_PNG}"
work="$(mktemp -d)"
python3 - "$root/bench/fidelity.json" "$work/plan.json" "${SHOT_DEVICE:-cuda}" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan.update(name="fidelity-on-" + sys.argv[3], device=sys.argv[3], seeds=[1], strategies=["fu", "dpu"])
plan["split"]["rounds"] = 6
plan["train"] = dict(plan["train"], epochs=5, schedule={"kind": "step", "step_epochs": 2, "gamma": 0.1})
json.dump(plan, open(sys.argv[2], "w"), indent=1)
PY
printf '{"screens": [{"name": "shot", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpiX": 96, "logicalDpiY": 96}]}\n' \
  > "$work/screens.json"
# Settings and run folders of this shot only.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" HOME="$work"
start=$(date +%s)
QT_QPA_PLATFORM="offscreen:configfile=$work/screens.json" timeout 300 \
  "$build/app/gui/dpu-planner" --screenshot "$png" "$work/plan.json"
echo "window: $(( $(date +%s) - start )) s"
[[ -s "$png" ]] || { echo "window-shot: no screenshot written" >&2; exit 1; }
# The run's own record says where it ran.
record=$(find "$work" -name run.json | head -n 1)
if ! grep -q "\"device\": \"${SHOT_DEVICE:-cuda}" "$record"; then
  echo "window-shot: the run did not record device ${SHOT_DEVICE:-cuda}: $(grep -o '"device"[^,]*' "$record")" >&2
  exit 1
fi
grep -o '"device"[^,]*' "$record"
echo "screenshot: $png"
