/* SPDX-License-Identifier: MIT */
/* dpu_apply_file: the update sequence of dpu-apply over a dpu_fs; no I/O of its own. */
#include "dpu_apply_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct fs_file {
    const dpu_fs *fs;
    int fd;
} fs_file;

static int read_cb(void *user, uint64_t off, uint8_t *buf, size_t len)
{
    const fs_file *f = (const fs_file *)user;
    return f->fs->read_at(f->fs->user, f->fd, off, buf, len);
}

static int write_cb(void *user, const uint8_t *buf, size_t len)
{
    const fs_file *f = (const fs_file *)user;
    return f->fs->write(f->fs->user, f->fd, buf, len);
}

/* The update version recorded in a device weight file: the safetensors header's metadata
 * "dpu.update_version":"V" (docs/bundle-format.md, section 1), which every bundle writes and
 * the produced file's SHA-256 covers. The header is scanned in small chunks (a device need not
 * hold it whole). Returns 0 and sets *version when found, 1 when the file has no such entry,
 * -1 when it cannot be read or is not a safetensors file. */
static int file_version(const fs_file *f, uint64_t size, uint64_t *version)
{
    static const char key[] = "\"dpu.update_version\":\"";
    enum { KEY_LEN = sizeof key - 1 };
    int fail[KEY_LEN]; /* KMP: the longest proper prefix of key[0..i] that is also its suffix */
    uint8_t buf[4096];
    uint64_t n = 0, off = 8, end, value = 0;
    int i, matched = 0, digits = -1, k;
    if (size < 8 || read_cb((void *)f, 0, buf, 8) != 0)
        return -1;
    for (i = 0; i < 8; ++i)
        n |= (uint64_t)buf[i] << (8 * i);
    if (n < 2 || n > size - 8 || n > (64u << 20))
        return -1;
    fail[0] = 0;
    for (i = 1, k = 0; i < KEY_LEN; ++i) {
        while (k > 0 && key[i] != key[k])
            k = fail[k - 1];
        if (key[i] == key[k])
            ++k;
        fail[i] = k;
    }
    end = 8 + n;
    while (off < end) {
        const size_t len = (size_t)(end - off < sizeof buf ? end - off : sizeof buf);
        size_t j;
        if (read_cb((void *)f, off, buf, len) != 0)
            return -1;
        for (j = 0; j < len; ++j) {
            const char c = (char)buf[j];
            if (digits >= 0) { /* inside the value: decimal digits up to the closing quote */
                if (c == '"' && digits > 0) {
                    *version = value;
                    return 0;
                }
                if (c < '0' || c > '9' || value > (UINT64_MAX - 9) / 10)
                    return -1;
                value = value * 10 + (uint64_t)(c - '0');
                ++digits;
                continue;
            }
            while (matched > 0 && c != key[matched])
                matched = fail[matched - 1];
            if (c == key[matched] && ++matched == KEY_LEN)
                digits = 0;
        }
        off += len;
    }
    return 1;
}

/* Directory of `path` (for the folder sync). */
static void dir_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

static int finish(const dpu_fs *fs, int bfd, int wfd, int code)
{
    if (wfd >= 0)
        fs->close(fs->user, wfd);
    if (bfd >= 0)
        fs->close(fs->user, bfd);
    return code;
}

/* "<verb> <bundle>: <status message>: <what> (tensor i) at bundle byte n": the library returns
 * only static parts (no stdio on the device side), the formatting happens here. */
static void describe(char *message, size_t cap, const char *verb, const char *bundle, const dpu_apply_ctx *ctx,
                     dpu_status s)
{
    dpu_apply_error e;
    char tensor[48] = "";
    memset(&e, 0, sizeof e);
    dpu_apply_last_error(ctx, &e);
    if (e.status != s) { /* not the library's error (the sync or close after a good apply) */
        snprintf(message, cap, "%s %s: %s", verb, bundle, dpu_status_message(s));
        return;
    }
    if (e.tensor != DPU_NO_TENSOR)
        snprintf(tensor, sizeof tensor, " (tensor %llu)", (unsigned long long)e.tensor);
    snprintf(message, cap, "%s %s: %s%s%s%s at bundle byte %llu", verb, bundle, dpu_status_message(s),
             e.what && e.what[0] ? ": " : "", e.what ? e.what : "", tensor, (unsigned long long)e.offset);
}

