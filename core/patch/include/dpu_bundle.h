/* SPDX-License-Identifier: MIT */
/* Bundle verification and application on the device (docs/bundle-format.md): C99, no allocation. */
#ifndef DPU_BUNDLE_H
#define DPU_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "dpu_codes.h"
#include "dpu_sha256.h"
#include "dpu_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Format constants (docs/bundle-format.md, "Layout") ---- */
#define DPU_BUNDLE_MAGIC "DPUB"
#define DPU_BUNDLE_FORMAT_VERSION 5u  /* newest format; the writer emits 5 only for an I8 tensor or NONZERO */
#define DPU_BUNDLE_FORMAT_CQ 4u       /* the format of cq sections; the writer emits 4 for them without I8/NONZERO */
#define DPU_BUNDLE_FORMAT_NONZERO 5u  /* the format the writer gives sparse sections with NONZERO (decoders
                                         accept the flag in format-3 and -4 bundles written before) */
#define DPU_BUNDLE_FORMAT_MIN 3u      /* oldest format still decoded (3: no coding cq, bit 6 reserved) */
#define DPU_BUNDLE_PREAMBLE_SIZE 16u
#define DPU_BUNDLE_SIGNATURE_SIZE 64u
#define DPU_BUNDLE_FLAG_SIGNED 1u
#define DPU_MANIFEST_FIXED_SIZE 176u
#define DPU_TENSOR_ENTRY_MAX 32u      /* longest tensor entry (varint fields, 2.3) */
#define DPU_MAX_NUMEL ((uint64_t)1 << 61) /* numel < 2^61, so 4 * numel never wraps */
#define DPU_MAX_MANIFEST (16u << 20)  /* 16 MiB: far above any real model's table */
#define DPU_MAX_TENSORS 65535u
#define DPU_MAX_STRING 255u           /* model and compatibility strings */
#define DPU_MAX_HEADER (64u << 20)    /* safetensors header bytes */
#define DPU_SIG_CONTEXT "DPU-BUNDLE-SIG-1" /* 16 bytes signed before the manifest digest */
#define DPU_SPARSE_DIRECT 0x10u       /* sparse flags bit 4 (fp32): words are the new bits, no XOR */
#define DPU_SPARSE_NONZERO 0x20u      /* sparse flags bit 5: gaps count only the source's nonzeros */
#define DPU_CENTROIDS_F32 0u          /* q8 centroid table: C raw f32 */
#define DPU_CENTROIDS_F16 1u          /* q8 centroid table: sorted binary16, Rice-coded key steps */
#define DPU_HEADER_VERBATIM 0u        /* section H: the target header's bytes */
#define DPU_HEADER_BASE_EDIT 1u       /* section H: base header prefix + literal + a base header range */
#define DPU_HEADER_EDIT_FIELDS 32u    /* u64 length, prefix, tail source offset, tail length */
#define DPU_ENTRY_CODING_HIGH 0x40u   /* entry flags bit 6 (format 4): bit 2 of the value coding */
#define DPU_ENTRY_DTYPE_I8 0x80u      /* entry flags bit 7 (format 5): the tensor is I8 (int8 codes) */
#define DPU_SPARSE_DIFF 0x10u         /* sparse flags bit 4 (i8): words are new - old codes mod 256 */
#define DPU_CQ_HEADER_SIZE 16u        /* cq section: count, form, flags, limits, reserved, row length */
#define DPU_CQ_GRID 0u                /* cq values: level = step * i, step = m * 2^(x - 127) */
#define DPU_CQ_TABLE 1u               /* cq values: level = table[i] (a q8-style centroid table) */
#define DPU_CQ_DIFF 1u                /* cq flags bit 0: value = source value + level */
#define DPU_CQ_MAX_COLUMNS 2048u      /* rows up to this length get the column context */
#define DPU_CQ_POS_CONTEXTS 128u      /* 8 column buckets x 8 row buckets x left neighbour */
#define DPU_CQ_GRID_CONTEXTS 398u     /* nonzero 1, sign 2, exponent 13 x 23, mantissa 24 x 4 */
#define DPU_CQ_TABLE_CONTEXTS 512u    /* source sign x 256 tree nodes (node 0 unused) */
#define DPU_CQ_MAX_LEVEL (1u << 24)   /* grid: m * |i| below 2^24, so every level is exact */

enum dpu_kind { DPU_KIND_FULL = 1, DPU_KIND_DELTA = 2, DPU_KIND_REINIT_DELTA = 3 };
enum dpu_mode { DPU_MODE_COPY = 0, DPU_MODE_DENSE = 1, DPU_MODE_SPARSE = 2, DPU_MODE_INIT_SPARSE = 3 };
enum dpu_coding { DPU_CODING_NONE = 0, DPU_CODING_FP32 = 1, DPU_CODING_FP16 = 2, DPU_CODING_Q8 = 3, DPU_CODING_CQ = 4,
                  DPU_CODING_I8 = 5 /* format 5: raw or Huffman-coded int8 codes of an I8 tensor */ };
/* A tensor's element type in the device file (entry flags bit 7): F32 4 bytes, I8 1 byte. */
enum dpu_dtype { DPU_DTYPE_F32 = 0, DPU_DTYPE_I8 = 1 };
enum dpu_init_rule { DPU_INIT_NONE = 0, DPU_INIT_UNIFORM = 1, DPU_INIT_CONSTANT = 2 };

/** Writes `len` bytes of the produced file, in order; returns 0 on success. */
typedef int (*dpu_write_fn)(void *user, const uint8_t *buf, size_t len);

