/* SPDX-License-Identifier: MIT */
/* Internals shared by the verify and apply halves of the bundle code. */
#ifndef DPU_BUNDLE_INTERNAL_H
#define DPU_BUNDLE_INTERNAL_H

#include "dpu_bundle.h"

#include <stddef.h>

#define DPU_CTX_MAGIC 0x44505541u /* "DPUA": context initialised */

/** The library's real state behind the caller's opaque dpu_apply_ctx (which must hold it: the
 *  static assertions below). Every field is private to the library. */
typedef struct dpu_apply_state {
    uint32_t magic;              /* set by dpu_apply_init */
    dpu_status status;           /* sticky error */
    const char *what;            /* its static description */
    uint64_t fail_tensor;        /* its tensor, or DPU_NO_TENSOR */
    uint64_t fail_offset;        /* its bundle offset */
    uint64_t read_at;            /* bundle offset of the last block read directly */
    const dpu_bits *section;     /* the bit reader of the section being decoded, or NULL */
    uint64_t consumed;           /* bundle bytes read so far (all passes) */
    uint64_t written;            /* bytes of the produced file written so far */
    uint64_t manifest_size;
    uint64_t sections_start;
    uint64_t header_sec_offset, header_sec_len;
    uint32_t header_form;        /* DPU_HEADER_VERBATIM or DPU_HEADER_BASE_EDIT */
    uint64_t header_len;         /* produced header bytes (8 + N) */
    uint64_t header_prefix, header_tail_src, header_tail; /* base-edit form: base header bytes taken */
    uint64_t base_data_start;
    uint8_t sections_sha[DPU_SHA256_SIZE]; /* digest of the list of section digests (2.2) */
    int verified;                /* dpu_bundle_verify succeeded */
    dpu_bundle_info info;
    dpu_sha256 sha;
    dpu_sha256 root;             /* running digest of the section digests */
    dpu_huff huff[4];
    float centroid[256];
    uint8_t lengths[256];
    uint8_t buf[1024];
    float vals[256];
    dpu_bits bits;
    dpu_bits pbits;              /* the shared dense stream of pooled tensors (2.5) */
    dpu_huff phuff[4];
    uint32_t pooled_mask;        /* its plane mask and DIRECT flag */
    int pooled_started;          /* its header was read (apply pass) */
    int table_pooled;            /* a pooled entry was seen (either pass) */
    uint32_t format_version;     /* 3, 4 or 5, from the preamble */
    dpu_arith arith;             /* cq section: decoder state */
    dpu_arith_model cq_pos[DPU_CQ_POS_CONTEXTS];     /* cq: position models */
    dpu_arith_model cq_val[DPU_CQ_TABLE_CONTEXTS];   /* cq: value models (grid or table) */
    uint8_t cq_col[DPU_CQ_MAX_COLUMNS];              /* cq: changes per column (saturating) */
} dpu_apply_state;

/* C99 has no static_assert: an array of negative size stops the build instead. The state must
 * fit the caller's block, and need no stricter alignment than the block's union gives. */
typedef struct dpu_align_probe_state { char c; dpu_apply_state s; } dpu_align_probe_state;
typedef struct dpu_align_probe_ctx { char c; dpu_apply_ctx s; } dpu_align_probe_ctx;
typedef char dpu_state_fits_ctx[sizeof(dpu_apply_state) <= sizeof(dpu_apply_ctx) ? 1 : -1];
typedef char dpu_state_alignment_fits[offsetof(dpu_align_probe_state, s) <= offsetof(dpu_align_probe_ctx, s) ? 1 : -1];

/** The state inside a caller's block (the block's union makes it aligned for the state). */
static inline dpu_apply_state *dpu_state(dpu_apply_ctx *ctx)
{
    return (dpu_apply_state *)(void *)ctx->opaque;
}
static inline const dpu_apply_state *dpu_cstate(const dpu_apply_ctx *ctx)
{
    return (const dpu_apply_state *)(const void *)ctx->opaque;
}

/** memcmp-free equality of n bytes (the firmware build takes nothing but memcpy/memset from
 *  libc); it reads every byte, so its time does not depend on where two digests differ. */
static inline int dpu_bytes_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    unsigned diff = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

/** strlen of a string known to be NUL-terminated within `max` bytes (else returns max). */
static inline size_t dpu_str_len(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != 0)
        ++n;
    return n;
}

