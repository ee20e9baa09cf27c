/* SPDX-License-Identifier: MIT */
/* Parsing and bounds-checking one tensor entry of the manifest (docs/bundle-format.md 2.3). */
#include "dpu_bundle_internal.h"

/* Whether (mode, coding, init rule) is allowed for an F32 tensor in a bundle of `kind`. */
static int mode_allowed_f32(uint32_t kind, const dpu_entry *e)
{
    const int value_coding = e->coding >= DPU_CODING_FP32 && e->coding <= DPU_CODING_CQ;
    switch (e->mode) {
    case DPU_MODE_COPY:
        return kind == DPU_KIND_DELTA && e->coding == DPU_CODING_NONE && e->init_rule == DPU_INIT_NONE;
    case DPU_MODE_DENSE: /* coding fp32: pooled in the shared dense stream (2.5) */
        return (e->coding == DPU_CODING_NONE || e->coding == DPU_CODING_FP32) && e->init_rule == DPU_INIT_NONE;
    case DPU_MODE_SPARSE:
        return kind == DPU_KIND_DELTA && value_coding && e->init_rule == DPU_INIT_NONE;
    case DPU_MODE_INIT_SPARSE:
        return kind == DPU_KIND_REINIT_DELTA && value_coding &&
               (e->init_rule == DPU_INIT_UNIFORM || e->init_rule == DPU_INIT_CONSTANT);
    default:
        return 0;
    }
}

/* The same for an I8 tensor (format 5): its codes are never floats, so no float coding, no
 * shared dense stream and no initialiser (there is no seeded int8 model): copy, raw dense codes,
 * or a sparse section of coding i8 over the base file's codes. */
static int mode_allowed_i8(uint32_t kind, const dpu_entry *e)
{
    if (e->init_rule != DPU_INIT_NONE)
        return 0;
    switch (e->mode) {
    case DPU_MODE_COPY:
        return kind == DPU_KIND_DELTA && e->coding == DPU_CODING_NONE;
    case DPU_MODE_DENSE:
        return e->coding == DPU_CODING_NONE;
    case DPU_MODE_SPARSE:
        return kind == DPU_KIND_DELTA && e->coding == DPU_CODING_I8;
    default:
        return 0;
    }
}

/* Unsigned LEB128 at b[*pos], at most `avail` bytes: 7 bits per byte, low group first. Refuses
 * an encoding that runs past `avail`, is longer than needed (a final 0x00 byte after the first)
 * or exceeds `max`. */
static int get_varint(const uint8_t *b, size_t avail, size_t *pos, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    unsigned shift = 0;
    size_t p = *pos;
    for (;;) {
        uint8_t c;
        if (p >= avail || shift > 63)
            return -1;
        c = b[p++];
        if (shift == 63 && (c & 0x7eu) != 0)
            return -1; /* bits above 2^64 */
        v |= (uint64_t)(c & 0x7fu) << shift;
        if ((c & 0x80u) == 0) {
            if (c == 0 && p - *pos > 1)
                return -1; /* overlong */
            break;
        }
        shift += 7;
    }
    if (v > max)
        return -1;
    *pos = p;
    *out = v;
    return 0;
}

