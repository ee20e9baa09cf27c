// SPDX-License-Identifier: MIT
// He et al.'s CIFAR ResNets with option-A shortcuts (no projection weights).
#include "models/ResNetCifar.h"
#include "dpu/Error.h"
#include "models/ResNetBlock.h"

namespace dpu {

ResNetCifar::ResNetCifar(int depth, const InputShape& input, int classes)
    : ModuleNetwork("resnet" + std::to_string(depth), input, classes)
{
    if (depth < 8 || (depth - 2) % 6 != 0)
        throw Error("resnet: depth must be 6n + 2 (e.g. 20, 56), got " + std::to_string(depth));
    const int blocks = (depth - 2) / 6;
    namespace nn = torch::nn;
    conv1_ = root().register_module(
        "conv1", nn::Conv2d(nn::Conv2dOptions(input.channels, 16, 3).padding(1).bias(false)));
    bn1_ = root().register_module("bn1", nn::BatchNorm2d(16));
    int64_t in = 16;
    auto stage = [&](int64_t out, int64_t stride) {
        nn::Sequential seq;
        for (int b = 0; b < blocks; ++b) {
            seq->push_back(ResNetBlock(in, out, b == 0 ? stride : 1));
            in = out;
        }
        return seq;
    };
    layer1_ = root().register_module("layer1", stage(16, 1));
    layer2_ = root().register_module("layer2", stage(32, 2));
    layer3_ = root().register_module("layer3", stage(64, 2));
    fc_ = root().register_module("fc", nn::Linear(64, classes));
}

torch::Tensor ResNetCifar::forwardImpl(const torch::Tensor& images)
{
    auto x = torch::relu(bn1_->forward(conv1_->forward(images)));
    x = layer3_->forward(layer2_->forward(layer1_->forward(x)));
    return fc_->forward(x.mean({2, 3}));
}

} // namespace dpu
