/* SPDX-License-Identifier: MIT */
/* Portable seeded initialiser (see docs/initializer.md): integer hashing, one float multiply per value. */
#include "dpu_init.h"

#include <math.h>

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

float dpu_init_bound(uint64_t fan_in)
{
    volatile float f; /* volatile: no excess precision, no fused reciprocal-sqrt */
    if (fan_in == 0u || fan_in > (1u << 24))
        return 0.0f;
    f = (float)fan_in;
    f = sqrtf(f);
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
