/* SPDX-License-Identifier: MIT */
/* dpu-apply BUNDLE WEIGHTS [--pubkey KEY] [--current-version N] [--compat S]: atomic device update
 * that refuses any bundle not newer than the weight file it holds (dpu_apply_file over POSIX). */
#define _POSIX_C_SOURCE 200809L
#include "dpu_apply_file.h"

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

static int px_open_read(void *user, const char *path)
{
    (void)user;
    return open(path, O_RDONLY);
}

static int px_create(void *user, const char *path)
{
    (void)user;
    /* A temporary left by a killed apply (or a link planted at its name) is removed, then the
     * name is created afresh: writing through a planted link would change another file. */
    if (unlink(path) != 0 && errno != ENOENT)
        return -1;
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
}

static int px_size(void *user, int fd, uint64_t *size)
{
    struct stat st;
    (void)user;
    if (fstat(fd, &st) != 0)
        return -1;
    *size = (uint64_t)st.st_size;
    return 0;
}

static int px_read_at(void *user, int fd, uint64_t off, uint8_t *buf, size_t len)
{
    (void)user;
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

static int px_write(void *user, int fd, const uint8_t *buf, size_t len)
{
    (void)user;
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

static int px_sync(void *user, int fd)
{
    (void)user;
    point();
    return fsync(fd);
}

static int px_close(void *user, int fd)
{
    (void)user;
    return close(fd);
}

static int px_rename(void *user, const char *from, const char *to)
{
    (void)user;
    point();
    return rename(from, to);
}

static int px_remove(void *user, const char *path)
{
    (void)user;
    return unlink(path);
}

static int px_sync_dir(void *user, const char *dir)
{
    int fd, r;
    (void)user;
    point();
    fd = open(dir, O_RDONLY);
    if (fd < 0)
        return -1;
    r = fsync(fd);
    close(fd);
    return r;
}

/* What a path that is not a regular file is, in words. */
static const char *kind_name(mode_t mode)
{
    return S_ISDIR(mode) ? "folder" : S_ISCHR(mode) ? "character device" : S_ISBLK(mode) ? "block device"
           : S_ISFIFO(mode) ? "FIFO" : "socket";
}

/* Follows symbolic links (at most 40; relative ones against their own folder) to the file a
 * device's weights live in; refuses what a weight file cannot be. */
static int px_resolve(void *user, const char *path, char *out, size_t cap, char *why, size_t why_cap)
{
    char link[4096];
    int hops;
    (void)user;
    if (snprintf(out, cap, "%s", path) >= (int)cap) {
        snprintf(why, why_cap, "the path is too long");
        return -1;
    }
    for (hops = 0; hops <= 40; ++hops) {
        struct stat st;
        ssize_t n;
        const char *slash;
        if (lstat(out, &st) != 0) {
            if (errno == ENOENT)
                return 0; /* a first deployment creates it (where a dangling link points) */
            snprintf(why, why_cap, "cannot be examined (%s)", strerror(errno));
            return -1;
        }
        if (S_ISREG(st.st_mode))
            return 0;
        if (!S_ISLNK(st.st_mode)) {
            if (strcmp(out, path))
                snprintf(why, why_cap, "its target %s is a %s, not a weight file", out, kind_name(st.st_mode));
            else
                snprintf(why, why_cap, "is a %s, not a weight file", kind_name(st.st_mode));
            return -1;
        }
        n = readlink(out, link, sizeof link - 1);
        if (n < 0) {
            snprintf(why, why_cap, "cannot read the symbolic link %s (%s)", out, strerror(errno));
            return -1;
        }
        link[n] = 0;
        if (link[0] == '/') {
            if (snprintf(out, cap, "%s", link) >= (int)cap)
                break;
        } else {
            char joined[8192];
            slash = strrchr(out, '/');
            snprintf(joined, sizeof joined, "%.*s%s", slash ? (int)(slash - out + 1) : 0, out, link);
            if (snprintf(out, cap, "%s", joined) >= (int)cap)
                break;
        }
    }
    snprintf(why, why_cap, "too many levels of symbolic links, or a path too long");
    return -1;
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

static int usage(void)
{
    fprintf(stderr, "usage: dpu-apply BUNDLE WEIGHTS.safetensors [--pubkey KEY] [--current-version N] "
                    "[--compat STRING]\n");
    return 1;
}

int main(int argc, char **argv)
{
    static dpu_apply_ctx ctx; /* DPU_APPLY_CTX_SIZE (12 KiB): static, not on a small device stack */
    static const dpu_fs posix = {NULL, px_open_read, px_create, px_size, px_read_at, px_write,
                                 px_sync, px_close, px_rename, px_remove, px_sync_dir, px_resolve};
    const char *env = getenv("DPU_APPLY_CRASH_AT");
    uint8_t key[32];
    char message[8192];
    dpu_apply_request req;
    int i, code;
    memset(&req, 0, sizeof req);
    crash_at = env ? atol(env) : 0;
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--pubkey") == 0 && i + 1 < argc) {
            if (load_key(argv[++i], key) != 0) {
                fprintf(stderr, "dpu-apply: %s: not a 32-byte or 64-hex-digit Ed25519 public key\n", argv[i]);
                return 1;
            }
            req.public_key = key;
        } else if (strcmp(argv[i], "--current-version") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            req.current_version = strtoull(argv[++i], &end, 10);
            if (errno || *end || end == argv[i])
                return usage();
            req.have_version = 1;
        } else if (strcmp(argv[i], "--compat") == 0 && i + 1 < argc) {
            req.compat = argv[++i];
        } else if (argv[i][0] == '-') {
            return usage();
        } else if (!req.bundle) {
            req.bundle = argv[i];
        } else if (!req.weights) {
            req.weights = argv[i];
        } else {
            return usage();
        }
    }
    if (!req.bundle || !req.weights)
        return usage();
    {
        /* A bundle is a file: a folder, a device node or a FIFO is said as such before anything
         * is opened (a FIFO would block the open, a folder fail its first read). */
        struct stat st;
        if (stat(req.bundle, &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "dpu-apply: %s: is a %s, not a bundle file; nothing was changed\n", req.bundle,
                    kind_name(st.st_mode));
            return 1;
        }
    }
    code = dpu_apply_file(&req, &posix, &ctx, message, sizeof message);
    if (code == DPU_APPLY_DONE)
        printf("dpu-apply: %s\n", message);
    else
        fprintf(stderr, "dpu-apply: %s\n", message);
    return code;
}
