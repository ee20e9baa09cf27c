// SPDX-License-Identifier: MIT
// Per-channel statistics of images or arrays and the normalisation that uses them.
#include "data/Normalise.h"
#include "dpu/Error.h"
#include <array>
#include <cmath>

namespace dpu::data {

namespace {

ChannelStats byteStats(const torch::Tensor& bytes)
{
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

ChannelStats floatStats(const torch::Tensor& values)
{
    const int64_t n = values.size(0), channels = values.size(1), plane = values.size(2) * values.size(3);
    const float* base = values.data_ptr<float>();
    ChannelStats stats;
    for (int64_t c = 0; c < channels; ++c) {
        double sum = 0;
        for (int64_t i = 0; i < n; ++i) {
            const float* p = base + (i * channels + c) * plane;
            for (int64_t k = 0; k < plane; ++k)
                sum += p[k];
        }
        const double count = static_cast<double>(n * plane);
        const double mean = count > 0 ? sum / count : 0.0;
        double squares = 0; // two passes: no cancellation for data far from 0
        for (int64_t i = 0; i < n; ++i) {
            const float* p = base + (i * channels + c) * plane;
            for (int64_t k = 0; k < plane; ++k)
                squares += (p[k] - mean) * (p[k] - mean);
        }
        stats.mean.push_back(mean);
        stats.std.push_back(count > 0 ? std::sqrt(squares / count) : 0.0);
    }
    return stats;
}

} // namespace

ChannelStats channelStats(const torch::Tensor& pixels)
{
    const auto cpu = pixels.to(torch::kCPU).contiguous();
    if (cpu.scalar_type() == torch::kUInt8)
        return byteStats(cpu);
    return floatStats(cpu.to(torch::kFloat32));
}

torch::Tensor normalise(const torch::Tensor& pixels, const ChannelStats& stats)
{
    const auto channels = static_cast<int64_t>(stats.mean.size());
    std::vector<float> mean(stats.mean.begin(), stats.mean.end());
    std::vector<float> scale;
    for (double s : stats.std)
        scale.push_back(s > 0 ? static_cast<float>(s) : 1.0f);
    const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(pixels.device());
    const auto meanT = torch::from_blob(mean.data(), {1, channels, 1, 1}, torch::kFloat32).to(options);
    const auto stdT = torch::from_blob(scale.data(), {1, channels, 1, 1}, torch::kFloat32).to(options);
    auto out = pixels.to(torch::kFloat32);
    if (pixels.scalar_type() == torch::kUInt8)
        out.div_(255.0f);
    else if (out.data_ptr() == pixels.data_ptr())
        out = out.clone(); // float input: never change the caller's tensor in place
    out.sub_(meanT).div_(stdT);
    return out.contiguous();
}

ChannelStats statsFor(const DatasetSpec& spec, const torch::Tensor& trainPixels)
{
    const auto channels = static_cast<size_t>(trainPixels.size(1));
    if (spec.normalise == Normalise::Train)
        return channelStats(trainPixels);
    if (spec.normalise == Normalise::Given) {
        if (spec.mean.size() != channels)
            throw PlanError("dataset.normalise", "expected " + std::to_string(channels) + " mean and std values (one per channel of " +
                                                     spec.path + "), found " + std::to_string(spec.mean.size()));
        return {spec.mean, spec.std};
    }
    return {std::vector<double>(channels, 0.0), std::vector<double>(channels, 1.0)};
}

} // namespace dpu::data
