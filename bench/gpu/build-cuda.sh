#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the engine and dpu-cli (headless unless -DDPU_BUILD_GUI=ON follows) against a CUDA LibTorch
# (default: the one in Python's torch).
# Usage: bench/gpu/build-cuda.sh [BUILD_DIR] [extra cmake args...]
# DPU_GPU_DEPS: a folder with nlohmann_json (and optionally zlib) unpacked from Debian packages
# (see docs/gpu.md); DPU_TORCH_PREFIX overrides the LibTorch location; DPU_TARGETS limits the targets.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build-cuda}"
shift || true
deps="${DPU_GPU_DEPS:-$root/.gpu-deps/root}"
torch_prefix="${DPU_TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')}"
args=(-DCMAKE_BUILD_TYPE=Release -DDPU_BUILD_GUI=OFF "-DCMAKE_PREFIX_PATH=$torch_prefix;$deps/usr")
# libsodium (bundle signatures) from the unpacked libsodium-dev: pkg-config finds it under the prefix.
if [[ -f "$deps/usr/lib/x86_64-linux-gnu/pkgconfig/libsodium.pc" ]]; then
  export PKG_CONFIG_PATH="$deps/usr/lib/x86_64-linux-gnu/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$deps"
  if ! command -v pkg-config >/dev/null && [[ -x "$deps/usr/bin/pkgconf" ]]; then
    args+=("-DPKG_CONFIG_EXECUTABLE=$deps/usr/bin/pkgconf")
  fi
fi
if [[ -d "$deps/usr/share/cmake/nlohmann_json" ]]; then
  args+=("-Dnlohmann_json_DIR=$deps/usr/share/cmake/nlohmann_json")
fi
# A machine without zlib's headers takes the static library from the unpacked zlib1g-dev.
if [[ ! -f /usr/include/zlib.h && -f "$deps/usr/include/zlib.h" ]]; then
  args+=("-DZLIB_INCLUDE_DIR=$deps/usr/include" "-DZLIB_LIBRARY=$deps/usr/lib/x86_64-linux-gnu/libz.a")
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" "${args[@]}" "$@"
# DPU_KEEP_GOING=1 (check.sh): every target that can build is built and every compile error is
# shown in one pass, rather than the first one alone (a new compiler's errors come in groups).
keep=()
[[ -n "${DPU_KEEP_GOING:-}" && ${#generator[@]} -gt 0 ]] && keep=(-- -k 0)
# DPU_TARGETS: build only these targets (a short device call), e.g. "dpu-cli bench_device".
targets=()
[[ -n "${DPU_TARGETS:-}" ]] && read -ra targets <<< "--target ${DPU_TARGETS}"
cmake --build "$build" -j "${DPU_JOBS:-$(nproc)}" "${targets[@]}" "${keep[@]}"
