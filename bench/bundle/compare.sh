#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bundle sizes against xdelta3 / bsdiff / zstd --patch-from on the same old and new device files.
#
# Usage: bench/bundle/compare.sh --pairs DIR OUT     round-RR-old/new.safetensors pairs (make_rounds.py)
#        bench/bundle/compare.sh --run RUN_DIR OUT   a dpu-cli run's bundles/seed-S/{initial.safetensors,
#                                                    STRATEGY/round-NNN.dpub}: applied in order with dpu-apply
#                                                    to recreate every round's old and new device file
# Environment: DPU_BUILD_DIR (default build/, configured with -DDPU_BUILD_BENCH=ON), PYTHON (python3).
# Per pair, OUT/pairs/LABEL/ receives the files, our fp32/fp16/q8 bundles (bench_bundle), the three
# comparators' patches and result.json; bench/bundle/summarise.py OUT then prints the tables.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${DPU_BUILD_DIR:-$root/build}"
python="${PYTHON:-python3}"
[[ $# -eq 3 && ( "$1" == --pairs || "$1" == --run ) ]] || { sed -n 5,9p "$0"; exit 2; }
mode="$1" src="$2" out="$3"
for tool in xdelta3 bsdiff zstd; do
  command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install xdelta3 bsdiff zstd" >&2; exit 2; }
done
cmake --build "$build" -j "${DPU_JOBS:-2}" --target bench_bundle dpu-apply >/dev/null
bench="$build/bench/bench_bundle" apply="$build/app/apply/dpu-apply"
mkdir -p "$out/pairs"

size() { stat -c %s "$1"; }

# compare LABEL OLD NEW KIND [REAL_BUNDLE]
compare() {
  local label="$1" old="$2" new="$3" kind="$4" real="${5:-}" d="$out/pairs/$1"
  mkdir -p "$d"
  "$bench" "$old" "$new" "$d" > "$d/bench.json"
  # The comparators get the same two files the bundles move between (bench_bundle's old/new).
  xdelta3 -9 -e -f -s "$d/old.safetensors" "$d/new.safetensors" "$d/patch.xdelta3"
  bsdiff "$d/old.safetensors" "$d/new.safetensors" "$d/patch.bsdiff"
  zstd -q -f -19 --patch-from="$d/old.safetensors" "$d/new.safetensors" -o "$d/patch.zst" 2>/dev/null
  "$python" - "$d" "$label" "$kind" "$real" <<'PY'
import json, os, sys
d, label, kind, real = sys.argv[1:]
r = {"label": label, "kind": kind, "bench": json.load(open(os.path.join(d, "bench.json"))),
     "tools": {t: os.path.getsize(os.path.join(d, f)) for t, f in
               (("xdelta3", "patch.xdelta3"), ("bsdiff", "patch.bsdiff"), ("zstd", "patch.zst"))}}
if real:
    r["real_bundle_bytes"] = os.path.getsize(real)
json.dump(r, open(os.path.join(d, "result.json"), "w"))
PY
  echo "$label ($kind): fp32 $(size "$d/fp32.dpub") q8 $(size "$d/q8.dpub") xdelta3 $(size "$d/patch.xdelta3")" \
       "bsdiff $(size "$d/patch.bsdiff") zstd $(size "$d/patch.zst")${real:+ real $(size "$real")}"
}

kind_of() { # manifest byte 0 (bundle offset 16): 1 full, 2 delta, 3 reinit+delta
  case "$(od -An -tu1 -j16 -N1 "$1" | tr -d ' ')" in 1) echo full ;; 2) echo delta ;; 3) echo reinit ;; *) echo "?" ;; esac
}

if [[ "$mode" == --pairs ]]; then
  for old in "$src"/round-*-old.safetensors; do
    r="$(basename "$old" -old.safetensors)"
    compare "$r" "$old" "${old%-old.safetensors}-new.safetensors" delta
  done
else
  work="$out/device"
  for seed in "$src"/bundles/seed-*; do
    for strat in "$seed"/*/; do
      strat="${strat%/}" s="$(basename "$strat")"
      mkdir -p "$work"
      cp "$seed/initial.safetensors" "$work/cur.safetensors"
      for b in "$strat"/round-*.dpub; do
        r="$(basename "$b" .dpub)"
        cp "$work/cur.safetensors" "$work/old.safetensors"
        "$apply" "$b" "$work/cur.safetensors" >/dev/null
        if cmp -s "$work/old.safetensors" "$work/cur.safetensors"; then continue; fi
        compare "$(basename "$seed")-$s-$r" "$work/old.safetensors" "$work/cur.safetensors" "$(kind_of "$b")" "$b"
      done
    done
  done
fi
"$python" "$root/bench/bundle/summarise.py" "$out" | tee "$out/summary.md"
