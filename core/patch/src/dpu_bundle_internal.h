/* SPDX-License-Identifier: MIT */
/* Internals shared by the verify and apply halves of the bundle code. */
#ifndef DPU_BUNDLE_INTERNAL_H
#define DPU_BUNDLE_INTERNAL_H

#include "dpu_bundle.h"

#define DPU_CTX_MAGIC 0x44505541u /* "DPUA": context initialised */

/** One tensor entry of the manifest, bounds already checked. The data and section offsets are
 *  not stored in the bundle: they follow from the entries before (docs/bundle-format.md 2.3). */
typedef struct dpu_entry {
    uint32_t mode, coding, init_rule;
    uint32_t init_index, fan_in;
    float constant;
    uint64_t data_offset, numel;
    uint64_t section_offset, section_length;
} dpu_entry;

/** Sets the sticky error with a detail string and returns it. */
dpu_status dpu_fail(dpu_apply_ctx *ctx, dpu_status s, const char *what, uint64_t index);

/** Reads bundle bytes [off, off + len) (len <= sizeof ctx->buf) into ctx->buf. */
dpu_status dpu_read_bundle(dpu_apply_ctx *ctx, const dpu_apply_io *io, uint64_t off, size_t len);

/** Parses and checks the tensor entry at *off (advanced past it); `prev_end` is the running data
 *  offset and `sec_pos` the running section offset, both advanced. */
dpu_status dpu_read_entry(dpu_apply_ctx *ctx, const dpu_apply_io *io, uint64_t *off, uint64_t index,
                          uint64_t *data_end, uint64_t *sec_pos, dpu_entry *e);

/** Streams one sparse tensor (positions and values over its source) to the output. */
dpu_status dpu_apply_sparse(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_entry *e,
                            uint64_t index);

/** Streams one cq (context-coded) sparse tensor: header, then positions and levels from one
 *  arithmetic-coded stream over its source values. */
dpu_status dpu_apply_cq(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t index);

/** Reads a centroid table from ctx->bits into ctx->centroid: u16 C (1..256), u8 form, then C f32
 *  or (u8 Rice parameter, u16 first key, C - 1 Rice-coded key steps, zero padding to a byte). */
dpu_status dpu_read_centroids(dpu_apply_ctx *ctx, uint64_t index, unsigned *ncent);

/** Fills ctx->vals[0..n) with a sparse tensor's source elements first..first+n-1 (the base file's
 *  values, or the seeded initialiser's for init+sparse). */
dpu_status dpu_fill_source(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t first,
                           size_t n);

/** Streams one pooled dense tensor from the shared dense stream (the first one reads its
 *  header), over the base file's values when the stream is XOR-coded. */
dpu_status dpu_apply_pooled(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_entry *e,
                            uint64_t index);

/** After the last tensor: the shared dense stream, when there is one, ended exactly. */
dpu_status dpu_pooled_finish(dpu_apply_ctx *ctx);

/** Writes bytes to the output and the running target digest. */
dpu_status dpu_emit(dpu_apply_ctx *ctx, const dpu_apply_io *io, const uint8_t *p, size_t n);

#endif
