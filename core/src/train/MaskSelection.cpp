// SPDX-License-Identifier: MIT
// Global exact top-k masks, contribution combination, seeded random masks, rewinding.
#include "train/MaskSelection.h"
#include "util/Rng.h"
#include <cmath>
#include <limits>

namespace dpu {

MaskSet topKMask(const std::vector<torch::Tensor>& scores, int64_t count)
{
    for (const auto& s : scores)
        if (s.defined() && !s.device().is_cpu())
            return topKMaskOnDevice(scores, count);
    std::vector<float> flat;
    int64_t total = 0;
    for (const auto& s : scores)
        if (s.defined())
            total += s.numel();
    flat.reserve(static_cast<size_t>(total));
    for (const auto& s : scores) {
        if (!s.defined())
            continue;
        torch::Tensor c = s.detach().to(torch::kCPU, torch::kFloat).contiguous();
        const float* d = c.data_ptr<float>();
        for (int64_t i = 0; i < c.numel(); ++i)
            flat.push_back(std::isnan(d[i]) ? -std::numeric_limits<float>::infinity() : d[i]);
    }
    count = std::clamp<int64_t>(count, 0, total);

    std::vector<uint8_t> keep(static_cast<size_t>(total), 0);
    if (count == total) {
        std::fill(keep.begin(), keep.end(), 1);
    } else if (count > 0) {
        // Exact selection in O(I): the count-th largest value is the threshold; everything above
        // it is kept and the remaining slots go to values equal to it, in index order.
        std::vector<float> work(flat);
        auto nth = work.begin() + (count - 1);
        std::nth_element(work.begin(), nth, work.end(), std::greater<float>());
        const float threshold = *nth;
        int64_t above = 0;
        for (float v : flat)
            above += v > threshold;
        int64_t ties = count - above;
        for (size_t i = 0; i < flat.size(); ++i) {
            if (flat[i] > threshold)
                keep[i] = 1;
            else if (flat[i] == threshold && ties > 0) {
                keep[i] = 1;
                --ties;
            }
        }
    }

    MaskSet masks(scores.size());
    size_t offset = 0;
    for (size_t t = 0; t < scores.size(); ++t) {
        if (!scores[t].defined())
            continue;
        const int64_t n = scores[t].numel();
        torch::Tensor m = torch::empty(scores[t].sizes(), torch::kFloat);
        float* d = m.data_ptr<float>();
        for (int64_t i = 0; i < n; ++i)
            d[i] = keep[offset + static_cast<size_t>(i)] ? 1.0f : 0.0f;
        offset += static_cast<size_t>(n);
        masks[t] = m.to(scores[t].device());
    }
    return masks;
}

MaskSet topKMaskOnDevice(const std::vector<torch::Tensor>& scores, int64_t count)
{
    std::vector<torch::Tensor> parts;
    for (const auto& s : scores)
        if (s.defined())
            parts.push_back(s.detach().reshape({-1}).to(torch::kFloat));
    MaskSet masks(scores.size());
    if (parts.empty())
        return masks;
    torch::Tensor flat = torch::cat(parts);
    flat = torch::where(torch::isnan(flat), torch::full({}, -std::numeric_limits<float>::infinity(), flat.options()),
                        flat);
    const int64_t total = flat.numel();
    count = std::clamp<int64_t>(count, 0, total);

    torch::Tensor keep;
    if (count == 0 || count == total) {
        keep = torch::full({total}, count == total, flat.options().dtype(torch::kBool));
    } else {
        // The count-th largest value is the threshold; all above it are kept and the remaining
        // slots go to the values equal to it in index order (a running count of the ties).
        // Integer cumsum is deterministic on CUDA; the threshold stays on the device.
        const torch::Tensor threshold =
            std::get<0>(torch::topk(flat, count, /*dim=*/0, /*largest=*/true, /*sorted=*/false)).min();
        const torch::Tensor above = flat > threshold;
        const torch::Tensor tie = flat == threshold;
        const torch::Tensor slots = count - above.sum(torch::kLong);
        keep = above.logical_or(tie.logical_and(tie.cumsum(0, torch::kLong) <= slots));
    }
    const torch::Tensor keepFloat = keep.to(torch::kFloat);
    int64_t offset = 0;
    for (size_t t = 0; t < scores.size(); ++t) {
        if (!scores[t].defined())
            continue;
        const int64_t n = scores[t].numel();
        masks[t] = keepFloat.narrow(0, offset, n).reshape(scores[t].sizes()).to(scores[t].device()).contiguous();
        offset += n;
    }
    return masks;
}

std::vector<torch::Tensor> combineContributions(const std::vector<torch::Tensor>& global,
                                                const std::vector<torch::Tensor>& local, double lambda)
{
    auto total = [](const std::vector<torch::Tensor>& v) {
        double s = 0;
        for (const auto& t : v)
            if (t.defined())
                s += t.sum(torch::kDouble).item<double>();
        return s;
    };
    auto factor = [](double sum, double weight) {
        if (weight == 0.0 || sum == 0.0 || !std::isfinite(sum))
            return 0.0;
        return weight / std::abs(sum);
    };
    const double fg = factor(total(global), lambda);
    const double fl = local.empty() ? 0.0 : factor(total(local), 1.0 - lambda);
    std::vector<torch::Tensor> out(global.size());
    for (size_t i = 0; i < global.size(); ++i) {
        if (!global[i].defined())
            continue;
        torch::Tensor c = global[i] * fg;
        if (fl != 0.0 && i < local.size() && local[i].defined())
            c.add_(local[i], fl);
        out[i] = c;
    }
    return out;
}

MaskSet randomLayerMasks(const std::vector<torch::Tensor>& like, double k, uint64_t seed, const MaskSet* within)
{
    MaskSet masks(like.size());
    for (size_t t = 0; t < like.size(); ++t) {
        if (!like[t].defined())
            continue;
        const int64_t n = like[t].numel();
        const auto ones = static_cast<int64_t>(std::llround(k * static_cast<double>(n)));
        Rng rng(deriveSeed(seed, t));
        const auto perm = rng.permutation(n);
        torch::Tensor allowed;
        const float* a = nullptr;
        if (within && t < within->size() && (*within)[t].defined()) {
            allowed = (*within)[t].to(torch::kCPU, torch::kFloat).contiguous();
            a = allowed.data_ptr<float>();
        }
        torch::Tensor m = torch::zeros(like[t].sizes(), torch::kFloat);
        float* d = m.data_ptr<float>();
        // The permutation's first `ones` allowed positions: a smaller k's masks stay inside a larger one's.
        int64_t set = 0;
        for (int64_t i = 0; i < n && set < ones; ++i) {
            const auto pos = perm[static_cast<size_t>(i)];
            if (a && a[pos] == 0.0f)
                continue;
            d[pos] = 1.0f;
            ++set;
        }
        masks[t] = m.to(like[t].device());
    }
    return masks;
}

void rewindInPlace(std::vector<torch::Tensor>& trained, const std::vector<torch::Tensor>& base, const MaskSet& masks)
{
    torch::NoGradGuard guard;
    for (size_t i = 0; i < trained.size(); ++i)
        if (i < masks.size() && masks[i].defined())
            trained[i].copy_(torch::where(masks[i] != 0, trained[i], base[i]));
}

} // namespace dpu
