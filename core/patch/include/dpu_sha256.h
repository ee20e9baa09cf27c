/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4), streaming, no allocation: digests of weight files and bundle sections. */
#ifndef DPU_SHA256_H
#define DPU_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DPU_SHA256_SIZE 32u

/** Hash state; the caller owns it (stack or static), nothing is allocated. */
typedef struct dpu_sha256 {
    uint32_t h[8];
    uint64_t length;   /* bytes absorbed so far */
    uint8_t block[64]; /* pending partial block */
    uint32_t fill;     /* bytes in block */
} dpu_sha256;

/** Starts a new digest. */
void dpu_sha256_init(dpu_sha256 *s);

/** Absorbs `len` bytes; any split of a message gives the same digest. */
void dpu_sha256_update(dpu_sha256 *s, const void *data, size_t len);

/** Writes the 32-byte digest to `out`; `s` must be re-initialised before reuse. */
void dpu_sha256_final(dpu_sha256 *s, uint8_t out[DPU_SHA256_SIZE]);

/** One-shot digest of a buffer. */
void dpu_sha256_buf(const void *data, size_t len, uint8_t out[DPU_SHA256_SIZE]);

#ifdef __cplusplus
}
#endif

#endif /* DPU_SHA256_H */
