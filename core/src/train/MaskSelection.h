// SPDX-License-Identifier: MIT
// Contribution scores and masks: global exact top-k selection, lambda combination, random masks.
#pragma once
#include "train/Weights.h"
#include <torch/torch.h>
#include <vector>

namespace dpu {

/// Exactly `count` ones at the globally largest scores over all defined tensors (undefined
/// entries stay undefined: dense parameters). Ties go to the lower flat index (tensor order,
/// then element order), NaN ranks lowest, so the mask is deterministic. Masks are float 0/1 on
/// each score's device. count is clamped to [0, total].
/// Scores on the CPU take an O(I) selection on the host; scores on another device (CUDA) take
/// topKMaskOnDevice, so the model's scores never leave the device.
MaskSet topKMask(const std::vector<torch::Tensor>& scores, int64_t count);

/// topKMask with tensor operations only (topk for the threshold, a cumulative count for the
/// ties), on whatever device the scores are; no host synchronisation. Same masks as topKMask.
MaskSet topKMaskOnDevice(const std::vector<torch::Tensor>& scores, int64_t count);

/// c = lambda * global / sum(global) + (1 - lambda) * local / sum(local), each sum taken over
/// all defined tensors. A term whose sum is zero or not finite contributes nothing; a
/// negative local sum is normalised by its magnitude so the order is kept.
std::vector<torch::Tensor> combineContributions(const std::vector<torch::Tensor>& global,
                                                const std::vector<torch::Tensor>& local, double lambda);

/// RPU: for every tensor of `like` that is defined, exactly round(k * numel) ones at seeded
/// random positions (each tensor fixes its own (1 - k) share). With `within` (a sparse model's
/// pattern), only its ones are drawn, the first of the same permutation, at most all of them.
MaskSet randomLayerMasks(const std::vector<torch::Tensor>& like, double k, uint64_t seed,
                         const MaskSet* within = nullptr);

/// w + (w_f - w) * m as a selection, so rewound weights are bit-identical to `base`
/// and kept weights to `trained`. Undefined masks keep the trained tensor.
void rewindInPlace(std::vector<torch::Tensor>& trained, const std::vector<torch::Tensor>& base, const MaskSet& masks);

} // namespace dpu
