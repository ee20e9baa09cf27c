// SPDX-License-Identifier: MIT
// The engine's view of a model: forward, ordered parameters and buffers, train/eval mode.
#pragma once
#include "dpu/Shape.h"
#include <torch/torch.h>
#include <memory>
#include <string>
#include <vector>

namespace dpu {

struct NamedTensor {
    std::string name;
    torch::Tensor tensor;
};

/// A trainable model. Built-in models wrap torch::nn modules; "torchscript:PATH" wraps a
/// torch::jit::Module. parameters() has a fixed canonical order (the initialiser's tensor
/// index); parameters with dim() > 1 are the partial tensors.
class Network {
public:
    virtual ~Network() = default;
    /// Logits [N, classes] for images [N, C, H, W].
    virtual torch::Tensor forward(const torch::Tensor& images) = 0;
    virtual void setTraining(bool training) = 0;
    virtual std::vector<NamedTensor> parameters() = 0;
    /// Floating-point buffers (BatchNorm running statistics) and integer ones (counters).
    virtual std::vector<NamedTensor> buffers() = 0;
    virtual void to(const torch::Device& device) = 0;
};

struct ModelConfig {
    std::string name = "mlp"; ///< mlp, vgg, resnet20, resnet56, mobilenetv1, torchscript:PATH
    InputShape input;
    int classes = 10;
    double widthMultiplier = 1.0;
};

/// Builds a network, already initialised with initialiseNetwork(seed 0).
/// Throws Error for an unknown name or a TorchScript file that cannot be loaded or has no
/// floating parameters (the message names the file).
std::unique_ptr<Network> createNetwork(const ModelConfig& config);

/// Sets every parameter and buffer with the portable seeded initialiser (docs/initializer.md):
/// partial tensors and biases uniform in +-1/sqrt(fan_in), BatchNorm weight 1, bias 0,
/// running mean 0, running variance 1, counters 0. Bit-exact on any IEEE-754 machine.
void initialiseNetwork(Network& network, uint64_t seed);

} // namespace dpu
