// SPDX-License-Identifier: MIT
// BundleEnvelope: the writer's tensor table, manifest, preamble, digest and signature (docs/bundle-format.md 2.1-2.3).
#include "bundle/BundleEnvelope.h"
#include "dpu/Error.h"
#include "dpu_init.h"
#include "dpu_sha256.h"

#include <algorithm>
#include <cstring>

#ifdef DPU_PATCH_WITH_SODIUM
#include <sodium.h>
#endif

namespace dpu::bundle::envelope {

void le(std::vector<uint8_t>& out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i)
        out.push_back(uint8_t(v >> (8 * i)));
}

// Unsigned LEB128, the shortest form (docs/bundle-format.md 2.3).
void varint(std::vector<uint8_t>& out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(uint8_t(v | 0x80));
        v >>= 7;
    }
    out.push_back(uint8_t(v));
}

void put(std::vector<uint8_t>& out, const void* p, size_t n)
{
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
}

std::array<uint8_t, 32> sha(const std::vector<uint8_t>& v)
{
    std::array<uint8_t, 32> d{};
    dpu_sha256_buf(v.data(), v.size(), d.data());
    return d;
}

// The tensor table: offsets follow from the order, so an entry is its mode byte and varints.
// Also computes the sections digest: SHA-256 over the header's and every section's SHA-256.
std::vector<uint8_t> tensorTable(const BundleInput& in, const std::vector<PlannedTensor>& plan,
                                 const std::vector<uint8_t>& header, std::array<uint8_t, 32>& sectionsDigest)
{
    std::vector<uint8_t> table;
    table.reserve(8 * plan.size());
    dpu_sha256 root;
    dpu_sha256_init(&root);
    dpu_sha256_update(&root, sha(header).data(), 32);
    for (size_t i = 0; i < plan.size(); ++i) {
        const TensorData& t = in.target[i];
        if (t.numel() >= DPU_MAX_NUMEL)
            throw Error("bundle: tensor \"" + t.name + "\" has 2^61 or more elements");
        const InitSpec spec = in.kind == Kind::ReinitDelta && plan[i].mode == DPU_MODE_INIT_SPARSE ? in.init[i] : InitSpec{};
        table.push_back(uint8_t(plan[i].mode | (plan[i].coding & 3u) << 2 | uint8_t(spec.rule) << 4 |
                                ((plan[i].coding & 4u) ? DPU_ENTRY_CODING_HIGH : 0u) |
                                (t.dtype == DType::I8 ? DPU_ENTRY_DTYPE_I8 : 0u)));
        varint(table, t.numel());
        if (plan[i].mode == DPU_MODE_SPARSE || plan[i].mode == DPU_MODE_INIT_SPARSE ||
            (plan[i].mode == DPU_MODE_DENSE && plan[i].coding == DPU_CODING_FP32)) // pooled
            varint(table, plan[i].section.size());
        if (plan[i].mode == DPU_MODE_INIT_SPARSE) {
            varint(table, spec.index);
            if (spec.rule == InitSpec::Rule::Uniform)
                varint(table, spec.fanIn);
            else
                le(table, dpu_float_bits(spec.constant), 4);
        }
        dpu_sha256_update(&root, sha(plan[i].section).data(), 32);
    }
    dpu_sha256_final(&root, sectionsDigest.data());
    return table;
}

// The manifest: fixed fields, model and compat strings, then the tensor table.
std::vector<uint8_t> manifest(const BundleInput& in, const ManifestFields& f, const std::vector<uint8_t>& table)
{
    std::vector<uint8_t> m;
    m.reserve(DPU_MANIFEST_FIXED_SIZE + in.model.size() + in.compat.size() + table.size());
    m.push_back(uint8_t(in.kind));
    le(m, 0, 3);
    le(m, in.target.size(), 4);
    le(m, in.updateVersion, 8);
    std::array<uint8_t, 32> baseSha{};
    if (in.kind == Kind::Delta)
        baseSha = sha(in.baseFile);
    put(m, baseSha.data(), 32);
    put(m, sha(*f.targetFile).data(), 32);
    le(m, in.kind == Kind::Delta ? in.baseFile.size() : 0, 8);
    le(m, f.targetFile->size(), 8);
    le(m, f.baseDataStart, 8);
    le(m, in.kind == Kind::ReinitDelta ? in.seed : 0, 8);
    le(m, in.kind == Kind::ReinitDelta ? DPU_INIT_VERSION : 0, 4);
    le(m, f.headerForm, 4);
    le(m, f.sectionsStart, 8);
    le(m, f.headerSize, 8);
    put(m, f.sectionsDigest.data(), 32);
    m.push_back(uint8_t(in.model.size()));
    m.push_back(uint8_t(in.compat.size()));
    le(m, 0, 6);
    put(m, in.model.data(), in.model.size());
    put(m, in.compat.data(), in.compat.size());
    put(m, table.data(), table.size());
    return m;
}

