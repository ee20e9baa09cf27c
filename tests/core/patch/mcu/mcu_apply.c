/* SPDX-License-Identifier: MIT */
/* Bare-metal apply harness: core/patch's streaming API driven as a device would, files over semihosting, instructions counted. */
#include "dpu_bundle.h"
#include "mcu_board.h"
#include "mcu_semihost.h"

#include <string.h>

/* Usage (QEMU -semihosting-config arg=...): mcu-apply BUNDLE BASE|- OUT
 *        or mcu-apply --calibrate
 * One line per result on the console, "key value" pairs the test and bench/mcu/measure.sh read:
 *   mcu-apply ok verify_ns V apply_ns A sha_ns_per_mib H bundle B base F target T stack S ctx C
 * where *_ns are virtual nanoseconds (instructions under -icount shift=0) and sha_ns_per_mib
 * the time the library's SHA-256 takes for 1 MiB (the share of an apply that grows with the
 * device file rather than the bundle). */

/* The caller-owned state of a device: one context, static (no heap), and nothing else: the
 * library reads into and writes from its own buffers inside the context. */
static dpu_apply_ctx ctx;
static uint8_t chunk[256]; /* only for the SHA-256 figure below, not needed to apply */

typedef struct host_file {
    int fd;
    uint64_t pos; /* where the host's file position is, to skip needless seeks */
} host_file;

static int read_at(void *user, uint64_t off, uint8_t *buf, size_t len)
{
    host_file *f = (host_file *)user;
    if (off > 0xffffffffu)
        return -1;
    if (off != f->pos && sh_seek(f->fd, (uint32_t)off) != 0)
        return -1;
    f->pos = off + len;
    return sh_read(f->fd, buf, len);
}

static int write_all(void *user, const uint8_t *buf, size_t len)
{
    return sh_write(((host_file *)user)->fd, buf, len);
}

static void put_u64(const char *key, uint64_t v)
{
    char s[48];
    char digits[24];
    size_t n = 0, k = strlen(key), i;
    memcpy(s, key, k);
    s[k++] = ' ';
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    for (i = 0; i < n; ++i)
        s[k++] = digits[n - 1 - i];
    s[k++] = ' ';
    s[k] = 0;
    sh_puts(s);
}

/* 2 instructions per iteration (subs, bne): checks that the counter counts instructions. */
static void busy_loop(uint32_t iterations)
{
#if defined(__thumb2__)
    __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+l"(iterations) : : "cc");
#else /* GCC passes Thumb-1 inline assembly in divided syntax, where `sub` sets the flags */
    __asm__ volatile("1: sub %0, #1\n\tbne 1b" : "+l"(iterations) : : "cc");
#endif
}

static int calibrate(void)
{
    const uint32_t iterations = 5000000u;
    uint64_t t0, t1;
    t0 = mcu_counter_ns();
    busy_loop(iterations);
    t1 = mcu_counter_ns();
    sh_puts("mcu-apply calibrate ");
    put_u64("loop_instructions", 2u * (uint64_t)iterations);
    put_u64("counted_ns", t1 - t0);
    sh_puts("\n");
    return 0;
}

/* Splits the command line in place at spaces (the test's paths have none). */
static int split(char *line, char **argv, int cap)
{
    int argc = 0;
    while (*line && argc < cap) {
        while (*line == ' ')
            *line++ = 0;
        if (!*line)
            break;
        argv[argc++] = line;
        while (*line && *line != ' ')
            ++line;
    }
    return argc;
}

/* Time of hashing 1 MiB with the library's SHA-256, from RAM: the part of an apply that grows
 * with the device file (the verify hashes the old file, the apply the new one). */
static uint64_t hash_mib(void)
{
    dpu_sha256 sha;
    uint8_t digest[DPU_SHA256_SIZE];
    uint64_t t0;
    unsigned i;
    for (i = 0; i < sizeof chunk; ++i)
        chunk[i] = (uint8_t)(i * 37u);
    t0 = mcu_counter_ns();
    dpu_sha256_init(&sha);
    for (i = 0; i < (1u << 20) / sizeof chunk; ++i)
        dpu_sha256_update(&sha, chunk, sizeof chunk);
    dpu_sha256_final(&sha, digest);
    return mcu_counter_ns() - t0;
}

static int apply(const char *bundle, const char *base, const char *out)
{
    host_file b = {-1, 0}, w = {-1, 0}, t = {-1, 0};
    dpu_apply_io io;
    dpu_apply_options opt;
    dpu_apply_error err;
    dpu_status s;
    uint64_t t0, t1, t2, written = 0;
    memset(&io, 0, sizeof io);
    memset(&opt, 0, sizeof opt); /* lab use: no signature key, no compatibility string */
    b.fd = sh_open(bundle, 0);
    if (b.fd < 0) {
        sh_puts("mcu-apply: cannot open the bundle\n");
        return 1;
    }
    io.read_bundle = read_at;
    io.bundle_user = &b;
    io.bundle_size = (uint64_t)sh_flen(b.fd);
    if (strcmp(base, "-") != 0) {
        w.fd = sh_open(base, 0);
        if (w.fd < 0) {
            sh_puts("mcu-apply: cannot open the device file\n");
            return 1;
        }
        io.read_base = read_at;
        io.base_user = &w;
        io.base_size = (uint64_t)sh_flen(w.fd);
    }
    t.fd = sh_open(out, 1);
    if (t.fd < 0) {
        sh_puts("mcu-apply: cannot create the output\n");
        return 1;
    }
    io.write_target = write_all;
    io.target_user = &t;
    dpu_apply_init(&ctx);
    t0 = mcu_counter_ns();
    s = dpu_bundle_verify(&ctx, &io, &opt);
    t1 = mcu_counter_ns();
    if (s == DPU_OK)
        s = dpu_bundle_apply(&ctx, &io, &opt);
    t2 = mcu_counter_ns();
    if (s != DPU_OK) {
        dpu_apply_last_error(&ctx, &err);
        sh_puts("mcu-apply: failed: ");
        sh_puts(dpu_status_message(s));
        sh_puts(": ");
        sh_puts(err.what ? err.what : "");
        sh_puts("\n");
        return 1;
    }
    dpu_apply_progress(&ctx, NULL, &written);
    sh_close(t.fd);
    sh_puts("mcu-apply ok ");
    put_u64("verify_ns", t1 - t0);
    put_u64("apply_ns", t2 - t1);
    put_u64("sha_ns_per_mib", hash_mib());
    put_u64("bundle", io.bundle_size);
    put_u64("base", io.base_size);
    put_u64("target", written);
    put_u64("stack", mcu_stack_peak());
    put_u64("ctx", sizeof ctx);
    sh_puts("\n");
    return 0;
}

int main(void)
{
    static char line[512];
    char *argv[8];
    int argc;
    mcu_counter_start();
    if (sh_cmdline(line, sizeof line) != 0) {
        sh_puts("mcu-apply: no command line (QEMU -semihosting-config arg=...)\n");
        return 1;
    }
    argc = split(line, argv, 8);
    if (argc == 2 && strcmp(argv[1], "--calibrate") == 0)
        return calibrate();
    if (argc != 4) {
        sh_puts("usage: mcu-apply BUNDLE BASE|- OUT | mcu-apply --calibrate\n");
        return 1;
    }
    return apply(argv[1], argv[2], argv[3]);
}
