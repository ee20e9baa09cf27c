/* SPDX-License-Identifier: MIT */
/* The shared dense stream (docs/bundle-format.md 2.5): every pooled dense tensor's values, in
 * table order, as four byte-plane symbols each under one set of Huffman tables. */
#include "dpu_bundle_internal.h"

#define CHUNK 256u /* floats per output chunk: ctx->buf */

/* Flags byte (bits 0-3: Huffman planes, bit 4: DIRECT), then the tables of the Huffman planes. */
static dpu_status read_header(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e,
                              uint64_t index)
{
    dpu_bits *b = &ctx->pbits;
    unsigned p;
    dpu_bits_init(b, io->read_bundle, io->bundle_user, e->section_offset, e->section_length);
    ctx->section = b;
    ctx->pooled_mask = dpu_bits_get(b, 8);
    if (b->error)
        return dpu_fail(ctx, DPU_E_SECTION_SIZE, "dense stream header", index);
    /* two faults, two texts: a delta may XOR, so "XOR needs a base" must not name an unknown bit */
    if ((ctx->pooled_mask & ~(0xfu | DPU_SPARSE_DIRECT)) != 0)
        return dpu_fail(ctx, DPU_E_PLANES, "dense stream flags: unknown bits", index);
    if (!(ctx->pooled_mask & DPU_SPARSE_DIRECT) && ctx->info.kind != DPU_KIND_DELTA)
        return dpu_fail(ctx, DPU_E_PLANES, "dense stream flags: XOR words without a base", index);
    for (p = 0; p < 4; ++p) {
        if (!(ctx->pooled_mask >> p & 1u))
            continue;
        if (dpu_huff_read_lengths(b, ctx->lengths) != DPU_OK)
            return dpu_fail(ctx, DPU_E_HUFF_TABLE, "table runs past the dense stream", index);
        if (dpu_huff_build(&ctx->phuff[p], ctx->lengths) != DPU_OK)
            return dpu_fail(ctx, DPU_E_HUFF_TABLE, "dense stream code lengths", index);
    }
    ctx->pooled_started = 1;
    ctx->consumed += e->section_length;
    return DPU_OK;
}

dpu_status dpu_apply_pooled(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e,
                            uint64_t index)
{
    uint64_t first;
    size_t i;
    unsigned p;
    dpu_status s;
    if (e->section_length > 0 && (s = read_header(ctx, io, e, index)) != DPU_OK)
        return s;
    if (!ctx->pooled_started) /* the table rule makes the first pooled entry carry the stream */
        return dpu_fail(ctx, DPU_E_SECTION_SIZE, "dense stream missing", index);
    ctx->section = &ctx->pbits;
    for (first = 0; first < e->numel; first += CHUNK) {
        const size_t n = e->numel - first < CHUNK ? (size_t)(e->numel - first) : CHUNK;
        const int xor_base = !(ctx->pooled_mask & DPU_SPARSE_DIRECT);
        if (xor_base && io->read_base(io->base_user, ctx->base_data_start + e->data_offset + first * 4u,
                                      ctx->buf, n * 4u) != 0)
            return dpu_fail(ctx, DPU_E_READ, "device file read", DPU_NO_TENSOR);
        for (i = 0; i < n; ++i) {
            uint32_t x = 0;
            for (p = 0; p < 4; ++p) {
                const int sym = (ctx->pooled_mask >> p & 1u) ? dpu_huff_get(&ctx->phuff[p], &ctx->pbits)
                                                             : (int)dpu_bits_get(&ctx->pbits, 8);
                if (sym < 0 || ctx->pbits.error)
                    return dpu_fail(ctx, DPU_E_VALUE_CODE, "dense stream value code", index);
                x |= (uint32_t)sym << (8 * p);
            }
            if (xor_base)
                x ^= dpu_le32(ctx->buf + 4 * i);
            dpu_put_le32(ctx->buf + 4 * i, x);
        }
        if ((s = dpu_emit(ctx, io, ctx->buf, n * 4u)) != DPU_OK)
            return s;
    }
    return DPU_OK;
}

dpu_status dpu_pooled_finish(dpu_apply_state *ctx)
{
    ctx->section = ctx->pooled_started ? &ctx->pbits : NULL;
    if (ctx->pooled_started && !dpu_bits_at_clean_end(&ctx->pbits))
        return dpu_fail(ctx, DPU_E_SECTION_TRAILING, "dense stream tail", DPU_NO_TENSOR);
    return DPU_OK;
}
