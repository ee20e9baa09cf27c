// SPDX-License-Identifier: MIT
// The few places where LibTorch 1.13 (Debian, CPU) and 2.x (CUDA builds) need naming apart.
#pragma once
#include <torch/torch.h>
#include <string>

namespace dpu::compat {

/// "1.13.1", "2.11.0": the LibTorch the engine was built against (from torch/version.h).
std::string torchVersion();

/// True when LibTorch was built with CUDA and a CUDA device is usable now.
bool cudaAvailable();

/// Makes work on `device` repeatable run to run where LibTorch allows: deterministic
/// algorithms (warning, not failing, where an operation has none), deterministic cuDNN without
/// autotuning, and cuBLAS's fixed workspace (CUBLAS_WORKSPACE_CONFIG, unless the user set it).
/// CPU work is already deterministic; this changes nothing there.
void makeDeterministic(const torch::Device& device);

/// Waits for the work queued on `device` (no-op on the CPU): timing and benchmarks only.
void synchronize(const torch::Device& device);

} // namespace dpu::compat
