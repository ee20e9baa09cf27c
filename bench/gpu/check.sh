#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On a GPU machine, everything it must check, in order; exits non-zero when any step fails.
#   deps      unpack .gpu-deps/debs (docs/gpu.md lists them) and Fashion-MNIST from .gpu-deps/datasets
#   build     engine, dpu-cli, the desktop application (when Qt Widgets were unpacked), tests and
#             benchmarks against the machine's CUDA LibTorch; every compile error shown (ninja -k 0)
#   test      the whole suite with DPU_TEST_DEVICE=cuda (the UI tests' runs on CUDA too), except the
#             tests listed in docs/gpu.md as left out, with why
#   window    dpu-planner runs a real plan on CUDA on the offscreen platform at 1366x768 and saves
#             a screenshot two thirds into it ($OUT/window-cuda.png)
#   fidelity  a short fidelity run: seed 1 of bench/fidelity.json on CUDA, its first records compared
#             to bench/results/gpu-h100 (an exact match is reported; a difference is not a failure,
#             since a LibTorch or driver update may change the kernels)
#   plan      the fidelity plan (bench/fidelity.json, 3 seeds x 4 strategies) as 12 sweep cells at
#             --jobs 12 under MPS (when nvidia-cuda-mps-control is there), its records compared with
#             bench/results/gpu-h100 and its wall time against issue 25's goal of 25 s (reported;
#             a shared machine's timing is no failure, failed cells are)
#   speed     the quick speed grid of bench.sh (bench_device: MLP, ResNet20, VGGNet on CUDA, the MLP on
#             the CPU too; SPEED_GRID=full adds the CPU's ResNet20 and VGGNet, minutes more)
# Usage: bench/gpu/check.sh [DEB_DIR]     (DEB_DIR default .gpu-deps/debs)
# Environment: STEPS (default "deps build test window fidelity plan speed"), OUT (logs; default out/gpu),
# CTEST_JOBS (default 8), CTEST_LIMIT (seconds for the whole suite, default 3600).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/out/gpu}"
debs="${1:-$root/.gpu-deps/debs}"
prefix="${DPU_GPU_DEPS:-/tmp/dpu-deps}"
steps=" ${STEPS:-deps build test window fidelity plan speed} "
build="$root/build-cuda"
mkdir -p "$out"
failed=()
has() { [[ "$steps" == *" $1 "* ]]; }
step() { echo "[$(date +%T)] $*"; }

source "$root/bench/gpu/gpu-env.sh" "$prefix"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"

if has deps; then
  "$root/bench/gpu/setup-deps.sh" "$debs" "$prefix" || exit 1
  "$root/bench/gpu/setup-data.sh" "$root/.gpu-deps/datasets" "$prefix" || exit 1
fi

if has build; then
  start=$(date +%s)
  gui=OFF
  [[ -d "$prefix/usr/lib/x86_64-linux-gnu/cmake/Qt6Widgets" ]] && gui=ON
  if ! DPU_KEEP_GOING=1 "$root/bench/gpu/build-cuda.sh" "$build" -DDPU_BUILD_TESTS=ON -DDPU_BUILD_BENCH=ON \
         "-DDPU_BUILD_GUI=$gui" -DDPU_UNITY_BUILD=ON "-DQt6_DIR=$prefix/usr/lib/x86_64-linux-gnu/cmake/Qt6" > "$out/build.log" 2>&1; then
    grep -E 'error:|Error|FAILED' "$out/build.log" | head -40
    failed+=(build)
  fi
  step "build (GUI $gui): $(( $(date +%s) - start )) s"; grep -E 'CudaKernels|CUDA' "$out/build.log" | head -3
fi

if has test; then
  start=$(date +%s)
  # Left out (docs/gpu.md): Debian packaging (test_debian_package, test_build_deps: dpkg-buildpackage
  # and apt, which a GPU node without Debian's archive lacks) and test_cli_sweep_slurm (a real
  # one-node Slurm with munge, Debian packages the node has not). The fuzz and Cortex-M tests are
  # not registered without clang's libFuzzer and the Arm toolchain.
  leave='test_debian_package|test_build_deps|test_cli_sweep_slurm'
  # test_ui_reopen reads the exported PDF report with pdftotext: poppler-utils and its libraries
  # (4.9 MB of packages) are optional in .gpu-deps, whose transfer to a lent machine is limited.
  if ! command -v pdftotext >/dev/null; then
    leave+='|test_ui_reopen'
    step "left out: test_ui_reopen (no pdftotext: add poppler-utils to .gpu-deps/debs, docs/gpu.md)"
  fi
  DPU_TEST_DEVICE=cuda QT_QPA_PLATFORM=offscreen timeout "${CTEST_LIMIT:-3600}" \
    ctest --test-dir "$build" -j "${CTEST_JOBS:-8}" --output-on-failure -E "^($leave)\$" > "$out/ctest.log" 2>&1 \
    || failed+=(test)
  step "ctest (DPU_TEST_DEVICE=cuda): $(( $(date +%s) - start )) s"
  grep -E 'tests passed|Failed|\*\*\*|Not Run' "$out/ctest.log" | tail -40
fi

if has window; then
  "$root/bench/gpu/window-shot.sh" "$build" "$out/window-cuda.png" > "$out/window.log" 2>&1 || failed+=(window)
  tail -n 3 "$out/window.log"
fi

if has fidelity; then
  "$root/bench/gpu/fidelity-short.sh" "$build" "$out/fidelity-short" 2>&1 | tee "$out/fidelity-short.log" || failed+=(fidelity)
fi

if has plan; then
  mps=0
  command -v nvidia-cuda-mps-control >/dev/null && mps=1
  MPS=$mps OUT="$out" STEPS=plan JOBS_PLAN=12 LIMIT=300 "$root/bench/gpu/sweep-throughput.sh" "$build" > "$out/plan.log" 2>&1
  cat "$out/plan.log"
  grep -q '^plan: .* 12 cells done' "$out/plan.log" || failed+=(plan)
fi

if has speed; then
  SPEED_GRID="${SPEED_GRID:-quick}" OUT="$out" "$root/bench/gpu/bench.sh" speed > "$out/speed.log" 2>&1 || failed+=(speed)
  cat "$out/speed.jsonl" 2>/dev/null
fi

if ((${#failed[@]})); then
  step "FAILED: ${failed[*]}"
  exit 1
fi
step "all steps passed:$steps"
