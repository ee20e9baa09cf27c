// SPDX-License-Identifier: MIT
// Encodes one cq sparse section: changed flags and quantised levels in one adaptive binary
// arithmetic-coded stream with context models (docs/bundle-format.md 4.1).
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

/// How a cq section's levels become values.
struct CqModel {
    bool useTable = false;    ///< false: grid (level = step * i), true: table (level = table[i])
    bool diff = false;        ///< value = source + level (else value = level)
    unsigned stepM = 0;       ///< grid step m * 2^(x - 127): m 1..255
    unsigned stepX = 0;       ///< x 1..230
    std::vector<float> table; ///< ascending, 1..256 entries
    bool halfTable = false;   ///< table stored as binary16 keys (every entry is a binary16 value)
};

class CqEncoder {
public:
    /// Section bytes for the positions where mask != 0 with `levels[c]` the c-th change's grid
    /// integer or table index (valid for the model). Rows of `rowLen` elements give the column
    /// contexts. Adds ideal position/value bits (-log2 of the coded probabilities) to `stats`.
    static std::vector<uint8_t> encode(const std::vector<float>& source, const std::vector<uint8_t>& mask,
                                       uint32_t rowLen, const CqModel& model, const std::vector<int32_t>& levels,
                                       BundleStats& stats);

    /// Ideal bits (-log2 of the coded probabilities) of the section's stream with both count
    /// limits at 12: one pass, for comparing choices before encoding.
    static double estimateBits(const std::vector<float>& source, const std::vector<uint8_t>& mask, uint32_t rowLen,
                               const CqModel& model, const std::vector<int32_t>& levels);

    /// The value the device decodes for `level` over `source`.
    static float decode(const CqModel& model, float source, int32_t level);

    /// The grid level (`model.stepM`, `stepX`) nearest to `target` over `source` in decoded
    /// value (exact float evaluation, ties to the smaller |i|); false when |i| would be too large.
    static bool gridLevel(const CqModel& model, float source, float target, int32_t& level);

    /// The largest representable step m * 2^(x - 127) (m 128..255) not above `step`; false when
    /// `step` is outside the representable range.
    static bool stepCode(double step, unsigned& m, unsigned& x);

    /// Row length the column contexts use for a tensor of this shape: the elements per first-
    /// dimension index (one output's fan-in), the whole tensor for 1-D ones.
    static uint32_t rowLength(const std::vector<int64_t>& shape, uint64_t numel);
};

} // namespace dpu::bundle
