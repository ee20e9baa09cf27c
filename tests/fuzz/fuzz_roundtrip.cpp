// SPDX-License-Identifier: MIT
// libFuzzer round trip: tensors, masks, a kind and a value coding derived from the input go
// through the bundle writer, then the C decoder; the file it produces must be the writer's
// intended target file byte for byte, and where a coding promises exactness the values must be.
// Some tensors are I8 (format 5: an INT8 model's codes), which always arrive exactly.
#include "bundle/BundleApplier.h"
#include "bundle/BundleWriter.h"
#include "bundle/SafetensorsFile.h"
#include "dpu_codes.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace dpu::bundle;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail = {})
{
    std::fprintf(stderr, "fuzz_roundtrip: %s %s\n", what, detail.c_str());
    std::abort();
}

uint32_t bitsOf(float f) { return dpu_float_bits(f); }

// The standard distributions take a long-double logarithm per draw in libstdc++ (about 4 % of
// an execution): these are enough for test values.
float uniform01(std::mt19937& rng)
{
    return float(rng() >> 8) * (1.0f / 16777216.0f);
}

float uniform(std::mt19937& rng, float lo, float hi)
{
    return lo + (hi - lo) * uniform01(rng);
}

float normal(std::mt19937& rng, float sigma)
{
    const float u = 1.0f - uniform01(rng); // in (0, 1]: the logarithm stays finite
    return sigma * std::sqrt(-2.0f * std::log(u)) * std::cos(6.2831853f * uniform01(rng));
}

// A finite float of one of several styles: trained-weight-like, few distinct values (q8's exact
// table, form 0), raw input bits, or edge values (signed zeros, subnormals, large magnitudes).
float value(FuzzedDataProvider& in, std::mt19937& rng, uint8_t style, const std::vector<float>& palette)
{
    switch (style % 4) {
    case 0:
        return normal(rng, 0.05f);
    case 1:
        return palette[rng() % palette.size()];
    case 2: {
        float f = dpu_bits_float(in.ConsumeIntegral<uint32_t>() ^ uint32_t(rng()));
        return std::isfinite(f) ? f : 1.5f;
    }
    default: {
        static const float edge[] = {0.f, -0.f, 1e-40f, -1e-45f, 65504.f, 65520.f, -1e30f, 3e38f, 1.f, -2.f};
        return (rng() & 1) ? edge[rng() % 10] : uniform(rng, -4.f, 4.f);
    }
    }
}

std::vector<float> values(FuzzedDataProvider& in, std::mt19937& rng, size_t n, uint8_t style)
{
    std::vector<float> palette(1 + rng() % 12);
    for (float& p : palette)
        p = normal(rng, 0.1f);
    std::vector<float> v(n);
    for (float& x : v)
        x = value(in, rng, style, palette);
    if (style & 0x40) // a sparse model's weights: about half exactly +0.0 (a full bundle codes them)
        for (float& x : v)
            x = (rng() & 1) ? 0.f : x;
    return v;
}

size_t numel(const std::vector<int64_t>& shape)
{
    size_t n = 1;
    for (int64_t d : shape)
        n *= size_t(d);
    return n;
}

// The exactness a bundle promises: positions outside a partial tensor's mask keep their source
// value; fp32 codings carry changed values exactly, fp16 as their binary16 rounding; always-
// shipped tensors arrive exactly unless q8c may quantise them.
// I8 codes are exact everywhere: a delta keeps a partial tensor's unmasked codes from its base,
// any other position (and every position of a full or reinit bundle: no seeded int8 model) takes
// the target's code.
void checkCodes(const BundleInput& bin, const TensorData& base, const TensorData& got, size_t i)
{
    const TensorData& want = bin.target[i];
    const bool partial = bin.kind == Kind::Delta && !bin.masks[i].empty();
    if (got.dtype != DType::I8 || got.codes.size() != want.codes.size())
        fail("an I8 tensor changed its dtype or size", want.name);
    for (size_t j = 0; j < got.codes.size(); ++j)
        if (got.codes[j] != (partial && !bin.masks[i][j] ? base.codes[j] : want.codes[j]))
            fail("an I8 code differs", want.name + "[" + std::to_string(j) + "]");
}

void checkValues(const BundleInput& bin, const std::vector<TensorData>& base,
                 const std::vector<std::vector<float>>& sources, const BundleOutput& out)
{
    const std::vector<TensorData> file = SafetensorsFile::read(out.targetFile);
    if (file.size() != bin.target.size())
        fail("target file tensor count");
    for (size_t i = 0; i < file.size(); ++i) {
        if (bin.target[i].dtype == DType::I8) {
            checkCodes(bin, base[i], file[i], i);
            continue;
        }
        const auto& got = file[i].values;
        const auto& want = bin.target[i].values;
        const bool partial = bin.kind != Kind::Full && !bin.masks[i].empty();
        for (size_t j = 0; j < got.size(); ++j) {
            if (partial && !bin.masks[i][j]) {
                if (bitsOf(got[j]) != bitsOf(sources[i][j]))
                    fail("an unchanged position moved", bin.target[i].name + "[" + std::to_string(j) + "]");
            } else if (!partial && !bin.quantiseDense) {
                if (bitsOf(got[j]) != bitsOf(want[j]))
                    fail("an always-shipped value differs", bin.target[i].name + "[" + std::to_string(j) + "]");
            } else if (partial && bin.coding == ValueCoding::Fp32 && bitsOf(got[j]) != bitsOf(want[j])) {
                fail("an fp32 change is not exact", bin.target[i].name + "[" + std::to_string(j) + "]");
            }
        }
    }
}

