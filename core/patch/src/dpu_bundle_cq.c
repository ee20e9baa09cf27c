/* SPDX-License-Identifier: MIT */
/* One cq (context-coded, quantised) sparse tensor: a short header, then a single adaptive binary
 * arithmetic-coded stream of every element's changed flag and each change's level
 * (docs/bundle-format.md 4.1), decoded in chunks over the source values. */
#include "dpu_bundle_internal.h"
#include "dpu_cq.h"

#include <string.h>

/* What the header says about the values. */
typedef struct cq_header {
    uint64_t count;
    unsigned form, diff, pos_limit, val_limit;
    uint32_t row_len;
    unsigned step_m, step_x; /* grid */
    unsigned ncent, depth;   /* table: centroids and tree depth ceil(log2 C) */
} cq_header;

static dpu_status read_header(dpu_apply_state *ctx, const dpu_entry *e, uint64_t index, cq_header *h)
{
    dpu_bits *b = &ctx->bits;
    unsigned i, flags, limits, reserved;
    h->count = 0;
    for (i = 0; i < 8; ++i)
        h->count |= (uint64_t)dpu_bits_get(b, 8) << (8 * i);
    h->form = dpu_bits_get(b, 8);
    flags = dpu_bits_get(b, 8);
    limits = dpu_bits_get(b, 8);
    reserved = dpu_bits_get(b, 8);
    h->row_len = dpu_bits_get(b, 8);
    h->row_len |= dpu_bits_get(b, 8) << 8;
    h->row_len |= dpu_bits_get(b, 8) << 16;
    h->row_len |= dpu_bits_get(b, 8) << 24;
    if (b->error)
        return dpu_fail(ctx, DPU_E_SECTION_SIZE, "cq header", index);
    if (h->count > e->numel)
        return dpu_fail(ctx, DPU_E_COUNT, "change count", index);
    h->diff = flags & DPU_CQ_DIFF;
    h->pos_limit = limits & 15u;
    h->val_limit = limits >> 4;
    if (h->form > DPU_CQ_TABLE || (flags & ~DPU_CQ_DIFF) != 0 || reserved != 0 ||
        h->pos_limit < DPU_ARITH_LIMIT_MIN || h->pos_limit > DPU_ARITH_LIMIT_MAX ||
        h->val_limit < DPU_ARITH_LIMIT_MIN || h->val_limit > DPU_ARITH_LIMIT_MAX || h->row_len == 0 ||
        (uint64_t)h->row_len > (e->numel > 0 ? e->numel : 1u))
        return dpu_fail(ctx, DPU_E_CQ_MODEL, "cq form, flags, limits or row length", index);
    if (h->form == DPU_CQ_GRID) {
        h->step_m = dpu_bits_get(b, 8);
        h->step_x = dpu_bits_get(b, 8);
        if (b->error)
            return dpu_fail(ctx, DPU_E_SECTION_SIZE, "cq step", index);
        if (h->step_m == 0 || h->step_x == 0 || h->step_x > 230u)
            return dpu_fail(ctx, DPU_E_CQ_MODEL, "cq step", index);
    } else {
        dpu_status s = dpu_read_centroids(ctx, index, &h->ncent);
        if (s != DPU_OK)
            return s;
        for (h->depth = 0; (1u << h->depth) < h->ncent; ++h->depth) {
        }
    }
    return DPU_OK;
}

