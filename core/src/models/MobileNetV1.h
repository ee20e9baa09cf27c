// SPDX-License-Identifier: MIT
// Howard et al.'s MobileNetV1 with width multiplier, adapted to small inputs.
#pragma once
#include "models/ModuleNetwork.h"

namespace dpu {

/// conv3x3(32) - BN - ReLU, then 13 depthwise-separable blocks (depthwise 3x3 - BN - ReLU,
/// pointwise 1x1 - BN - ReLU) up to 1024 channels, global average pooling and a linear
/// classifier with bias. Channels are max(8, floor(c * widthMultiplier)) as in the reference
/// implementation. The first convolution has stride 2 for inputs of at least 64 pixels (the
/// ImageNet network) and stride 1 for small inputs such as 28x28 or 32x32, which would
/// otherwise be reduced to 1x1 before the last stage.
class MobileNetV1 : public ModuleNetwork {
public:
    MobileNetV1(const InputShape& input, int classes, double widthMultiplier);

protected:
    torch::Tensor forwardImpl(const torch::Tensor& images) override;

private:
    torch::nn::Sequential features_{nullptr};
    torch::nn::Linear fc_{nullptr};
};

} // namespace dpu
