// SPDX-License-Identifier: MIT
// A user's TorchScript module ("torchscript:PATH") behind the Network interface.
#pragma once
#include "models/Network.h"
#include <torch/script.h>

namespace dpu {

/// Wraps a torch::jit::Module loaded from a file: forward via module.forward, parameters and
/// buffers in the module's own recursive order, train/eval via module.train().
class ScriptNetwork : public Network {
public:
    /// Loads the file; throws Error naming it if it cannot be loaded or has no floating-point
    /// parameters (nothing to train or update).
    explicit ScriptNetwork(const std::string& path);

    torch::Tensor forward(const torch::Tensor& images) override;
    void setTraining(bool training) override;
    std::vector<NamedTensor> parameters() override;
    std::vector<NamedTensor> buffers() override;
    void to(const torch::Device& device) override;

    const std::string& path() const { return path_; }

private:
    std::string path_;
    torch::jit::Module module_;
};

} // namespace dpu
