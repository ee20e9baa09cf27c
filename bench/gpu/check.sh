#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On a GPU machine: builds against its CUDA LibTorch (tests and benchmarks included) and runs the
# engine's test suite with DPU_TEST_DEVICE=cuda. Logs go to $OUT (default out/gpu).
# Usage: bench/gpu/check.sh [DEB_DIR]      (DEB_DIR default .gpu-deps/debs; see docs/gpu.md)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/out/gpu}"
debs="${1:-$root/.gpu-deps/debs}"
prefix="${DPU_GPU_DEPS:-/tmp/dpu-deps}"
mkdir -p "$out"
"$root/bench/gpu/setup-deps.sh" "$debs" "$prefix" || exit 1
# The tests and benchmarks read Fashion-MNIST where Debian's package puts it.
if [[ ! -e /usr/share/datasets/fashion-mnist && -d "$prefix/usr/share/datasets/fashion-mnist" ]]; then
  mkdir -p /usr/share/datasets && ln -s "$prefix/usr/share/datasets/fashion-mnist" /usr/share/datasets/fashion-mnist
fi
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DPU_GPU_DEPS="$prefix"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
start=$(date +%s)
if ! "$root/bench/gpu/build-cuda.sh" "$root/build-cuda" -DDPU_BUILD_TESTS=ON -DDPU_BUILD_BENCH=ON \
       "-DQt6_DIR=$prefix/usr/lib/x86_64-linux-gnu/cmake/Qt6" > "$out/build.log" 2>&1; then
  grep -E 'error|Error' "$out/build.log" | head -30; tail -30 "$out/build.log"; exit 1
fi
echo "build: $(( $(date +%s) - start )) s"; grep -E 'CudaKernels|CUDA' "$out/build.log" | head -5
start=$(date +%s)
DPU_TEST_DEVICE=cuda OMP_WAIT_POLICY=passive QT_QPA_PLATFORM=offscreen \
  ctest --test-dir "$root/build-cuda" -j "${CTEST_JOBS:-6}" --output-on-failure -E 'debian_package|build_deps|fuzz' \
  > "$out/ctest.log" 2>&1
rc=$?
echo "ctest (DPU_TEST_DEVICE=cuda): rc $rc, $(( $(date +%s) - start )) s"
grep -E 'tests passed|Failed|\*\*\*' "$out/ctest.log" | tail -40
exit $rc
