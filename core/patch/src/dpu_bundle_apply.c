/* SPDX-License-Identifier: MIT */
/* Bundle application: streams header, copied, dense and sparse tensors to the new device file. */
#include "dpu_bundle_internal.h"


dpu_status dpu_emit(dpu_apply_state *ctx, const dpu_apply_io *io, const uint8_t *p, size_t n)
{
    if (n > ctx->info.target_size - ctx->written)
        return dpu_fail(ctx, DPU_E_TENSOR_LAYOUT, "output longer than the target", DPU_NO_TENSOR);
    if (io->write_target(io->target_user, p, n) != 0)
        return dpu_fail(ctx, DPU_E_WRITE, "device file write", DPU_NO_TENSOR);
    dpu_sha256_update(&ctx->sha, p, n);
    ctx->written += n;
    return DPU_OK;
}

/* Copies [off, off + len) of the bundle (from_bundle) or of the base file to the output. */
static dpu_status copy_range(dpu_apply_state *ctx, const dpu_apply_io *io, int from_bundle, uint64_t off,
                             uint64_t len)
{
    dpu_status s;
    while (len > 0) {
        const size_t n = len < sizeof ctx->buf ? (size_t)len : sizeof ctx->buf;
        if (from_bundle) {
            if ((s = dpu_read_bundle(ctx, io, off, n)) != DPU_OK)
                return s;
        } else if (io->read_base(io->base_user, off, ctx->buf, n) != 0) {
            return dpu_fail(ctx, DPU_E_READ, "device file read", DPU_NO_TENSOR);
        }
        if ((s = dpu_emit(ctx, io, ctx->buf, n)) != DPU_OK)
            return s;
        off += n;
        len -= n;
    }
    return DPU_OK;
}

dpu_status dpu_bundle_apply(dpu_apply_ctx *c, const dpu_apply_io *io, const dpu_apply_options *opt)
{
    uint8_t digest[DPU_SHA256_SIZE];
    uint64_t off, data_end = 0, sec_pos, i;
    dpu_apply_state *ctx;
    dpu_entry e;
    dpu_status s;
    if (c == NULL)
        return DPU_E_ARGUMENT;
    ctx = dpu_state(c);
    if (ctx->magic != DPU_CTX_MAGIC)
        return DPU_E_STATE;
    if (ctx->status != DPU_OK)
        return ctx->status;
    if (io == NULL || io->write_target == NULL)
        return dpu_fail(ctx, DPU_E_ARGUMENT, "io/write_target", DPU_NO_TENSOR);
    if (!ctx->verified && (s = dpu_bundle_verify(c, io, opt)) != DPU_OK)
        return s;
    ctx->written = 0;
    dpu_sha256_init(&ctx->sha);
    /* The target header: the writer's exact safetensors bytes, so no JSON is ever produced here. */
    if (ctx->header_form == DPU_HEADER_VERBATIM)
        s = copy_range(ctx, io, 1, ctx->header_sec_offset, ctx->header_sec_len);
    else if ((s = copy_range(ctx, io, 0, 0, ctx->header_prefix)) == DPU_OK &&
             (s = copy_range(ctx, io, 1, ctx->header_sec_offset + DPU_HEADER_EDIT_FIELDS,
                             ctx->header_sec_len - DPU_HEADER_EDIT_FIELDS)) == DPU_OK)
        s = copy_range(ctx, io, 0, ctx->header_tail_src, ctx->header_tail);
    if (s != DPU_OK)
        return s;
    off = dpu_table_start(ctx);
    sec_pos = ctx->sections_start + ctx->header_sec_len;
    ctx->table_pooled = 0;
    ctx->pooled_started = 0;
    for (i = 0; i < ctx->info.tensor_count; ++i) {
        /* entries were verified; re-reading them re-checks every bound at no real cost */
        if ((s = dpu_read_entry(ctx, io, &off, i, &data_end, &sec_pos, &e)) != DPU_OK)
            return s;
        ctx->section = NULL; /* the sparse and pooled decoders point it at their reader */
        switch (e.mode) {
        case DPU_MODE_COPY:
            s = copy_range(ctx, io, 0, ctx->base_data_start + e.data_offset, e.numel * dpu_elem_size(&e));
            break;
        case DPU_MODE_DENSE:
            s = e.coding == DPU_CODING_NONE ? copy_range(ctx, io, 1, e.section_offset, e.section_length)
                                            : dpu_apply_pooled(ctx, io, &e, i);
            break;
        default:
            s = e.coding == DPU_CODING_CQ ? dpu_apply_cq(ctx, io, &e, i) : dpu_apply_sparse(ctx, io, &e, i);
            break;
        }
        if (s != DPU_OK)
            return s;
    }
    ctx->section = NULL;
    if ((s = dpu_pooled_finish(ctx)) != DPU_OK)
        return s;
    dpu_sha256_final(&ctx->sha, digest);
    if (ctx->written != ctx->info.target_size || !dpu_bytes_equal(digest, ctx->info.target_sha256, DPU_SHA256_SIZE))
        return dpu_fail(ctx, DPU_E_TARGET_HASH, "produced file", DPU_NO_TENSOR);
    return DPU_OK;
}
