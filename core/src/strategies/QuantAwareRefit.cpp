// SPDX-License-Identifier: MIT
// Staged quantise-and-re-fit of a round's changed weights with the bundle's own coding.
#include "strategies/QuantAwareRefit.h"
#include "train/MaskSelection.h"
#include "train/Schedule.h"
#include "train/Trainer.h"
#include "util/Rng.h"
#include <limits>

namespace dpu {

double quantAwareRefit(Network& network, const MaskSet& masks, const BundlePreview& preview,
                       const TensorDataset& train, const TensorDataset& validation, const TrainSpec& spec,
                       uint64_t seed, const TrainContext& ctx)
{
    const int64_t changed = maskCount(masks);
    // The re-fit continues the fine-tune's end, at the rate of the middle of its schedule: a full
    // restart of the schedule would move the weights further than quantisation did.
    TrainSpec refit = spec;
    refit.epochs = std::max(1, spec.epochs / 3);
    refit.lr = learningRate(spec, spec.epochs / 2);
    refit.schedule.kind = ScheduleKind::Constant;

    MaskSet frozen(masks.size());
    for (size_t i = 0; i < masks.size(); ++i)
        if (masks[i].defined())
            frozen[i] = torch::zeros_like(masks[i]);
    double val = -1;
    const double shares[] = {0.5, 0.75, 0.875};
    for (int stage = 0; stage < 3; ++stage) {
        const int64_t freeze = std::llround(shares[stage] * static_cast<double>(changed));
        const Weights latent = snapshot(network);
        const Weights coded = preview.decoded(latent);
        std::vector<torch::Tensor> params;
        for (auto& p : network.parameters())
            params.push_back(p.tensor);
        MaskSet trainable(masks.size());
        {
            torch::NoGradGuard guard;
            // Frozen weights rank first (they stay frozen), then the largest coding errors;
            // weights outside the mask never rank.
            std::vector<torch::Tensor> rank(masks.size());
            for (size_t i = 0; i < masks.size(); ++i) {
                if (!masks[i].defined())
                    continue;
                torch::Tensor err = (coded.params[i] - latent.params[i]).abs();
                err = torch::where(frozen[i] != 0, torch::full({}, std::numeric_limits<float>::max(), err.options()), err);
                rank[i] = torch::where(masks[i] != 0, err, torch::full({}, -std::numeric_limits<float>::infinity(),
                                                                         err.options()));
            }
            frozen = topKMask(rank, freeze);
            for (size_t i = 0; i < masks.size(); ++i) {
                if (!masks[i].defined())
                    continue;
                params[i].copy_(torch::where(frozen[i] != 0, coded.params[i], params[i]));
                trainable[i] = masks[i] * (1 - frozen[i]);
            }
        }
        TrainOptions opt;
        opt.phase = Phase::FineTune;
        opt.shuffleSeed = deriveSeed(seed, 7, static_cast<uint64_t>(stage));
        opt.masks = &trainable;
        val = trainNetwork(network, train, validation, refit, opt, ctx).bestValAccuracy;
    }
    return val;
}

} // namespace dpu
