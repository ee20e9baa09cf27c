// SPDX-License-Identifier: MIT
// Per-channel statistics of byte images and the normalisation that uses them.
#include "data/Normalise.h"
#include <array>
#include <cmath>

namespace dpu::data {

ChannelStats channelStats(const torch::Tensor& pixels)
{
    const auto bytes = pixels.contiguous();
    const int64_t n = bytes.size(0), channels = bytes.size(1), plane = bytes.size(2) * bytes.size(3);
    std::vector<std::array<uint64_t, 256>> histogram(static_cast<size_t>(channels));
    for (auto& h : histogram)
        h.fill(0);
    const uint8_t* p = bytes.data_ptr<uint8_t>();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t c = 0; c < channels; ++c) {
            auto& h = histogram[static_cast<size_t>(c)];
            for (int64_t k = 0; k < plane; ++k)
                ++h[*p++];
        }

    ChannelStats stats;
    for (const auto& h : histogram) {
        double count = 0, sum = 0;
        for (int v = 0; v < 256; ++v) {
            count += static_cast<double>(h[v]);
            sum += static_cast<double>(h[v]) * (v / 255.0);
        }
        const double mean = count > 0 ? sum / count : 0.0;
        // Two-pass over the 256 bins: exact enough and free of cancellation.
        double squares = 0;
        for (int v = 0; v < 256; ++v) {
            const double d = v / 255.0 - mean;
            squares += static_cast<double>(h[v]) * d * d;
        }
        stats.mean.push_back(mean);
        stats.std.push_back(count > 0 ? std::sqrt(squares / count) : 0.0);
    }
    return stats;
}

torch::Tensor normalise(const torch::Tensor& pixels, const ChannelStats& stats)
{
    const auto channels = static_cast<int64_t>(stats.mean.size());
    std::vector<float> mean(stats.mean.begin(), stats.mean.end());
    std::vector<float> scale;
    for (double s : stats.std)
        scale.push_back(s > 0 ? static_cast<float>(s) : 1.0f);
    const auto meanT = torch::from_blob(mean.data(), {1, channels, 1, 1}, torch::kFloat32).clone();
    const auto stdT = torch::from_blob(scale.data(), {1, channels, 1, 1}, torch::kFloat32).clone();
    auto out = pixels.to(torch::kFloat32);
    out.div_(255.0f).sub_(meanT).div_(stdT);
    return out.contiguous();
}

} // namespace dpu::data
