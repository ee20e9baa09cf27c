// SPDX-License-Identifier: MIT
// Bit-level float -> half conversion, independent of the compiler's _Float16 support.
#include "bundle/HalfFloat.h"

#include <cstring>

namespace dpu::bundle {

uint16_t HalfFloat::fromFloat(float f)
{
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
    const uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff)
        return uint16_t(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
    const int e = int(exp) - 127 + 15;
    if (e >= 31)
        return uint16_t(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return sign; // below half the smallest subnormal: rounds to zero
        man |= 0x800000u;
        const unsigned shift = unsigned(14 - e);
        uint32_t h = man >> shift;
        const uint32_t rem = man & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u)))
            ++h;
        return uint16_t(sign | h);
    }
    uint32_t h = (uint32_t(e) << 10) | (man >> 13);
    const uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        ++h; // a carry into the exponent is still correct (up to infinity)
    return uint16_t(sign | h);
}

} // namespace dpu::bundle
