// SPDX-License-Identifier: MIT
// The paper's MLP: flatten, two hidden layers of 512 with ReLU, linear classifier.
#pragma once
#include "models/ModuleNetwork.h"

namespace dpu {

/// flatten -> fc1 (C*H*W -> 512) -> ReLU -> fc2 (512 -> 512) -> ReLU -> fc3 (512 -> classes).
class MlpNet : public ModuleNetwork {
public:
    MlpNet(const InputShape& input, int classes);

protected:
    torch::Tensor forwardImpl(const torch::Tensor& images) override;

private:
    torch::nn::Linear fc1_{nullptr}, fc2_{nullptr}, fc3_{nullptr};
};

} // namespace dpu
