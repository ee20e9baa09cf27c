// SPDX-License-Identifier: MIT
// Per-step constants of the fused optimiser kernels, shared by the CPU loops and the CUDA kernels.
#pragma once

namespace dpu {

/// Adam's per-step constants, computed once on the host for every kernel of the step.
struct AdamConstants {
    float b1, b2, stepSize, bc2Sqrt, eps, wd;
};

/// How the momentum buffer enters an SGD step: none, PyTorch's first step (the buffer starts
/// as a copy of the direction) or the running average; each with or without Nesterov.
enum class Momentum { None, First, Running, FirstNesterov, RunningNesterov };

struct SgdConstants {
    float lr, wd, mu;
};

} // namespace dpu
