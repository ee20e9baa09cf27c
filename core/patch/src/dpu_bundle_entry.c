/* SPDX-License-Identifier: MIT */
/* Parsing and bounds-checking one tensor entry of the manifest (docs/bundle-format.md). */
#include "dpu_bundle_internal.h"

/* Section length a dense tensor must have, or UINT64_MAX on overflow. */
static uint64_t bytes_of(uint64_t numel)
{
    return numel > UINT64_MAX / 4u ? UINT64_MAX : numel * 4u;
}

/* Whether (mode, coding, init rule) is allowed in a bundle of `kind`. */
static int mode_allowed(uint32_t kind, const dpu_entry *e)
{
    const int value_coding = e->coding >= DPU_CODING_FP32 && e->coding <= DPU_CODING_Q8;
    switch (e->mode) {
    case DPU_MODE_COPY:
        return kind == DPU_KIND_DELTA && e->coding == DPU_CODING_NONE && e->init_rule == DPU_INIT_NONE;
    case DPU_MODE_DENSE:
        return e->coding == DPU_CODING_NONE && e->init_rule == DPU_INIT_NONE;
    case DPU_MODE_SPARSE:
        return kind == DPU_KIND_DELTA && value_coding && e->init_rule == DPU_INIT_NONE;
    case DPU_MODE_INIT_SPARSE:
        return kind == DPU_KIND_REINIT_DELTA && value_coding &&
               (e->init_rule == DPU_INIT_UNIFORM || e->init_rule == DPU_INIT_CONSTANT);
    default:
        return 0;
    }
}

dpu_status dpu_read_entry(dpu_apply_ctx *ctx, const dpu_apply_io *io, uint64_t *off, uint64_t index,
                          uint64_t *data_end, uint64_t *sec_pos, dpu_entry *e)
{
    const uint8_t *b = ctx->buf;
    const uint64_t manifest_end = DPU_BUNDLE_PREAMBLE_SIZE + ctx->manifest_size;
    uint64_t numel = 1, var, nbytes;
    uint32_t d;
    dpu_status s;
    if (manifest_end - *off < DPU_TENSOR_FIXED_SIZE)
        return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "entry runs past the manifest", index);
    if ((s = dpu_read_bundle(ctx, io, *off, DPU_TENSOR_FIXED_SIZE)) != DPU_OK)
        return s;
    e->mode = b[0];
    e->coding = b[1];
    e->dtype = b[2];
    e->ndim = b[3];
    e->init_rule = b[4];
    e->name_len = b[5];
    e->init_index = dpu_le32(b + 8);
    e->fan_in = dpu_le32(b + 12);
    e->constant = dpu_bits_float(dpu_le32(b + 16));
    e->data_offset = dpu_le64(b + 24);
    e->numel = dpu_le64(b + 32);
    e->section_offset = dpu_le64(b + 40);
    e->section_length = dpu_le64(b + 48);
    for (d = 0; d < DPU_SHA256_SIZE; ++d)
        e->section_sha[d] = b[56 + d];
    if (e->dtype != 0 || e->ndim > DPU_MAX_DIMS || e->name_len == 0 || dpu_le16(b + 6) != 0 ||
        dpu_le32(b + 20) != 0)
        return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "dtype, dims, name or reserved", index);
    var = (uint64_t)e->ndim * 8u + e->name_len;
    if (manifest_end - *off - DPU_TENSOR_FIXED_SIZE < var)
        return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "shape/name run past the manifest", index);
    if (e->ndim > 0 &&
        (s = dpu_read_bundle(ctx, io, *off + DPU_TENSOR_FIXED_SIZE, (size_t)e->ndim * 8u)) != DPU_OK)
        return s;
    for (d = 0; d < e->ndim; ++d) {
        const uint64_t dim = dpu_le64(b + 8u * d);
        if (dim != 0 && numel > UINT64_MAX / dim)
            return dpu_fail(ctx, DPU_E_TENSOR_SHAPE, "shape product overflows", index);
        numel *= dim;
    }
    if (numel != e->numel)
        return dpu_fail(ctx, DPU_E_TENSOR_SHAPE, "numel != product of shape", index);
    *off += DPU_TENSOR_FIXED_SIZE + var;
    nbytes = bytes_of(e->numel);
    if (nbytes == UINT64_MAX || e->data_offset != *data_end || nbytes > UINT64_MAX - *data_end)
        return dpu_fail(ctx, DPU_E_TENSOR_LAYOUT, "data offset not contiguous", index);
    *data_end += nbytes;
    if (!mode_allowed(ctx->info.kind, e))
        return dpu_fail(ctx, DPU_E_TENSOR_MODE, "mode/coding/init rule", index);
    if (e->mode == DPU_MODE_INIT_SPARSE && e->init_rule == DPU_INIT_UNIFORM &&
        (e->fan_in == 0 || e->fan_in > (1u << 24)))
        return dpu_fail(ctx, DPU_E_INIT_RULE, "fan-in", index);
    if (e->section_offset != *sec_pos || e->section_length > io->bundle_size - *sec_pos)
        return dpu_fail(ctx, DPU_E_SECTION_LAYOUT, "section offset/length", index);
    *sec_pos += e->section_length;
    switch (e->mode) {
    case DPU_MODE_COPY:
        if (e->section_length != 0)
            return dpu_fail(ctx, DPU_E_SECTION_SIZE, "copy tensor with a section", index);
        break;
    case DPU_MODE_DENSE:
        if (e->section_length != nbytes)
            return dpu_fail(ctx, DPU_E_SECTION_SIZE, "dense section != 4 * numel", index);
        break;
    default:
        if (e->section_length < 10)
            return dpu_fail(ctx, DPU_E_SECTION_SIZE, "sparse section shorter than its header", index);
        break;
    }
    return DPU_OK;
}
