// SPDX-License-Identifier: MIT
// Length-limited canonical Huffman codes over bytes, as the device's dpu_huff decodes them.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace dpu::bundle {

class BitWriter;

class HuffmanCode {
public:
    /// Builds code lengths (<= 15 bits) from symbol frequencies. Symbols with frequency 0 get no
    /// code; a single used symbol gets length 1. All-zero frequencies give an empty code.
    explicit HuffmanCode(const std::array<uint64_t, 256>& freq);
    /// Code length of a symbol (0 = unused).
    unsigned length(unsigned symbol) const { return len_[symbol]; }
    /// Bits of all symbols under `freq` plus the 128-byte length table.
    uint64_t cost(const std::array<uint64_t, 256>& freq) const;
    /// Writes the 128-byte length table (low nibble: even symbol, high nibble: odd symbol).
    void writeTable(BitWriter& w) const;
    /// Writes a symbol's canonical code.
    void write(BitWriter& w, unsigned symbol) const;

private:
    void assignCodes();
    std::array<uint8_t, 256> len_{};
    std::array<uint16_t, 256> code_{};
};

} // namespace dpu::bundle
