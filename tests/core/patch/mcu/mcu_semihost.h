/* SPDX-License-Identifier: MIT */
/* Arm semihosting calls (bkpt 0xab) for the bare-metal apply harness: the host's files and console. */
#ifndef MCU_SEMIHOST_H
#define MCU_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

/** Opens a host file for binary reading, or (write) for writing, truncated. Returns a handle or -1. */
int sh_open(const char *path, int write);

/** Closes a handle; 0 on success. */
int sh_close(int fd);

/** Length of an open host file, or -1. */
long sh_flen(int fd);

/** Moves to absolute byte `pos`; 0 on success. */
int sh_seek(int fd, uint32_t pos);

/** Reads exactly `len` bytes; 0 on success, -1 when fewer came. */
int sh_read(int fd, void *buf, size_t len);

/** Writes exactly `len` bytes; 0 on success. */
int sh_write(int fd, const void *buf, size_t len);

/** Prints a NUL-terminated string on the host's console. */
void sh_puts(const char *s);

/** Copies the command line QEMU passes (-semihosting-config arg=...) into buf; 0 on success. */
int sh_cmdline(char *buf, size_t cap);

/** Ends the program: the emulator exits with status 0 when ok, else 1. */
void sh_exit(int ok) __attribute__((noreturn));

#endif
