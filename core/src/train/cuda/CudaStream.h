// SPDX-License-Identifier: MIT
// LibTorch's current CUDA stream as an opaque handle, so the .cu files need no torch headers.
#pragma once

namespace dpu::cuda {

/// The cudaStream_t that LibTorch queues work on for the current device (CUDA builds only).
void* currentStream();

} // namespace dpu::cuda
