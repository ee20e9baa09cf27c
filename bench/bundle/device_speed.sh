#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dpu-apply on one core: MB/s of weight file produced and peak memory, for a VGGNet-sized delta and full bundle.
#
# Usage: bench/bundle/device_speed.sh [OUT]   (default OUT: out/bundle-speed)
# Environment: DPU_BUILD_DIR (default build/, configured with -DDPU_BUILD_BENCH=ON), K (default 0.01),
#              REPS (default 3; the fastest wall time counts), PYTHON3 (default /usr/bin/python3, with torch).
# Makes the pair with bench/bundle/make_vgg_pair.py, the bundles with bench_bundle, then times
# `taskset -c 0 dpu-apply BUNDLE WEIGHTS` under /usr/bin/time -v (fsync of file and folder included)
# and, when valgrind is installed, records the heap peak with massif.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
out="${1:-$root/out/bundle-speed}"
reps="${REPS:-3}"
mkdir -p "$out"
cmake --build "$build" -j "${DPU_JOBS:-2}" --target bench_bundle dpu-apply >/dev/null
OMP_WAIT_POLICY=passive "${PYTHON3:-/usr/bin/python3}" "$root/bench/bundle/make_vgg_pair.py" --out "$out" --k "${K:-0.01}"
"$build/bench/bench_bundle" "$out/vgg-old.safetensors" "$out/vgg-new.safetensors" "$out" > "$out/bench.json"
apply="$build/app/apply/dpu-apply"
echo "| bundle | bundle bytes | file bytes | wall s (best of $reps) | user+sys s | MB/s produced (wall) | MB/s (CPU) | max RSS KiB | heap peak B |"
echo "|---|---|---|---|---|---|---|---|---|"
for b in fp32 q8 full; do
  best="" cpu="" rss=""
  for ((i = 0; i < reps; ++i)); do
    cp "$out/old.safetensors" "$out/w.safetensors"
    sync
    /usr/bin/time -v taskset -c 0 "$apply" "$out/$b.dpub" "$out/w.safetensors" > /dev/null 2> "$out/time.txt"
    w=$(awk -F': ' '/Elapsed/ {n = split($2, t, ":"); s = 0; for (j = 1; j <= n; ++j) s = s * 60 + t[j]; print s}' "$out/time.txt")
    c=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$out/time.txt")
    r=$(awk -F': ' '/Maximum resident/ {print $2}' "$out/time.txt")
    if [[ -z "$best" ]] || awk -v a="$w" -v b="$best" 'BEGIN {exit !(a < b)}'; then best="$w" cpu="$c" rss="$r"; fi
  done
  heap="-"
  if command -v valgrind >/dev/null; then
    cp "$out/old.safetensors" "$out/w.safetensors"
    valgrind --tool=massif --massif-out-file="$out/massif.$b" "$apply" "$out/$b.dpub" "$out/w.safetensors" >/dev/null 2>&1
    heap=$(sed -n 's/^mem_heap_B=//p' "$out/massif.$b" | sort -n | tail -1)
  fi
  size=$(stat -c %s "$out/w.safetensors")
  awk -v b="$b" -v bs="$(stat -c %s "$out/$b.dpub")" -v fs="$size" -v w="$best" -v c="$cpu" -v r="$rss" -v h="$heap" \
    'BEGIN {printf "| %s | %d | %d | %.2f | %.2f | %.1f | %.1f | %d | %s |\n", b, bs, fs, w, c, fs / w / 1e6, fs / c / 1e6, r, h}'
done
rm -f "$out/w.safetensors"
