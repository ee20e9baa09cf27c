// SPDX-License-Identifier: MIT
// Byte-budgeted selection by bisection over the count of selected weights.
#include "strategies/BudgetFit.h"

namespace dpu {

Weights selectFrom(const Weights& current, const Weights& start, const MaskSet& masks)
{
    torch::NoGradGuard guard;
    Weights w;
    for (size_t i = 0; i < current.params.size(); ++i) {
        const bool masked = i < masks.size() && masks[i].defined();
        w.params.push_back(masked ? torch::where(masks[i] != 0, current.params[i], start.params[i])
                                  : current.params[i].clone());
    }
    for (const auto& b : current.buffers)
        w.buffers.push_back(b.clone());
    return w;
}

int64_t largestFitting(int64_t hi, int64_t budget, const Weights& trained, const Weights& start,
                       const RankedMasks& masksFor, const BundlePreview& preview)
{
    auto fits = [&](int64_t n) { return preview.bytes(selectFrom(trained, start, masksFor(n))) <= budget; };
    if (fits(hi))
        return hi;
    if (!fits(0))
        return -1;
    int64_t lo = 0; // fits; hi does not
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

bool shrinkToBudget(Network& network, const Weights& start, int64_t selected, int64_t budget,
                    const RankedMasks& masksFor, const BundlePreview& preview, MaskSet& masks)
{
    const Weights current = snapshot(network);
    if (preview.bytes(current) <= budget)
        return true;
    const int64_t n = largestFitting(selected - 1, budget, current, start, masksFor, preview);
    if (n < 0)
        return false;
    masks = masksFor(n);
    restore(network, selectFrom(current, start, masks));
    return true;
}

std::vector<torch::Tensor> selectableParams(Network& network, bool withDense)
{
    std::vector<torch::Tensor> out;
    for (auto& p : network.parameters())
        out.push_back(p.tensor.dim() > 1 || (withDense && p.tensor.dim() == 1) ? p.tensor : torch::Tensor());
    return out;
}

} // namespace dpu