// Turns the tensor pair into I8 codes: the base's codes (some zero: a sparse model) and the
// target's, which differ where `mask` is set (or, unmasked, at about half the positions), by a
// few steps or to unrelated codes as `style` says; unmasked target codes may differ too (ignored
// by a delta, taken by a reinit bundle).
void toInt8(TensorData& old, TensorData& d, const std::vector<uint8_t>& mask, std::mt19937& rng, uint8_t style)
{
    const size_t n = d.values.size();
    old.values.clear();
    d.values.clear();
    old.dtype = d.dtype = DType::I8;
    old.codes.resize(n);
    for (int8_t& c : old.codes)
        c = (style & 1) && (rng() & 1) ? int8_t(0) : int8_t(rng());
    d.codes = old.codes;
    for (size_t j = 0; j < n; ++j)
        if (mask.empty() ? (rng() & 1) : (mask[j] || (style & 2 && rng() % 4 == 0)))
            d.codes[j] = style & 4 ? int8_t(d.codes[j] + int(rng() % 7) - 3) : int8_t(rng());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    std::mt19937 rng(in.ConsumeIntegral<uint32_t>());
    BundleInput bin;
    bin.kind = Kind(1 + in.ConsumeIntegralInRange<int>(0, 2));
    bin.coding = ValueCoding(1 + in.ConsumeIntegralInRange<int>(0, 5));
    bin.quantiseDense = in.ConsumeBool();
    bin.model = "fuzz";
    bin.compat = in.ConsumeBool() ? "compat-1" : "";
    bin.updateVersion = 2 + in.ConsumeIntegralInRange<uint64_t>(0, 1000);
    bin.seed = in.ConsumeIntegral<uint64_t>();
    const int tensors = in.ConsumeIntegralInRange<int>(1, 5);
    std::vector<TensorData> base;
    std::vector<std::vector<float>> sources(static_cast<size_t>(tensors));
    for (int t = 0; t < tensors; ++t) {
        TensorData d;
        d.name = "t" + std::to_string(t);
        if (in.ConsumeBool())
            d.shape = {in.ConsumeIntegralInRange<int64_t>(1, 48)}; // 1-D
        else
            d.shape = {in.ConsumeIntegralInRange<int64_t>(1, 12), in.ConsumeIntegralInRange<int64_t>(1, 24)};
        const size_t n = numel(d.shape);
        const uint8_t style = in.ConsumeIntegral<uint8_t>();
        // partial (masked) or always shipped; an always-shipped tensor of a delta may stay unchanged (copy)
        const uint8_t role = in.ConsumeIntegral<uint8_t>();
        const bool partial = bin.kind != Kind::Full && (role & 1);
        d.values.resize(n); // initialValues takes the element count from it
        TensorData old = d;
        old.values = values(in, rng, n, uint8_t(style >> 2));
        InitSpec spec;
        spec.index = uint32_t(t);
        if (bin.kind == Kind::ReinitDelta) {
            spec.rule = (role & 2) ? InitSpec::Rule::Constant : InitSpec::Rule::Uniform;
            spec.fanIn = uint32_t(1 + rng() % (role & 4 ? (1u << 24) : 1024u));
            spec.constant = value(in, rng, 3, {0.f});
            if (partial)
                old.values = BundleWriter::initialValues(d, spec, bin.seed);
        }
        d.values = old.values;
        std::vector<uint8_t> mask;
        if (partial) {
            const float k = float(in.ConsumeIntegralInRange<int>(0, 100)) / 100.0f;
            mask.resize(n);
            for (auto& m : mask)
                m = uniform01(rng) < k ? 1 : 0; // k = 0: none, k = 1: all
            const std::vector<float> fresh = values(in, rng, n, style);
            for (size_t j = 0; j < n; ++j)
                if (mask[j] || (role & 8)) // unmasked positions of the target are ignored: vary them too
                    d.values[j] = fresh[j];
            sources[size_t(t)] = old.values;
        } else if (bin.kind == Kind::Full || (role & 6) != 0) {
            const std::vector<float> fresh = values(in, rng, n, style);
            for (size_t j = 0; j < n; ++j)
                if ((role & 4) || (rng() & 1)) // every value, or about half of them
                    d.values[j] = fresh[j];
        }
        if ((role & 0x30) == 0x30) // a quarter of the tensors: I8 codes instead (format 5)
            toInt8(old, d, mask, rng, style);
        base.push_back(old);
        bin.target.push_back(d);
        if (bin.kind != Kind::Full)
            bin.masks.push_back(mask);
        if (bin.kind == Kind::ReinitDelta)
            bin.init.push_back(partial ? spec : InitSpec{});
    }
    if (bin.kind == Kind::Delta)
        bin.baseFile = SafetensorsFile::write(base, SafetensorsFile::deviceMetadata("fuzz", bin.compat, 1));

    const BundleOutput out = BundleWriter::write(bin); // valid input: the writer must not throw
    BundleApplier::Options opt;
    opt.compat = bin.compat;
    const BundleApplier::Result r = BundleApplier::apply(out.bytes, bin.baseFile, opt);
    if (r.status != 0)
        fail("the decoder rejected the writer's bundle:", r.message);
    if (r.file != out.targetFile)
        fail("the decoded file differs from the writer's target file");
    checkValues(bin, base, sources, out);
    return 0;
}
