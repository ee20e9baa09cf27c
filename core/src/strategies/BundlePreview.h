// SPDX-License-Identifier: MIT
// What shipping a round's candidate would cost and give, asked by strategies under a byte budget.
#pragma once
#include "train/Weights.h"
#include <cstdint>

namespace dpu {

/// The real update bundle from the devices' current model (the round's start) to a candidate,
/// under the plan's value coding: its size, and the weights the devices would decode from it.
/// Implemented by the runner with the bundle writer; strategies only ask.
class BundlePreview {
public:
    virtual ~BundlePreview() = default;
    /// Bytes of the bundle taking the devices to `candidate`. Throws Error as the writer does.
    virtual int64_t bytes(const Weights& candidate) const = 0;
    /// The weights the devices would hold after that bundle (lossy codings round the changes),
    /// on the candidate's device. Throws Error as the writer does.
    virtual Weights decoded(const Weights& candidate) const = 0;
};

} // namespace dpu
