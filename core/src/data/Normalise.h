// SPDX-License-Identifier: MIT
// Per-channel statistics of images or arrays and the normalisation that uses them.
#pragma once
#include "dpu/Plan.h"
#include <torch/torch.h>
#include <vector>

namespace dpu::data {

/// Mean and population standard deviation per channel: of 8-bit pixels scaled to [0, 1], of any
/// other data as stored.
struct ChannelStats {
    std::vector<double> mean;
    std::vector<double> std;
};

/// Exact statistics of [N, C, H, W] data. uint8 is counted as per-channel histograms of the 256
/// byte values; float32 is summed in double in a fixed order. Either way the result does not
/// depend on the thread count.
ChannelStats channelStats(const torch::Tensor& pixels);

/// float32 [N, C, H, W]: (p / 255 - mean[c]) / std[c] for uint8, (p - mean[c]) / std[c] for
/// float32. A channel with std 0 (all values equal) is only centred, divided by 1, instead of
/// producing infinities.
torch::Tensor normalise(const torch::Tensor& pixels, const ChannelStats& stats);

/// The statistics spec.normalise asks for on `trainPixels`: "train" their own, "none" and
/// "first_round" (normalised later, per seed) mean 0 and std 1, "given" the plan's values.
/// Throws PlanError "dataset.normalise" when the given values do not match the channel count.
ChannelStats statsFor(const DatasetSpec& spec, const torch::Tensor& trainPixels);

} // namespace dpu::data
