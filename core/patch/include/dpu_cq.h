/* SPDX-License-Identifier: MIT */
/* Context selection of cq sections (docs/bundle-format.md 4.1), shared by the device decoder and
 * the server's encoder so that both pick the same adaptive model for every binary decision. */
#ifndef DPU_CQ_H
#define DPU_CQ_H

#include <stdint.h>

#include "dpu_bundle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Value model indices of the grid form (into the apply state's cq_val models). */
#define DPU_CQ_CTX_NONZERO 0u
#define DPU_CQ_CTX_SIGN 1u     /* + the source value's sign bit */
#define DPU_CQ_CTX_EXP 3u      /* + 23 p + j, j = 0..22: unary bit j of the magnitude's exponent,
                                  p the row's previous level (dpu_cq_scan.prev) */
#define DPU_CQ_PREV_CLASSES 13u
#define DPU_CQ_CTX_MANT 302u   /* + 4 e + k: mantissa bits of a magnitude in [2^e, 2^(e+1)) */
#define DPU_CQ_MAX_EXP 23u     /* magnitudes below 2^24 */

/** Where the position scan stands: column within the row, changes so far in this row, and
 *  whether the previous element of the row changed. */
typedef struct dpu_cq_scan {
    uint32_t row_len;     /* R, 1..2^32-1 */
    uint32_t col;         /* 0..R-1 */
    uint32_t row_changes; /* changes so far in this row */
    unsigned left;        /* previous element of this row changed */
    unsigned prev;        /* the row's previous grid level: 0 none, 1 zero, else min(e + 2, 12) */
    int columns;          /* R <= DPU_CQ_MAX_COLUMNS: per-column counters in use */
} dpu_cq_scan;

/** 0, 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64 and more: 0..7. */
static inline unsigned dpu_cq_bucket(uint32_t n)
{
    unsigned b = 0;
    while (n > 0 && b < 7u) {
        n >>= 1;
        ++b;
    }
    return b;
}

/** Starts a scan over rows of `row_len` elements; clears the column counters it uses. */
static inline void dpu_cq_scan_start(dpu_cq_scan *s, uint32_t row_len, uint8_t *cols)
{
    uint32_t i;
    s->row_len = row_len;
    s->col = 0;
    s->row_changes = 0;
    s->left = 0;
    s->prev = 0;
    s->columns = row_len <= DPU_CQ_MAX_COLUMNS;
    if (s->columns)
        for (i = 0; i < row_len; ++i)
            cols[i] = 0;
}

/** Index of the position model for the element at the scan's place (0..127). */
static inline unsigned dpu_cq_pos_context(const dpu_cq_scan *s, const uint8_t *cols)
{
    const unsigned col = s->columns ? cols[s->col] : 0u;
    return (dpu_cq_bucket(col) * 8u + dpu_cq_bucket(s->row_changes)) * 2u + s->left;
}

/** Moves the scan past an element that changed (`bit` 1) or not. */
static inline void dpu_cq_scan_next(dpu_cq_scan *s, uint8_t *cols, unsigned bit)
{
    if (bit && s->columns && cols[s->col] != 255u) /* 8-bit counters saturate */
        ++cols[s->col];
    s->row_changes += bit;
    s->left = bit;
    if (++s->col == s->row_len) {
        s->col = 0;
        s->row_changes = 0;
        s->left = 0;
        s->prev = 0;
    }
}

/** Records a grid level of magnitude exponent `e` (`nonzero` 0: level 0) as the row's previous. */
static inline void dpu_cq_scan_level(dpu_cq_scan *s, unsigned nonzero, unsigned e)
{
    s->prev = !nonzero ? 1u : e + 2u < DPU_CQ_PREV_CLASSES - 1u ? e + 2u : DPU_CQ_PREV_CLASSES - 1u;
}

/** The grid level step * i for step m * 2^(x - 127) and i = +-mag, m * mag < 2^24: the integer
 *  product is exact as a float, and scaling by a normal power of two keeps it exact. */
static inline float dpu_cq_grid_level(unsigned m, unsigned x, uint32_t mag, unsigned negative)
{
    const float scale = dpu_bits_float((uint32_t)x << 23);
    const float level = (float)(m * mag) * scale;
    return negative ? -level : level;
}

#ifdef __cplusplus
}
#endif

#endif /* DPU_CQ_H */
