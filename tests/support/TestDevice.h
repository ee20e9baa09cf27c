// SPDX-License-Identifier: MIT
// The device the engine tests run on: DPU_TEST_DEVICE=cuda runs them on a GPU (docs/gpu.md).
#pragma once
#include <torch/torch.h>

namespace dpu::test {

/// torch::kCPU unless DPU_TEST_DEVICE says "cuda" (or "cuda:N"). A requested CUDA device that
/// LibTorch cannot use is a std::runtime_error, never a silent fall-back to the CPU.
torch::Device testDevice();

/// `t` moved to testDevice() (undefined stays undefined).
torch::Tensor onTestDevice(const torch::Tensor& t);

} // namespace dpu::test
