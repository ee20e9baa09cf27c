/* SPDX-License-Identifier: MIT */
/* dpu_status: the typed result of every fallible function of the device library. */
#ifndef DPU_STATUS_H
#define DPU_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Every way an apply can fail; each has its own message (dpu_status_message). */
typedef enum dpu_status {
    DPU_OK = 0,
    DPU_E_ARGUMENT,        /* NULL context/io/callback or a bad option */
    DPU_E_STATE,           /* context not initialised, or reused after an error */
    DPU_E_READ,            /* a read callback failed */
    DPU_E_WRITE,           /* the write callback failed */
    DPU_E_TRUNCATED,       /* the bundle ends before its preamble, manifest or digest */
    DPU_E_MAGIC,           /* not a bundle */
    DPU_E_FORMAT_VERSION,  /* unsupported format version */
    DPU_E_FLAGS,           /* unknown flag bits or non-zero reserved bytes */
    DPU_E_MANIFEST_SIZE,   /* manifest length out of range */
    DPU_E_MANIFEST_DIGEST, /* manifest bytes do not match their SHA-256 */
    DPU_E_UNSIGNED,        /* a public key was given but the bundle is not signed */
    DPU_E_SIGNATURE,       /* Ed25519 signature invalid for the given key */
    DPU_E_NO_CRYPTO,       /* a key was given but the library was built without libsodium */
    DPU_E_KIND,            /* unknown bundle kind */
    DPU_E_STRING,          /* model/compatibility string length out of range */
    DPU_E_COMPAT,          /* compatibility string differs from the device's */
    DPU_E_ROLLBACK,        /* update version not above the device's current version */
    DPU_E_INIT_VERSION,    /* reinit bundle for an unknown initialiser version */
    DPU_E_TENSOR_COUNT,    /* tensor count zero or above DPU_MAX_TENSORS */
    DPU_E_TENSOR_ENTRY,    /* malformed tensor entry: reserved bits, a bad or overlong varint */
    DPU_E_TENSOR_SHAPE,    /* numel of 2^61 or more (4 * numel would overflow) */
    DPU_E_TENSOR_LAYOUT,   /* tensor offsets not contiguous, or sizes disagree with the file sizes */
    DPU_E_TENSOR_MODE,     /* mode, coding or init rule not allowed for the bundle kind */
    DPU_E_SECTION_LAYOUT,  /* sections not contiguous, overlapping, or not ending at the bundle end */
    DPU_E_SECTION_SIZE,    /* a section's length does not fit its tensor's mode */
    DPU_E_SECTION_DIGEST,  /* the sections do not match the manifest's sections digest */
    DPU_E_MANIFEST_TRAILING, /* manifest bytes left over after the last tensor entry */
    DPU_E_HEADER,          /* target safetensors header section malformed */
    DPU_E_BASE_SIZE,       /* the device file has the wrong size */
    DPU_E_BASE_HASH,       /* the device file is not the one the bundle applies to */
    DPU_E_COUNT,           /* a sparse tensor's change count exceeds its size */
    DPU_E_RICE_PARAM,      /* Golomb-Rice parameter above 31 */
    DPU_E_POSITION,        /* a position code runs past the end of its tensor or its section */
    DPU_E_HUFF_TABLE,      /* invalid canonical Huffman code lengths */
    DPU_E_VALUE_CODE,      /* a value code is invalid or runs past its section */
    DPU_E_CENTROIDS,       /* q8 centroid count outside 1..256 or codes for absent centroids */
    DPU_E_PLANES,          /* unknown byte-plane mode bits */
    DPU_E_SECTION_TRAILING, /* a section has bytes (or non-zero padding bits) left over */
    DPU_E_INIT_RULE,       /* initialiser rule invalid (fan-in outside 1..2^24) */
    DPU_E_TARGET_HASH,     /* the produced file does not match the bundle's target hash */
    DPU_E_CQ_MODEL,        /* cq section header: form, flags, count limits, row length or step */
    DPU_E_ARITH,           /* an arithmetic-coded stream starts impossibly or runs past its section */
    DPU_E_UPDATE_VERSION,  /* the produced header's dpu.update_version is not the manifest's update version */
    DPU_E_STATUS_COUNT
} dpu_status;

/** Static text for a status (never NULL, never formatted: no stdio in the library). */
const char *dpu_status_message(dpu_status s);

#ifdef __cplusplus
}
#endif

#endif /* DPU_STATUS_H */
