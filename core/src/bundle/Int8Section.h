// SPDX-License-Identifier: MIT
// An I8 tensor's place in a bundle (format 5): copy, raw dense codes, or a sparse section of coding i8.
#pragma once
#include "bundle/BundleEnvelope.h"
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

class Int8Section {
public:
    /// Section bytes (docs/bundle-format.md 4.3) for the positions where mask != 0, taking codes
    /// from `target` over `source`: per change a Golomb-Rice gap (counted among the source's
    /// nonzero codes when that is shorter) and one byte, the new code or its difference to the
    /// old one mod 256, raw or Huffman coded, whichever is smaller. `applied` receives what the
    /// device produces (source with the masked codes replaced). Adds to stats' bits and counts.
    static std::vector<uint8_t> encode(const std::vector<int8_t>& source, const std::vector<int8_t>& target,
                                       const std::vector<uint8_t>& mask, std::vector<int8_t>& applied,
                                       BundleStats& stats);

    /// How I8 tensor `i` of `in` travels, recording in out.applied[i] what the device will hold
    /// and in out.stats its bytes. Delta: `copy` when nothing changes, else the smaller of a
    /// sparse i8 section (over the mask's positions, or every differing code without a mask) and
    /// the dense codes. Full and reinit+delta: the dense target codes (no seeded int8 model
    /// exists, so a reinit bundle ships them whole). Throws dpu::Error for a mask of the wrong size.
    static PlannedTensor plan(const BundleInput& in, const std::vector<TensorData>& base, size_t i,
                              BundleOutput& out);
};

} // namespace dpu::bundle
