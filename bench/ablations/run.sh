#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The paper's ablations on a small setting (docs/benchmarks.md, section 19): reinit_every, fu_start, rewind.
# Usage: bench/ablations/run.sh [OUT_DIR [SWEEP...]]   (default out/ablations and the sweeps reinit,
# fu-start, rewind; dpu-cli from DPU_CLI or build/)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cli="${DPU_CLI:-$root/build/app/cli/dpu-cli}"
out="${1:-$root/out/ablations}"
shift || true
sweeps=("$@")
[[ ${#sweeps[@]} -gt 0 ]] || sweeps=(reinit fu-start rewind)
dirs=()
for s in "${sweeps[@]}"; do
  # One cell at a time, niced: the setting is small and the machine is shared.
  nice -n 10 "$cli" sweep run "$here/$s.json" --out "$out/$s" --jobs 1
  "$cli" sweep merge "$out/$s" > /dev/null
  dirs+=("$out/$s")
done
python3 "$here/summarise.py" "${dirs[@]}"
