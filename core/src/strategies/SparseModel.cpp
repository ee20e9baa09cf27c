// SPDX-License-Identifier: MIT
// Magnitude pruning per tensor with a masked fine-tune, and the pattern read back from a deployed model.
#include "strategies/SparseModel.h"
#include "dpu/Cost.h"
#include "train/MaskSelection.h"
#include "train/Trainer.h"

namespace dpu {

MaskSet nonzeroPattern(const Weights& weights)
{
    MaskSet pattern(weights.params.size());
    for (size_t i = 0; i < weights.params.size(); ++i)
        if (weights.params[i].dim() > 1)
            pattern[i] = (weights.params[i] != 0).to(torch::kFloat);
    return pattern;
}

MaskSet magnitudePattern(const std::vector<torch::Tensor>& params, double sparsity)
{
    MaskSet pattern(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].dim() <= 1)
            continue;
        // Each tensor on its own: a global threshold would empty the small layers (the last
        // layer's weights are the largest-magnitude few of an MLP).
        pattern[i] = topKMask({params[i].detach().abs()}, keptAtSparsity(params[i].numel(), sparsity))[0];
    }
    return pattern;
}

double pruneToSparsity(Network& network, double sparsity, const TensorDataset& train, const TensorDataset& validation,
                       const TrainSpec& spec, uint64_t shuffleSeed, const TrainContext& ctx)
{
    std::vector<torch::Tensor> params, zeros;
    for (auto& p : network.parameters()) {
        params.push_back(p.tensor);
        zeros.push_back(p.tensor.dim() > 1 ? torch::zeros_like(p.tensor) : torch::Tensor());
    }
    const MaskSet pattern = magnitudePattern(params, sparsity);
    rewindInPlace(params, zeros, pattern);

    TrainOptions fine;
    fine.phase = Phase::FineTune;
    fine.shuffleSeed = shuffleSeed;
    fine.masks = &pattern; // the masked optimiser leaves the zeros exactly zero
    return trainNetwork(network, train, validation, spec, fine, ctx).bestValAccuracy;
}

} // namespace dpu
