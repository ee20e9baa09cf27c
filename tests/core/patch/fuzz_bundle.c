/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the device parser: input byte 0 picks raw or "resealed" mode (digests
 * recomputed so mutations reach the payload decoders); the rest is the bundle. */
#include "dpu_bundle.h"

#include <string.h>

static uint8_t scratch[1 << 20];
static uint8_t zeros[1 << 16]; /* the device file of a resealed delta: all zero bytes */
static uint64_t base_len;

typedef struct mem { const uint8_t *p; uint64_t n; } mem;

static int rd(void *u, uint64_t off, uint8_t *buf, size_t len)
{
    const mem *m = (const mem *)u;
    if (off > m->n || len > m->n - off)
        return -1;
    memcpy(buf, m->p + off, len);
    return 0;
}

static int wr(void *u, const uint8_t *buf, size_t len)
{
    (void)u; (void)buf; (void)len;
    return 0;
}

/* Unsigned LEB128 at b[*off] (bounded by `end`); 0 when it runs out. */
static uint64_t varint(const uint8_t *b, uint64_t *off, uint64_t end)
{
    uint64_t v = 0;
    unsigned shift;
    for (shift = 0; shift < 64 && *off < end; shift += 7) {
        const uint8_t c = b[(*off)++];
        v |= (uint64_t)(c & 0x7fu) << shift;
        if (!(c & 0x80u))
            return v;
    }
    return 0;
}

/* Digest of one section into the running sections digest (zeros when out of range). */
static void digest_section(dpu_sha256 *root, const uint8_t *b, uint64_t n, uint64_t off, uint64_t len)
{
    uint8_t d[DPU_SHA256_SIZE];
    if (off <= n && len <= n - off)
        dpu_sha256_buf(b + off, (size_t)len, d);
    else
        memset(d, 0, sizeof d);
    dpu_sha256_update(root, d, sizeof d);
}

/* Recomputes the sections digest and the manifest digest of a plausible bundle in place (best
 * effort: the table is walked as the decoder would, and a nonsense entry just ends the walk). */
static void reseal(uint8_t *b, uint64_t n)
{
    uint64_t m, off, i, t, pos, len, numel;
    int pooled;
    dpu_sha256 root;
    if (n < 16 + DPU_MANIFEST_FIXED_SIZE)
        return;
    m = dpu_le32(b + 8);
    if (m < DPU_MANIFEST_FIXED_SIZE || 16 + m + 32 > n)
        return;
    t = dpu_le32(b + 16 + 4);
    /* a delta gets a base it matches, so that mutations reach the sparse decoders */
    if (b[16] == DPU_KIND_DELTA && dpu_le64(b + 16 + 80) <= sizeof zeros) {
        base_len = dpu_le64(b + 16 + 80);
        dpu_sha256_buf(zeros, (size_t)base_len, b + 16 + 16);
    }
    dpu_sha256_init(&root);
    pos = dpu_le64(b + 16 + 120);
    len = dpu_le64(b + 16 + 128);
    digest_section(&root, b, n, pos, len);
    pos += len;
    off = 16 + DPU_MANIFEST_FIXED_SIZE + (uint64_t)b[16 + 168] + b[16 + 169];
    for (i = 0; i < t && off < 16 + m; ++i) {
        const uint8_t e = b[off++];
        numel = varint(b, &off, 16 + m);
        pooled = (e & 3u) == DPU_MODE_DENSE && ((e >> 2) & 3u) == DPU_CODING_FP32;
        len = (e & 3u) == DPU_MODE_DENSE && !pooled ? numel * 4u : 0;
        if ((e & 3u) >= DPU_MODE_SPARSE || pooled)
            len = varint(b, &off, 16 + m);
        if ((e & 3u) == DPU_MODE_INIT_SPARSE) {
            (void)varint(b, &off, 16 + m);
            if (((e >> 4) & 3u) == DPU_INIT_UNIFORM)
                (void)varint(b, &off, 16 + m);
            else
                off += 4;
        }
        digest_section(&root, b, n, pos, len);
        pos += len;
    }
    dpu_sha256_final(&root, b + 16 + 136);
    dpu_sha256_buf(b, (size_t)(16 + m), b + 16 + m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dpu_apply_ctx ctx;
    mem bundle, b;
    dpu_apply_io io;
    dpu_apply_options opt;
    if (size < 1 || size - 1 > sizeof scratch)
        return 0;
    memcpy(scratch, data + 1, size - 1);
    base_len = 64;
    if (data[0] & 1)
        reseal(scratch, size - 1);
    b.p = zeros;
    b.n = base_len;
    bundle.p = scratch;
    bundle.n = size - 1;
    memset(&io, 0, sizeof io);
    memset(&opt, 0, sizeof opt);
    io.read_bundle = rd;
    io.bundle_user = &bundle;
    io.bundle_size = bundle.n;
    io.read_base = rd;
    io.base_user = &b;
    io.base_size = b.n;
    io.write_target = wr;
    dpu_apply_init(&ctx);
    (void)dpu_bundle_apply(&ctx, &io, &opt);
    return 0;
}
