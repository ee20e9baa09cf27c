// SPDX-License-Identifier: MIT
// Adaptive binary arithmetic encoder, the mirror of the device's dpu_arith decoder.
#pragma once
#include "dpu_codes.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

class ArithEncoder {
public:
    /// Codes `bit` under model `m` (P(1) from dpu_arith_p1) and updates the model as the
    /// decoder will (dpu_arith_update with `limit`).
    void encode(unsigned bit, dpu_arith_model& m, unsigned limit);
    /// Ideal cost in bits of coding `bit` under `m` now: -log2 of its probability.
    static double cost(unsigned bit, const dpu_arith_model& m);
    /// Flushes the interval and returns the bytes: exactly as many as the decoder reads.
    std::vector<uint8_t> finish();

private:
    void shiftLow();
    uint64_t low_ = 0;           ///< interval start, 32 bits plus a carry bit
    uint32_t range_ = 0xffffffffu;
    uint8_t cache_ = 0;          ///< the last byte not yet final (a carry may still reach it)
    uint64_t pending_ = 1;       ///< cache_ plus the 0xff bytes behind it
    bool first_ = true;          ///< the very first byte is always 0 and not written
    std::vector<uint8_t> out_;
};

} // namespace dpu::bundle
