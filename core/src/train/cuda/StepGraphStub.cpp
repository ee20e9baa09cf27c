// SPDX-License-Identifier: MIT
// Builds without CUDA graphs (CPU LibTorch, or no fused kernels): the trainer steps eagerly.
#include "train/cuda/StepGraph.h"
#include <cstddef>
#include <stdexcept>

namespace dpu::cuda {

bool graphsEnabled()
{
    return false;
}

struct SideStream::Impl {};
SideStream::SideStream() = default;
SideStream::~SideStream() = default;

struct StepGraph::Impl {};
StepGraph::StepGraph() = default;
StepGraph::~StepGraph() = default;

bool StepGraph::captured() const
{
    return false;
}

void StepGraph::capture(const std::function<void()>&)
{
    throw std::runtime_error("this build has no CUDA graphs (a CUDA LibTorch with DPU_CUDA_KERNELS)");
}

std::size_t reservedBytes()
{
    return 0;
}

void StepGraph::replay()
{
    throw std::runtime_error("this build has no CUDA graphs (a CUDA LibTorch with DPU_CUDA_KERNELS)");
}

} // namespace dpu::cuda
