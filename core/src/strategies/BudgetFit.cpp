// SPDX-License-Identifier: MIT
// Byte-budgeted selection by bisection over the count of selected weights.
#include "strategies/BudgetFit.h"
#include <algorithm>

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
    auto bytesAt = [&](int64_t n) { return preview.bytes(selectFrom(trained, start, masksFor(n))); };
    const int64_t base = bytesAt(0); // envelope, header and the always-shipped tensors
    if (base > budget)
        return -1;
    // A bracket [lo fits, hi does not] (hi is only known not to fit once measured), narrowed by
    // interpolation, since a bundle grows almost linearly with its changed weights, but never by
    // less than an eighth of its width, so it also converges where sizes are not linear. About
    // ten bundles instead of the twenty of a bisection over all weights, and small ones.
    int64_t lo = 0, loBytes = base;
    bool hiMeasured = false;
    int64_t hiBytes = 0;
    while (hi - lo > 1 || !hiMeasured) {
        if (hi == lo) // every count up to the upper bound fits
            return lo;
        int64_t guess;
        if (hiMeasured) {
            const double t = static_cast<double>(budget - loBytes) / static_cast<double>(std::max<int64_t>(hiBytes - loBytes, 1));
            guess = lo + static_cast<int64_t>(t * static_cast<double>(hi - lo));
            const int64_t margin = std::max<int64_t>((hi - lo) / 8, 1);
            guess = std::clamp(guess, lo + margin, hi - margin);
            guess = std::clamp(guess, lo + 1, hi - 1);
        } else {
            // Extrapolate from what lo costs per weight (2 bytes per weight before anything is known).
            const double perWeight = lo > 0 ? static_cast<double>(loBytes - base) / static_cast<double>(lo) : 2.0;
            const double target = static_cast<double>(lo) + static_cast<double>(budget - loBytes) / std::max(perWeight, 1e-3);
            guess = std::min<int64_t>(hi, std::max<int64_t>(lo + 1, static_cast<int64_t>(target)));
            if (lo > 0) // step past the estimate so the boundary gets bracketed
                guess = std::min<int64_t>(hi, std::max(guess, lo + std::max<int64_t>((guess - lo) * 9 / 8, 1)));
        }
        const int64_t bytes = bytesAt(guess);
        if (bytes <= budget) {
            lo = guess;
            loBytes = bytes;
            if (lo == hi)
                return lo;
        } else {
            hi = guess;
            hiBytes = bytes;
            hiMeasured = true;
        }
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
