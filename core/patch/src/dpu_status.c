/* SPDX-License-Identifier: MIT */
/* Messages for dpu_status, and the optional Ed25519 check through libsodium. */
#include "dpu_bundle.h"

#ifdef DPU_PATCH_WITH_SODIUM
#include <sodium.h>
#endif

static const char *const messages[DPU_E_STATUS_COUNT] = {
    "ok",
    "invalid argument (NULL context, io, callback or option)",
    "context not initialised or already failed (call dpu_apply_init)",
    "reading the bundle or the device file failed",
    "writing the new device file failed",
    "bundle truncated: it ends inside its preamble, manifest or manifest digest",
    "not a DPU bundle (bad magic)",
    "unsupported bundle format version",
    "unknown flags or non-zero reserved bytes",
    "manifest length out of range",
    "manifest digest mismatch (corrupted bundle)",
    "bundle is not signed but a public key was given",
    "signature does not verify with the given public key",
    "signature check requested but built without libsodium",
    "unknown bundle kind, or base fields set for a bundle that needs no base",
    "model or compatibility string length out of range",
    "bundle is for a different model/compatibility string",
    "update version not newer than the device's current version (rollback or replay)",
    "unknown initialiser version",
    "tensor count out of range",
    "malformed tensor entry (reserved bits, a bad or overlong varint, or an entry past the manifest)",
    "tensor element count does not match its shape or overflows",
    "tensor offsets or sizes inconsistent with the file sizes",
    "tensor mode, value coding or init rule not allowed for this bundle kind",
    "sections not contiguous or not ending at the end of the bundle",
    "section length does not fit its tensor's mode",
    "section digest mismatch (corrupted bundle)",
    "bytes left over after the manifest's last tensor entry",
    "target safetensors header section malformed",
    "device weight file has the wrong size for this bundle",
    "device weight file is not the one this bundle applies to (base SHA-256 mismatch)",
    "sparse tensor change count exceeds the tensor size",
    "Golomb-Rice parameter out of range",
    "position code runs past the end of its tensor or section",
    "invalid Huffman code lengths",
    "invalid value code or value codes run past the section",
    "malformed centroid table (count, form, step or padding out of range, or past its section) or code for an absent centroid",
    "unknown byte-plane mode bits",
    "bytes or non-zero padding bits left over at the end of a section",
    "invalid initialiser rule (fan-in outside 1..2^24)",
    "produced file does not match the bundle's target SHA-256",
    "context-coded (cq) section header invalid: form, flags, count limits, row length or step",
    "arithmetic-coded stream starts with an impossible code or runs past its section",
    "the produced file's dpu.update_version is not the bundle's update version",
};

const char *dpu_status_message(dpu_status s)
{
    if ((unsigned)s >= (unsigned)DPU_E_STATUS_COUNT)
        return "unknown status";
    return messages[s];
}

dpu_status dpu_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t len, const uint8_t pk[32])
{
#ifdef DPU_PATCH_WITH_SODIUM
    if (sodium_init() < 0)
        return DPU_E_NO_CRYPTO;
    return crypto_sign_verify_detached(sig, msg, (unsigned long long)len, pk) == 0 ? DPU_OK : DPU_E_SIGNATURE;
#else
    (void)sig; (void)msg; (void)len; (void)pk;
    return DPU_E_NO_CRYPTO;
#endif
}
