/* SPDX-License-Identifier: MIT */
/* dpu-apply BUNDLE WEIGHTS [--pubkey KEY] [--current-version N] [--compat S]: atomic device update
 * that refuses any bundle not newer than the weight file it holds. */
#define _POSIX_C_SOURCE 200809L
#include "dpu_bundle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fault injection for the power-cut tests: DPU_APPLY_CRASH_AT=n ends the process abruptly
 * (no cleanup, as a power cut would) at the n-th write or sync point (1-based). */
static long crash_at = 0, points = 0;

static void point(void)
{
    if (crash_at > 0 && ++points == crash_at)
        _exit(99);
}

typedef struct file_io {
    int fd;
} file_io;

static int read_at(void *user, uint64_t off, uint8_t *buf, size_t len)
{
    const int fd = ((file_io *)user)->fd;
    while (len > 0) {
        const ssize_t n = pread(fd, buf, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        buf += n;
        off += (uint64_t)n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_all(void *user, const uint8_t *buf, size_t len)
{
    const int fd = ((file_io *)user)->fd;
    point();
    while (len > 0) {
        const ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A key file holds 32 raw bytes or 64 hex digits (optionally followed by a newline). */
static int load_key(const char *path, uint8_t key[32])
{
    uint8_t raw[200];
    size_t n, i;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    n = fread(raw, 1, sizeof raw, f);
    fclose(f);
    if (n == 32) {
        memcpy(key, raw, 32);
        return 0;
    }
    while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == '\r' || raw[n - 1] == ' '))
        --n;
    if (n != 64)
        return -1;
    for (i = 0; i < 32; ++i) {
        const int hi = hexval(raw[2 * i]), lo = hexval(raw[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        key[i] = (uint8_t)(hi * 16 + lo);
    }
    return 0;
}

/* The update version recorded in a device weight file: the safetensors header's metadata
 * "dpu.update_version":"V" (docs/bundle-format.md, section 1), which every bundle writes and
 * the produced file's SHA-256 covers. The header is scanned in small chunks (a device need not
 * hold it whole). Returns 0 and sets *version when found, 1 when the file has no such entry,
 * -1 when it cannot be read or is not a safetensors file. */
static int file_version(int fd, uint64_t size, uint64_t *version)
{
    static const char key[] = "\"dpu.update_version\":\"";
    enum { KEY_LEN = sizeof key - 1 };
    int fail[KEY_LEN]; /* KMP: the longest proper prefix of key[0..i] that is also its suffix */
    uint8_t buf[4096];
    uint64_t n = 0, off = 8, end, value = 0;
    int i, matched = 0, digits = -1, k;
    if (size < 8 || read_at(&(file_io){fd}, 0, buf, 8) != 0)
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
        if (read_at(&(file_io){fd}, off, buf, len) != 0)
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

static int usage(void)
{
    fprintf(stderr, "usage: dpu-apply BUNDLE WEIGHTS.safetensors [--pubkey KEY] [--current-version N] "
                    "[--compat STRING]\n");
    return 1;
}

/* Directory of `path` (for the temporary file and the directory fsync). */
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

int main(int argc, char **argv)
{
    static dpu_apply_ctx ctx; /* 6.9 KiB: static, not on a small device stack */
    const char *bundle_path = NULL, *weights = NULL, *env = getenv("DPU_APPLY_CRASH_AT");
    uint8_t key[32];
    int have_key = 0, have_version = 0, i, bfd, wfd, tfd, dfd;
    uint64_t held = 0;
    char tmp[4096], dir[4096];
    struct stat st;
    file_io b, w, t;
    dpu_apply_io io;
    dpu_apply_options opt;
    dpu_status s;
    memset(&opt, 0, sizeof opt);
    crash_at = env ? atol(env) : 0;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--pubkey") == 0 && i + 1 < argc) {
            if (load_key(argv[++i], key) != 0) {
                fprintf(stderr, "dpu-apply: %s: not a 32-byte or 64-hex-digit Ed25519 public key\n", argv[i]);
                return 1;
            }
            have_key = 1;
        } else if (strcmp(argv[i], "--current-version") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            opt.current_version = strtoull(argv[++i], &end, 10);
            if (errno || *end || end == argv[i])
                return usage();
            have_version = 1;
        } else if (strcmp(argv[i], "--compat") == 0 && i + 1 < argc) {
            opt.compat = argv[++i];
        } else if (argv[i][0] == '-') {
            return usage();
        } else if (!bundle_path) {
            bundle_path = argv[i];
        } else if (!weights) {
            weights = argv[i];
        } else {
            return usage();
        }
    }
    if (!bundle_path || !weights)
        return usage();
    opt.public_key = have_key ? key : NULL;
    bfd = open(bundle_path, O_RDONLY);
    if (bfd < 0 || fstat(bfd, &st) != 0) {
        fprintf(stderr, "dpu-apply: cannot open bundle %s: %s\n", bundle_path, strerror(errno));
        return 1;
    }
    memset(&io, 0, sizeof io);
    b.fd = bfd;
    io.read_bundle = read_at;
    io.bundle_user = &b;
    io.bundle_size = (uint64_t)st.st_size;
    wfd = open(weights, O_RDONLY); /* absent for a first (reinit) deployment: fine */
    w.fd = wfd;
    if (wfd >= 0 && fstat(wfd, &st) == 0) {
        io.read_base = read_at;
        io.base_user = &w;
        io.base_size = (uint64_t)st.st_size;
        /* Rollback protection needs no flag: the file the device holds says its version.
         * --current-version can only raise it (e.g. a version kept elsewhere), never lower it. */
        switch (file_version(wfd, io.base_size, &held)) {
        case 0:
            if (held > opt.current_version)
                opt.current_version = held;
            break;
        case 1:
            if (!have_version) {
                fprintf(stderr, "dpu-apply: %s: no \"dpu.update_version\" in its safetensors metadata, so its "
                                "update version is unknown; give it with --current-version N\n", weights);
                return 1;
            }
            break;
        default:
            if (!have_version) {
                fprintf(stderr, "dpu-apply: %s: not a readable safetensors weight file (expected a u64 header "
                                "length and a JSON header); give the device's version with --current-version N\n",
                        weights);
                return 1;
            }
            break;
        }
    }
    dpu_apply_init(&ctx);
    /* Verify everything (signature, digests, base hash) before creating any file. */
    s = dpu_bundle_verify(&ctx, &io, &opt);
    if (s == DPU_E_ROLLBACK) {
        fprintf(stderr, "dpu-apply: rejected %s: its update version %llu is not newer than %s's %llu (%s)\n",
                bundle_path, (unsigned long long)ctx.info.update_version, weights,
                (unsigned long long)opt.current_version, dpu_status_message(s));
        return 2;
    }
    if (s != DPU_OK) {
        fprintf(stderr, "dpu-apply: rejected %s: %s%s%s\n", bundle_path, dpu_status_message(s),
                dpu_apply_detail(&ctx)[0] ? ": " : "", dpu_apply_detail(&ctx));
        return 2;
    }
    snprintf(tmp, sizeof tmp, "%s.dpu-apply.tmp", weights);
    dir_of(weights, dir, sizeof dir);
    tfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (tfd < 0) {
        fprintf(stderr, "dpu-apply: cannot create %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    t.fd = tfd;
    io.write_target = write_all;
    io.target_user = &t;
    s = dpu_bundle_apply(&ctx, &io, &opt);
    if (s == DPU_OK) {
        point();
        if (fsync(tfd) != 0)
            s = DPU_E_WRITE;
    }
    if (close(tfd) != 0 && s == DPU_OK)
        s = DPU_E_WRITE;
    if (s != DPU_OK) {
        unlink(tmp); /* the old weight file was never touched */
        fprintf(stderr, "dpu-apply: failed applying %s: %s%s%s\n", bundle_path, dpu_status_message(s),
                dpu_apply_detail(&ctx)[0] ? ": " : "", dpu_apply_detail(&ctx));
        return 2;
    }
    point();
    if (rename(tmp, weights) != 0) {
        fprintf(stderr, "dpu-apply: cannot rename %s to %s: %s\n", tmp, weights, strerror(errno));
        unlink(tmp);
        return 1;
    }
    point();
    dfd = open(dir, O_RDONLY); /* make the rename itself durable */
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    printf("dpu-apply: %s updated to version %llu (%llu bytes)\n", weights,
           (unsigned long long)ctx.info.update_version, (unsigned long long)ctx.info.target_size);
    if (wfd >= 0)
        close(wfd);
    close(bfd);
    return 0;
}
