#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Second device call (session 17): one seed alone, MPS for processes sharing the GPU, the k sweep.
set -uo pipefail
t0=$(date +%s); DEADLINE=${DEADLINE:-380}
logs=/tmp/gpu-logs; mkdir -p $logs
prefix=/tmp/dpu-deps
el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
left() { echo $(( DEADLINE - ($(date +%s) - t0) )); }
finish() { tar czf $OUT/session6.tgz -C $logs --exclude='checkpoint' --exclude='bundles' --exclude='models' --exclude='*.safetensors' . 2>/dev/null; }
trap finish EXIT
source bench/gpu/gpu-env.sh $prefix
bench/gpu/setup-deps.sh .gpu-deps/debs $prefix > $logs/deps.log 2>&1 || { tail $logs/deps.log; exit 1; }
bench/gpu/setup-data.sh .gpu-deps/datasets $prefix >> $logs/deps.log 2>&1 || { tail $logs/deps.log; exit 1; }
DPU_TARGETS="dpu-cli" bench/gpu/build-cuda.sh build-cuda -DDPU_BUILD_TESTS=OFF -DDPU_BUILD_BENCH=OFF -DDPU_UNITY_BUILD=ON > $logs/build.log 2>&1 \
  || { grep -E -A3 'error' $logs/build.log | head -40; exit 1; }
el build
export OMP_WAIT_POLICY=passive
OUT=$logs/alone SEEDS=1 SIDES=engine LIMIT=60 bench/gpu/compare-plan.sh build-cuda 2>&1 | tee $logs/alone.txt
el one-seed-alone
command -v nvidia-cuda-mps-control; ls /usr/bin/nvidia-cuda-mps* /usr/local/nvidia/bin 2>/dev/null | head
if command -v nvidia-cuda-mps-control >/dev/null; then
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
  nvidia-cuda-mps-control -d && el "MPS on"
  OUT=$logs/mps SEEDS="1 2 3" SIDES=engine LIMIT=60 bench/gpu/compare-plan.sh build-cuda 2>&1 | tee $logs/mps-3proc.txt
  el mps-3-processes
  OUT=$logs/mps LIMIT=90 STEPS=plan JOBS_PLAN=12 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/mps-plan.txt
  el mps-12-cells
  (( $(left) > 60 )) && { OUT=$logs/mps LIMIT=$(( $(left) - 25 )) STEPS=ksweep JOBS_K=24 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/mps-ksweep.txt; el mps-ksweep; }
  echo quit | nvidia-cuda-mps-control; cat $CUDA_MPS_LOG_DIRECTORY/control.log 2>/dev/null | tail -3
else
  OUT=$logs/nomps LIMIT=$(( $(left) - 25 )) STEPS=ksweep JOBS_K=24 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/ksweep.txt; el ksweep
fi
el done
