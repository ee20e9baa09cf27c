// SPDX-License-Identifier: MIT
// Shared top-k masks: per-tensor counts by a rule, then top-k within each tensor (see ShareSelection.h).
#include "train/ShareSelection.h"
#include "train/MaskSelection.h"
#include "dpu/InternalCheck.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace dpu {
namespace {

/// Splits `count` in proportion to `weight` with each part at most `cap` (count <= sum of caps):
/// parts whose share exceeds their cap are filled and leave the split, until none does; then
/// floors, and the remaining ones by largest remainder.
std::vector<int64_t> waterFill(const std::vector<double>& weight, const std::vector<int64_t>& cap, int64_t count)
{
    const size_t n = weight.size();
    std::vector<int64_t> part(n, 0);
    std::vector<bool> full(n, false);
    std::vector<double> exact(n, 0.0);
    int64_t left = count;
    for (bool again = true; again && left > 0;) {
        again = false;
        double sum = 0;
        for (size_t i = 0; i < n; ++i)
            if (!full[i])
                sum += weight[i];
        if (sum <= 0)
            break;
        const int64_t pool = left; // this pass's shares are all of the same pool
        for (size_t i = 0; i < n; ++i) {
            if (full[i])
                continue;
            exact[i] = static_cast<double>(pool) * weight[i] / sum;
            if (exact[i] >= static_cast<double>(cap[i])) {
                full[i] = true;
                part[i] = cap[i];
                left -= cap[i];
                again = true;
            }
        }
    }
    std::vector<size_t> order;
    for (size_t i = 0; i < n; ++i)
        if (!full[i]) {
            part[i] = std::min<int64_t>(cap[i], static_cast<int64_t>(std::floor(exact[i])));
            left -= part[i];
            order.push_back(i);
        }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return exact[a] - std::floor(exact[a]) > exact[b] - std::floor(exact[b]);
    });
    for (size_t i : order)
        if (left > 0 && part[i] < cap[i]) {
            ++part[i];
            --left;
        }
    return part;
}

} // namespace

std::vector<int64_t> shareCounts(const std::vector<torch::Tensor>& scores, int64_t count, KShare share)
{
    DPU_INTERNAL_CHECK(share != KShare::Global, "shareCounts: a global share has no per-tensor counts");
    DPU_INTERNAL_CHECK(share != KShare::Mixed, "shareCounts: a mixed share is resolved per round by the run");
    std::vector<int64_t> cap(scores.size(), 0);
    std::vector<double> mass(scores.size(), 0.0);
    for (size_t i = 0; i < scores.size(); ++i) {
        if (!scores[i].defined())
            continue;
        const torch::Tensor s = scores[i].detach().to(torch::kDouble);
        const torch::Tensor finite = torch::isfinite(s);
        cap[i] = finite.sum().item<int64_t>();
        mass[i] = s.clamp_min(0).masked_fill(finite.logical_not(), 0).sum().item<double>();
    }
    std::vector<double> weight(cap.begin(), cap.end());
    if (share == KShare::Mass && std::accumulate(mass.begin(), mass.end(), 0.0) > 0)
        weight = mass;
    count = std::clamp<int64_t>(count, 0, std::accumulate(cap.begin(), cap.end(), int64_t{0}));
    auto part = waterFill(weight, cap, count);
    // Tensors of no weight take what the others could not (Mass: all their contributions 0).
    int64_t left = count - std::accumulate(part.begin(), part.end(), int64_t{0});
    for (size_t i = 0; i < part.size() && left > 0; ++i) {
        const int64_t more = std::min(left, cap[i] - part[i]);
        part[i] += more;
        left -= more;
    }
    return part;
}

MaskSet sharedTopKMask(const std::vector<torch::Tensor>& scores, int64_t count, KShare share)
{
    if (share == KShare::Global)
        return topKMask(scores, count);
    const auto parts = shareCounts(scores, count, share);
    MaskSet masks(scores.size());
    for (size_t i = 0; i < scores.size(); ++i)
        if (scores[i].defined())
            masks[i] = topKMask({scores[i]}, parts[i])[0];
    return masks;
}

} // namespace dpu
