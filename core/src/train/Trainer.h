// SPDX-License-Identifier: MIT
// One training step of a round: E epochs of (optionally masked) mini-batch training.
#pragma once
#include "data/Dataset.h"
#include "dpu/Plan.h"
#include "models/Network.h"
#include "train/Distillation.h"
#include "train/Int8Grid.h"
#include "train/TrainContext.h"
#include "train/Weights.h"

namespace dpu {

struct TrainOptions {
    Phase phase = Phase::Full;
    uint64_t shuffleSeed = 0;          ///< seeds the per-epoch sample order (our Rng, not torch's)
    const MaskSet* masks = nullptr;    ///< per parameter; null: every weight trains
    std::vector<torch::Tensor>* localContribution = nullptr; ///< accumulates c_local; null: off
    /// INT8 deployed model: the quantiser to train through (straight-through, see QuantisedView)
    /// and to evaluate with; null: a float model. Not owned.
    const Int8Grid* int8 = nullptr;
    /// Distillation: soft targets on `data` (rows in its order) the loss also fits; null: the
    /// labels alone. Not owned.
    const DistillTargets* distill = nullptr;
    /// Evaluate validation accuracy after every epoch and end with the best state (the start
    /// state included). Off: end with the last epoch's state and report no accuracy.
    bool selectBest = true;
};

struct TrainResult {
    double bestValAccuracy = -1; ///< -1 when selectBest is off
    int bestEpoch = 0;           ///< 0: the start state was best
    double lastLoss = 0;
};

/// Trains `network` in place on `data` for spec.epochs epochs with the spec's optimiser and
/// schedule, in batches of spec.batch in a seeded order (a final batch of one sample is skipped
/// because BatchNorm cannot train on it). Emits epochDone/batchDone through ctx and throws
/// Cancelled before a batch when asked to stop.
TrainResult trainNetwork(Network& network, const TensorDataset& data, const TensorDataset& validation,
                         const TrainSpec& spec, const TrainOptions& options, const TrainContext& ctx);

} // namespace dpu
