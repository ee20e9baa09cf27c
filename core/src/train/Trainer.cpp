// SPDX-License-Identifier: MIT
// Mini-batch training loop with masked optimiser steps, best-epoch selection and events.
#include "train/Trainer.h"
#include "train/Evaluator.h"
#include "train/Int8Quantiser.h"
#include "train/MaskedOptimizer.h"
#include "train/Schedule.h"
#include "train/TrainStep.h"
#include "train/cuda/StepGraph.h"
#include "util/Rng.h"
#include <optional>

namespace dpu {

TrainResult trainNetwork(Network& network, const TensorDataset& data, const TensorDataset& validation,
                         const TrainSpec& spec, const TrainOptions& options, const TrainContext& ctx)
{
    TrainResult result;
    std::vector<torch::Tensor> params;
    for (auto& p : network.parameters())
        params.push_back(p.tensor);
    auto optimizer = MaskedOptimizer::create(spec, params);
    optimizer->setMasks(options.masks);
    optimizer->setLocalContribution(options.localContribution);
    network.setTraining(true);
    // Graphs are captured on a side stream; it outlives everything below that queues work.
    std::optional<cuda::SideStream> side;
    if (TrainStep::graphsPossible(*optimizer, data) && !options.int8)
        side.emplace();
    // Validation sees what a device would run: an INT8 model's quantised weights.
    auto validate = [&] {
        const QuantisedView quantised(params, options.int8);
        return accuracy(network, validation);
    };

    Weights best;
    if (options.selectBest) {
        result.bestValAccuracy = validate();
        best = snapshot(network);
    }

    const int64_t n = data.size();
    const int64_t batch = spec.batch;
    const int batches = static_cast<int>((n + batch - 1) / batch);
    const torch::Device device = data.images.device();
    // The loss sum stays on the data's device (in double, added in batch order): reading it back
    // per batch would stall a GPU once per batch. One tensor for the call: a graph writes into it.
    torch::Tensor lossSum = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
    TrainStep step(network, params, *optimizer, lossSum, data, batch, side.has_value(), options.int8,
                   options.distill);
    for (int epoch = 0; epoch < spec.epochs; ++epoch) {
        const double lr = learningRate(spec, epoch);
        optimizer->setLearningRate(lr);
        Rng rng(deriveSeed(options.shuffleSeed, static_cast<uint64_t>(epoch)));
        const auto order = rng.permutation(n);
        torch::Tensor orderTensor = torch::from_blob(const_cast<int64_t*>(order.data()), {n}, torch::kLong).to(device);
        lossSum.zero_();
        int lossCount = 0;
        for (int b = 0; b < batches; ++b) {
            ctx.checkCancel();
            const int64_t start = b * batch;
            const int64_t len = std::min(batch, n - start);
            if (len < 2 && n > 1)
                continue;
            // Augmentation is seeded per (unit, epoch, batch): a resumed unit sees the same batches.
            step.run(orderTensor.narrow(0, start, len),
                     deriveSeed(options.shuffleSeed, static_cast<uint64_t>(epoch), static_cast<uint64_t>(b), 0x617567));
            ++lossCount;
            if (ctx.observer && ctx.reportBatches)
                ctx.observer->batchDone({ctx.strategy, ctx.seed, ctx.round, options.phase, epoch + 1, b + 1, batches});
        }
        result.lastLoss = lossCount ? lossSum.item<double>() / lossCount : 0.0;
        double val = -1;
        if (options.selectBest) {
            val = validate();
            if (val > result.bestValAccuracy) {
                result.bestValAccuracy = val;
                result.bestEpoch = epoch + 1;
                best = snapshot(network);
            }
        }
        if (ctx.observer)
            ctx.observer->epochDone({ctx.strategy, ctx.seed, ctx.round, options.phase, epoch + 1, spec.epochs, lr,
                                     result.lastLoss, val});
    }
    if (options.selectBest && result.bestEpoch != spec.epochs)
        restore(network, best);
    return result;
}

} // namespace dpu
