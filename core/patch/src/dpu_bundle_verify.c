/* SPDX-License-Identifier: MIT */
/* Bundle verification: preamble, manifest digest and signature, table bounds, sections digest,
 * base file hash, all before any payload bit is interpreted. */
#include "dpu_bundle_internal.h"

#include <string.h>

dpu_status dpu_fail(dpu_apply_state *ctx, dpu_status s, const char *what, uint64_t index)
{
    if (ctx->status == DPU_OK) {
        ctx->status = s;
        ctx->what = what;
        ctx->fail_tensor = index;
        /* inside a section, the byte its reader had reached; else the block read for the check */
        ctx->fail_offset = ctx->section != NULL
                               ? ctx->section->next - (ctx->section->have - ctx->section->pos)
                               : ctx->read_at;
    }
    return ctx->status;
}

dpu_status dpu_read_bundle(dpu_apply_state *ctx, const dpu_apply_io *io, uint64_t off, size_t len)
{
    ctx->read_at = off;
    if (len > sizeof ctx->buf || off > io->bundle_size || len > io->bundle_size - off)
        return dpu_fail(ctx, DPU_E_TRUNCATED, "read past the end of the bundle", DPU_NO_TENSOR);
    if (io->read_bundle(io->bundle_user, off, ctx->buf, len) != 0)
        return dpu_fail(ctx, DPU_E_READ, "bundle read", DPU_NO_TENSOR);
    ctx->consumed += len;
    return DPU_OK;
}

dpu_status dpu_apply_init(dpu_apply_ctx *c)
{
    dpu_apply_state *ctx;
    if (c == NULL)
        return DPU_E_ARGUMENT;
    ctx = dpu_state(c);
    memset(ctx, 0, sizeof *ctx);
    ctx->magic = DPU_CTX_MAGIC;
    ctx->what = "";
    ctx->fail_tensor = DPU_NO_TENSOR;
    return DPU_OK;
}

/* The state of an initialised context, or NULL (the queries' argument check). */
static const dpu_apply_state *queried(const dpu_apply_ctx *c, const void *out, dpu_status *s)
{
    const dpu_apply_state *ctx = c != NULL ? dpu_cstate(c) : NULL;
    *s = c == NULL || out == NULL ? DPU_E_ARGUMENT : ctx->magic != DPU_CTX_MAGIC ? DPU_E_STATE : DPU_OK;
    return *s == DPU_OK ? ctx : NULL;
}

dpu_status dpu_apply_info(const dpu_apply_ctx *c, dpu_bundle_info *out)
{
    dpu_status s;
    const dpu_apply_state *ctx = queried(c, out, &s);
    if (ctx != NULL)
        memcpy(out, &ctx->info, sizeof *out);
    return s;
}

dpu_status dpu_apply_progress(const dpu_apply_ctx *c, uint64_t *consumed, uint64_t *written)
{
    dpu_status s;
    const dpu_apply_state *ctx = queried(c, c, &s);
    if (ctx != NULL && consumed != NULL)
        *consumed = ctx->consumed;
    if (ctx != NULL && written != NULL)
        *written = ctx->written;
    return s;
}

dpu_status dpu_apply_last_error(const dpu_apply_ctx *c, dpu_apply_error *out)
{
    dpu_status s;
    const dpu_apply_state *ctx = queried(c, out, &s);
    if (ctx != NULL) {
        out->status = ctx->status;
        out->what = ctx->what;
        out->tensor = ctx->fail_tensor;
        out->offset = ctx->status == DPU_OK ? 0u : ctx->fail_offset;
    }
    return s;
}

/* The produced header's "dpu.update_version" (docs/bundle-format.md sections 1 and 5). A device
 * takes its current version, for the rollback check of the next bundle, from the file this one
 * produces: a file naming another version than the manifest would lift or lower that check. The
 * entry is found by its bytes, never by parsing JSON: the key with its quotes and colon, then a
 * decimal number and a closing quote; version_byte reads one byte of the header. */
#define VERSION_KEY "\"dpu.update_version\":\""
#define VERSION_KEY_LEN (sizeof VERSION_KEY - 1u)
#define VERSION_KEY_QUOTE2 20u /* key bytes up to and with its second quote */
static const char version_key[] = VERSION_KEY;

