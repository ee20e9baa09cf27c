// SPDX-License-Identifier: MIT
// RPU: seeded random per-layer masks, one sparse fine-tuning step from the deployed weights.
#include "strategies/RandomPartialUpdating.h"
#include "strategies/BudgetFit.h"
#include "strategies/QuantAwareRefit.h"
#include "train/Evaluator.h"
#include "train/MaskSelection.h"
#include "train/Trainer.h"
#include "util/Rng.h"

namespace dpu {
namespace {

/// The start with every selectable weight moved by a seeded random amount (up to 5 % of the
/// tensor's largest magnitude): RPU has no trained values before its fine-tune, and random
/// changes cost about the most a coding spends per value, so a count sized on them fits.
Weights randomlyChanged(const Weights& start, const std::vector<torch::Tensor>& selectable, uint64_t seed)
{
    Weights w = cloneWeights(start);
    for (size_t t = 0; t < selectable.size(); ++t) {
        if (!selectable[t].defined())
            continue;
        torch::Tensor c = start.params[t].detach().to(torch::kCPU).contiguous().clone();
        const float scale = 0.05f * std::max(c.abs().max().item<float>(), 1e-3f);
        Rng rng(deriveSeed(seed, t));
        float* d = c.data_ptr<float>();
        for (int64_t i = 0; i < c.numel(); ++i)
            d[i] += scale * (static_cast<float>(rng.next() >> 40) / static_cast<float>(1 << 24) - 0.5f) * 2.0f;
        w.params[t] = c.to(start.params[t].device());
    }
    return w;
}

} // namespace

RoundOutput RandomPartialUpdating::runRound(const RoundInput& in)
{
    restore(in.network, in.start);
    const auto partial = selectableParams(in.network, in.selectDense);
    int64_t total = 0;
    for (const auto& p : partial)
        if (p.defined())
            total += p.numel();
    const uint64_t maskSeed = deriveSeed(in.unitSeed, 3);
    // Per layer, round(ratio * numel) at the front of a seeded permutation: a smaller ratio's
    // masks lie inside a larger one's, as the budget search needs.
    const auto ranked = [&](int64_t n) {
        return randomLayerMasks(partial, total > 0 ? static_cast<double>(n) / static_cast<double>(total) : 0.0,
                                maskSeed, in.pattern);
    };
    RoundOutput out;
    out.selectable = total;
    double k = in.k;
    const bool budgeted = in.preview && in.budgetBytes >= 0;
    if (budgeted) {
        const Weights proxy = randomlyChanged(in.start, partial, deriveSeed(in.unitSeed, 5));
        const int64_t n = largestFitting(total, in.budgetBytes, proxy, in.start, ranked, *in.preview);
        if (n < 0) {
            out.fitsBudget = false;
            out.masks = ranked(0);
            out.selected = 0;
            out.weights = cloneWeights(in.start);
            out.valAccuracy = -1; // never passes the deploy gate
            return out;
        }
        k = total > 0 ? static_cast<double>(n) / static_cast<double>(total) : 0.0;
    }
    out.masks = randomLayerMasks(partial, k, maskSeed, in.pattern);
    TrainOptions opt;
    opt.phase = Phase::FineTune;
    opt.shuffleSeed = deriveSeed(in.unitSeed, 2);
    opt.masks = &out.masks;
    opt.int8 = in.int8;
    opt.distill = in.distill;
    const TrainResult r = trainNetwork(in.network, in.train, in.validation, in.spec, opt, in.ctx);
    out.valAccuracy = r.bestValAccuracy;
    if (in.preview && in.quantAware)
        out.valAccuracy = quantAwareRefit(in.network, out.masks, *in.preview, in.train, in.validation, in.spec,
                                          deriveSeed(in.unitSeed, 4), in.ctx);
    if (budgeted) {
        const int64_t before = maskCount(out.masks);
        out.fitsBudget = shrinkToBudget(in.network, in.start, before, in.budgetBytes, ranked, *in.preview, out.masks);
        if (maskCount(out.masks) != before)
            out.valAccuracy = accuracy(in.network, in.validation);
    }
    out.selected = maskCount(out.masks);
    out.weights = snapshot(in.network);
    return out;
}

} // namespace dpu
