/* SPDX-License-Identifier: MIT */
/* Entropy decoding for bundles: MSB-first bit reader, Golomb-Rice, canonical Huffman, fp16,
 * adaptive binary arithmetic decoding. */
#ifndef DPU_CODES_H
#define DPU_CODES_H

#include <stddef.h>
#include <stdint.h>

#include "dpu_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Reads `len` bytes at `offset` of a caller's stream into `buf`; returns 0 on success. */
typedef int (*dpu_read_fn)(void *user, uint64_t offset, uint8_t *buf, size_t len);

#define DPU_BITS_BUFFER 64u

/** Bit reader over the byte range [start, start + length) of a stream, most significant bit of
 *  each byte first. Holds a 64-byte window; the caller owns the struct. */
typedef struct dpu_bits {
    dpu_read_fn read;
    void *user;
    uint64_t next;      /* stream offset of the next byte to fetch */
    uint64_t end;       /* one past the last byte of the range */
    uint8_t buf[DPU_BITS_BUFFER];
    uint32_t have;      /* bytes in buf */
    uint32_t pos;       /* next byte in buf */
    uint32_t bit;       /* bits of buf[pos] already consumed (0..7) */
    int error;          /* sticky: 1 = read past the range, 2 = read callback failed */
} dpu_bits;

/** Starts reading the range; reads nothing yet. */
void dpu_bits_init(dpu_bits *b, dpu_read_fn read, void *user, uint64_t start, uint64_t length);

/** Returns the next `n` bits (0 <= n <= 32) as an unsigned number, first bit most significant.
 *  On overrun or read failure returns 0 and sets b->error (sticky). */
uint32_t dpu_bits_get(dpu_bits *b, unsigned n);

/** 1 when every remaining bit of the current byte is zero and no byte of the range is left
 *  (a bit stream must end exactly, zero padded, so that no byte of a section is unchecked). */
int dpu_bits_at_clean_end(dpu_bits *b);

/** Golomb-Rice decode with parameter k (0..31): q one-bits, a zero bit, then k bits; value
 *  q * 2^k + r. Fails (returns 0, *ok = 0) when the value would exceed `limit` or bits run out,
 *  so an endless run of ones in hostile input costs at most limit / 2^k + 1 reads. */
uint64_t dpu_rice_get(dpu_bits *b, unsigned k, uint64_t limit, int *ok);

#define DPU_HUFF_MAX_BITS 15u

/** Canonical Huffman decoding table for up to 256 symbols (deflate's canonical assignment:
 *  shorter codes first, equal lengths by increasing symbol). */
typedef struct dpu_huff {
    uint16_t count[DPU_HUFF_MAX_BITS + 1]; /* number of codes of each length */
    uint8_t symbol[256];                   /* symbols ordered by (length, value) */
    uint16_t used;                         /* symbols with a code */
} dpu_huff;

/** Builds a table from 256 code lengths (0 = symbol unused, else 1..15). Requires a complete
 *  prefix code (Kraft sum exactly 1), except that a single used symbol must have length 1.
 *  Returns DPU_OK, or DPU_E_HUFF_TABLE when a length exceeds 15 or the code is over- or
 *  under-full or no symbol is used (an all-zero table is invalid). */
dpu_status dpu_huff_build(dpu_huff *h, const uint8_t lengths[256]);

/** Reads a 128-byte table of 256 code lengths (low nibble: even symbol, high nibble: odd
 *  symbol) from the bit stream. Returns DPU_OK, or DPU_E_HUFF_TABLE when the stream runs out
 *  (b->error set). */
dpu_status dpu_huff_read_lengths(dpu_bits *b, uint8_t lengths[256]);

/** Decodes one symbol; returns -1 when the bits run out (b->error set) or on an unused code. */
int dpu_huff_get(const dpu_huff *h, dpu_bits *b);

/* ---- Adaptive binary arithmetic coding (docs/bundle-format.md 3.1) ---- */

#define DPU_ARITH_LIMIT_MIN 2u  /* count limit exponents: a model halves its counts at 2^limit */
#define DPU_ARITH_LIMIT_MAX 14u

/** One adaptive binary model: how often 0 and 1 were coded (halved at the section's limit).
 *  Zeroed counts are the initial state (P(1) = 1/2). */
typedef struct dpu_arith_model {
    uint16_t n0, n1;
} dpu_arith_model;

/** Decoder state: the current interval's width and the code value's offset into it. */
typedef struct dpu_arith {
    uint32_t range;
    uint32_t code;
} dpu_arith;

/** P(bit = 1) of a model in units of 2^-16: floor(((2 n1 + 1) << 16) / (2 (n0 + n1) + 2)),
 *  always within 2..65534 (counts stay below 2^14). The encoder uses the same function. */
uint32_t dpu_arith_p1(const dpu_arith_model *m);

/** Counts `bit` and halves both counts (rounding up) once their sum reaches 2^limit. */
void dpu_arith_update(dpu_arith_model *m, unsigned bit, unsigned limit);

/** Starts decoding at the reader's (byte-aligned) position: range 2^32 - 1, code the next four
 *  bytes big-endian. Returns DPU_E_ARITH when they run out or code >= range (no encoder writes
 *  that), else DPU_OK. */
dpu_status dpu_arith_start(dpu_arith *a, dpu_bits *b);

/** Decodes one bit under model `m` and updates it. Reads a byte from `b` whenever the range
 *  falls below 2^24; running out of bytes sets b->error (sticky) and the bits are then 0. */
unsigned dpu_arith_get(dpu_arith *a, dpu_bits *b, dpu_arith_model *m, unsigned limit);

/** IEEE 754 binary16 bits to binary32 (exact: every half is a float), NaN payloads kept. */
float dpu_half_to_float(uint16_t h);

/** Little-endian loads/stores and float bit casts used by the format. */
uint16_t dpu_le16(const uint8_t *p);
uint32_t dpu_le32(const uint8_t *p);
uint64_t dpu_le64(const uint8_t *p);
void dpu_put_le32(uint8_t *p, uint32_t v);
uint32_t dpu_float_bits(float f);
float dpu_bits_float(uint32_t u);

#ifdef __cplusplus
}
#endif

#endif /* DPU_CODES_H */
