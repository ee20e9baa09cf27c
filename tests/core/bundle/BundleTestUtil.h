// SPDX-License-Identifier: MIT
// Model-shaped random states, masks and init rules for the bundle tests, and hostile-bundle helpers.
#pragma once
#include "bundle/BundleTypes.h"
#include "bundle/BundleWriter.h"
#include "bundle/SafetensorsFile.h"
#include "bundle/BundleApplier.h"
#include "dpu_bundle.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>

namespace dpu::test {

using namespace dpu::bundle;

/// Sets every tensor's values (numel from its shape) to draws of N(0, sigma), in order.
inline void fillNormal(std::vector<TensorData>& t, std::mt19937& rng, float sigma)
{
    std::normal_distribution<float> nd(0.f, sigma);
    for (auto& x : t) {
        size_t n = 1;
        for (int64_t d : x.shape)
            n *= size_t(d);
        x.values.resize(n);
        for (float& v : x.values)
            v = nd(rng);
    }
}

/// `weight` followed by `layers` BatchNorm-like tensors "bn0".."bnN-1" of 64 values (no values yet).
inline std::vector<TensorData> withNormLayers(const TensorData& weight, int layers)
{
    std::vector<TensorData> t{weight};
    for (int l = 0; l < layers; ++l)
        t.push_back({"bn" + std::to_string(l), {64}, {}});
    return t;
}

/// Tensors shaped like the zoo's layers (scaled down), values ~ N(0, 0.05).
inline std::vector<TensorData> modelState(const std::string& shape, uint32_t seed)
{
    std::vector<TensorData> t;
    if (shape == "mlp")
        t = {{"fc1.weight", {256, 784}, {}}, {"fc1.bias", {256}, {}}, {"fc2.weight", {10, 256}, {}},
             {"fc2.bias", {10}, {}}};
    else if (shape == "conv")
        t = {{"conv1.weight", {16, 3, 3, 3}, {}}, {"bn1.weight", {16}, {}}, {"bn1.bias", {16}, {}},
             {"conv2.weight", {32, 16, 3, 3}, {}}, {"dw.weight", {32, 1, 3, 3}, {}},
             {"fc.weight", {10, 32}, {}}, {"fc.bias", {10}, {}}, {"bn1.running_mean", {16}, {}},
             {"bn1.running_var", {16}, {}}};
    else // tiny: for exhaustive corruption tests
        t = {{"w", {4, 8}, {}}, {"b", {4}, {}}};
    std::mt19937 rng(seed);
    fillNormal(t, rng, 0.05f);
    return t;
}

/// Random mask with ratio k for every dim > 1 tensor (empty = dense for the others).
inline std::vector<std::vector<uint8_t>> randomMasks(const std::vector<TensorData>& t, double k, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::bernoulli_distribution bd(k);
    std::vector<std::vector<uint8_t>> m(t.size());
    for (size_t i = 0; i < t.size(); ++i)
        if (t[i].shape.size() > 1) {
            m[i].resize(t[i].numel());
            for (auto& b : m[i])
                b = bd(rng) ? 1 : 0;
        }
    return m;
}

/// Init rules after docs/initializer.md (uniform for dim > 1, constants otherwise).
inline std::vector<InitSpec> initRules(const std::vector<TensorData>& t)
{
    std::vector<InitSpec> r(t.size());
    for (size_t i = 0; i < t.size(); ++i) {
        r[i].index = uint32_t(i);
        if (t[i].shape.size() > 1) {
            r[i].rule = InitSpec::Rule::Uniform;
            r[i].fanIn = uint32_t(t[i].values.size() / size_t(t[i].shape[0]));
        } else {
            r[i].rule = InitSpec::Rule::Constant;
        }
    }
    return r;
}

/// `next` = `prev` plus small random changes everywhere (the server's trained state).
inline std::vector<TensorData> perturbed(const std::vector<TensorData>& prev, uint32_t seed)
{
    std::vector<TensorData> t = prev;
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.f, 0.005f);
    for (auto& x : t)
        for (float& v : x.values)
            v += nd(rng);
    return t;
}

/// Like a real DPU round: the changed weights take values unrelated to the old ones (the top-k
/// moved by more than their own size) and every always-shipped tensor changes.
inline std::vector<TensorData> roundLike(const std::vector<TensorData>& prev,
                                         const std::vector<std::vector<uint8_t>>& masks, uint32_t seed)
{
    std::vector<TensorData> t = prev;
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.f, 0.08f);
    for (size_t i = 0; i < t.size(); ++i)
        for (size_t j = 0; j < t[i].values.size(); ++j)
            if (masks[i].empty() || masks[i][j])
                t[i].values[j] = nd(rng);
    return t;
}

