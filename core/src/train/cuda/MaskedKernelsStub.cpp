// SPDX-License-Identifier: MIT
// Builds without the CUDA kernels (CPU LibTorch, or DPU_CUDA_KERNELS=OFF): the tensor-op path runs.
#include "train/cuda/MaskedKernels.h"
#include <stdexcept>

namespace dpu::cuda {

bool kernelsBuilt()
{
    return false;
}

void maskedAdamStep(float*, const float*, float*, float*, const float*, float*, int64_t, const AdamConstants&,
                    const AdamConstants*)
{
    throw std::runtime_error("this build has no CUDA optimiser kernels (configure with DPU_CUDA_KERNELS=ON)");
}

void storeAdamConstants(AdamConstants*, const AdamConstants&)
{
    throw std::runtime_error("this build has no CUDA optimiser kernels (configure with DPU_CUDA_KERNELS=ON)");
}

void maskedSgdStep(float*, const float*, float*, const float*, float*, int64_t, const SgdConstants&, Momentum)
{
    throw std::runtime_error("this build has no CUDA optimiser kernels (configure with DPU_CUDA_KERNELS=ON)");
}

} // namespace dpu::cuda
