// SPDX-License-Identifier: MIT
// FU: train everything from the start the runner chose, keep the best validation epoch.
#include "strategies/FullUpdating.h"
#include "train/Trainer.h"
#include "util/Rng.h"

namespace dpu {

RoundOutput FullUpdating::runRound(const RoundInput& in)
{
    restore(in.network, in.start);
    TrainOptions opt;
    opt.phase = Phase::Full;
    opt.shuffleSeed = deriveSeed(in.unitSeed, 1);
    const TrainResult r = trainNetwork(in.network, in.train, in.validation, in.spec, opt, in.ctx);
    RoundOutput out;
    out.weights = snapshot(in.network);
    out.valAccuracy = r.bestValAccuracy;
    return out;
}

} // namespace dpu
