// SPDX-License-Identifier: MIT
// Base of the built-in models: input checks, ordered parameters and buffers, mode and device.
#include "models/ModuleNetwork.h"
#include "dpu/Error.h"
#include <sstream>

namespace dpu {

ModuleNetwork::ModuleNetwork(const std::string& modelName, const InputShape& input, int classes)
    : modelName_(modelName), root_(std::make_shared<torch::nn::Module>(modelName)), input_(input),
      classes_(classes)
{
    if (input.channels < 1 || input.height < 1 || input.width < 1)
        throw Error(modelName + ": input shape must be positive, got " + std::to_string(input.channels) +
                    "x" + std::to_string(input.height) + "x" + std::to_string(input.width));
    if (classes < 1)
        throw Error(modelName + ": number of classes must be at least 1, got " + std::to_string(classes));
}

torch::Tensor ModuleNetwork::forward(const torch::Tensor& images)
{
    if (images.dim() != 4 || images.size(1) != input_.channels || images.size(2) != input_.height ||
        images.size(3) != input_.width) {
        std::ostringstream msg;
        msg << modelName_ << ": expected images [N, " << input_.channels << ", " << input_.height << ", "
            << input_.width << "], got " << images.sizes();
        throw Error(msg.str());
    }
    return forwardImpl(images);
}

void ModuleNetwork::setTraining(bool training)
{
    root_->train(training);
}

std::vector<NamedTensor> ModuleNetwork::parameters()
{
    // named_parameters(recurse) walks own parameters, then children in registration order:
    // a fixed order that does not depend on hashing or on the LibTorch build.
    std::vector<NamedTensor> out;
    for (const auto& item : root_->named_parameters(/*recurse=*/true))
        out.push_back({item.key(), item.value()});
    return out;
}

std::vector<NamedTensor> ModuleNetwork::buffers()
{
    std::vector<NamedTensor> out;
    for (const auto& item : root_->named_buffers(/*recurse=*/true))
        out.push_back({item.key(), item.value()});
    return out;
}

void ModuleNetwork::to(const torch::Device& device)
{
    root_->to(device);
}

} // namespace dpu
