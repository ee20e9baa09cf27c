// SPDX-License-Identifier: MIT
// Snapshots of a network's state and the partial/dense split.
#include "train/Weights.h"

namespace dpu {

Weights snapshot(Network& network)
{
    torch::NoGradGuard guard;
    Weights w;
    for (auto& p : network.parameters())
        w.params.push_back(p.tensor.detach().clone());
    for (auto& b : network.buffers())
        w.buffers.push_back(b.tensor.detach().clone());
    return w;
}

void restore(Network& network, const Weights& weights)
{
    torch::NoGradGuard guard;
    auto params = network.parameters();
    auto buffers = network.buffers();
    TORCH_CHECK(params.size() == weights.params.size() && buffers.size() == weights.buffers.size(),
                "restore: snapshot does not match the network");
    for (size_t i = 0; i < params.size(); ++i)
        params[i].tensor.copy_(weights.params[i]);
    for (size_t i = 0; i < buffers.size(); ++i)
        buffers[i].tensor.copy_(weights.buffers[i]);
}

Weights cloneWeights(const Weights& weights)
{
    Weights w;
    for (const auto& t : weights.params)
        w.params.push_back(t.clone());
    for (const auto& t : weights.buffers)
        w.buffers.push_back(t.clone());
    for (const auto& t : weights.scales)
        w.scales.push_back(t.defined() ? t.clone() : t);
    return w;
}

Weights weightsTo(const Weights& weights, const torch::Device& device)
{
    Weights w;
    for (const auto& t : weights.params)
        w.params.push_back(t.to(device, /*non_blocking=*/false, /*copy=*/true));
    for (const auto& t : weights.buffers)
        w.buffers.push_back(t.to(device, false, true));
    for (const auto& t : weights.scales)
        w.scales.push_back(t.defined() ? t.to(device, false, true) : t);
    return w;
}

std::vector<size_t> partialIndices(Network& network)
{
    std::vector<size_t> out;
    auto params = network.parameters();
    for (size_t i = 0; i < params.size(); ++i)
        if (params[i].tensor.dim() > 1)
            out.push_back(i);
    return out;
}

int64_t maskCount(const MaskSet& masks)
{
    int64_t n = 0;
    for (const auto& m : masks)
        if (m.defined())
            n += m.ne(0).sum().item<int64_t>();
    return n;
}

} // namespace dpu
