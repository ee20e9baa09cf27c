// SPDX-License-Identifier: MIT
// Basic residual block of the CIFAR ResNets with the parameter-free option-A shortcut.
#pragma once
#include <torch/torch.h>

namespace dpu {

/// conv3x3(stride) - BN - ReLU - conv3x3 - BN, plus the shortcut, then ReLU. When the shape
/// changes, the shortcut subsamples by `stride` and zero-pads the channels (He et al., option
/// A), so it adds no weights: the ResNet's parameter count stays the paper's.
class ResNetBlockImpl : public torch::nn::Module {
public:
    ResNetBlockImpl(int64_t inChannels, int64_t outChannels, int64_t stride);
    torch::Tensor forward(const torch::Tensor& x);

private:
    torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
    torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
    int64_t inChannels_, outChannels_, stride_;
};
TORCH_MODULE(ResNetBlock);

} // namespace dpu
