/* SPDX-License-Identifier: MIT */
/* One sparse tensor: source values (base file or seeded initialiser) with the changed positions
 * overwritten, decoded from a single interleaved bit stream (docs/bundle-format.md, "Sparse"). */
#include "dpu_bundle_internal.h"
#include "dpu_init.h"

#include <string.h>

#define CHUNK 256u /* floats per output chunk: ctx->vals */

/* binary16 bits from their order-preserving 16-bit key (negative values below positive ones). */
static uint16_t half_from_key(uint32_t key)
{
    return (uint16_t)(key >= 0x8000u ? key ^ 0x8000u : ~key & 0xffffu);
}

dpu_status dpu_read_centroids(dpu_apply_state *ctx, uint64_t index, unsigned *ncent)
{
    dpu_bits *b = &ctx->bits;
    unsigned i, p, form, rice;
    uint32_t key;
    int ok = 1;
    *ncent = dpu_bits_get(b, 8);
    *ncent |= dpu_bits_get(b, 8) << 8;
    form = dpu_bits_get(b, 8);
    if (b->error || *ncent == 0 || *ncent > 256)
        return dpu_fail(ctx, DPU_E_CENTROIDS, "centroid count", index);
    if (form == DPU_CENTROIDS_F32) {
        for (i = 0; i < *ncent; ++i) {
            uint32_t u = 0;
            for (p = 0; p < 4; ++p)
                u |= dpu_bits_get(b, 8) << (8 * p);
            ctx->centroid[i] = dpu_bits_float(u);
        }
    } else if (form == DPU_CENTROIDS_F16) {
        rice = dpu_bits_get(b, 8);
        key = dpu_bits_get(b, 8);
        key |= dpu_bits_get(b, 8) << 8;
        if (rice > 15)
            return dpu_fail(ctx, DPU_E_CENTROIDS, "centroid rice parameter", index);
        ctx->centroid[0] = dpu_half_to_float(half_from_key(key));
        /* keys never decrease and stay within 16 bits: the limit bounds every step */
        for (i = 1; i < *ncent && ok && !b->error; ++i) {
            key += (uint32_t)dpu_rice_get(b, rice, 0xffffu - key, &ok);
            ctx->centroid[i] = dpu_half_to_float(half_from_key(key));
        }
        if (ok && dpu_bits_get(b, (8u - b->bit) & 7u) != 0)
            ok = 0; /* padding to the byte boundary must be zero */
    } else {
        return dpu_fail(ctx, DPU_E_CENTROIDS, "centroid table form", index);
    }
    if (b->error || !ok)
        return dpu_fail(ctx, DPU_E_CENTROIDS, "centroids run past the section or overflow", index);
    return DPU_OK;
}

/* Reads the sparse section's header: count, Rice parameter, plane mask, centroids, tables. */
static dpu_status read_tables(dpu_apply_state *ctx, const dpu_entry *e, uint64_t index, uint64_t *count,
                              unsigned *rice, unsigned *mask, unsigned *planes, unsigned *ncent)
{
    dpu_bits *b = &ctx->bits;
    unsigned i, p, t = 0;
    dpu_status s;
    *count = 0;
    for (i = 0; i < 8; ++i)
        *count |= (uint64_t)dpu_bits_get(b, 8) << (8 * i);
    *rice = dpu_bits_get(b, 8);
    *mask = dpu_bits_get(b, 8);
    if (b->error)
        return dpu_fail(ctx, DPU_E_SECTION_SIZE, "sparse header", index);
    if (*count > e->numel)
        return dpu_fail(ctx, DPU_E_COUNT, "change count", index);
    if (*rice > 31)
        return dpu_fail(ctx, DPU_E_RICE_PARAM, "rice parameter", index);
    *planes = e->coding == DPU_CODING_FP32 ? 4u : e->coding == DPU_CODING_FP16 ? 2u : 1u;
    /* bit 4 is DIRECT for fp32 and DIFF for i8 (the same bit: the word's relation to the source) */
    if ((*mask & ~(((1u << *planes) - 1u) | DPU_SPARSE_NONZERO |
                   (e->coding == DPU_CODING_FP32 || e->coding == DPU_CODING_I8 ? DPU_SPARSE_DIRECT : 0u))) != 0)
        return dpu_fail(ctx, DPU_E_PLANES, "plane mask", index);
    *ncent = 256;
    if (e->coding == DPU_CODING_Q8 && (s = dpu_read_centroids(ctx, index, ncent)) != DPU_OK)
        return s;
    for (p = 0; p < *planes; ++p) {
        if (!(*mask >> p & 1u))
            continue;
        if (dpu_huff_read_lengths(b, ctx->lengths) != DPU_OK)
            return dpu_fail(ctx, DPU_E_HUFF_TABLE, "table runs past the section", index);
        for (i = *ncent; i < 256; ++i)
            if (ctx->lengths[i] != 0)
                return dpu_fail(ctx, DPU_E_CENTROIDS, "code for an absent centroid", index);
        if (dpu_huff_build(&ctx->huff[p], ctx->lengths) != DPU_OK)
            return dpu_fail(ctx, DPU_E_HUFF_TABLE, "code lengths", index);
        ++t;
    }
    (void)t;
    return DPU_OK;
}

