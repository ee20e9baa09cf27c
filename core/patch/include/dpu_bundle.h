/* SPDX-License-Identifier: MIT */
/* Bundle verification and application on the device (docs/bundle-format.md): C99, no allocation. */
#ifndef DPU_BUNDLE_H
#define DPU_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "dpu_codes.h"
#include "dpu_sha256.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Format constants (docs/bundle-format.md, "Layout") ---- */
#define DPU_BUNDLE_MAGIC "DPUB"
#define DPU_BUNDLE_FORMAT_VERSION 4u  /* newest format; the writer emits 4 only when a tensor uses cq */
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
#define DPU_CENTROIDS_F32 0u          /* q8 centroid table: C raw f32 */
#define DPU_CENTROIDS_F16 1u          /* q8 centroid table: sorted binary16, Rice-coded key steps */
#define DPU_HEADER_VERBATIM 0u        /* section H: the target header's bytes */
#define DPU_HEADER_BASE_EDIT 1u       /* section H: base header prefix + literal + a base header range */
#define DPU_HEADER_EDIT_FIELDS 32u    /* u64 length, prefix, tail source offset, tail length */
#define DPU_ENTRY_CODING_HIGH 0x40u   /* entry flags bit 6 (format 4): bit 2 of the value coding */
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
enum dpu_coding { DPU_CODING_NONE = 0, DPU_CODING_FP32 = 1, DPU_CODING_FP16 = 2, DPU_CODING_Q8 = 3, DPU_CODING_CQ = 4 };
enum dpu_init_rule { DPU_INIT_NONE = 0, DPU_INIT_UNIFORM = 1, DPU_INIT_CONSTANT = 2 };

/** Every way an apply can fail; each has its own message (dpu_status_message). */
typedef enum dpu_status {
    DPU_OK = 0,
    DPU_E_ARGUMENT,        /* NULL context/io/callback or a bad option */
    DPU_E_STATE,           /* context not initialised, or reused after an error */
    DPU_E_READ,            /* a read callback failed */
    DPU_E_WRITE,           /* the write callback failed */
    DPU_E_TRUNCATED,       /* the bundle ends before its preamble, manifest or digest */
    DPU_E_MAGIC,           /* not a bundle */
    DPU_E_FORMAT_VERSION,  /* unsupported format version */
    DPU_E_FLAGS,           /* unknown flag bits or non-zero reserved bytes */
    DPU_E_MANIFEST_SIZE,   /* manifest length out of range */
    DPU_E_MANIFEST_DIGEST, /* manifest bytes do not match their SHA-256 */
    DPU_E_UNSIGNED,        /* a public key was given but the bundle is not signed */
    DPU_E_SIGNATURE,       /* Ed25519 signature invalid for the given key */
    DPU_E_NO_CRYPTO,       /* a key was given but the library was built without libsodium */
    DPU_E_KIND,            /* unknown bundle kind */
    DPU_E_STRING,          /* model/compatibility string length out of range */
    DPU_E_COMPAT,          /* compatibility string differs from the device's */
    DPU_E_ROLLBACK,        /* update version not above the device's current version */
    DPU_E_INIT_VERSION,    /* reinit bundle for an unknown initialiser version */
    DPU_E_TENSOR_COUNT,    /* tensor count zero or above DPU_MAX_TENSORS */
    DPU_E_TENSOR_ENTRY,    /* malformed tensor entry: reserved bits, a bad or overlong varint */
    DPU_E_TENSOR_SHAPE,    /* numel of 2^61 or more (4 * numel would overflow) */
    DPU_E_TENSOR_LAYOUT,   /* tensor offsets not contiguous, or sizes disagree with the file sizes */
    DPU_E_TENSOR_MODE,     /* mode, coding or init rule not allowed for the bundle kind */
    DPU_E_SECTION_LAYOUT,  /* sections not contiguous, overlapping, or not ending at the bundle end */
    DPU_E_SECTION_SIZE,    /* a section's length does not fit its tensor's mode */
    DPU_E_SECTION_DIGEST,  /* the sections do not match the manifest's sections digest */
    DPU_E_MANIFEST_TRAILING, /* manifest bytes left over after the last tensor entry */
    DPU_E_HEADER,          /* target safetensors header section malformed */
    DPU_E_BASE_SIZE,       /* the device file has the wrong size */
    DPU_E_BASE_HASH,       /* the device file is not the one the bundle applies to */
    DPU_E_COUNT,           /* a sparse tensor's change count exceeds its size */
    DPU_E_RICE_PARAM,      /* Golomb-Rice parameter above 31 */
    DPU_E_POSITION,        /* a position code runs past the end of its tensor or its section */
    DPU_E_HUFF_TABLE,      /* invalid canonical Huffman code lengths */
    DPU_E_VALUE_CODE,      /* a value code is invalid or runs past its section */
    DPU_E_CENTROIDS,       /* q8 centroid count outside 1..256 or codes for absent centroids */
    DPU_E_PLANES,          /* unknown byte-plane mode bits */
    DPU_E_SECTION_TRAILING, /* a section has bytes (or non-zero padding bits) left over */
    DPU_E_INIT_RULE,       /* initialiser rule invalid (fan-in outside 1..2^24) */
    DPU_E_TARGET_HASH,     /* the produced file does not match the bundle's target hash */
    DPU_E_CQ_MODEL,        /* cq section header: form, flags, count limits, row length or step */
    DPU_E_ARITH,           /* an arithmetic-coded stream starts impossibly or runs past its section */
    DPU_E_STATUS_COUNT
} dpu_status;

