#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Third device call (session 17), on an H100: the fidelity plan as 12 cells under MPS, graphs on and off.
set -uo pipefail
t0=$(date +%s)
logs=/tmp/gpu-logs; mkdir -p $logs
prefix=/tmp/dpu-deps
el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
finish() { tar czf $OUT/session7.tgz -C $logs --exclude='checkpoint' --exclude='bundles' --exclude='models' --exclude='*.safetensors' . 2>/dev/null; }
trap finish EXIT
source bench/gpu/gpu-env.sh $prefix
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $logs/gpu.txt
bench/gpu/setup-deps.sh .gpu-deps/debs $prefix > $logs/deps.log 2>&1 || { tail $logs/deps.log; exit 1; }
bench/gpu/setup-data.sh .gpu-deps/datasets $prefix >> $logs/deps.log 2>&1 || { tail $logs/deps.log; exit 1; }
DPU_TARGETS="dpu-cli" bench/gpu/build-cuda.sh build-cuda -DDPU_BUILD_TESTS=OFF -DDPU_BUILD_BENCH=OFF -DDPU_UNITY_BUILD=ON > $logs/build.log 2>&1 \
  || { grep -E -A3 'error' $logs/build.log | head -40; exit 1; }
el build
export OMP_WAIT_POLICY=passive CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
nvidia-cuda-mps-control -d && el "MPS on"
OUT=$logs/graphs LIMIT=45 STEPS=plan JOBS_PLAN=12 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/mps-plan-graphs.txt
el mps-12-cells-graphs
DPU_CUDA_GRAPHS=0 OUT=$logs/eager LIMIT=50 STEPS=plan JOBS_PLAN=12 bench/gpu/sweep-throughput.sh build-cuda 2>&1 | tee $logs/mps-plan-eager.txt
el mps-12-cells-eager
echo quit | nvidia-cuda-mps-control
