// SPDX-License-Identifier: MIT
// A sparse deployed model (plan `deployed` sparse): its pattern, magnitude pruning and the masked fine-tune.
#pragma once
#include "data/Dataset.h"
#include "dpu/Plan.h"
#include "models/Network.h"
#include "train/TrainContext.h"
#include "train/Weights.h"

namespace dpu {

/// Per parameter of `weights`: 1 where a partial weight (a tensor of 2 or more dimensions) is
/// nonzero, undefined for the 1-D ones. The devices' own view of the pattern: the zeros their
/// file holds, so it needs no storage and survives a resume.
MaskSet nonzeroPattern(const Weights& weights);

/// Per partial tensor, the keptAtSparsity(numel, sparsity) largest magnitudes (ties to the
/// lower index); undefined for the 1-D tensors.
MaskSet magnitudePattern(const std::vector<torch::Tensor>& params, double sparsity);

/// Prunes the network's partial weights to `sparsity` per tensor by magnitude, then fine-tunes
/// within that pattern with the schedule replayed from its start (learning-rate rewinding, as
/// Renda et al.), keeping the best validation epoch. The zeros stay exactly zero. Returns that
/// epoch's validation accuracy; throws Cancelled when the context asks to stop.
double pruneToSparsity(Network& network, double sparsity, const TensorDataset& train, const TensorDataset& validation,
                       const TrainSpec& spec, uint64_t shuffleSeed, const TrainContext& ctx);

} // namespace dpu
