// SPDX-License-Identifier: MIT
// LibTorch version differences behind named helpers (see TorchCompat.h).
#include "util/TorchCompat.h"
#include <torch/version.h>
#include <cstdlib>

namespace dpu::compat {

std::string torchVersion()
{
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "."
           + std::to_string(TORCH_VERSION_PATCH);
}

bool cudaAvailable()
{
    return torch::cuda::is_available();
}

void makeDeterministic(const torch::Device& device)
{
    if (!device.is_cuda())
        return;
    // cuBLAS reads this when it creates its handle, i.e. before the first matrix product.
    ::setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0);
    auto& ctx = at::globalContext();
    ctx.setDeterministicCuDNN(true);
    ctx.setBenchmarkCuDNN(false);
    // warn_only: max-pooling's CUDA backward has no deterministic kernel; 1.13 and 2.x agree on
    // this two-argument form.
    ctx.setDeterministicAlgorithms(true, /*warn_only=*/true);
}

void synchronize(const torch::Device& device)
{
    if (device.is_cuda())
        torch::cuda::synchronize(device.index());
}

} // namespace dpu::compat
