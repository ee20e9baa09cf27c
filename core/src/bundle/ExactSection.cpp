// SPDX-License-Identifier: MIT
// Exact sections for values that several lossy rounds produced: each candidate representation
// is built only where it reproduces every value bit for bit, and the smallest one wins.
#include "bundle/ExactSection.h"
#include "dpu/InternalCheck.h"
#include "bundle/CqEncoder.h"
#include "bundle/HalfFloat.h"
#include "bundle/SparseEncoder.h"
#include "dpu/Error.h"
#include "dpu_bundle.h"
#include "dpu_codes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>

namespace dpu::bundle {

namespace {

uint32_t floatBits(float f) { return dpu_float_bits(f); }

// Order-preserving key of a float's bits (-0 below +0), so tables ascend as the format asks.
uint32_t orderKey(float f)
{
    const uint32_t b = floatBits(f);
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}

bool isHalf(float f)
{
    return floatBits(dpu_half_to_float(HalfFloat::fromFloat(f))) == floatBits(f);
}

// A table of at most 256 distinct values (by bits), ascending, and each change's index in it.
bool tableOf(const std::vector<float>& values, CqModel& model, std::vector<int32_t>& levels)
{
    std::map<uint32_t, float> distinct;
    for (float v : values) {
        distinct.emplace(orderKey(v), v);
        if (distinct.size() > 256)
            return false;
    }
    model.useTable = true;
    model.table.clear();
    model.halfTable = true;
    std::map<uint32_t, int32_t> index;
    for (const auto& [key, v] : distinct) {
        index[key] = int32_t(model.table.size());
        model.table.push_back(v);
        model.halfTable = model.halfTable && isHalf(v);
    }
    if (model.table.empty())
        model.table.push_back(0.f);
    levels.clear();
    for (float v : values)
        levels.push_back(index[orderKey(v)]);
    return true;
}

// An exact value as odd integer times a power of two: d = odd << exp.
struct Dyadic {
    int64_t odd = 0;
    int exp = 0;
};

Dyadic dyadic(double d)
{
    int e = 0;
    const double f = std::frexp(std::fabs(d), &e);
    auto m = int64_t(std::ldexp(f, 53)); // exact: a double has 53 significant bits
    int exp = e - 53;
    while (m != 0 && (m & 1) == 0) {
        m >>= 1;
        ++exp;
    }
    return {m, exp};
}

// A grid whose unit 2^base divides every change at or above it: the gcd of those changes as
// m * 2^(x - 127) with m <= 255. False when no such step is representable.
bool gridFor(const std::vector<Dyadic>& diffs, int base, CqModel& model)
{
    uint64_t g = 0;
    for (const Dyadic& d : diffs) {
        if (d.odd == 0 || d.exp < base)
            continue;
        const int shift = d.exp - base;
        int width = 0;
        while (width < 64 && (uint64_t(d.odd) >> width) != 0)
            ++width;
        if (shift + width > 63)
            return false; // the changes span too many binades for one grid
        g = std::gcd(g, uint64_t(d.odd) << shift);
    }
    if (g == 0)
        return false;
    int a = 0;
    while ((g & 1) == 0) {
        g >>= 1;
        ++a;
    }
    unsigned m = 1; // the largest odd divisor <= 255: the coarsest step that still divides all
    for (uint64_t c = std::min<uint64_t>(g, 255); c >= 1; --c)
        if (g % c == 0) {
            m = unsigned(c);
            break;
        }
    const int x = base + a + 127;
    if (x < 1 || x > 230)
        return false;
    model = CqModel{};
    model.diff = true;
    model.stepM = m;
    model.stepX = unsigned(x);
    return true;
}

// Levels of every change on `model`'s grid that decode to exactly the target; false if one has none.
bool gridLevels(const std::vector<float>& src, const std::vector<float>& dst, const std::vector<size_t>& pos,
                const CqModel& model, std::vector<int32_t>& levels)
{
    levels.clear();
    for (size_t j : pos) {
        int32_t level = 0;
        if (!CqEncoder::gridLevel(model, src[j], dst[j], level) ||
            floatBits(CqEncoder::decode(model, src[j], level)) != floatBits(dst[j]))
            return false;
        levels.push_back(level);
    }
    return true;
}

// q8c rounds leave changes on their rounds' grids (one step per bundle): over several rounds a
// common divisor of the steps is a grid too. A change whose sum was rounded is off every grid
// (its lowest bit lies far below the step), yet a level may still decode to it exactly. So the
// units of the changes are tried from the coarsest down: the gcd of the changes at or above a
// unit gives the step, and every change must then have a level that decodes to it exactly.
bool gridCandidate(const std::vector<float>& src, const std::vector<float>& dst, const std::vector<size_t>& pos,
                   CqModel& model, std::vector<int32_t>& levels)
{
    std::vector<Dyadic> diffs;
    std::vector<int> exps;
    for (size_t j : pos) {
        const double d = double(dst[j]) - double(src[j]);
        if (!std::isfinite(d))
            return false;
        diffs.push_back(dyadic(d));
        if (diffs.back().odd != 0)
            exps.push_back(diffs.back().exp);
    }
    std::sort(exps.begin(), exps.end(), std::greater<int>());
    exps.erase(std::unique(exps.begin(), exps.end()), exps.end());
    for (size_t b = 0; b < exps.size() && b < 48; ++b)
        if (gridFor(diffs, exps[b], model) && gridLevels(src, dst, pos, model, levels))
            return true;
    return false;
}

struct CqCandidate {
    CqModel model;
    std::vector<int32_t> levels;
    double bits = INFINITY;
};

// The cheapest exact cq section by the encoder's estimate: values table, differences table, grid.
CqCandidate bestCq(const std::vector<float>& src, const std::vector<float>& dst, const std::vector<uint8_t>& mask,
                   const std::vector<size_t>& pos, uint32_t rowLen)
{
    CqCandidate best;
    auto consider = [&](const CqModel& model, const std::vector<int32_t>& levels) {
        const double tableBits = model.useTable ? (model.halfTable ? 16.0 : 32.0) * double(model.table.size()) : 16;
        const double b = CqEncoder::estimateBits(src, mask, rowLen, model, levels) + tableBits;
        if (b < best.bits)
            best = {model, levels, b};
    };
    std::vector<float> values, diffs;
    bool diffExact = true;
    for (size_t j : pos) {
        values.push_back(dst[j]);
        const float c = dst[j] - src[j];
        diffExact = diffExact && floatBits(src[j] + c) == floatBits(dst[j]);
        diffs.push_back(c);
    }
    CqModel model;
    std::vector<int32_t> levels;
    if (tableOf(values, model, levels))
        consider(model, levels);
    if (diffExact && tableOf(diffs, model, levels)) {
        model.diff = true;
        consider(model, levels);
    }
    if (gridCandidate(src, dst, pos, model, levels))
        consider(model, levels);
    return best;
}

} // namespace

ExactChoice ExactSection::encode(const std::vector<float>& source, const std::vector<float>& target,
                                 const std::vector<uint8_t>& mask, uint32_t rowLen, BundleStats& stats)
{
    std::vector<size_t> pos;
    bool allHalf = true;
    std::map<uint32_t, int> distinct;
    for (size_t j = 0; j < mask.size(); ++j) {
        if (!mask[j]) {
            DPU_INTERNAL_CHECK(floatBits(source[j]) == floatBits(target[j]),
                               "exact section: position " + std::to_string(j) + " changes but is not in the mask");
            continue;
        }
        pos.push_back(j);
        allHalf = allHalf && isHalf(target[j]);
        if (distinct.size() <= 256)
            distinct.emplace(floatBits(target[j]), 0);
    }
    ExactChoice best;
    BundleStats bestStats;
    auto consider = [&](uint8_t coding, std::vector<uint8_t> section, const BundleStats& s) {
        if (best.section.empty() || section.size() < best.section.size()) {
            best = {coding, std::move(section)};
            bestStats = s;
        }
    };
    // Huffman-coded sparse sections: fp32 always, fp16 when every new value is a binary16,
    // q8 when at most 256 distinct values make its table exact (each checked, not assumed).
    std::vector<float> applied;
    const std::pair<ValueCoding, bool> sparse[] = {{ValueCoding::Fp32, true},
                                                   {ValueCoding::Fp16, allHalf},
                                                   {ValueCoding::Q8, distinct.size() <= 256}};
    for (const auto& [coding, possible] : sparse) {
        if (!possible)
            continue;
        BundleStats s;
        std::vector<uint8_t> section = SparseEncoder::encode(source, target, mask, coding, applied, s);
        if (applied.size() == target.size() &&
            (target.empty() || std::memcmp(applied.data(), target.data(), 4 * target.size()) == 0))
            consider(uint8_t(coding), std::move(section), s);
    }
    if (!pos.empty()) {
        const CqCandidate cq = bestCq(source, target, mask, pos, rowLen);
        if (std::isfinite(cq.bits) && cq.bits / 8 < double(best.section.size())) {
            BundleStats s;
            consider(DPU_CODING_CQ, CqEncoder::encode(source, mask, rowLen, cq.model, cq.levels, s), s);
        }
    }
    stats.positionBits += bestStats.positionBits;
    stats.valueBits += bestStats.valueBits;
    stats.changed += bestStats.changed;
    stats.partialWeights += bestStats.partialWeights;
    return best;
}

ExactChoice ExactSection::encodeChanges(const std::vector<float>& source, const TensorData& target)
{
    std::vector<uint8_t> changed(target.values.size());
    for (size_t j = 0; j < changed.size(); ++j)
        changed[j] = floatBits(source[j]) != floatBits(target.values[j]);
    BundleStats ignored;
    return encode(source, target.values, changed, CqEncoder::rowLength(target.shape, target.values.size()), ignored);
}

} // namespace dpu::bundle
