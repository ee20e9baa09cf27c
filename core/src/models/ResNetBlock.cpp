// SPDX-License-Identifier: MIT
// Basic residual block (two 3x3 convolutions) with the option-A shortcut.
#include "models/ResNetBlock.h"

namespace dpu {

ResNetBlockImpl::ResNetBlockImpl(int64_t inChannels, int64_t outChannels, int64_t stride)
    : inChannels_(inChannels), outChannels_(outChannels), stride_(stride)
{
    namespace nn = torch::nn;
    conv1_ = register_module(
        "conv1", nn::Conv2d(nn::Conv2dOptions(inChannels, outChannels, 3).stride(stride).padding(1).bias(false)));
    bn1_ = register_module("bn1", nn::BatchNorm2d(outChannels));
    conv2_ = register_module(
        "conv2", nn::Conv2d(nn::Conv2dOptions(outChannels, outChannels, 3).padding(1).bias(false)));
    bn2_ = register_module("bn2", nn::BatchNorm2d(outChannels));
}

torch::Tensor ResNetBlockImpl::forward(const torch::Tensor& x)
{
    auto out = torch::relu(bn1_->forward(conv1_->forward(x)));
    out = bn2_->forward(conv2_->forward(out));
    torch::Tensor shortcut = x;
    if (stride_ != 1)
        // x[:, :, ::s, ::s] has the conv's output size: ceil(H/s) = floor((H + 2 - 3)/s) + 1.
        shortcut = shortcut.slice(2, 0, c10::nullopt, stride_).slice(3, 0, c10::nullopt, stride_);
    if (outChannels_ != inChannels_) {
        // Zero channels split evenly before and after, as in the reference CIFAR code.
        const int64_t before = (outChannels_ - inChannels_) / 2;
        const int64_t after = outChannels_ - inChannels_ - before;
        shortcut = torch::constant_pad_nd(shortcut, {0, 0, 0, 0, before, after}, 0);
    }
    return torch::relu(out + shortcut);
}

} // namespace dpu
