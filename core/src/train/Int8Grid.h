// SPDX-License-Identifier: MIT
// The INT8 quantiser a training call trains through: the deployed scales and which tensors train unclamped.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace dpu {

/// What QuantisedView rounds the partial weights to while an INT8 model's update trains.
struct Int8Grid {
    /// Per parameter: the scale of each output channel (Weights::scales); undefined for tensors
    /// that stay float. Not owned; null: a float model, or scales of its own (ownScales).
    const std::vector<torch::Tensor>* scales = nullptr;
    /// Per parameter: round to the scale's steps without the ±127 clamp, because the channel's
    /// scale grows after training where a weight outgrew it (plan int8_rescale). Empty or false:
    /// the deployed codes' clamp.
    std::vector<bool> unclamped;
    /// A full update's quantiser (plan fu_int8_training quant_aware), used with null `scales`:
    /// every view takes each partial tensor's scales from the weights it sees (int8Scales:
    /// max |w| / 127 per output channel), the scales such an update ships, so no code clips.
    bool ownScales = false;
    /// plan int8_biases codes: the 1-D tensors (biases) are codes too, each with one scale taken
    /// from the values the view sees (int8Scales with biases), whatever `scales` holds for them:
    /// a bias's scale is set anew each round, so its codes never clip.
    bool biases = false;

    /// Whether parameter `i` trains without the clamp.
    bool isUnclamped(size_t i) const { return i < unclamped.size() && unclamped[i]; }
};

} // namespace dpu