/// An INT8 deployed model shaped like modelState(shape, seed): every tensor of two or more
/// dimensions becomes I8 codes (its values over a per-output-channel scale, max |value| / 127,
/// rounded), followed by that scale as the F32 tensor "<name>.scale" of [out channels]; the
/// others stay F32. A share `zeros` of the codes is 0 (a sparse deployed model).
inline std::vector<TensorData> int8State(const std::string& shape, uint32_t seed, double zeros = 0)
{
    std::mt19937 rng(seed + 1000);
    std::bernoulli_distribution pruned(zeros);
    std::vector<TensorData> out;
    for (const TensorData& t : modelState(shape, seed)) {
        if (t.shape.size() < 2) {
            out.push_back(t);
            continue;
        }
        const size_t rows = size_t(t.shape[0]), cols = t.values.size() / rows;
        TensorData q{t.name, t.shape, {}, DType::I8, std::vector<int8_t>(t.values.size())};
        TensorData scale{t.name + ".scale", {t.shape[0]}, std::vector<float>(rows)};
        for (size_t r = 0; r < rows; ++r) {
            float peak = 1e-8f;
            for (size_t c = 0; c < cols; ++c)
                peak = std::max(peak, std::abs(t.values[r * cols + c]));
            scale.values[r] = peak / 127.f;
            for (size_t c = 0; c < cols; ++c)
                q.codes[r * cols + c] =
                    pruned(rng) ? int8_t(0) : int8_t(std::lround(t.values[r * cols + c] / scale.values[r]));
        }
        out.push_back(std::move(q));
        out.push_back(std::move(scale));
    }
    return out;
}

/// The next INT8 round over `prev`: every masked code moves (by 1..3 steps when `small`, else to
/// an unrelated code, never staying the same), each F32 tensor is perturbed, unmasked codes stay.
inline std::vector<TensorData> int8Round(const std::vector<TensorData>& prev,
                                         const std::vector<std::vector<uint8_t>>& masks, uint32_t seed, bool small)
{
    std::vector<TensorData> t = perturbed(prev, seed);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> step(1, 3), code(-128, 127), sign(0, 1);
    for (size_t i = 0; i < t.size(); ++i)
        for (size_t j = 0; j < t[i].codes.size(); ++j) {
            if (masks[i].empty() || !masks[i][j])
                continue;
            const int old = t[i].codes[j];
            int v = small ? old + (sign(rng) ? step(rng) : -step(rng)) : code(rng);
            v = std::clamp(v, -128, 127);
            t[i].codes[j] = int8_t(v == old ? (old == 127 ? 126 : old + 1) : v);
        }
    return t;
}

/// A device file for `state` at update version `version`.
inline std::vector<uint8_t> deviceFile(const std::vector<TensorData>& state, uint64_t version)
{
    return SafetensorsFile::write(state, SafetensorsFile::deviceMetadata("test", "compat-1", version));
}

/// A delta bundle from `base` (device file) to `target`.
inline BundleInput deltaInput(const std::vector<uint8_t>& base, const std::vector<TensorData>& target,
                              const std::vector<std::vector<uint8_t>>& masks, ValueCoding coding,
                              uint64_t version)
{
    BundleInput in;
    in.kind = Kind::Delta;
    in.coding = coding;
    in.model = "test";
    in.compat = "compat-1";
    in.updateVersion = version;
    in.baseFile = base;
    in.target = target;
    in.masks = masks;
    return in;
}


/// Turns a delta input into a reinit+delta one from `seed` (no base file; init rules of `state`).
inline void makeReinit(BundleInput& in, const std::vector<TensorData>& state, uint64_t seed)
{
    in.kind = Kind::ReinitDelta;
    in.baseFile.clear();
    in.init = initRules(state);
    in.seed = seed;
}