dpu_status dpu_fill_source(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e,
                              uint64_t first, size_t n)
{
    size_t i;
    if (e->dtype == DPU_DTYPE_I8) { /* codes stay bytes, in ctx->buf; no initialiser makes them */
        if (io->read_base(io->base_user, ctx->base_data_start + e->data_offset + first, ctx->buf, n) != 0)
            return dpu_fail(ctx, DPU_E_READ, "device file read", DPU_NO_TENSOR);
        return DPU_OK;
    }
    if (e->mode == DPU_MODE_INIT_SPARSE) {
        if (e->init_rule == DPU_INIT_UNIFORM)
            dpu_init_uniform(ctx->vals, n, dpu_init_key(ctx->info.init_seed, e->init_index), first,
                             dpu_init_bound(e->fan_in));
        else
            dpu_init_constant(ctx->vals, n, e->constant);
        return DPU_OK;
    }
    if (io->read_base(io->base_user, ctx->base_data_start + e->data_offset + first * 4u, ctx->buf, n * 4u) != 0)
        return dpu_fail(ctx, DPU_E_READ, "device file read", DPU_NO_TENSOR);
    for (i = 0; i < n; ++i)
        ctx->vals[i] = dpu_bits_float(dpu_le32(ctx->buf + 4 * i));
    return DPU_OK;
}

/* Reads one record's byte planes into the word *x; -1 on a bad code. */
static int decode_word(dpu_apply_state *ctx, unsigned mask, unsigned planes, uint32_t *x)
{
    unsigned p;
    *x = 0;
    for (p = 0; p < planes; ++p) {
        const int sym = (mask >> p & 1u) ? dpu_huff_get(&ctx->huff[p], &ctx->bits)
                                         : (int)dpu_bits_get(&ctx->bits, 8);
        if (sym < 0 || ctx->bits.error)
            return -1;
        *x |= (uint32_t)sym << (8 * p);
    }
    return 0;
}

/* Decodes one value over `old`; -1 on a bad code. */
static int decode_value(dpu_apply_state *ctx, const dpu_entry *e, unsigned mask, unsigned planes,
                        unsigned ncent, float old, float *out)
{
    uint32_t x;
    if (decode_word(ctx, mask, planes, &x) != 0)
        return -1;
    if (e->coding == DPU_CODING_FP32)
        *out = dpu_bits_float((mask & DPU_SPARSE_DIRECT) ? x : dpu_float_bits(old) ^ x);
    else if (e->coding == DPU_CODING_FP16)
        *out = dpu_half_to_float((uint16_t)x);
    else if (x < ncent)
        *out = ctx->centroid[x];
    else
        return -2; /* raw q8 index of an absent centroid */
    return 0;
}

dpu_status dpu_apply_chunks(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t index,
                            dpu_chunk_fn decode, void *state)
{
    uint64_t first;
    size_t i;
    dpu_status s;
    for (first = 0; first < e->numel; first += CHUNK) {
        const size_t n = e->numel - first < CHUNK ? (size_t)(e->numel - first) : CHUNK;
        if ((s = dpu_fill_source(ctx, io, e, first, n)) != DPU_OK)
            return s;
        if ((s = decode(ctx, e, index, state, first, n)) != DPU_OK)
            return s;
        if (e->dtype != DPU_DTYPE_I8) /* I8 codes were decoded in place, in ctx->buf */
            for (i = 0; i < n; ++i)
                dpu_put_le32(ctx->buf + 4 * i, dpu_float_bits(ctx->vals[i]));
        if ((s = dpu_emit(ctx, io, ctx->buf, n * (size_t)dpu_elem_size(e))) != DPU_OK)
            return s;
    }
    ctx->consumed += e->section_length;
    if (!dpu_bits_at_clean_end(&ctx->bits))
        return dpu_fail(ctx, DPU_E_SECTION_TRAILING, "section tail", index);
    return DPU_OK;
}

