// SPDX-License-Identifier: MIT
// The smallest section that ships given values exactly (catch-up bundles, docs/bundle-format.md 4.2).
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

/// One tensor's exact section: its coding (DPU_CODING_*) and bytes.
struct ExactChoice {
    uint8_t coding = 0;
    std::vector<uint8_t> section;
};

class ExactSection {
public:
    /// The smallest sparse section (fp32, fp16, q8 with an exact table, or cq: a table of the
    /// new values, a table of differences, or a grid of differences) that turns `source` into
    /// `target` bit for bit at the positions where `mask` is set. Only representations that
    /// decode to exactly `target` are considered (fp32 always does). Adds the chosen section's
    /// position and value bits to `stats`. `rowLen` as CqEncoder::rowLength. Throws Error when the
    /// mask leaves out a position whose bits differ (a caller's mistake).
    static ExactChoice encode(const std::vector<float>& source, const std::vector<float>& target,
                              const std::vector<uint8_t>& mask, uint32_t rowLen, BundleStats& stats);

    /// encode() over every position where `target` differs from `source` in its bits, with the
    /// tensor's own row length; no statistics.
    static ExactChoice encodeChanges(const std::vector<float>& source, const TensorData& target);
};

} // namespace dpu::bundle