int dpu_apply_file(const dpu_apply_request *req, const dpu_fs *fs, dpu_apply_ctx *ctx, char *message, size_t cap)
{
    dpu_bundle_info info;
    fs_file b, w, t;
    dpu_apply_io io;
    dpu_apply_options opt;
    dpu_status s;
    uint64_t held = 0;
    char tmp[4096], dir[4096], file[4096], why[512], shown[8400];
    const char *weights = req->weights;
    int tfd;
    memset(&io, 0, sizeof io);
    memset(&opt, 0, sizeof opt);
    opt.public_key = req->public_key;
    opt.compat = req->compat;
    opt.current_version = req->have_version ? req->current_version : 0;
    message[0] = 0;
    /* A link is followed and the file it points at is replaced; the link stays (docs/bundle-format.md,
     * section 6). A device, a FIFO or a folder is refused before the bundle is read. */
    if (fs->resolve) {
        if (fs->resolve(fs->user, req->weights, file, sizeof file, why, sizeof why) != 0) {
            snprintf(message, cap, "%s: %s; nothing was changed", req->weights, why);
            return DPU_APPLY_IO_ERROR;
        }
        weights = file;
    }
    if (strcmp(weights, req->weights) == 0)
        snprintf(shown, sizeof shown, "%s", weights);
    else
        snprintf(shown, sizeof shown, "%s (-> %s)", req->weights, weights);
    b.fs = w.fs = t.fs = fs;
    b.fd = fs->open_read(fs->user, req->bundle);
    if (b.fd < 0 || fs->size(fs->user, b.fd, &io.bundle_size) != 0) {
        snprintf(message, cap, "cannot open bundle %s: %s", req->bundle, strerror(errno));
        return finish(fs, b.fd, -1, DPU_APPLY_IO_ERROR);
    }
    io.read_bundle = read_cb;
    io.bundle_user = &b;
    w.fd = fs->open_read(fs->user, weights); /* absent for a first (reinit) deployment: fine */
    if (w.fd >= 0 && fs->size(fs->user, w.fd, &io.base_size) == 0) {
        io.read_base = read_cb;
        io.base_user = &w;
        /* Rollback protection needs no flag: the file the device holds says its version.
         * --current-version can only raise it (e.g. a version kept elsewhere), never lower it. */
        switch (file_version(&w, io.base_size, &held)) {
        case 0:
            if (held > opt.current_version)
                opt.current_version = held;
            break;
        case 1:
            if (!req->have_version) {
                snprintf(message, cap, "%s: no \"dpu.update_version\" in its safetensors metadata, so its "
                                       "update version is unknown; give it with --current-version N", shown);
                return finish(fs, b.fd, w.fd, DPU_APPLY_IO_ERROR);
            }
            break;
        default:
            if (!req->have_version) {
                snprintf(message, cap, "%s: not a readable safetensors weight file (expected a u64 header "
                                       "length and a JSON header); give the device's version with --current-version N",
                         shown);
                return finish(fs, b.fd, w.fd, DPU_APPLY_IO_ERROR);
            }
            break;
        }
    }
    dpu_apply_init(ctx);
    memset(&info, 0, sizeof info);
    /* Verify everything (signature, digests, base hash) before creating any file. */
    s = dpu_bundle_verify(ctx, &io, &opt);
    dpu_apply_info(ctx, &info);
    if (s == DPU_E_ROLLBACK) {
        snprintf(message, cap, "rejected %s: its update version %llu is not newer than %s's %llu (%s)", req->bundle,
                 (unsigned long long)info.update_version, shown, (unsigned long long)opt.current_version,
                 dpu_status_message(s));
        return finish(fs, b.fd, w.fd, DPU_APPLY_REJECTED);
    }
    if (s != DPU_OK) {
        describe(message, cap, "rejected", req->bundle, ctx, s);
        return finish(fs, b.fd, w.fd, DPU_APPLY_REJECTED);
    }
    if (snprintf(tmp, sizeof tmp, "%s.dpu-apply.tmp", weights) >= (int)sizeof tmp) {
        snprintf(message, cap, "%s: the path is too long for its temporary name; nothing was changed", shown);
        return finish(fs, b.fd, w.fd, DPU_APPLY_IO_ERROR);
    }
    dir_of(weights, dir, sizeof dir);
    tfd = fs->create(fs->user, tmp);
    if (tfd < 0) {
        snprintf(message, cap, "cannot create %s: %s", tmp, strerror(errno));
        return finish(fs, b.fd, w.fd, DPU_APPLY_IO_ERROR);
    }
    t.fd = tfd;
    io.write_target = write_cb;
    io.target_user = &t;
    s = dpu_bundle_apply(ctx, &io, &opt);
    /* The new contents must be durable before the name points at them: a power cut after the
     * rename must not leave a file whose data never reached the disk. */
    if (s == DPU_OK && fs->sync(fs->user, tfd) != 0)
        s = DPU_E_WRITE;
    if (fs->close(fs->user, tfd) != 0 && s == DPU_OK)
        s = DPU_E_WRITE;
    if (s != DPU_OK) {
        fs->remove(fs->user, tmp); /* the old weight file was never touched */
        describe(message, cap, "failed applying", req->bundle, ctx, s);
        return finish(fs, b.fd, w.fd, DPU_APPLY_REJECTED);
    }
    if (w.fd >= 0) { /* done reading the old file */
        fs->close(fs->user, w.fd);
        w.fd = -1;
    }
    if (fs->rename(fs->user, tmp, weights) != 0) {
        snprintf(message, cap, "cannot rename %s to %s: %s", tmp, weights, strerror(errno));
        fs->remove(fs->user, tmp);
        return finish(fs, b.fd, w.fd, DPU_APPLY_IO_ERROR);
    }
    fs->sync_dir(fs->user, dir); /* make the rename itself durable */
    snprintf(message, cap, "%s updated to version %llu (%llu bytes)", shown,
             (unsigned long long)info.update_version, (unsigned long long)info.target_size);
    return finish(fs, b.fd, w.fd, DPU_APPLY_DONE);
}
