// SPDX-License-Identifier: MIT
// Learning-rate schedules per epoch (StepLR and cosine annealing as PyTorch defines them).
#pragma once
#include "dpu/Plan.h"

namespace dpu {

/// Learning rate of 0-based `epoch` out of spec.epochs. step: lr * gamma^floor(epoch / step)
/// with step = stepEpochs or max(1, epochs / 3); cosine: lr * (1 + cos(pi * epoch / epochs)) / 2;
/// constant: lr.
double learningRate(const TrainSpec& spec, int epoch);

/// `spec` shortened to `epochs` (when 0 < epochs < spec.epochs; otherwise `spec` itself) with
/// the schedule compressed in proportion: a step schedule's explicit stepEpochs scales by
/// epochs / spec.epochs (rounded, at least 1); epochs / 3 and cosine follow the new count.
TrainSpec shortenedSpec(const TrainSpec& spec, int epochs);

} // namespace dpu
