// SPDX-License-Identifier: MIT
// Fused masked optimiser steps on CUDA: one kernel per tensor, the CPU kernels' arithmetic.
#pragma once
#include "train/FusedConstants.h"
#include <cstdint>

namespace dpu::cuda {

/// True when this build compiled the CUDA kernels (DPU_CUDA_KERNELS); the launchers below
/// throw std::runtime_error otherwise.
bool kernelsBuilt();

/// One masked Adam step over n contiguous float32 values in device memory, on the current
/// CUDA stream of LibTorch. mask and c may be null (unmasked, no c_local). A weight whose mask
/// is 0 is never written, so it stays bit-identical. With `deviceK` (device memory), the kernel
/// reads the constants there instead of `k` (a CUDA graph replays it with each step's constants).
/// Throws std::runtime_error on a launch error.
void maskedAdamStep(float* p, const float* g, float* m, float* v, const float* mask, float* c, int64_t n,
                    const AdamConstants& k, const AdamConstants* deviceK = nullptr);

/// Writes `k` to `deviceDst` (device memory) in stream order on LibTorch's current CUDA stream.
void storeAdamConstants(AdamConstants* deviceDst, const AdamConstants& k);

/// One masked SGD step (momentum buffer `buf`, unused for Momentum::None); as maskedAdamStep.
void maskedSgdStep(float* p, const float* g, float* buf, const float* mask, float* c, int64_t n,
                   const SgdConstants& k, Momentum momentum);

} // namespace dpu::cuda
