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

/* Recomputes section and manifest digests of a plausible bundle in place (best effort). */
static void reseal(uint8_t *b, uint64_t n)
{
    uint64_t m, off, i, t, sec_off, sec_len;
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
    sec_off = dpu_le64(b + 16 + 120);
    sec_len = dpu_le64(b + 16 + 128);
    if (sec_off <= n && sec_len <= n - sec_off)
        dpu_sha256_buf(b + sec_off, (size_t)sec_len, b + 16 + 136);
    off = 16 + DPU_MANIFEST_FIXED_SIZE + (uint64_t)b[16 + 168] + b[16 + 169];
    for (i = 0; i < t && off + DPU_TENSOR_FIXED_SIZE <= 16 + m; ++i) {
        sec_off = dpu_le64(b + off + 40);
        sec_len = dpu_le64(b + off + 48);
        if (sec_off <= n && sec_len <= n - sec_off)
            dpu_sha256_buf(b + sec_off, (size_t)sec_len, b + off + 56);
        off += DPU_TENSOR_FIXED_SIZE + 8u * b[off + 3] + b[off + 5];
    }
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
