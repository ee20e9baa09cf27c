/* SPDX-License-Identifier: MIT */
/* One device update as dpu-apply performs it, over a pluggable file system (POSIX in dpu-apply,
 * a power-cut simulator in the tests): verify, write a temporary, sync it, rename, sync the folder. */
#ifndef DPU_APPLY_FILE_H
#define DPU_APPLY_FILE_H

#include "dpu_bundle.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The file operations an update needs. Every function returns 0 (or a descriptor >= 0) on
 * success and -1 on failure; `user` is passed through. */
typedef struct dpu_fs {
    void *user;
    int (*open_read)(void *user, const char *path);  /* -1 when it does not exist */
    int (*create)(void *user, const char *path);     /* empty, for writing, replacing any */
    int (*size)(void *user, int fd, uint64_t *size);
    int (*read_at)(void *user, int fd, uint64_t off, uint8_t *buf, size_t len);
    int (*write)(void *user, int fd, const uint8_t *buf, size_t len);
    int (*sync)(void *user, int fd);                 /* file contents durable */
    int (*close)(void *user, int fd);
    int (*rename)(void *user, const char *from, const char *to);
    int (*remove)(void *user, const char *path);
    int (*sync_dir)(void *user, const char *dir);    /* the folder's names durable */
    /* Optional (NULL: names are files): writes to `out` (capacity `cap`) the file `path` names
     * after following symbolic links, or a missing link's target. Returns 0, or -1 with a
     * reason in `why` (capacity `why_cap`) when nothing may be written there: a folder, a
     * device, a FIFO, a socket, a link loop. */
    int (*resolve)(void *user, const char *path, char *out, size_t cap, char *why, size_t why_cap);
} dpu_fs;

typedef struct dpu_apply_request {
    const char *bundle;
    const char *weights;             /* the device file, replaced atomically; a symbolic link is
                                        kept and the file it points at replaced (A/B layouts) */
    const uint8_t *public_key;       /* 32 bytes, or NULL */
    const char *compat;              /* or NULL */
    uint64_t current_version;        /* with have_version: --current-version (raises, never lowers) */
    int have_version;
} dpu_apply_request;

enum { DPU_APPLY_DONE = 0, DPU_APPLY_IO_ERROR = 1, DPU_APPLY_REJECTED = 2 };

/* Applies the bundle to the weight file. The current version is the weight file's
 * "dpu.update_version" (0 without a file), or the request's when higher. On anything but
 * DPU_APPLY_DONE, `message` (capacity `cap`) says what and the weight file is untouched. The
 * caller owns `ctx` (about 11.6 KiB with format 4: static on small devices). */
int dpu_apply_file(const dpu_apply_request *req, const dpu_fs *fs, dpu_apply_ctx *ctx, char *message, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