/// Where each section of a bundle lies (offset, length): section H first, then one per tensor
/// entry, read from the compact table independently of the decoder (docs/bundle-format.md 2.3).
inline std::vector<std::pair<uint64_t, uint64_t>> sectionSpans(const std::vector<uint8_t>& b)
{
    auto le = [&b](uint64_t off, int n) {
        uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v |= uint64_t(b.at(off + uint64_t(i))) << (8 * i);
        return v;
    };
    uint64_t off = 0;
    auto varint = [&b, &off]() {
        uint64_t v = 0;
        for (unsigned shift = 0;; shift += 7) {
            const uint8_t c = b.at(off++);
            v |= uint64_t(c & 0x7f) << shift;
            if (!(c & 0x80))
                return v;
        }
    };
    const uint64_t m = 16;
    std::vector<std::pair<uint64_t, uint64_t>> spans{{le(m + 120, 8), le(m + 128, 8)}};
    uint64_t pos = spans[0].first + spans[0].second;
    off = m + DPU_MANIFEST_FIXED_SIZE + b.at(m + 168) + b.at(m + 169);
    for (uint64_t i = 0, n = le(m + 4, 4); i < n; ++i) {
        const uint8_t entry = b.at(off++);
        const uint64_t numel = varint();
        const bool pooled = (entry & 3) == DPU_MODE_DENSE && ((entry >> 2) & 3) == DPU_CODING_FP32;
        const uint64_t size = b.at(4) >= 5 && (entry & DPU_ENTRY_DTYPE_I8) ? 1 : 4; // format 5: I8 codes
        uint64_t len = (entry & 3) == DPU_MODE_DENSE && !pooled ? size * numel : 0;
        if ((entry & 3) >= DPU_MODE_SPARSE || pooled)
            len = varint();
        if ((entry & 3) == DPU_MODE_INIT_SPARSE) {
            varint();
            if (((entry >> 4) & 3) == DPU_INIT_UNIFORM)
                varint();
            else
                off += 4;
        }
        spans.emplace_back(pos, len);
        pos += len;
    }
    return spans;
}

/// Recomputes the sections digest and the manifest digest after a change, as a hostile lab
/// signer could (unsigned bundles), so that mutations reach the payload decoders.
inline void reseal(std::vector<uint8_t>& b)
{
    dpu_sha256 root;
    dpu_sha256_init(&root);
    for (const auto& [off, len] : sectionSpans(b)) {
        uint8_t d[32];
        if (off > b.size() || len > b.size() - off)
            throw std::runtime_error("reseal: section outside the bundle");
        dpu_sha256_buf(b.data() + off, len, d);
        dpu_sha256_update(&root, d, 32);
    }
    dpu_sha256_final(&root, b.data() + 16 + 136);
    const uint64_t m = uint64_t(b[8]) | uint64_t(b[9]) << 8 | uint64_t(b[10]) << 16 | uint64_t(b[11]) << 24;
    dpu_sha256_buf(b.data(), 16 + m, b.data() + 16 + m);
}

/// Flips each of `flips` in every byte of [from, from + len) of `out`, reseals it as a hostile
/// lab signer could, and applies it to `base`: each must be rejected or give exactly the target.
inline void mutateResealed(const BundleOutput& out, const std::vector<uint8_t>& base, uint64_t from, uint64_t len,
                    std::initializer_list<unsigned> flips)
{
    for (uint64_t i = from; i < from + len; ++i)
        for (unsigned x : flips) {
            std::vector<uint8_t> b = out.bytes;
            b[i] ^= uint8_t(x);
            reseal(b);
            const auto r = BundleApplier::apply(b, base, {});
            QVERIFY(r.status != 0 || r.file == out.targetFile);
        }
}

/// The n-byte little-endian number at b[off].
inline uint64_t le(const std::vector<uint8_t>& b, uint64_t off, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
        v |= uint64_t(b.at(off + uint64_t(i))) << (8 * i);
    return v;
}

/// Bundle offset of each tensor entry and one past the last (docs/bundle-format.md 2.3), parsed
/// independently of the decoder.
inline std::vector<uint64_t> entryOffsets(const std::vector<uint8_t>& b)
{
    std::vector<uint64_t> at;
    uint64_t off = 16 + DPU_MANIFEST_FIXED_SIZE + b.at(16 + 168) + b.at(16 + 169);
    auto skipVarint = [&]() {
        while (b.at(off++) & 0x80) {
        }
    };
    for (uint64_t i = 0, n = le(b, 16 + 4, 4); i < n; ++i) {
        at.push_back(off);
        const uint8_t e = b.at(off++);
        skipVarint(); // numel
        const bool pooled = (e & 3) == DPU_MODE_DENSE && ((e >> 2) & 3) == DPU_CODING_FP32;
        if ((e & 3) >= DPU_MODE_SPARSE || pooled)
            skipVarint(); // section length
        if ((e & 3) == DPU_MODE_INIT_SPARSE) {
            skipVarint(); // init index
            if (((e >> 4) & 3) == DPU_INIT_UNIFORM)
                skipVarint(); // fan-in
            else
                off += 4; // the constant
        }
    }
    at.push_back(off);
    return at;
}

} // namespace dpu::test