typedef struct version_scan {
    unsigned matched; /* key bytes matched so far */
    int in_value;     /* after the key: reading digits up to the closing quote */
    unsigned digits;
    uint64_t value;
    unsigned found;   /* occurrences of the key */
    int bad;          /* a value that is not the shortest decimal of a u64 */
} version_scan;

static void version_byte(version_scan *v, uint8_t c)
{
    if (v->in_value) {
        const unsigned d = (unsigned)c - (unsigned)'0';
        if (c == '"') {
            v->in_value = 0;
            v->bad |= v->digits == 0;
            v->matched = 1; /* the closing quote may open another key: every occurrence counts */
        } else if (d > 9u || (v->digits > 0 && v->value == 0) || v->value > UINT64_MAX / 10u ||
                   (v->value == UINT64_MAX / 10u && d > UINT64_MAX % 10u)) {
            v->in_value = 0; /* not a digit, a leading zero, or past 2^64 - 1 */
            v->bad = 1;
        } else {
            v->value = v->value * 10u + d;
            ++v->digits;
        }
        return;
    }
    if ((uint8_t)version_key[v->matched] == c) {
        if (++v->matched == VERSION_KEY_LEN) {
            v->matched = 0;
            v->in_value = 1;
            v->digits = 0;
            v->value = 0;
            ++v->found;
        }
        return;
    }
    /* A mismatch: the longest key prefix that ends here, as KMP's failure function gives it for
     * this key. Its only quotes are bytes 0, 19 and 21, so that prefix is a lone quote, or, after
     * the second quote, that quote and a 'd' (the second quote may open another key). */
    v->matched = v->matched == VERSION_KEY_QUOTE2 && c == 'd' ? 2u : c == '"' ? 1u : 0u;
}

/* Hashes bytes [off, off + len) of the bundle (is_bundle) or of the base file into ctx->sha, or
 * feeds them to `scan` when it is not NULL (lengths already bounds-checked). */
static dpu_status read_range(dpu_apply_state *ctx, const dpu_apply_io *io, int is_bundle, uint64_t off,
                             uint64_t len, version_scan *scan)
{
    while (len > 0) {
        const size_t n = len < sizeof ctx->buf ? (size_t)len : sizeof ctx->buf;
        size_t i;
        if (is_bundle)
            ctx->read_at = off;
        if ((is_bundle ? io->read_bundle(io->bundle_user, off, ctx->buf, n)
                       : io->read_base(io->base_user, off, ctx->buf, n)) != 0)
            return dpu_fail(ctx, DPU_E_READ, is_bundle ? "bundle read" : "device file read", DPU_NO_TENSOR);
        if (is_bundle)
            ctx->consumed += n;
        if (scan == NULL)
            dpu_sha256_update(&ctx->sha, ctx->buf, n);
        else
            for (i = 0; i < n; ++i)
                version_byte(scan, ctx->buf[i]);
        off += n;
        len -= n;
    }
    return DPU_OK;
}

static int all_zero(const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i)
        if (p[i])
            return 0;
    return 1;
}

