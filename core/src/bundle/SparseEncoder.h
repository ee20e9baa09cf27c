// SPDX-License-Identifier: MIT
// Encodes one sparse tensor section: Golomb-Rice positions interleaved with value codes.
#pragma once
#include "bundle/BundleTypes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

class BitWriter;
class HuffmanCode;

class SparseEncoder {
public:
    /// Section bytes for the positions where mask != 0, taking values from `target` over
    /// `source`. `applied` receives exactly what the device will produce (source with the coded
    /// values: fp16-rounded or q8 centroids). Adds to stats' position/value bits.
    static std::vector<uint8_t> encode(const std::vector<float>& source, const std::vector<float>& target,
                                       const std::vector<uint8_t>& mask, ValueCoding coding,
                                       std::vector<float>& applied, BundleStats& stats);

    /// Per-plane Huffman codes of `word`'s byte planes; planeMask gets bit p where Huffman
    /// (table included) beats raw bytes. Returns the value bits, tables included.
    static uint64_t planeCodes(const std::vector<uint32_t>& word, unsigned planes, std::vector<HuffmanCode>& codes,
                               unsigned& planeMask);
    /// q8 centroid table: u16 count, u8 form, then f32 values or binary16 key steps (Rice).
    static void writeCentroids(BitWriter& w, const std::vector<float>& centroids, bool half);

    /// Rice parameter (0..31) minimising the total code length of `gaps`, and that length.
    static unsigned bestRiceParameter(const std::vector<uint64_t>& gaps, uint64_t* bits = nullptr);

    /// The gaps of `positions` (ascending) counted over the nonzeros of `source` only (flag
    /// DPU_SPARSE_NONZERO). False, with no gaps, when the source has no zero or a position
    /// falls on a zero (then only the gaps over all elements can code it).
    static bool nonzeroGapsOf(const std::vector<float>& source, const std::vector<uint64_t>& positions,
                              std::vector<uint64_t>& gaps);

    /// The gaps a section codes and their Rice parameter: `gaps` (over all elements) as they
    /// are, or replaced by nonzeroGapsOf() when those code in fewer bits (then `planeMask` gets
    /// DPU_SPARSE_NONZERO). Returns the Rice parameter.
    static unsigned chooseGaps(const std::vector<float>& source, const std::vector<uint64_t>& positions,
                               std::vector<uint64_t>& gaps, unsigned& planeMask);

    /// A sparse section's head: the change count (u64), the Rice parameter and the plane mask.
    static void writeHead(BitWriter& w, uint64_t count, unsigned k, unsigned planeMask);
};

} // namespace dpu::bundle
