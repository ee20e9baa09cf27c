#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Three-seed confirmation of the rate-accuracy sweep's best points on the fidelity setting (issue 10).
#
# Usage: bench/rate_accuracy/confirm.sh [OUT_DIR]          (default OUT_DIR: out/rate_confirm)
# Runs bench/fidelity.json's setting (MLP, {1000, 1000} x 10 rounds, 20 epochs, seeds 1-3) for FU,
# the paper's DPU (exact, k = 0.01) and the exploration's best points near the target corner
# (q4 with coded biases, with and without memory, k = 0.0125-0.02; docs/benchmarks.md section 8)
# plus q4 at k = 0.025, through sweep.sh (resumable: start it again
# to go on), then prints the table with mean ± standard deviation over the seeds.
# Environment: DPU_BUILD_DIR, DPU_JOBS, PYTHON as for sweep.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/out/rate_confirm}"
mkdir -p "$out"
coded='{"bundle": {"dense_tensors": "coded"}}'

confirm() { # KS, then family lines
  local ks="$1"; shift
  printf '%s\n' "$@" > "$out/families-$ks.txt"
  BASE="$root/bench/fidelity.json" FAMILIES="$out/families-$ks.txt" KS="$ks" "$here/sweep.sh" "$out"
}
confirm 0.01 "dpu fp32"
confirm "0.0125 0.015" "dpu q4 $coded" "dpu-memory q4 $coded"
confirm 0.02 "dpu q4 $coded" "dpu-memory q4 $coded"
confirm 0.025 "dpu q4 $coded"   # how far k must go for the accuracy side
