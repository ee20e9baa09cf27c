// SPDX-License-Identifier: MIT
// A full bundle of a model with zeros (a sparse deployed model): its nonzeros as positions and values over a constant-0 initialiser.
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <optional>

namespace dpu::bundle {

/// How a `full` bundle codes its zeros (docs/bundle-format.md 2.6): as a `reinit+delta` bundle
/// whose tensors with zeros are `init+sparse` sections over the rule `constant` 0, so that only
/// their nonzeros travel, with their positions. Every decoder of format 3 on applies it.
class FullZeros {
public:
    /// Whether a tensor of `numel` elements, `zeros` of them +0.0, is worth coding so: each zero
    /// left out saves its 32 value bits, and the positions of the rest cost at most about one bit
    /// per element (Golomb-Rice with parameter 0 is a bitmap, section 4).
    static bool worthCoding(uint64_t zeros, uint64_t numel);

    /// `full` (kind Full) as the zeros' coding: kind ReinitDelta, seed 0, exact values; every F32
    /// tensor whose zeros are worth coding gets rule constant 0 and the mask of its elements that
    /// are not +0.0 (a -0.0 travels), the others stay always shipped. Nothing when no tensor has
    /// such zeros (a dense model's full bundle stays as it is).
    static std::optional<BundleInput> asZeroSeeded(const BundleInput& full);
};

} // namespace dpu::bundle
