// SPDX-License-Identifier: MIT
// The paper's MLP (2x512FC) on flattened images.
#include "models/MlpNet.h"

namespace dpu {

namespace {
constexpr int64_t kMlpHidden = 512;
}

MlpNet::MlpNet(const InputShape& input, int classes) : ModuleNetwork("mlp", input, classes)
{
    const int64_t features = int64_t(input.channels) * input.height * input.width;
    fc1_ = root().register_module("fc1", torch::nn::Linear(features, kMlpHidden));
    fc2_ = root().register_module("fc2", torch::nn::Linear(kMlpHidden, kMlpHidden));
    fc3_ = root().register_module("fc3", torch::nn::Linear(kMlpHidden, classes));
}

torch::Tensor MlpNet::forwardImpl(const torch::Tensor& images)
{
    auto x = images.flatten(1);
    x = torch::relu(fc1_->forward(x));
    x = torch::relu(fc2_->forward(x));
    return fc3_->forward(x);
}

} // namespace dpu
