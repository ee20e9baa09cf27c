// SPDX-License-Identifier: MIT
// LibTorch's current CUDA stream, compiled by the host compiler only in CUDA builds.
#include "train/cuda/CudaStream.h"
#include <c10/cuda/CUDAStream.h>

namespace dpu::cuda {

void* currentStream()
{
    return c10::cuda::getCurrentCUDAStream().stream();
}

} // namespace dpu::cuda
