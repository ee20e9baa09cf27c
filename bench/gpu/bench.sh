#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On a GPU machine, after check.sh: the speed grid (bench_device: MLP, ResNet20, VGGNet on CUDA and
# on all CPU cores), then the fidelity plan on CUDA (one process per seed, side by side) with a
# repeat of seed 1 for run-to-run determinism. Raw figures go to $OUT (default out/gpu).
# Usage: bench/gpu/bench.sh [speed|fidelity|all]   Environment: FIDELITY_LIMIT (s, default 420),
# SPEED_GRID=quick (check.sh's: the CPU side for the MLP only; the CPU's VGGNet alone takes minutes)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/out/gpu}"
what="${1:-all}"
prefix="${DPU_GPU_DEPS:-/tmp/dpu-deps}"
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_WAIT_POLICY=passive
build="$root/build-cuda"
mkdir -p "$out"
cores=$(nproc)

if [[ "$what" == speed || "$what" == all ]]; then
  : > "$out/speed.jsonl"
  # model samples: the MLP on 10000 samples, the CIFAR networks on 2048 (CPU rounds take minutes).
  for spec in mlp:10000 resnet20:2048 vgg:2048; do
    model="${spec%%:*}"; samples="${spec##*:}"
    for device in cuda cpu; do
      [[ "${SPEED_GRID:-full}" == quick && $device == cpu && $model != mlp ]] && continue
      reps=3; [[ $device == cpu && $model != mlp ]] && reps=2
      echo "[$(date +%T)] $model on $device" >&2
      "$build/bench/bench_device" --device "$device" --model "$model" --samples "$samples" --epochs 2 \
        --threads "$cores" --reps "$reps" --steps 50 | tail -n 1 | tee -a "$out/speed.jsonl"
    done
  done
fi

if [[ "$what" == fidelity || "$what" == all ]]; then
  plans="$out/plans"
  mkdir -p "$plans"
  # bench/fidelity.json as it is, but on CUDA and one seed per process; "1b" repeats seed 1.
  for s in 1 2 3 1b; do
    python3 - "$root/bench/fidelity.json" "$plans/seed-$s.json" "$s" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
seed = sys.argv[3]
plan.update(device="cuda", seeds=[int(seed.rstrip("b"))], threads=2, name=plan["name"] + "-cuda-seed" + seed)
json.dump(plan, open(sys.argv[2], "w"), indent=1)
PY
  done
  start=$(date +%s)
  pids=()
  for s in 1 2 3 1b; do
    timeout "${FIDELITY_LIMIT:-420}" "$build/app/cli/dpu-cli" run "$plans/seed-$s.json" --out "$out/fidelity-$s" \
      --resume --quiet > "$out/fidelity-$s.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  echo "fidelity: $(( $(date +%s) - start )) s"
  for s in 1 2 3 1b; do echo "seed $s: $(wc -l < "$out/fidelity-$s/results.jsonl" 2>/dev/null) records; $(tail -n 2 "$out/fidelity-$s.log" | tr '\n' ' ')"; done
  if [[ -s "$out/fidelity-1/results.jsonl" && -s "$out/fidelity-1b/results.jsonl" ]]; then
    python3 "$root/bench/gpu/compare-records.py" "$out/fidelity-1/results.jsonl" "$out/fidelity-1b/results.jsonl" \
      | tee "$out/determinism.txt"
  fi
  python3 "$root/bench/summarise_fidelity.py" --per-round "$out"/fidelity-{1,2,3}/results.jsonl > "$out/fidelity-summary.md" 2>&1
  head -12 "$out/fidelity-summary.md"
fi
