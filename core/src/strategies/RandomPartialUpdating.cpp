// SPDX-License-Identifier: MIT
// RPU: seeded random per-layer masks, one sparse fine-tuning step from the deployed weights.
#include "strategies/RandomPartialUpdating.h"
#include "train/MaskSelection.h"
#include "train/Trainer.h"
#include "util/Rng.h"

namespace dpu {

RoundOutput RandomPartialUpdating::runRound(const RoundInput& in)
{
    restore(in.network, in.start);
    std::vector<torch::Tensor> partial;
    for (auto& p : in.network.parameters())
        partial.push_back(p.tensor.dim() > 1 ? p.tensor : torch::Tensor());
    RoundOutput out;
    out.masks = randomLayerMasks(partial, in.k, deriveSeed(in.unitSeed, 3));
    TrainOptions opt;
    opt.phase = Phase::FineTune;
    opt.shuffleSeed = deriveSeed(in.unitSeed, 2);
    opt.masks = &out.masks;
    const TrainResult r = trainNetwork(in.network, in.train, in.validation, in.spec, opt, in.ctx);
    out.weights = snapshot(in.network);
    out.valAccuracy = r.bestValAccuracy;
    return out;
}

} // namespace dpu
