// SPDX-License-Identifier: MIT
// Per-channel statistics of byte images and the normalisation that uses them.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace dpu::data {

/// Mean and population standard deviation per channel of pixels scaled to [0, 1].
struct ChannelStats {
    std::vector<double> mean;
    std::vector<double> std;
};

/// Exact statistics of uint8 [N, C, H, W] pixels: counted as per-channel histograms of the
/// 256 byte values, so the result does not depend on float summation order or thread count.
ChannelStats channelStats(const torch::Tensor& pixels);

/// float32 [N, C, H, W]: (p / 255 - mean[c]) / std[c]. A channel with std 0 (all pixels equal)
/// is only centred, divided by 1, instead of producing infinities.
torch::Tensor normalise(const torch::Tensor& pixels, const ChannelStats& stats);

} // namespace dpu::data
