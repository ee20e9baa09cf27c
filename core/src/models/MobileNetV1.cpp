// SPDX-License-Identifier: MIT
// MobileNetV1 (Howard et al. 2017): depthwise-separable convolutions, global average pooling.
#include "models/MobileNetV1.h"
#include "dpu/Error.h"
#include <cmath>

namespace dpu {

namespace {

struct BlockSpec {
    int64_t channels; // pointwise output channels at width 1
    int64_t stride;   // stride of the depthwise convolution
};

// Table 1 of Howard et al.
constexpr BlockSpec kBlocks[] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},
                                 {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1},
                                 {512, 1}, {1024, 2}, {1024, 1}};

void convBnRelu(torch::nn::Sequential& seq, int64_t in, int64_t out, int64_t kernel, int64_t stride,
                int64_t groups)
{
    // No conv bias: the BatchNorm after each convolution provides the shift.
    seq->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                         .stride(stride)
                                         .padding(kernel / 2)
                                         .groups(groups)
                                         .bias(false)));
    seq->push_back(torch::nn::BatchNorm2d(out));
    seq->push_back(torch::nn::ReLU());
}

} // namespace

MobileNetV1::MobileNetV1(const InputShape& input, int classes, double widthMultiplier)
    : ModuleNetwork("mobilenetv1", input, classes)
{
    if (!(widthMultiplier > 0.0 && widthMultiplier <= 4.0))
        throw Error("mobilenetv1: width multiplier must be in (0, 4], got " + std::to_string(widthMultiplier));
    const auto depth = [widthMultiplier](int64_t c) {
        return std::max<int64_t>(8, static_cast<int64_t>(std::floor(double(c) * widthMultiplier)));
    };
    const int64_t firstStride = std::min(input.height, input.width) >= 64 ? 2 : 1;
    torch::nn::Sequential features;
    int64_t in = depth(32);
    convBnRelu(features, input.channels, in, 3, firstStride, 1);
    for (const auto& block : kBlocks) {
        const int64_t out = depth(block.channels);
        convBnRelu(features, in, in, 3, block.stride, /*groups=*/in); // depthwise
        convBnRelu(features, in, out, 1, 1, 1);                       // pointwise
        in = out;
    }
    features_ = root().register_module("features", features);
    fc_ = root().register_module("fc", torch::nn::Linear(in, classes));
}

torch::Tensor MobileNetV1::forwardImpl(const torch::Tensor& images)
{
    return fc_->forward(features_->forward(images).mean({2, 3}));
}

} // namespace dpu
