// SPDX-License-Identifier: MIT
// Deep Partial Updating (Alg. 1) and its global/local-only variants, one-shot or iterative.
#include "strategies/ContributionUpdating.h"
#include "dpu/Cost.h"
#include "train/MaskSelection.h"
#include "train/Trainer.h"
#include "util/Rng.h"
#include <limits>

namespace dpu {
namespace {

std::vector<torch::Tensor> partialParams(Network& net)
{
    std::vector<torch::Tensor> out;
    for (auto& p : net.parameters())
        out.push_back(p.tensor.dim() > 1 ? p.tensor : torch::Tensor());
    return out;
}

std::vector<torch::Tensor> zerosLike(const std::vector<torch::Tensor>& like)
{
    std::vector<torch::Tensor> out(like.size());
    for (size_t i = 0; i < like.size(); ++i)
        if (like[i].defined())
            out[i] = torch::zeros_like(like[i], torch::MemoryFormat::Contiguous);
    return out;
}

} // namespace

RoundOutput ContributionUpdating::runRound(const RoundInput& in)
{
    Network& net = in.network;
    const bool fromServer = memory_ && in.server && !in.server->params.empty();
    restore(net, fromServer ? *in.server : in.start);
    const auto partial = partialParams(net);
    int64_t total = 0;
    for (const auto& p : partial)
        if (p.defined())
            total += p.numel();
    const int64_t target = updatedCount(total, in.k);
    const bool needLocal = lambda_ < 1.0;

    // Step 1: train every weight from the start, collecting c_local along the path.
    std::vector<torch::Tensor> local = needLocal ? zerosLike(partial) : std::vector<torch::Tensor>{};
    TrainOptions full;
    full.phase = Phase::Full;
    full.shuffleSeed = deriveSeed(in.unitSeed, 1);
    full.localContribution = needLocal ? &local : nullptr;
    full.selectBest = false;
    trainNetwork(net, in.train, in.validation, in.spec, full, in.ctx);

    RoundOutput out;
    if (memory_)
        out.server = snapshot(net);
    int64_t remaining = total;
    int iteration = 0;
    while (true) {
        // The next share to keep: all at once (multi-round), or 80 % of what remains.
        const int64_t keep = iterative_ ? std::max<int64_t>(target, std::llround(0.8 * static_cast<double>(remaining)))
                                        : target;
        std::vector<torch::Tensor> global(partial.size());
        {
            torch::NoGradGuard guard;
            for (size_t i = 0; i < partial.size(); ++i)
                if (partial[i].defined())
                    global[i] = (partial[i] - in.start.params[i]).square();
        }
        std::vector<torch::Tensor> scores = combineContributions(global, local, lambda_);
        if (!out.masks.empty()) // weights already rewound may not come back
            for (size_t i = 0; i < scores.size(); ++i)
                if (scores[i].defined())
                    scores[i].masked_fill_(out.masks[i] == 0, -std::numeric_limits<float>::infinity());
        out.masks = topKMask(scores, keep);

        std::vector<torch::Tensor> params;
        for (auto& p : net.parameters())
            params.push_back(p.tensor);
        rewindInPlace(params, in.start.params, out.masks);

        const bool last = keep <= target;
        if (needLocal)
            local = zerosLike(partial);
        TrainOptions fine;
        fine.phase = Phase::FineTune;
        fine.shuffleSeed = deriveSeed(in.unitSeed, 2, static_cast<uint64_t>(iteration));
        fine.masks = &out.masks;
        fine.localContribution = (!last && needLocal) ? &local : nullptr;
        fine.selectBest = last;
        const TrainResult r = trainNetwork(net, in.train, in.validation, in.spec, fine, in.ctx);
        remaining = keep;
        ++iteration;
        if (last) {
            out.valAccuracy = r.bestValAccuracy;
            break;
        }
    }
    out.weights = snapshot(net);
    return out;
}

} // namespace dpu
