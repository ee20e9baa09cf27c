// SPDX-License-Identifier: MIT
// FU: train everything from the start the runner chose, keep the best validation epoch.
#include "strategies/FullUpdating.h"
#include "strategies/SparseModel.h"
#include "train/Trainer.h"
#include "util/Rng.h"

namespace dpu {

RoundOutput FullUpdating::runRound(const RoundInput& in)
{
    restore(in.network, in.start);
    TrainOptions opt;
    opt.phase = Phase::Full;
    opt.shuffleSeed = deriveSeed(in.unitSeed, 1);
    opt.int8 = in.int8; // an INT8 model's quantiser with scales of its own (fu_int8_training), or none
    const TrainResult r = trainNetwork(in.network, in.train, in.validation, in.spec, opt, in.ctx);
    RoundOutput out;
    out.valAccuracy = r.bestValAccuracy;
    if (in.sparsity > 0) // the vanilla update of a sparse model: trained, then pruned like the deployed one
        out.valAccuracy = pruneToSparsity(in.network, in.sparsity, in.train, in.validation, in.spec,
                                          deriveSeed(in.unitSeed, 6), in.ctx);
    out.weights = snapshot(in.network);
    return out;
}

} // namespace dpu