/** Where the bytes come from and go to. read_base may be NULL for full and reinit bundles. */
typedef struct dpu_apply_io {
    dpu_read_fn read_bundle;
    void *bundle_user;
    uint64_t bundle_size;
    dpu_read_fn read_base;
    void *base_user;
    uint64_t base_size;
    dpu_write_fn write_target;
    void *target_user;
} dpu_apply_io;

/** What the device checks. public_key NULL: signatures are not checked (lab use); otherwise
 *  the bundle must be signed with the matching Ed25519 key. compat NULL: not checked. */
typedef struct dpu_apply_options {
    const uint8_t *public_key; /* 32 bytes, or NULL */
    const char *compat;        /* NUL-terminated, or NULL */
    uint64_t current_version;  /* the bundle's update version must be greater */
} dpu_apply_options;

/** Facts about a verified bundle (valid after dpu_bundle_verify returned DPU_OK). */
typedef struct dpu_bundle_info {
    uint32_t kind;
    uint32_t tensor_count;
    uint64_t update_version;
    uint64_t target_size;
    uint64_t base_size;
    uint64_t init_seed;
    uint32_t init_version;
    uint32_t signed_bundle;
    uint8_t base_sha256[DPU_SHA256_SIZE];
    uint8_t target_sha256[DPU_SHA256_SIZE];
    char model[DPU_MAX_STRING + 1];
    char compat[DPU_MAX_STRING + 1];
} dpu_bundle_info;

/** Size of the caller-owned apply context in bytes. The library's state (about 11.5 KiB on
 *  x86-64, 4,616 bytes of it for cq sections) must fit; a static assertion in the library checks
 *  it, and the spare bytes let the state grow without changing this interface. */
#define DPU_APPLY_CTX_SIZE 12288u

/** Working memory of a verify/apply, opaque to callers (as lz4's LZ4_stream_t): a fixed-size,
 *  suitably aligned block the caller owns (static, stack or heap) and only ever passes to the
 *  functions below. No field of it is part of the interface. */
typedef union dpu_apply_ctx {
    uint8_t opaque[DPU_APPLY_CTX_SIZE];
    uint64_t align_u64; /* the members below only give the block the strictest alignment */
    double align_double;
    void *align_pointer;
} dpu_apply_ctx;

/** tensor index of a dpu_apply_error that is not about one tensor */
#define DPU_NO_TENSOR UINT64_MAX

/** What the first error of a context was: everything a caller needs to format a message, with
 *  no formatting done in the library. */
typedef struct dpu_apply_error {
    dpu_status status; /* the sticky status; DPU_OK when nothing failed */
    const char *what;  /* static text naming the field or check ("" when none) */
    uint64_t tensor;   /* index of the tensor entry concerned, or DPU_NO_TENSOR */
    uint64_t offset;   /* bundle offset of the failing check: the start of the block read for it
                          (preamble, manifest part, tensor entry), or inside a section the byte
                          its bit reader had reached */
} dpu_apply_error;

/** Prepares a context (clears any previous error). DPU_E_ARGUMENT when ctx is NULL. After any
 *  error of verify/apply the context is terminal: every later call returns that same error
 *  until dpu_apply_init. */
dpu_status dpu_apply_init(dpu_apply_ctx *ctx);

/** Checks the whole bundle without writing: preamble, manifest digest, signature (when a key is
 *  given), version/compatibility/rollback, every table field and bound, the sections digest,
 *  then the device file's size and SHA-256 (delta bundles), then that the produced header's
 *  "dpu.update_version" is the bundle's update version (DPU_E_UPDATE_VERSION). Payload bits are
 *  parsed only after all of these passed. Returns DPU_OK or the first error (context then
 *  terminal), in the order of docs/bundle-format.md section 5. */
dpu_status dpu_bundle_verify(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_apply_options *opt);

/** Verifies (as dpu_bundle_verify, unless already verified with this context) and then streams
 *  the new device file through io->write_target, checking its SHA-256 at the end. On an error
 *  the bytes written so far must be discarded by the caller (dpu-apply writes to a temporary
 *  file and renames only on DPU_OK). */
dpu_status dpu_bundle_apply(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_apply_options *opt);

/** Copies the bundle facts read so far into *out: all of them once verify succeeded, after a
 *  rejection those parsed before it (e.g. update_version on DPU_E_ROLLBACK), zero otherwise.
 *  DPU_E_ARGUMENT for NULL pointers, DPU_E_STATE for a context never initialised. */
dpu_status dpu_apply_info(const dpu_apply_ctx *ctx, dpu_bundle_info *out);

/** Bundle bytes read so far (all passes; for progress) and bytes of the produced file written
 *  so far; either pointer may be NULL. DPU_E_ARGUMENT / DPU_E_STATE as dpu_apply_info. */
dpu_status dpu_apply_progress(const dpu_apply_ctx *ctx, uint64_t *consumed, uint64_t *written);

/** The context's first error (status DPU_OK and what "" when none). DPU_E_ARGUMENT /
 *  DPU_E_STATE as dpu_apply_info. */
dpu_status dpu_apply_last_error(const dpu_apply_ctx *ctx, dpu_apply_error *out);

/** Ed25519 check of `sig` over `msg` with `pk`: DPU_OK, DPU_E_SIGNATURE when it does not
 *  verify, DPU_E_NO_CRYPTO when built without libsodium. */
dpu_status dpu_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t len, const uint8_t pk[32]);

#ifdef __cplusplus
}
#endif

#endif /* DPU_BUNDLE_H */
