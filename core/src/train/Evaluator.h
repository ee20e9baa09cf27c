// SPDX-License-Identifier: MIT
// Top-1 accuracy of a network on a dataset, in large no-grad batches.
#pragma once
#include "data/Dataset.h"
#include "models/Network.h"

namespace dpu {

/// Fraction of correctly classified samples in [0, 1] (0 for an empty set). Leaves the
/// network in training mode.
double accuracy(Network& network, const TensorDataset& data, int64_t batch = 1000);

} // namespace dpu
