// SPDX-License-Identifier: MIT
// MSB-first bit writer, the mirror of the device's dpu_bits reader.
#pragma once
#include <cstdint>
#include <vector>

namespace dpu::bundle {

class BitWriter {
public:
    /// Appends the low `n` bits of `v` (0 <= n <= 32), most significant first.
    void put(uint32_t v, unsigned n);
    /// Appends a whole byte (the stream must be byte aligned for the result to be a byte).
    void byte(uint8_t b) { put(b, 8); }
    /// Golomb-Rice code of v with parameter k: (v >> k) ones, a zero, the k low bits.
    void rice(uint64_t v, unsigned k);
    /// Zero bits up to the next byte boundary.
    void align() { put(0, unsigned((8 - bits_ % 8) % 8)); }
    /// Bits written so far.
    uint64_t bits() const { return bits_; }
    /// Pads with zero bits to a byte boundary and returns the bytes.
    std::vector<uint8_t> finish();

private:
    std::vector<uint8_t> out_;
    uint64_t bits_ = 0;
};

} // namespace dpu::bundle
