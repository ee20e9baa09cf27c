// SPDX-License-Identifier: MIT
// The paper's VGGNet: 2x128C3-MP2-2x256C3-MP2-2x512C3-MP2-2x1024FC-classes with BatchNorm.
#pragma once
#include "models/ModuleNetwork.h"

namespace dpu {

/// features: three stages of two 3x3 convolutions (padding 1, no bias) each followed by
/// BatchNorm2d + ReLU, then MaxPool2d(2); classifier: two 1024-wide linear layers (no bias)
/// each followed by BatchNorm1d + ReLU, and a final linear layer with bias. The flatten size
/// is 512 * floor(H/8) * floor(W/8), so H and W must be at least 8.
class VggNet : public ModuleNetwork {
public:
    VggNet(const InputShape& input, int classes);

protected:
    torch::Tensor forwardImpl(const torch::Tensor& images) override;

private:
    torch::nn::Sequential features_{nullptr};
    torch::nn::Sequential classifier_{nullptr};
};

} // namespace dpu