/* Where the position stream stands between chunks. With DPU_SPARSE_NONZERO a gap counts the
 * source's nonzeros only: `skip` of them are still to pass before the position, searched from
 * `next` while `seeking` (the search may cross chunks; the source values ahead of `next` are
 * still the source's, as positions only increase). */
typedef struct sparse_state {
    uint64_t count, done, next, pos, skip;
    unsigned rice, mask, planes, ncent;
    int have_pos, seeking;
} sparse_state;

/* Decodes the change at chunk element j in place: a float in ctx->vals, or an I8 code in ctx->buf:
 * the record's byte, or with DIFF the source code plus it, mod 256 (two's complement int8). */
static int decode_at(dpu_apply_state *ctx, const dpu_entry *e, const sparse_state *st, size_t j)
{
    uint32_t x;
    if (e->dtype != DPU_DTYPE_I8)
        return decode_value(ctx, e, st->mask, st->planes, st->ncent, ctx->vals[j], &ctx->vals[j]);
    if (decode_word(ctx, st->mask, 1u, &x) != 0)
        return -1;
    ctx->buf[j] = (uint8_t)((st->mask & DPU_SPARSE_DIFF) ? ctx->buf[j] + x : x);
    return 0;
}

/* DPU_SPARSE_NONZERO: moves `next` over the chunk to the nonzero `skip` nonzeros ahead. Returns
 * 1 when found (st->pos), 0 when the chunk ends first, -1 when the tensor ends first. */
static int seek_nonzero(dpu_apply_state *ctx, const dpu_entry *e, sparse_state *st, uint64_t first, size_t n)
{
    for (; st->next < first + n; ++st->next) {
        /* +0.0 and -0.0 (a pruned weight), by their bits: no float arithmetic on soft-float MCUs;
         * an I8 code 0 */
        if (e->dtype == DPU_DTYPE_I8 ? ctx->buf[st->next - first] == 0u
                                     : (dpu_float_bits(ctx->vals[st->next - first]) & 0x7fffffffu) == 0u)
            continue;
        if (st->skip == 0) {
            st->pos = st->next;
            st->seeking = 0;
            return 1;
        }
        --st->skip;
    }
    return st->next >= e->numel ? -1 : 0;
}

/* Positions and values of the changes inside elements first..first+n-1. */
static dpu_status sparse_chunk(dpu_apply_state *ctx, const dpu_entry *e, uint64_t index, void *state,
                               uint64_t first, size_t n)
{
    sparse_state *st = (sparse_state *)state;
    int ok;
    for (;;) {
        if (!st->have_pos && !st->seeking) {
            if (st->done == st->count)
                break;
            /* gap = pos - next; pos must stay inside the tensor */
            if (st->next >= e->numel)
                return dpu_fail(ctx, DPU_E_POSITION, "more changes than positions", index);
            const uint64_t gap = dpu_rice_get(&ctx->bits, st->rice, e->numel - 1u - st->next, &ok);
            if (!ok)
                return dpu_fail(ctx, DPU_E_POSITION, "position code", index);
            if (st->mask & DPU_SPARSE_NONZERO) {
                st->skip = gap;
                st->seeking = 1;
            } else {
                st->pos = st->next + gap;
                st->have_pos = 1;
            }
        }
        if (st->seeking) {
            const int found = seek_nonzero(ctx, e, st, first, n);
            if (found < 0)
                return dpu_fail(ctx, DPU_E_POSITION, "fewer nonzeros than the gap skips", index);
            if (found == 0)
                break; /* the search goes on in the next chunk */
            st->have_pos = 1;
        }
        if (st->pos >= first + n)
            break; /* belongs to a later chunk */
        const int r = decode_at(ctx, e, st, (size_t)(st->pos - first));
        if (r != 0)
            return dpu_fail(ctx, r == -2 ? DPU_E_CENTROIDS : DPU_E_VALUE_CODE, "value code", index);
        st->next = st->pos + 1u;
        ++st->done;
        st->have_pos = 0;
    }
    return DPU_OK;
}

dpu_status dpu_apply_sparse(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e,
                            uint64_t index)
{
    sparse_state st;
    dpu_status s;
    memset(&st, 0, sizeof st);
    dpu_bits_init(&ctx->bits, io->read_bundle, io->bundle_user, e->section_offset, e->section_length);
    ctx->section = &ctx->bits;
    if ((s = read_tables(ctx, e, index, &st.count, &st.rice, &st.mask, &st.planes, &st.ncent)) != DPU_OK)
        return s;
    return dpu_apply_chunks(ctx, io, e, index, sparse_chunk, &st);
}
