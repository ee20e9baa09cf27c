// SPDX-License-Identifier: MIT
// Snapshots of a network's state (parameters and buffers) and the partial/dense split.
#pragma once
#include "models/Network.h"
#include <torch/torch.h>
#include <vector>

namespace dpu {

/// Detached copies of every parameter and buffer, in the network's canonical order.
struct Weights {
    std::vector<torch::Tensor> params;
    std::vector<torch::Tensor> buffers;
    /// An INT8 deployed model (plan `deployed` int8): per parameter, the float scale of each
    /// output channel of a partial tensor (undefined for 1-D ones), whose params then hold
    /// exactly scale * code. Empty for a float model; snapshot() and restore() leave it alone.
    std::vector<torch::Tensor> scales;
    bool empty() const { return params.empty(); }
};

/// Copies the network's current state.
Weights snapshot(Network& network);
/// Overwrites the network's state in place (shapes must match).
void restore(Network& network, const Weights& weights);
/// Deep copy.
Weights cloneWeights(const Weights& weights);
/// Moves a snapshot to a device (a copy).
Weights weightsTo(const Weights& weights, const torch::Device& device);

/// Positions in parameters() of the partial tensors (dim() > 1).
std::vector<size_t> partialIndices(Network& network);

/// Per-parameter masks: a float 0/1 tensor for partial tensors, undefined for dense ones.
using MaskSet = std::vector<torch::Tensor>;

/// Ones in a mask set (partial tensors only).
int64_t maskCount(const MaskSet& masks);

} // namespace dpu
