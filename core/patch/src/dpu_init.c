/* SPDX-License-Identifier: MIT */
/* Portable seeded initialiser (see docs/initializer.md): integer hashing, one float multiply per value. */
#include "dpu_init.h"

#include "dpu_codes.h"

#define DPU_GOLDEN 0x9E3779B97F4A7C15ULL

uint64_t dpu_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t dpu_init_key(uint64_t seed, uint32_t tensor_index)
{
    /* Two rounds so that nearby seeds and nearby indices give unrelated keys. */
    return dpu_mix64(dpu_mix64(seed + DPU_GOLDEN) ^ ((uint64_t)tensor_index * DPU_GOLDEN + 1u));
}

/* sqrtf(n) for an integer 1 <= n <= 2^24, correctly rounded as IEEE 754 requires of sqrtf, in
 * integer arithmetic: the firmware build links no libm. n is shifted by an even amount into
 * [2^60, 2^62), so r = floor(sqrt) has 31 bits; 7 are rounded away. A tie needs an exact square
 * root with 25 significant bits, and sqrt(n) <= 2^12 is either an integer of at most 13 bits or
 * irrational: rounding up on "half or more, remainder non-zero" is round-to-nearest. */
static float sqrt_of_count(uint32_t n)
{
    unsigned e = 0, s;
    uint64_t m, r = 0, bit, q;
    while ((n >> e) > 1u)
        ++e;
    s = (61u - e) / 2u;
    m = (uint64_t)n << (2u * s);
    for (bit = (uint64_t)1 << 60; bit != 0; bit >>= 2) { /* digit-by-digit square root */
        if (m >= r + bit) {
            m -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
    }
    /* now r = floor(sqrt(n << 2s)) in [2^30, 2^31), m = the remainder */
    q = r >> 7;
    if ((r & 127u) > 64u || ((r & 127u) == 64u && (m != 0 || (q & 1u))))
        ++q;
    if (q == (1u << 24)) { /* rounded up to the next power of two */
        q >>= 1;
        --s;
    }
    /* value q * 2^(7 - s) with q in [2^23, 2^24): exponent 30 - s */
    return dpu_bits_float((uint32_t)(127u + 30u - s) << 23 | (uint32_t)(q & 0x7fffffu));
}

float dpu_init_bound(uint64_t fan_in)
{
    volatile float f; /* volatile: no excess precision, no fused reciprocal */
    if (fan_in == 0u || fan_in > (1u << 24))
        return 0.0f;
    f = sqrt_of_count((uint32_t)fan_in);
    f = 1.0f / f;
    return f;
}

void dpu_init_uniform(float *out, size_t n, uint64_t key, uint64_t first, float bound)
{
    /* bound * 2^-24 is exact (a power-of-two scale of a normal float), so each value is
     * a single correctly rounded product of two floats. */
    const float scale = bound * 5.9604644775390625e-8f;
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t r = dpu_mix64(key + (first + (uint64_t)i + 1u) * DPU_GOLDEN);
        const int32_t u = (int32_t)(r >> 40);
        const int32_t m = 2 * u + 1 - (int32_t)(1 << 24);
        out[i] = (float)m * scale;
    }
}

void dpu_init_constant(float *out, size_t n, float value)
{
    size_t i;
    for (i = 0; i < n; ++i)
        out[i] = value;
}
