// SPDX-License-Identifier: MIT
// Base of the built-in models: one torch::nn::Module tree behind the Network interface.
#pragma once
#include "models/Network.h"

namespace dpu {

/// Owns the root torch::nn::Module of a built-in model. Subclasses register their layers on
/// root() in the order that becomes the canonical parameter order (the initialiser's index),
/// and implement forwardImpl(); forward() checks the input shape first so that a wrong dataset
/// gives a clear error instead of a matrix-size message from deep inside LibTorch.
class ModuleNetwork : public Network {
public:
    torch::Tensor forward(const torch::Tensor& images) final;
    void setTraining(bool training) override;
    std::vector<NamedTensor> parameters() override;
    std::vector<NamedTensor> buffers() override;
    void to(const torch::Device& device) override;

    const InputShape& input() const { return input_; }
    int classes() const { return classes_; }

protected:
    ModuleNetwork(const std::string& modelName, const InputShape& input, int classes);
    torch::nn::Module& root() { return *root_; }
    virtual torch::Tensor forwardImpl(const torch::Tensor& images) = 0;

private:
    std::string modelName_;
    std::shared_ptr<torch::nn::Module> root_;
    InputShape input_;
    int classes_;
};

} // namespace dpu
