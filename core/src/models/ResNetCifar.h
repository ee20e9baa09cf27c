// SPDX-License-Identifier: MIT
// He et al.'s CIFAR ResNets (depth 6n+2): ResNet20 and ResNet56.
#pragma once
#include "models/ModuleNetwork.h"

namespace dpu {

/// conv3x3(16) - BN - ReLU, three stages of n basic blocks with 16, 32, 64 channels (stride 2
/// at the start of stages 2 and 3), global average pooling, linear classifier with bias.
class ResNetCifar : public ModuleNetwork {
public:
    /// depth = 6n + 2 (20, 32, 44, 56, 110).
    ResNetCifar(int depth, const InputShape& input, int classes);

protected:
    torch::Tensor forwardImpl(const torch::Tensor& images) override;

private:
    torch::nn::Conv2d conv1_{nullptr};
    torch::nn::BatchNorm2d bn1_{nullptr};
    torch::nn::Sequential layer1_{nullptr}, layer2_{nullptr}, layer3_{nullptr};
    torch::nn::Linear fc_{nullptr};
};

} // namespace dpu
