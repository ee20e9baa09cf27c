// SPDX-License-Identifier: MIT
// One-shot global magnitude pruning with learning-rate rewinding, from the seeded random model.
#include "strategies/Pruning.h"
#include "dpu/Cost.h"
#include "train/MaskSelection.h"
#include "train/Trainer.h"
#include "util/Rng.h"

namespace dpu {

RoundOutput Pruning::runRound(const RoundInput& in)
{
    Network& net = in.network;
    restore(net, in.start);
    TrainOptions full;
    full.phase = Phase::Full;
    full.shuffleSeed = deriveSeed(in.unitSeed, 1);
    full.selectBest = false;
    trainNetwork(net, in.train, in.validation, in.spec, full, in.ctx);

    std::vector<torch::Tensor> params, scores, zeros;
    int64_t total = 0;
    for (auto& p : net.parameters()) {
        params.push_back(p.tensor);
        const bool partial = p.tensor.dim() > 1;
        scores.push_back(partial ? p.tensor.detach().abs() : torch::Tensor());
        zeros.push_back(partial ? torch::zeros_like(p.tensor) : torch::Tensor());
        total += partial ? p.tensor.numel() : 0;
    }
    RoundOutput out;
    out.zeroBase = true;
    out.masks = topKMask(scores, updatedCount(total, in.k));
    rewindInPlace(params, zeros, out.masks);

    // Learning-rate rewinding: the fine-tune replays the original schedule from its start.
    TrainOptions fine;
    fine.phase = Phase::FineTune;
    fine.shuffleSeed = deriveSeed(in.unitSeed, 2);
    fine.masks = &out.masks;
    const TrainResult r = trainNetwork(net, in.train, in.validation, in.spec, fine, in.ctx);
    out.weights = snapshot(net);
    out.valAccuracy = r.bestValAccuracy;
    return out;
}

} // namespace dpu
