# SPDX-License-Identifier: MIT
# Setup shared by the sweep benchmarks (sourced): root, the CLI, the work folder, the thread policy, timers.
# Before sourcing, set default_work to the mktemp pattern of the benchmark's work folder; $1 overrides it.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cli="${DPU_CLI:-$root/build/app/cli/dpu-cli}"
work="${1:-$(mktemp -d "$default_work")}"
export OMP_WAIT_POLICY=passive # as our programs set it: 2-3x faster training on 2 cores
mkdir -p "$work"
stamp() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }'; }
header() { echo "cli $cli; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); work $work"; }
