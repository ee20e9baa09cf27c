/* SPDX-License-Identifier: MIT */
/* Arm semihosting (the "Semihosting for AArch32 and AArch64" specification): operation in r0,
 * a block of arguments in r1, `bkpt 0xab` on M-profile cores; the debugger (QEMU) does the I/O. */
#include "mcu_semihost.h"

enum {
    SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITE0 = 0x04, SYS_WRITE = 0x05, SYS_READ = 0x06,
    SYS_SEEK = 0x0a, SYS_FLEN = 0x0c, SYS_GET_CMDLINE = 0x15, SYS_EXIT = 0x18
};
/* SYS_EXIT reasons on AArch32: the value itself, no block */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUNTIME_ERROR 0x20023u
/* SYS_OPEN modes are indices into fopen's list: 1 "rb", 5 "wb" */
#define MODE_RB 1u
#define MODE_WB 5u

static int call(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (int)r0;
}

static size_t length(const char *s)
{
    size_t n = 0;
    while (s[n])
        ++n;
    return n;
}

int sh_open(const char *path, int write)
{
    const uint32_t a[3] = {(uint32_t)(uintptr_t)path, write ? MODE_WB : MODE_RB, (uint32_t)length(path)};
    return call(SYS_OPEN, a);
}

int sh_close(int fd)
{
    const uint32_t a[1] = {(uint32_t)fd};
    return call(SYS_CLOSE, a);
}

long sh_flen(int fd)
{
    const uint32_t a[1] = {(uint32_t)fd};
    return call(SYS_FLEN, a);
}

int sh_seek(int fd, uint32_t pos)
{
    const uint32_t a[2] = {(uint32_t)fd, pos};
    return call(SYS_SEEK, a) == 0 ? 0 : -1;
}

/* SYS_READ and SYS_WRITE return the number of bytes NOT transferred. */
int sh_read(int fd, void *buf, size_t len)
{
    const uint32_t a[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf, (uint32_t)len};
    return call(SYS_READ, a) == 0 ? 0 : -1;
}

int sh_write(int fd, const void *buf, size_t len)
{
    const uint32_t a[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf, (uint32_t)len};
    return call(SYS_WRITE, a) == 0 ? 0 : -1;
}

void sh_puts(const char *s)
{
    call(SYS_WRITE0, s);
}

int sh_cmdline(char *buf, size_t cap)
{
    uint32_t a[2] = {(uint32_t)(uintptr_t)buf, (uint32_t)cap};
    return call(SYS_GET_CMDLINE, a) == 0 ? 0 : -1;
}

void sh_exit(int ok)
{
    call(SYS_EXIT, (const void *)(uintptr_t)(ok ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUNTIME_ERROR));
    for (;;) {
    }
}
