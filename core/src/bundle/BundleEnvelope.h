// SPDX-License-Identifier: MIT
// A bundle's envelope as the writer makes it: the tensor table, the manifest, then preamble, digest and signature (docs/bundle-format.md 2.1-2.3).
#pragma once
#include "bundle/BundleWriter.h"
#include "dpu_bundle.h"
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpu::bundle {

/// One tensor as the writer decided to send it: its mode, value coding and encoded section.
struct PlannedTensor {
    uint8_t mode = DPU_MODE_DENSE;
    uint8_t coding = DPU_CODING_NONE;
    std::vector<uint8_t> section;
};

/// The manifest's fields that follow from the encoded sections rather than from the input.
struct ManifestFields {
    const std::vector<uint8_t>* targetFile = nullptr;
    uint64_t baseDataStart = 0;
    uint32_t headerForm = DPU_HEADER_VERBATIM;
    uint64_t sectionsStart = 0;
    uint64_t headerSize = 0;
    std::array<uint8_t, 32> sectionsDigest{};
};

namespace envelope {

/// Appends the `bytes` low bytes of `v`, little-endian.
void le(std::vector<uint8_t>& out, uint64_t v, int bytes);
/// Appends `v` as unsigned LEB128, the shortest form (docs/bundle-format.md 2.3).
void varint(std::vector<uint8_t>& out, uint64_t v);
/// Appends `n` bytes from `p`.
void put(std::vector<uint8_t>& out, const void* p, size_t n);
/// SHA-256 of `v`.
std::array<uint8_t, 32> sha(const std::vector<uint8_t>& v);

/// The tensor table of `plan` (an entry per tensor of in.target: its mode byte and varints)
/// and, in `sectionsDigest`, SHA-256 over the header's and every section's SHA-256. Throws
/// Error for a tensor of 2^61 or more elements.
std::vector<uint8_t> tensorTable(const BundleInput& in, const std::vector<PlannedTensor>& plan,
                                 const std::vector<uint8_t>& header, std::array<uint8_t, 32>& sectionsDigest);
/// The manifest: fixed fields, model and compat strings, then `table`.
std::vector<uint8_t> manifest(const BundleInput& in, const ManifestFields& fields, const std::vector<uint8_t>& table);
/// Appends preamble, manifest `m`, the digest of both and, with a secret key, its Ed25519
/// signature to `b`. Throws Error for a bad key or a build without libsodium.
void appendEnvelope(std::vector<uint8_t>& b, const std::vector<uint8_t>& m, const std::vector<uint8_t>& secretKey,
                    unsigned version);
/// `bundle` signed with `secretKey`: the same manifest and sections under a new envelope (flag
/// SIGNED, digest, signature); an earlier signature is replaced. The manifest digest covers the
/// sections' digest, so the signature covers the whole bundle. Throws Error for bytes that are no
/// bundle envelope, a flag this writer does not know, or a bad key.
std::vector<uint8_t> signedCopy(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& secretKey);

} // namespace envelope
} // namespace dpu::bundle
