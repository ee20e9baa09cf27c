// SPDX-License-Identifier: MIT
// Top-k masks whose count is shared among the tensors by a rule (plan k_share), not only globally.
#pragma once
#include "dpu/PlanEnums.h"
#include "train/Weights.h"
#include <torch/torch.h>
#include <vector>

namespace dpu {

/// Per score tensor, its part of `count` under `share`: Layer in proportion to its selectable
/// entries (finite scores), Mass in proportion to the sum of its selectable positive scores
/// (Layer's proportions when every sum is 0). Each part is at most the tensor's selectable
/// entries and the parts add up to min(count, all selectable); what a full tensor cannot take
/// goes to the others in their proportions, and the largest remainders round (ties to the
/// lower index). Undefined tensors get 0. Not for KShare::Global (throws InternalError).
std::vector<int64_t> shareCounts(const std::vector<torch::Tensor>& scores, int64_t count, KShare share);

/// Global: topKMask(scores, count). Otherwise each tensor's shareCounts() part at its own
/// largest scores (topKMask's ties and NaN order within it).
MaskSet sharedTopKMask(const std::vector<torch::Tensor>& scores, int64_t count, KShare share);

} // namespace dpu