dpu_status dpu_read_entry(dpu_apply_state *ctx, const dpu_apply_io *io, uint64_t *off, uint64_t index,
                          uint64_t *data_end, uint64_t *sec_pos, dpu_entry *e)
{
    const uint8_t *b = ctx->buf;
    const uint64_t manifest_end = DPU_BUNDLE_PREAMBLE_SIZE + ctx->manifest_size;
    const size_t avail = manifest_end - *off < DPU_TENSOR_ENTRY_MAX ? (size_t)(manifest_end - *off)
                                                                    : DPU_TENSOR_ENTRY_MAX;
    size_t pos = 1;
    uint64_t v, nbytes;
    dpu_status s;
    if (avail == 0)
        return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "entry runs past the manifest", index);
    if ((s = dpu_read_bundle(ctx, io, *off, avail)) != DPU_OK)
        return s;
    /* bit 6 extends the coding from format 4 on, bit 7 is the I8 dtype from format 5 on; older
     * formats reserve them */
    if (((b[0] & DPU_ENTRY_DTYPE_I8) && ctx->format_version < 5u) ||
        ((b[0] & DPU_ENTRY_CODING_HIGH) && ctx->format_version < 4u))
        return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "reserved bits", index);
    e->mode = b[0] & 3u;
    e->coding = ((b[0] >> 2) & 3u) | ((b[0] & DPU_ENTRY_CODING_HIGH) ? 4u : 0u);
    e->init_rule = (b[0] >> 4) & 3u;
    e->dtype = (b[0] & DPU_ENTRY_DTYPE_I8) ? DPU_DTYPE_I8 : DPU_DTYPE_F32;
    e->init_index = 0;
    e->fan_in = 0;
    e->constant = 0.f;
    if (!(e->dtype == DPU_DTYPE_I8 ? mode_allowed_i8(ctx->info.kind, e) : mode_allowed_f32(ctx->info.kind, e)))
        return dpu_fail(ctx, DPU_E_TENSOR_MODE, "mode/coding/init rule", index);
    if (get_varint(b, avail, &pos, UINT64_MAX, &e->numel) != 0)
        return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "numel varint", index);
    if (e->numel >= DPU_MAX_NUMEL)
        return dpu_fail(ctx, DPU_E_TENSOR_SHAPE, "numel of 2^61 or more", index);
    nbytes = e->numel * dpu_elem_size(e); /* below 2^63: no wrap */
    if (e->mode == DPU_MODE_COPY) {
        e->section_length = 0;
    } else if (e->mode == DPU_MODE_DENSE && e->coding == DPU_CODING_NONE) {
        e->section_length = nbytes;
    } else if (e->mode == DPU_MODE_DENSE) {
        /* pooled: the first such entry's section is the whole shared stream, the others have none */
        if (get_varint(b, avail, &pos, UINT64_MAX, &e->section_length) != 0)
            return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "section length varint", index);
        if (ctx->table_pooled ? e->section_length != 0 : e->section_length == 0)
            return dpu_fail(ctx, DPU_E_SECTION_SIZE, "dense stream section length", index);
        ctx->table_pooled = 1;
    } else {
        if (get_varint(b, avail, &pos, UINT64_MAX, &e->section_length) != 0)
            return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "section length varint", index);
        if (e->section_length < (e->coding == DPU_CODING_CQ ? DPU_CQ_HEADER_SIZE : 10u))
            return dpu_fail(ctx, DPU_E_SECTION_SIZE, "sparse section shorter than its header", index);
    }
    if (e->mode == DPU_MODE_INIT_SPARSE) {
        if (get_varint(b, avail, &pos, UINT32_MAX, &v) != 0)
            return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "init index varint", index);
        e->init_index = (uint32_t)v;
        if (e->init_rule == DPU_INIT_UNIFORM) {
            if (get_varint(b, avail, &pos, UINT32_MAX, &v) != 0)
                return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "fan-in varint", index);
            if (v == 0 || v > (1u << 24))
                return dpu_fail(ctx, DPU_E_INIT_RULE, "fan-in", index);
            e->fan_in = (uint32_t)v;
        } else {
            if (avail - pos < 4)
                return dpu_fail(ctx, DPU_E_TENSOR_ENTRY, "constant runs past the manifest", index);
            e->constant = dpu_bits_float(dpu_le32(b + pos));
            pos += 4;
        }
    }
    *off += pos;
    /* Offsets follow from the entries before: data back to back from 0, sections back to back
     * after section H. Both sums are bounded by the file and bundle sizes checked below. */
    if (nbytes > UINT64_MAX - *data_end)
        return dpu_fail(ctx, DPU_E_TENSOR_LAYOUT, "tensor data past 2^64", index);
    e->data_offset = *data_end;
    *data_end += nbytes;
    if (*sec_pos > io->bundle_size || e->section_length > io->bundle_size - *sec_pos)
        return dpu_fail(ctx, DPU_E_SECTION_LAYOUT, "section runs past the bundle", index);
    e->section_offset = *sec_pos;
    *sec_pos += e->section_length;
    return DPU_OK;
}
