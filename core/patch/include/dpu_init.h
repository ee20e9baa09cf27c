/* SPDX-License-Identifier: MIT */
/* Portable seeded initialiser: regenerates a model's random weights bit-exactly on any IEEE-754 device. */
#ifndef DPU_INIT_H
#define DPU_INIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the generator below; stored in bundles so a device can refuse an unknown one. */
#define DPU_INIT_VERSION 1u

/** SplitMix64 finaliser (bijective 64-bit mix). */
uint64_t dpu_mix64(uint64_t z);

/** Key of tensor `tensor_index` (its position in the model's parameter order) under `seed`. */
uint64_t dpu_init_key(uint64_t seed, uint32_t tensor_index);

/** Uniform bound 1/sqrt(fan_in) as float: (float)fan_in, sqrtf, then 1.0f / that (each step
 *  correctly rounded by IEEE 754). fan_in must be in [1, 2^24]; returns 0 otherwise. */
float dpu_init_bound(uint64_t fan_in);

/** Fills out[0..n) with element values first..first+n-1 of the tensor: value i is
 *  (float)(2u + 1 - 2^24) * (bound * 2^-24) with u = dpu_mix64(key + (i + 1) * G) >> 40 and
 *  G = 0x9E3779B97F4A7C15, i.e. one correctly rounded float multiply per value, in
 *  (-bound, bound). Streaming: call with increasing `first` to fill a tensor in pieces.
 *  The caller owns `out`; nothing is allocated. */
void dpu_init_uniform(float *out, size_t n, uint64_t key, uint64_t first, float bound);

/** Fills out[0..n) with `value` (BatchNorm weights 1, biases 0 and running statistics). */
void dpu_init_constant(float *out, size_t n, float value);

#ifdef __cplusplus
}
#endif

#endif /* DPU_INIT_H */