/* One change's new value over `source`: 0, or DPU_E_VALUE_CODE / DPU_E_CENTROIDS. */
static dpu_status decode_value(dpu_apply_state *ctx, const cq_header *h, dpu_cq_scan *scan, float *v)
{
    dpu_bits *b = &ctx->bits;
    dpu_arith *a = &ctx->arith;
    dpu_arith_model *m = ctx->cq_val;
    const unsigned sign = dpu_float_bits(*v) >> 31, lim = h->val_limit;
    float level;
    if (h->form == DPU_CQ_GRID) {
        uint32_t mag = 0;
        unsigned neg = 0, ex = 0, k;
        if (dpu_arith_get(a, b, &m[DPU_CQ_CTX_NONZERO], lim)) {
            neg = dpu_arith_get(a, b, &m[DPU_CQ_CTX_SIGN + sign], lim);
            while (ex < DPU_CQ_MAX_EXP && dpu_arith_get(a, b, &m[DPU_CQ_CTX_EXP + 23u * scan->prev + ex], lim))
                ++ex;
            mag = 1;
            for (k = 0; k < ex; ++k) {
                const unsigned c = k == 0 ? 0u : k == 1 ? 1u + (mag & 1u) : 3u;
                mag = mag << 1 | dpu_arith_get(a, b, &m[DPU_CQ_CTX_MANT + 4u * ex + c], lim);
            }
            if ((uint64_t)h->step_m * mag >= DPU_CQ_MAX_LEVEL)
                return DPU_E_VALUE_CODE;
        }
        dpu_cq_scan_level(scan, mag != 0, ex);
        level = dpu_cq_grid_level(h->step_m, h->step_x, mag, neg);
    } else {
        unsigned node = 1, k;
        for (k = 0; k < h->depth; ++k)
            node = node << 1 | dpu_arith_get(a, b, &m[sign * 256u + node], lim);
        node -= 1u << h->depth;
        if (node >= h->ncent)
            return DPU_E_CENTROIDS;
        level = ctx->centroid[node];
    }
    *v = h->diff ? *v + level : level;
    return DPU_OK;
}

/* Where the one arithmetic-coded stream stands between chunks. */
typedef struct cq_state {
    cq_header h;
    dpu_cq_scan scan;
    uint64_t done;
} cq_state;

/* The changed flags and levels of elements first..first+n-1. */
static dpu_status cq_chunk(dpu_apply_state *ctx, const dpu_entry *e, uint64_t index, void *state, uint64_t first,
                           size_t n)
{
    cq_state *st = (cq_state *)state;
    size_t i;
    dpu_status s;
    for (i = 0; i < n; ++i) {
        unsigned bit;
        /* no bit once every change is known, nor while every remaining element must change */
        if (st->done == st->h.count)
            bit = 0;
        else if (e->numel - first - i == st->h.count - st->done)
            bit = 1;
        else
            bit = dpu_arith_get(&ctx->arith, &ctx->bits, &ctx->cq_pos[dpu_cq_pos_context(&st->scan, ctx->cq_col)],
                                st->h.pos_limit);
        if (bit) {
            /* a level decoded from bytes past the section is garbage: report the overrun */
            if ((s = decode_value(ctx, &st->h, &st->scan, &ctx->vals[i])) != DPU_OK)
                return dpu_fail(ctx, ctx->bits.error ? DPU_E_ARITH : s, "cq value level", index);
            ++st->done;
        }
        dpu_cq_scan_next(&st->scan, ctx->cq_col, bit);
        if (ctx->bits.error)
            return dpu_fail(ctx, DPU_E_ARITH, "arithmetic stream runs past its section", index);
    }
    return DPU_OK;
}

dpu_status dpu_apply_cq(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t index)
{
    cq_state st;
    dpu_status s;
    dpu_bits_init(&ctx->bits, io->read_bundle, io->bundle_user, e->section_offset, e->section_length);
    ctx->section = &ctx->bits;
    if ((s = read_header(ctx, e, index, &st.h)) != DPU_OK)
        return s;
    memset(ctx->cq_pos, 0, sizeof ctx->cq_pos);
    memset(ctx->cq_val, 0, sizeof ctx->cq_val);
    dpu_cq_scan_start(&st.scan, st.h.row_len, ctx->cq_col);
    st.done = 0;
    if (dpu_arith_start(&ctx->arith, &ctx->bits) != DPU_OK)
        return dpu_fail(ctx, DPU_E_ARITH, "arithmetic stream start", index);
    return dpu_apply_chunks(ctx, io, e, index, cq_chunk, &st);
}