/** Bundle offset of the first tensor entry: after the manifest's fixed part and strings. */
static inline uint64_t dpu_table_start(const dpu_apply_state *ctx)
{
    return DPU_BUNDLE_PREAMBLE_SIZE + DPU_MANIFEST_FIXED_SIZE + dpu_str_len(ctx->info.model, DPU_MAX_STRING) +
           dpu_str_len(ctx->info.compat, DPU_MAX_STRING);
}

/** One tensor entry of the manifest, bounds already checked. The data and section offsets are
 *  not stored in the bundle: they follow from the entries before (docs/bundle-format.md 2.3). */
typedef struct dpu_entry {
    uint32_t mode, coding, init_rule;
    uint32_t dtype;              /* DPU_DTYPE_F32 or DPU_DTYPE_I8 (format 5, entry flags bit 7) */
    uint32_t init_index, fan_in;
    float constant;
    uint64_t data_offset, numel;
    uint64_t section_offset, section_length;
} dpu_entry;

/** Bytes per element of the entry's tensor in the device file: 4 (F32) or 1 (I8). */
static inline uint64_t dpu_elem_size(const dpu_entry *e)
{
    return e->dtype == DPU_DTYPE_I8 ? 1u : 4u;
}

/** Sets the sticky error (status, static `what`, tensor `index` or DPU_NO_TENSOR, and the
 *  offset of the failing check) unless one is set already, and returns the sticky error. */
dpu_status dpu_fail(dpu_apply_state *ctx, dpu_status s, const char *what, uint64_t index);

/** Reads bundle bytes [off, off + len) (len <= sizeof ctx->buf) into ctx->buf. */
dpu_status dpu_read_bundle(dpu_apply_state *ctx, const dpu_apply_io *io, uint64_t off, size_t len);

/** Parses and checks the tensor entry at *off (advanced past it); `prev_end` is the running data
 *  offset and `sec_pos` the running section offset, both advanced. */
dpu_status dpu_read_entry(dpu_apply_state *ctx, const dpu_apply_io *io, uint64_t *off, uint64_t index,
                          uint64_t *data_end, uint64_t *sec_pos, dpu_entry *e);

/** Streams one sparse tensor (positions and values over its source) to the output. */
dpu_status dpu_apply_sparse(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e,
                            uint64_t index);

/** Streams one cq (context-coded) sparse tensor: header, then positions and levels from one
 *  arithmetic-coded stream over its source values. */
dpu_status dpu_apply_cq(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t index);

/** Reads a centroid table from ctx->bits into ctx->centroid: u16 C (1..256), u8 form, then C f32
 *  or (u8 Rice parameter, u16 first key, C - 1 Rice-coded key steps, zero padding to a byte). */
dpu_status dpu_read_centroids(dpu_apply_state *ctx, uint64_t index, unsigned *ncent);

/** Fills ctx->vals[0..n) with a sparse tensor's source elements first..first+n-1 (the base file's
 *  values, or the seeded initialiser's for init+sparse); for an I8 tensor, ctx->buf[0..n) with
 *  the base file's codes. */
dpu_status dpu_fill_source(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t first,
                           size_t n);

/** Decodes the changes among elements first..first+n-1 (n <= 256) into ctx->vals, which holds
 *  their source values; `state` is the coding's position between calls. */
typedef dpu_status (*dpu_chunk_fn)(dpu_apply_state *ctx, const dpu_entry *e, uint64_t index, void *state,
                                   uint64_t first, size_t n);

/** The loop both sparse codings share: per chunk of the tensor, the source values, `decode`, and
 *  the chunk to the output; then the section must have been read exactly to its end. */
dpu_status dpu_apply_chunks(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e, uint64_t index,
                            dpu_chunk_fn decode, void *state);

/** Streams one pooled dense tensor from the shared dense stream (the first one reads its
 *  header), over the base file's values when the stream is XOR-coded. */
dpu_status dpu_apply_pooled(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_entry *e,
                            uint64_t index);

/** After the last tensor: the shared dense stream, when there is one, ended exactly. */
dpu_status dpu_pooled_finish(dpu_apply_state *ctx);

/** Writes bytes to the output and the running target digest. */
dpu_status dpu_emit(dpu_apply_state *ctx, const dpu_apply_io *io, const uint8_t *p, size_t n);

#endif
