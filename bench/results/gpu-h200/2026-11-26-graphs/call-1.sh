#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The first device call of 2026-11-26 (session 17), run from the checkout root with .gpu-deps: CUDA graphs of the training step, checked and measured.
set -uo pipefail
t0=$(date +%s); DEADLINE=${DEADLINE:-540}
logs=/tmp/gpu-logs; mkdir -p $logs
prefix=/tmp/dpu-deps
el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
left() { echo $(( DEADLINE - ($(date +%s) - t0) )); }
finish() { tar czf $OUT/session5.tgz -C $logs --exclude='checkpoint' --exclude='bundles' --exclude='models' --exclude='*.safetensors' . 2>/dev/null; }
trap finish EXIT
source bench/gpu/gpu-env.sh $prefix
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $logs/gpu.txt
bench/gpu/setup-deps.sh .gpu-deps/debs $prefix > $logs/deps.log 2>&1 || { tail $logs/deps.log; exit 1; }
bench/gpu/setup-data.sh .gpu-deps/datasets $prefix >> $logs/deps.log 2>&1 || { tail $logs/deps.log; exit 1; }
el deps
DPU_KEEP_GOING=1 DPU_TARGETS="dpu-cli bench_device test_train_step test_masked_optimizer test_strategies test_runner test_sparse_runs" \
  bench/gpu/build-cuda.sh build-cuda -DDPU_BUILD_TESTS=ON -DDPU_BUILD_BENCH=ON -DDPU_UNITY_BUILD=ON > $logs/build.log 2>&1 \
  || { grep -E -A3 'error' $logs/build.log | head -60; exit 1; }
el build; grep -E 'CudaKernels' $logs/build.log | head -2
export OMP_WAIT_POLICY=passive
for t in test_train_step test_masked_optimizer test_strategies test_runner test_sparse_runs; do
  DPU_TEST_DEVICE=cuda QT_QPA_PLATFORM=offscreen timeout 120 build-cuda/tests/$t > $logs/$t.log 2>&1
  echo "$t: rc $? $(grep -E '^Totals' $logs/$t.log)"; grep -E '^FAIL|Loc:' $logs/$t.log | head -6
done
el tests
for g in 1 0; do
  DPU_CUDA_GRAPHS=$g build-cuda/bench/bench_device --device cuda --model mlp --samples 10000 --epochs 2 --threads 2 --reps 3 --steps 50 \
    > $logs/bench-device-graphs$g.json 2>$logs/bench-device-graphs$g.err; echo "graphs=$g $(cut -c1-330 $logs/bench-device-graphs$g.json)"
done
el bench_device
bench/gpu/fidelity-short.sh build-cuda $logs/fidelity-short 2>&1 | tail -n 8
el fidelity-short
OUT=$logs LIMIT=150 STEPS=plan JOBS_PLAN=12 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/plan-graphs.txt
mv $logs/sweeps $logs/sweeps-graphs
el plan-12-cells-graphs
(( $(left) > 120 )) && { DPU_CUDA_GRAPHS=0 OUT=$logs LIMIT=100 STEPS=plan JOBS_PLAN=12 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/plan-eager.txt; mv $logs/sweeps $logs/sweeps-eager; el plan-12-cells-eager; }
(( $(left) > 60 )) && { OUT=$logs LIMIT=$(( $(left) - 20 )) SEEDS="1 2 3" bench/gpu/compare-plan.sh build-cuda 2>&1 | tee $logs/compare.txt; el compare; }
el done
