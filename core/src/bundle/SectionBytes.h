// SPDX-License-Identifier: MIT
// Where a tensor section's bits go (headers, code tables, positions, values, padding), by decoding it.
#pragma once
#include "dpu_codes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

/// Bits of one tensor's share of a bundle, by what they carry (docs/bundle-format.md 4, 4.3, 2.5).
struct SectionSplit {
    uint64_t headerBits = 0;   ///< fixed fields: count, Rice parameter, flags; cq header and step
    uint64_t tableBits = 0;    ///< Huffman code-length tables and q8/cq centroid tables
    uint64_t positionBits = 0; ///< Golomb-Rice gaps
    uint64_t valueBits = 0;    ///< value words: byte-plane codes, raw values, dense bytes
    uint64_t mixedBits = 0;    ///< cq: positions and levels in one arithmetic-coded stream
    uint64_t paddingBits = 0;  ///< zero bits to the byte boundary
    uint64_t changed = 0;      ///< records of a sparse section

    uint64_t totalBits() const { return headerBits + tableBits + positionBits + valueBits + mixedBits + paddingBits; }
    SectionSplit& operator+=(const SectionSplit& o);
};

/// Decodes a bundle's tensor sections as the device reads them (with the device's own bit reader,
/// Rice and Huffman decoders) and counts the bits of each part. It does not apply anything and
/// checks only what it needs to walk the section: a section it cannot walk throws dpu::Error
/// naming the tensor (run `dpu-cli bundle verify` for the device's full checks). The shared
/// dense stream (2.5) spans several tensors: its header and tables count for the first pooled
/// tensor, each value for its own tensor, and its final padding is pooledPaddingBits().
class SectionBytes {
public:
    /// Reads sections of `bundle`, which must outlive this object.
    explicit SectionBytes(const std::vector<uint8_t>& bundle) : bundle_(bundle) {}
    SectionBytes(const SectionBytes&) = delete; // the shared dense stream's reader spans calls
    SectionBytes& operator=(const SectionBytes&) = delete;

    /// A sparse or init+sparse section at [pos, pos + len) of tensor `index` with `numel` elements,
    /// value coding `coding` (1..5, dpu_coding).
    SectionSplit sparse(uint64_t index, uint64_t pos, uint64_t len, unsigned coding, uint64_t numel) const;
    /// A pooled dense tensor: `len` > 0 starts the shared dense stream at `pos`; then `numel`
    /// values of the stream. Throws dpu::Error when the stream runs out or holds no code.
    SectionSplit pooled(uint64_t index, uint64_t pos, uint64_t len, uint64_t numel);
    /// The shared dense stream's bits after its last value read so far (its padding once every
    /// pooled tensor is read); 0 without a stream.
    uint64_t pooledPaddingBits() const;

private:
    const std::vector<uint8_t>& bundle_;
    void start(dpu_bits& b, uint64_t pos, uint64_t len) const;
    dpu_bits pooled_{};     // the shared dense stream's reader, across its tensors
    dpu_huff pooledHuff_[4]{};
    unsigned pooledFlags_ = 0;
    uint64_t pooledStart_ = 0;
    bool pooledOpen_ = false;
};

} // namespace dpu::bundle
