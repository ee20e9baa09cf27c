// SPDX-License-Identifier: MIT
// MSB-first bit writer (docs/bundle-format.md, "Bit streams").
#include "bundle/BitWriter.h"

namespace dpu::bundle {

void BitWriter::put(uint32_t v, unsigned n)
{
    for (unsigned i = n; i-- > 0;) {
        if (bits_ % 8 == 0)
            out_.push_back(0);
        if ((v >> i) & 1u)
            out_.back() |= uint8_t(0x80u >> (bits_ % 8));
        ++bits_;
    }
}

void BitWriter::rice(uint64_t v, unsigned k)
{
    for (uint64_t q = v >> k; q > 0; --q)
        put(1, 1);
    put(0, 1);
    if (k > 0)
        put(uint32_t(v & ((uint64_t(1) << k) - 1)), k);
}

std::vector<uint8_t> BitWriter::finish()
{
    bits_ = (bits_ + 7) / 8 * 8;
    return std::move(out_);
}

} // namespace dpu::bundle