/* strcmp(a, b) == 0 without libc. */
static int same_string(const char *a, const char *b)
{
    while (*a != 0 && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}

/* Step 1: preamble, manifest digest and signature; nothing of the manifest is trusted before. */
static dpu_status check_envelope(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_apply_options *opt)
{
    uint8_t digest[DPU_SHA256_SIZE], msg[16 + DPU_SHA256_SIZE];
    uint32_t flags;
    dpu_status s;
    if (io->bundle_size < DPU_BUNDLE_PREAMBLE_SIZE)
        return dpu_fail(ctx, DPU_E_TRUNCATED, "preamble", DPU_NO_TENSOR);
    if ((s = dpu_read_bundle(ctx, io, 0, DPU_BUNDLE_PREAMBLE_SIZE)) != DPU_OK)
        return s;
    if (!dpu_bytes_equal(ctx->buf, (const uint8_t *)DPU_BUNDLE_MAGIC, 4))
        return dpu_fail(ctx, DPU_E_MAGIC, "magic", DPU_NO_TENSOR);
    ctx->format_version = dpu_le16(ctx->buf + 4);
    if (ctx->format_version < DPU_BUNDLE_FORMAT_MIN || ctx->format_version > DPU_BUNDLE_FORMAT_VERSION)
        return dpu_fail(ctx, DPU_E_FORMAT_VERSION, "format version", DPU_NO_TENSOR);
    flags = dpu_le16(ctx->buf + 6);
    if ((flags & ~DPU_BUNDLE_FLAG_SIGNED) != 0 || dpu_le32(ctx->buf + 12) != 0)
        return dpu_fail(ctx, DPU_E_FLAGS, "preamble flags", DPU_NO_TENSOR);
    ctx->info.signed_bundle = flags & DPU_BUNDLE_FLAG_SIGNED;
    ctx->manifest_size = dpu_le32(ctx->buf + 8);
    if (ctx->manifest_size < DPU_MANIFEST_FIXED_SIZE || ctx->manifest_size > DPU_MAX_MANIFEST)
        return dpu_fail(ctx, DPU_E_MANIFEST_SIZE, "manifest length", DPU_NO_TENSOR);
    ctx->sections_start = DPU_BUNDLE_PREAMBLE_SIZE + ctx->manifest_size + DPU_SHA256_SIZE +
                          (ctx->info.signed_bundle ? DPU_BUNDLE_SIGNATURE_SIZE : 0u);
    if (ctx->sections_start > io->bundle_size)
        return dpu_fail(ctx, DPU_E_TRUNCATED, "manifest, digest or signature", DPU_NO_TENSOR);
    dpu_sha256_init(&ctx->sha);
    if ((s = read_range(ctx, io, 1, 0, DPU_BUNDLE_PREAMBLE_SIZE + ctx->manifest_size, NULL)) != DPU_OK)
        return s;
    dpu_sha256_final(&ctx->sha, digest);
    if ((s = dpu_read_bundle(ctx, io, DPU_BUNDLE_PREAMBLE_SIZE + ctx->manifest_size,
                             DPU_SHA256_SIZE + (ctx->info.signed_bundle ? 64u : 0u))) != DPU_OK)
        return s;
    if (!dpu_bytes_equal(ctx->buf, digest, DPU_SHA256_SIZE))
        return dpu_fail(ctx, DPU_E_MANIFEST_DIGEST, "manifest digest", DPU_NO_TENSOR);
    if (opt->public_key != NULL) {
        if (!ctx->info.signed_bundle)
            return dpu_fail(ctx, DPU_E_UNSIGNED, "signature", DPU_NO_TENSOR);
        memcpy(msg, DPU_SIG_CONTEXT, 16);
        memcpy(msg + 16, digest, DPU_SHA256_SIZE);
        if ((s = dpu_ed25519_verify(ctx->buf + DPU_SHA256_SIZE, msg, sizeof msg, opt->public_key)) != DPU_OK)
            return dpu_fail(ctx, s, "signature", DPU_NO_TENSOR);
    }
    return DPU_OK;
}

/* Step 2: the manifest's fixed part and strings. */
static dpu_status check_fixed(dpu_apply_state *ctx, const dpu_apply_io *io, const dpu_apply_options *opt)
{
    const uint8_t *b = ctx->buf;
    dpu_bundle_info *in = &ctx->info;
    uint32_t model_len, compat_len;
    dpu_status s;
    if ((s = dpu_read_bundle(ctx, io, DPU_BUNDLE_PREAMBLE_SIZE, DPU_MANIFEST_FIXED_SIZE)) != DPU_OK)
        return s;
    in->kind = b[0];
    if (b[1] || b[2] || b[3] || !all_zero(b + 170, 6))
        return dpu_fail(ctx, DPU_E_FLAGS, "manifest reserved bytes", DPU_NO_TENSOR);
    ctx->header_form = dpu_le32(b + 116);
    if (ctx->header_form > DPU_HEADER_BASE_EDIT || (ctx->header_form != 0 && b[0] != DPU_KIND_DELTA))
        return dpu_fail(ctx, DPU_E_HEADER, "header form", DPU_NO_TENSOR);
    if (in->kind < DPU_KIND_FULL || in->kind > DPU_KIND_REINIT_DELTA)
        return dpu_fail(ctx, DPU_E_KIND, "kind", DPU_NO_TENSOR);
    in->tensor_count = dpu_le32(b + 4);
    in->update_version = dpu_le64(b + 8);
    memcpy(in->base_sha256, b + 16, DPU_SHA256_SIZE);
    memcpy(in->target_sha256, b + 48, DPU_SHA256_SIZE);
    in->base_size = dpu_le64(b + 80);
    in->target_size = dpu_le64(b + 88);
    ctx->base_data_start = dpu_le64(b + 96);
    in->init_seed = dpu_le64(b + 104);
    in->init_version = dpu_le32(b + 112);
    ctx->header_sec_offset = dpu_le64(b + 120);
    ctx->header_sec_len = dpu_le64(b + 128);
    memcpy(ctx->sections_sha, b + 136, DPU_SHA256_SIZE);
    model_len = b[168];
    compat_len = b[169];
    if (in->kind != DPU_KIND_DELTA &&
        (in->base_size != 0 || ctx->base_data_start != 0 || !all_zero(in->base_sha256, 32)))
        return dpu_fail(ctx, DPU_E_KIND, "base fields of a bundle without base", DPU_NO_TENSOR);
    if (in->kind == DPU_KIND_REINIT_DELTA ? in->init_version != 1u
                                          : (in->init_version != 0 || in->init_seed != 0))
        return dpu_fail(ctx, DPU_E_INIT_VERSION, "initialiser version", DPU_NO_TENSOR);
    if (in->tensor_count == 0 || in->tensor_count > DPU_MAX_TENSORS)
        return dpu_fail(ctx, DPU_E_TENSOR_COUNT, "tensor count", DPU_NO_TENSOR);
    if (model_len == 0 || DPU_MANIFEST_FIXED_SIZE + (uint64_t)model_len + compat_len > ctx->manifest_size)
        return dpu_fail(ctx, DPU_E_STRING, "model/compat length", DPU_NO_TENSOR);
    if ((s = dpu_read_bundle(ctx, io, DPU_BUNDLE_PREAMBLE_SIZE + DPU_MANIFEST_FIXED_SIZE,
                             model_len + compat_len)) != DPU_OK)
        return s;
    memcpy(in->model, b, model_len);
    in->model[model_len] = 0;
    memcpy(in->compat, b + model_len, compat_len);
    in->compat[compat_len] = 0;
    if (dpu_str_len(in->model, model_len) != model_len || dpu_str_len(in->compat, compat_len) != compat_len)
        return dpu_fail(ctx, DPU_E_STRING, "NUL inside model/compat string", DPU_NO_TENSOR);
    if (opt->compat != NULL && !same_string(opt->compat, in->compat))
        return dpu_fail(ctx, DPU_E_COMPAT, "compatibility string", DPU_NO_TENSOR);
    if (in->update_version <= opt->current_version)
        return dpu_fail(ctx, DPU_E_ROLLBACK, "update version", DPU_NO_TENSOR);
    /* the target header section comes first among the sections */
    if (ctx->header_sec_offset != ctx->sections_start ||
        ctx->header_sec_len < (ctx->header_form ? DPU_HEADER_EDIT_FIELDS : 10u) ||
        ctx->header_sec_len > 8u + DPU_MAX_HEADER || ctx->header_sec_len > io->bundle_size - ctx->sections_start)
        return dpu_fail(ctx, DPU_E_HEADER, "header section bounds", DPU_NO_TENSOR);
    if (in->kind == DPU_KIND_DELTA &&
        (ctx->base_data_start < 10 || ctx->base_data_start > in->base_size))
        return dpu_fail(ctx, DPU_E_TENSOR_LAYOUT, "base data start", DPU_NO_TENSOR);
    return DPU_OK;
}

/* Section H's produced length; for the base-edit form (its digest already checked) the four
 * fields, bounded by the section, the base header and each other. */
static dpu_status header_fields(dpu_apply_state *ctx, const dpu_apply_io *io)
{
    uint64_t lit;
    dpu_status s;
    if (ctx->header_form == DPU_HEADER_VERBATIM) {
        ctx->header_len = ctx->header_sec_len;
        return DPU_OK;
    }
    if ((s = dpu_read_bundle(ctx, io, ctx->header_sec_offset, DPU_HEADER_EDIT_FIELDS)) != DPU_OK)
        return s;
    ctx->header_len = dpu_le64(ctx->buf);
    ctx->header_prefix = dpu_le64(ctx->buf + 8);
    ctx->header_tail_src = dpu_le64(ctx->buf + 16);
    ctx->header_tail = dpu_le64(ctx->buf + 24);
    lit = ctx->header_sec_len - DPU_HEADER_EDIT_FIELDS;
    /* differences only, each operand bounded by the previous checks: nothing can wrap */
    if (ctx->header_len < 10 || ctx->header_len > 8u + DPU_MAX_HEADER || ctx->header_prefix > ctx->header_len ||
        ctx->header_tail > ctx->header_len - ctx->header_prefix ||
        lit != ctx->header_len - ctx->header_prefix - ctx->header_tail ||
        ctx->header_prefix > ctx->base_data_start || ctx->header_tail_src > ctx->base_data_start ||
        ctx->header_tail > ctx->base_data_start - ctx->header_tail_src)
        return dpu_fail(ctx, DPU_E_HEADER, "header edit fields", DPU_NO_TENSOR);
    return DPU_OK;
}

/* SHA-256 of one section into the running digest of section digests. */
static dpu_status digest_section(dpu_apply_state *ctx, const dpu_apply_io *io, uint64_t off, uint64_t len)
{
    uint8_t digest[DPU_SHA256_SIZE];
    dpu_status s;
    dpu_sha256_init(&ctx->sha);
    if ((s = read_range(ctx, io, 1, off, len, NULL)) != DPU_OK)
        return s;
    dpu_sha256_final(&ctx->sha, digest);
    dpu_sha256_update(&ctx->root, digest, sizeof digest);
    return DPU_OK;
}

/* Step 3: every tensor entry, the layout sums, and the digest of every section. */
static dpu_status check_table(dpu_apply_state *ctx, const dpu_apply_io *io)
{
    uint8_t digest[DPU_SHA256_SIZE];
    uint64_t off = dpu_table_start(ctx);
    uint64_t data_end = 0, sec_pos = ctx->sections_start + ctx->header_sec_len, i;
    dpu_entry e;
    dpu_status s;
    dpu_sha256_init(&ctx->root);
    ctx->table_pooled = 0;
    if ((s = digest_section(ctx, io, ctx->header_sec_offset, ctx->header_sec_len)) != DPU_OK)
        return s;
    for (i = 0; i < ctx->info.tensor_count; ++i) {
        if ((s = dpu_read_entry(ctx, io, &off, i, &data_end, &sec_pos, &e)) != DPU_OK ||
            (s = digest_section(ctx, io, e.section_offset, e.section_length)) != DPU_OK)
            return s;
    }
    dpu_sha256_final(&ctx->root, digest);
    if (off != DPU_BUNDLE_PREAMBLE_SIZE + ctx->manifest_size)
        return dpu_fail(ctx, DPU_E_MANIFEST_TRAILING, "manifest", DPU_NO_TENSOR);
    if (sec_pos != io->bundle_size)
        return dpu_fail(ctx, DPU_E_SECTION_LAYOUT, "bytes after the last section", DPU_NO_TENSOR);
    if (!dpu_bytes_equal(digest, ctx->sections_sha, DPU_SHA256_SIZE))
        return dpu_fail(ctx, DPU_E_SECTION_DIGEST, "sections digest", DPU_NO_TENSOR);
    if ((s = header_fields(ctx, io)) != DPU_OK)
        return s;
    if (ctx->info.target_size != ctx->header_len + data_end ||
        (ctx->info.kind == DPU_KIND_DELTA && ctx->info.base_size != ctx->base_data_start + data_end))
        return dpu_fail(ctx, DPU_E_TENSOR_LAYOUT, "file sizes != header + tensor bytes", DPU_NO_TENSOR);
    return DPU_OK;
}

/* Step 4: the target header section's length prefix (8 bytes LE = JSON length, JSON starts '{'). */
static dpu_status check_header(dpu_apply_state *ctx, const dpu_apply_io *io)
{
    dpu_status s;
    if (ctx->header_form != DPU_HEADER_VERBATIM)
        return DPU_OK; /* its bytes come partly from the base: the produced file's hash decides */
    if ((s = dpu_read_bundle(ctx, io, ctx->header_sec_offset, 9)) != DPU_OK)
        return s;
    if (dpu_le64(ctx->buf) != ctx->header_sec_len - 8u || ctx->buf[8] != '{')
        return dpu_fail(ctx, DPU_E_HEADER, "header length prefix", DPU_NO_TENSOR);
    return DPU_OK;
}

/* Step 5: the device file is exactly the base this delta was made from. */
static dpu_status check_base(dpu_apply_state *ctx, const dpu_apply_io *io)
{
    uint8_t digest[DPU_SHA256_SIZE];
    dpu_status s;
    if (ctx->info.kind != DPU_KIND_DELTA)
        return DPU_OK;
    if (io->read_base == NULL)
        return dpu_fail(ctx, DPU_E_ARGUMENT, "delta bundle needs read_base", DPU_NO_TENSOR);
    if (io->base_size != ctx->info.base_size)
        return dpu_fail(ctx, DPU_E_BASE_SIZE, "device file size", DPU_NO_TENSOR);
    dpu_sha256_init(&ctx->sha);
    if ((s = read_range(ctx, io, 0, 0, io->base_size, NULL)) != DPU_OK)
        return s;
    dpu_sha256_final(&ctx->sha, digest);
    if (!dpu_bytes_equal(digest, ctx->info.base_sha256, DPU_SHA256_SIZE))
        return dpu_fail(ctx, DPU_E_BASE_HASH, "device file SHA-256", DPU_NO_TENSOR);
    return DPU_OK;
}

/* Step 6 (step 7 of docs/bundle-format.md section 5): the produced header names the manifest's
 * update version (version_byte above). The header is section H (form 0) or base prefix, literal
 * and base range (form 1: the base file is the verified one by now, read as the apply reads it). */
static dpu_status check_update_version(dpu_apply_state *ctx, const dpu_apply_io *io)
{
    version_scan v;
    dpu_status s;
    memset(&v, 0, sizeof v);
    if (ctx->header_form == DPU_HEADER_VERBATIM)
        s = read_range(ctx, io, 1, ctx->header_sec_offset, ctx->header_sec_len, &v);
    else if ((s = read_range(ctx, io, 0, 0, ctx->header_prefix, &v)) == DPU_OK &&
             (s = read_range(ctx, io, 1, ctx->header_sec_offset + DPU_HEADER_EDIT_FIELDS,
                             ctx->header_sec_len - DPU_HEADER_EDIT_FIELDS, &v)) == DPU_OK)
        s = read_range(ctx, io, 0, ctx->header_tail_src, ctx->header_tail, &v);
    if (s != DPU_OK)
        return s;
    ctx->read_at = ctx->header_sec_offset; /* a refusal points at section H */
    if (v.found != 1 || v.bad || v.in_value)
        return dpu_fail(ctx, DPU_E_UPDATE_VERSION, "no single decimal dpu.update_version", DPU_NO_TENSOR);
    if (v.value != ctx->info.update_version)
        return dpu_fail(ctx, DPU_E_UPDATE_VERSION, "dpu.update_version of the produced header", DPU_NO_TENSOR);
    return DPU_OK;
}

dpu_status dpu_bundle_verify(dpu_apply_ctx *c, const dpu_apply_io *io, const dpu_apply_options *opt)
{
    dpu_apply_state *ctx;
    dpu_status s;
    if (c == NULL)
        return DPU_E_ARGUMENT;
    ctx = dpu_state(c);
    if (ctx->magic != DPU_CTX_MAGIC)
        return DPU_E_STATE;
    if (ctx->status != DPU_OK)
        return ctx->status; /* terminal */
    if (io == NULL || opt == NULL || io->read_bundle == NULL)
        return dpu_fail(ctx, DPU_E_ARGUMENT, "io/options", DPU_NO_TENSOR);
    if ((s = check_envelope(ctx, io, opt)) != DPU_OK || (s = check_fixed(ctx, io, opt)) != DPU_OK ||
        (s = check_table(ctx, io)) != DPU_OK || (s = check_header(ctx, io)) != DPU_OK ||
        (s = check_base(ctx, io)) != DPU_OK || (s = check_update_version(ctx, io)) != DPU_OK)
        return s;
    ctx->verified = 1;
    return DPU_OK;
}