/** Human-readable text for a status (never NULL). */
const char *dpu_status_message(dpu_status s);

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

/** Working memory of a verify/apply (11,592 bytes on x86-64, 4,616 of them for cq sections:
 *  adaptive models and column counters); the caller owns it. After any error the
 *  context is terminal: every later call returns that same error until dpu_apply_init. */
typedef struct dpu_apply_ctx {
    uint32_t magic;              /* set by dpu_apply_init */
    dpu_status status;           /* sticky error */
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
    uint32_t format_version;     /* 3 or 4, from the preamble */
    dpu_arith arith;             /* cq section: decoder state */
    dpu_arith_model cq_pos[DPU_CQ_POS_CONTEXTS];     /* cq: position models */
    dpu_arith_model cq_val[DPU_CQ_TABLE_CONTEXTS];   /* cq: value models (grid or table) */
    uint8_t cq_col[DPU_CQ_MAX_COLUMNS];              /* cq: changes per column (saturating) */
    char detail[96];             /* which tensor/field failed, for messages */
} dpu_apply_ctx;

/** Prepares a context (clears any previous error). */
void dpu_apply_init(dpu_apply_ctx *ctx);

/** Checks the whole bundle without writing: preamble, manifest digest, signature (when a key is
 *  given), version/compatibility/rollback, every table field and bound, the sections digest,
 *  then the device file's size and SHA-256 (delta bundles). Payload bits are parsed only after
 *  all of these passed. Returns DPU_OK or the first error (context then terminal). */
dpu_status dpu_bundle_verify(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_apply_options *opt);

/** Verifies (as dpu_bundle_verify, unless already verified with this context) and then streams
 *  the new device file through io->write_target, checking its SHA-256 at the end. On an error
 *  the bytes written so far must be discarded by the caller (dpu-apply writes to a temporary
 *  file and renames only on DPU_OK). */
dpu_status dpu_bundle_apply(dpu_apply_ctx *ctx, const dpu_apply_io *io, const dpu_apply_options *opt);

/** Bundle bytes read so far; useful for progress and to see where a rejection happened. */
uint64_t dpu_apply_consumed(const dpu_apply_ctx *ctx);

/** Extra detail of the last error (tensor index, field), "" when none. */
const char *dpu_apply_detail(const dpu_apply_ctx *ctx);

/** Ed25519 check of `sig` over `msg` with `pk`: 0 valid, -1 invalid, -2 no libsodium. */
int dpu_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t len, const uint8_t pk[32]);

#ifdef __cplusplus
}
#endif

#endif /* DPU_BUNDLE_H */