// Preamble, manifest, the digest of both and, with a secret key, its Ed25519 signature.
void appendEnvelope(std::vector<uint8_t>& b, const std::vector<uint8_t>& m, const std::vector<uint8_t>& secretKey,
                    unsigned version)
{
    const bool sign = !secretKey.empty();
    put(b, DPU_BUNDLE_MAGIC, 4);
    le(b, version, 2);
    le(b, sign ? DPU_BUNDLE_FLAG_SIGNED : 0, 2);
    le(b, m.size(), 4);
    le(b, 0, 4);
    put(b, m.data(), m.size());
    const std::array<uint8_t, 32> digest = sha(b);
    put(b, digest.data(), 32);
    if (!sign)
        return;
#ifdef DPU_PATCH_WITH_SODIUM
    if (secretKey.size() != crypto_sign_SECRETKEYBYTES || sodium_init() < 0)
        throw Error("bundle: Ed25519 secret key must be 64 bytes");
    uint8_t msg[48], sig[64];
    std::memcpy(msg, DPU_SIG_CONTEXT, 16);
    std::memcpy(msg + 16, digest.data(), 32);
    crypto_sign_detached(sig, nullptr, msg, sizeof msg, secretKey.data());
    put(b, sig, 64);
#else
    throw Error("bundle: signing needs libsodium (built without it)");
#endif
}

std::vector<uint8_t> signedCopy(const std::vector<uint8_t>& bundle, const std::vector<uint8_t>& secretKey)
{
    auto u = [&](size_t at, int n) {
        uint64_t v = 0;
        for (int i = n - 1; i >= 0; --i)
            v = (v << 8) | bundle[at + static_cast<size_t>(i)];
        return v;
    };
    if (bundle.size() < 16 || std::memcmp(bundle.data(), DPU_BUNDLE_MAGIC, 4) != 0)
        throw Error("bundle: not an update bundle (no DPUB preamble), cannot sign it");
    const auto version = static_cast<unsigned>(u(4, 2));
    const uint64_t flags = u(6, 2), m = u(8, 4);
    if ((flags & ~uint64_t(DPU_BUNDLE_FLAG_SIGNED)) != 0)
        throw Error("bundle: preamble flags " + std::to_string(flags) + " this writer does not know; not signed");
    const uint64_t sectionsStart = 16 + m + 32 + ((flags & DPU_BUNDLE_FLAG_SIGNED) ? 64 : 0);
    if (sectionsStart > bundle.size())
        throw Error("bundle: truncated envelope (" + std::to_string(bundle.size()) + " bytes), cannot sign it");
    if (m < DPU_MANIFEST_FIXED_SIZE)
        throw Error("bundle: manifest of " + std::to_string(m) + " bytes is shorter than its fixed fields, cannot sign it");
    std::vector<uint8_t> manifest(bundle.begin() + 16, bundle.begin() + static_cast<std::ptrdiff_t>(16 + m));
    // The manifest names where section H starts (docs/bundle-format.md 2.2, at 120), which the
    // signature's 64 bytes move.
    constexpr size_t kSectionHOffset = 120;
    std::vector<uint8_t> start;
    le(start, 16 + m + 32 + 64, 8);
    std::copy(start.begin(), start.end(), manifest.begin() + kSectionHOffset);
    std::vector<uint8_t> out;
    out.reserve(bundle.size() + 64);
    appendEnvelope(out, manifest, secretKey, version);
    out.insert(out.end(), bundle.begin() + static_cast<std::ptrdiff_t>(sectionsStart), bundle.end());
    return out;
}

} // namespace dpu::bundle::envelope
