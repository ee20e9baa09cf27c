#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time to first result: `scripts/run --out` in a fresh clone of a commit, packages present.
#
# Usage: bench/first_result.sh [COMMIT] [WORK_DIR]   (default: HEAD, a new folder in /tmp)
# Environment: DPU_CMAKE_ARGS (configure options, e.g. "-DDPU_UNITY_BUILD=ON" to compare),
#              BUILD_ONLY=1 (stop after the build: for comparing build variants).
# Prints the seconds to the end of the build, to the first round's result line and to the end
# of the run. ccache is switched off (CCACHE_DISABLE=1) so that nothing is reused.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="$(git -C "$root" rev-parse "${1:-HEAD}")"
work="${2:-$(mktemp -d /tmp/dpu-first-result.XXXXXX)}"
export CCACHE_DISABLE=1

git clone --quiet --no-local --no-checkout "$root" "$work/src"
git -C "$work/src" checkout --quiet --detach "$commit"
echo "commit $commit in $work/src; DPU_CMAKE_ARGS=${DPU_CMAKE_ARGS:-}; load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
stamp() { awk -v s="$start" -v n="$(date +%s.%N)" -v t="$1" 'BEGIN { printf "%7.1f s  %s\n", n - s, t }'; }
if [[ "${BUILD_ONLY:-0}" == 1 ]]; then
  "$work/src/scripts/build" dpu-apps >"$work/build.log" 2>&1
  stamp "built (dpu-apps; $(grep -c '^\[' "$work/build.log") steps)"
  exit 0
fi
first=0
"$work/src/scripts/run" --out "$work/run" 2>&1 | while IFS= read -r line; do
  echo "$line" >>"$work/run.log"
  case "$line" in
    "Plan "*) stamp "built, run started: $line" ;;
    "seed "*" round "*) if ((first == 0)); then stamp "first result: $line"; first=1; fi ;;
  esac
done
stamp "run finished (log: $work/run.log)"
