// SPDX-License-Identifier: MIT
// Seeded training-time augmentation of a batch: random crop with padding and horizontal flip.
#pragma once
#include "dpu/Plan.h"
#include <torch/torch.h>

namespace dpu::data {

/// `images` [B, C, H, W] (normalised) with every sample shifted by a random crop of the image
/// padded with `spec.cropPadding` zeros on each side (along the height only when H > 1, so 1-D
/// windows shift in time only) and mirrored left-right with probability 1/2 when `spec.flip`.
/// The draws come from the project's Rng seeded with `seed`, so a batch is augmented the same way
/// on every run and device. Returns `images` itself when nothing is enabled.
torch::Tensor augmentBatch(const torch::Tensor& images, const AugmentSpec& spec, uint64_t seed);

} // namespace dpu::data
