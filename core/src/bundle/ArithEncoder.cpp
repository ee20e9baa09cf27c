// SPDX-License-Identifier: MIT
// Range-coder style binary arithmetic encoder with carry propagation (docs/bundle-format.md 3.1).
#include "bundle/ArithEncoder.h"

#include <cmath>

namespace dpu::bundle {

void ArithEncoder::encode(unsigned bit, dpu_arith_model& m, unsigned limit)
{
    const uint32_t bound = (range_ >> 16) * dpu_arith_p1(&m);
    if (bit) {
        range_ = bound; // 1 takes the lower part, as in the decoder
    } else {
        low_ += bound;
        range_ -= bound;
    }
    while (range_ < (1u << 24)) {
        range_ <<= 8;
        shiftLow();
    }
    dpu_arith_update(&m, bit, limit);
}

double ArithEncoder::cost(unsigned bit, const dpu_arith_model& m)
{
    const double p1 = double(dpu_arith_p1(&m)) / 65536.0;
    return -std::log2(bit ? p1 : 1.0 - p1);
}

// Moves the top byte of low_ out. A byte is final only once no carry can reach it: 0xff bytes
// wait behind the cache until a byte below 0xff (or a carry) settles them.
void ArithEncoder::shiftLow()
{
    if (uint32_t(low_) < 0xff000000u || (low_ >> 32) != 0) {
        const auto carry = uint8_t(low_ >> 32);
        uint8_t byte = cache_;
        do {
            if (first_)
                first_ = false; // the interval never leaves [0, 2^32): this byte is 0
            else
                out_.push_back(uint8_t(byte + carry));
            byte = 0xff;
        } while (--pending_ != 0);
        cache_ = uint8_t(low_ >> 24);
    }
    ++pending_;
    low_ = (low_ & 0x00ffffffu) << 8;
}

std::vector<uint8_t> ArithEncoder::finish()
{
    // Four bytes settle the code value the decoder started with; the fifth shift writes them.
    for (int i = 0; i < 5; ++i)
        shiftLow();
    return std::move(out_);
}

} // namespace dpu::bundle
