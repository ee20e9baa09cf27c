// SPDX-License-Identifier: MIT
// cq section writer: header, optional centroid table, then flags and levels through ArithEncoder
// with the decoder's context selection (dpu_cq.h).
#include "bundle/CqEncoder.h"
#include "bundle/ArithEncoder.h"
#include "bundle/BitWriter.h"
#include "bundle/SparseEncoder.h"
#include "dpu_cq.h"

#include <array>
#include <cmath>
#include <cstdlib>

namespace dpu::bundle {

namespace {

using Models = std::array<dpu_arith_model, DPU_CQ_TABLE_CONTEXTS>;

// Codes (or, with enc null, only prices) one change's level; returns its ideal bits.
double codeLevel(ArithEncoder* enc, Models& m, const CqModel& model, unsigned sign, int32_t level, unsigned limit,
                 unsigned depth, dpu_cq_scan& scan)
{
    double bits = 0;
    auto put = [&](unsigned bit, dpu_arith_model& ctx) {
        bits += ArithEncoder::cost(bit, ctx);
        if (enc)
            enc->encode(bit, ctx, limit);
        else
            dpu_arith_update(&ctx, bit, limit);
    };
    if (model.useTable) {
        unsigned node = 1;
        for (unsigned k = depth; k-- > 0;) {
            const unsigned bit = (unsigned(level) >> k) & 1u;
            put(bit, m[sign * 256u + node]);
            node = node << 1 | bit;
        }
        return bits;
    }
    put(level != 0, m[DPU_CQ_CTX_NONZERO]);
    if (level == 0) {
        dpu_cq_scan_level(&scan, 0, 0);
        return bits;
    }
    put(level < 0, m[DPU_CQ_CTX_SIGN + sign]);
    const auto mag = uint32_t(std::abs(level));
    unsigned ex = 0;
    while ((mag >> (ex + 1)) != 0)
        ++ex;
    const unsigned expBase = DPU_CQ_CTX_EXP + 23u * scan.prev;
    for (unsigned j = 0; j < ex; ++j)
        put(1, m[expBase + j]);
    if (ex < DPU_CQ_MAX_EXP)
        put(0, m[expBase + ex]);
    dpu_cq_scan_level(&scan, 1, ex);
    uint32_t prefix = 1;
    for (unsigned k = 0; k < ex; ++k) {
        const unsigned bit = (mag >> (ex - 1 - k)) & 1u;
        const unsigned c = k == 0 ? 0u : k == 1 ? 1u + (prefix & 1u) : 3u;
        put(bit, m[DPU_CQ_CTX_MANT + 4u * ex + c]);
        prefix = prefix << 1 | bit;
    }
    return bits;
}

struct Costs {
    double position = 0, value = 0;
};

// One pass over the tensor: prices (enc null) or codes every flag and level.
Costs scan(ArithEncoder* enc, const std::vector<float>& source, const std::vector<uint8_t>& mask, uint64_t count,
           uint32_t rowLen, const CqModel& model, const std::vector<int32_t>& levels, unsigned posLimit,
           unsigned valLimit, unsigned depth)
{
    std::array<dpu_arith_model, DPU_CQ_POS_CONTEXTS> pos{};
    Models val{};
    std::vector<uint8_t> cols(DPU_CQ_MAX_COLUMNS);
    dpu_cq_scan s;
    dpu_cq_scan_start(&s, rowLen, cols.data());
    Costs c;
    uint64_t done = 0;
    const uint64_t n = mask.size();
    for (uint64_t j = 0; j < n; ++j) {
        const unsigned bit = mask[j] ? 1u : 0u;
        if (done != count && n - j != count - done) { // else the decoder knows the flag
            dpu_arith_model& ctx = pos[dpu_cq_pos_context(&s, cols.data())];
            c.position += ArithEncoder::cost(bit, ctx);
            if (enc)
                enc->encode(bit, ctx, posLimit);
            else
                dpu_arith_update(&ctx, bit, posLimit);
        }
        if (bit) { // the level before the scan moves on: it may end the row
            const unsigned sign = dpu_float_bits(source[j]) >> 31;
            c.value += codeLevel(enc, val, model, sign, levels[done], valLimit, depth, s);
            ++done;
        }
        dpu_cq_scan_next(&s, cols.data(), bit);
    }
    return c;
}

} // namespace

uint32_t CqEncoder::rowLength(const std::vector<int64_t>& shape, uint64_t numel)
{
    if (numel == 0)
        return 1;
    uint64_t r = numel;
    if (shape.size() >= 2 && shape[0] > 0 && numel % uint64_t(shape[0]) == 0)
        r = numel / uint64_t(shape[0]);
    return r > 0xffffffffu ? 0xffffffffu : uint32_t(r);
}

bool CqEncoder::stepCode(double step, unsigned& m, unsigned& x)
{
    if (!(step > 0) || !std::isfinite(step))
        return false;
    int e = 0;
    const double f = std::frexp(step, &e); // step = f * 2^e, f in [0.5, 1)
    m = unsigned(std::floor(f * 256.0));   // 128..255: step >= m * 2^(e - 8)
    const int xi = e - 8 + 127;
    if (xi < 1 || xi > 230)
        return false;
    x = unsigned(xi);
    return true;
}

float CqEncoder::decode(const CqModel& model, float source, int32_t level)
{
    float l;
    if (model.useTable)
        l = model.table[size_t(level)];
    else
        l = dpu_cq_grid_level(model.stepM, model.stepX, uint32_t(std::abs(level)), level < 0);
    return model.diff ? source + l : l;
}

bool CqEncoder::gridLevel(const CqModel& model, float source, float target, int32_t& level)
{
    const double step = double(model.stepM) * std::ldexp(1.0, int(model.stepX) - 127);
    const double want = model.diff ? (double(target) - double(source)) / step : double(target) / step;
    const double limit = double(DPU_CQ_MAX_LEVEL / model.stepM);
    if (!(std::fabs(want) < limit - 1))
        return false;
    const auto centre = int32_t(std::lround(want));
    double best = INFINITY;
    for (int32_t i : {centre, centre - 1, centre + 1}) {
        if (uint64_t(model.stepM) * uint64_t(std::abs(i)) >= DPU_CQ_MAX_LEVEL)
            continue;
        const double err = std::fabs(double(decode(model, source, i)) - double(target));
        if (err < best || (err == best && std::abs(i) < std::abs(level))) {
            best = err;
            level = i;
        }
    }
    return std::isfinite(best);
}

double CqEncoder::estimateBits(const std::vector<float>& source, const std::vector<uint8_t>& mask, uint32_t rowLen,
                               const CqModel& model, const std::vector<int32_t>& levels)
{
    unsigned depth = 0;
    while (model.useTable && (1u << depth) < model.table.size())
        ++depth;
    const Costs c = scan(nullptr, source, mask, levels.size(), rowLen, model, levels, 12, 12, depth);
    return c.position + c.value;
}

std::vector<uint8_t> CqEncoder::encode(const std::vector<float>& source, const std::vector<uint8_t>& mask,
                                       uint32_t rowLen, const CqModel& model, const std::vector<int32_t>& levels,
                                       BundleStats& stats)
{
    const uint64_t count = levels.size();
    unsigned depth = 0;
    while (model.useTable && (1u << depth) < model.table.size())
        ++depth;
    // Count limits: the position models like long memories (stationary, skewed), the value
    // models may prefer shorter ones; each priced on its own (disjoint models), then one pass.
    unsigned posLimit = DPU_ARITH_LIMIT_MAX, valLimit = DPU_ARITH_LIMIT_MAX;
    double bestPos = INFINITY, bestVal = INFINITY;
    for (unsigned lim : {8u, 10u, 12u, 14u}) {
        const Costs c = scan(nullptr, source, mask, count, rowLen, model, levels, lim, lim, depth);
        if (c.position < bestPos) {
            bestPos = c.position;
            posLimit = lim;
        }
        if (c.value < bestVal) {
            bestVal = c.value;
            valLimit = lim;
        }
    }
    BitWriter w;
    for (int i = 0; i < 8; ++i)
        w.byte(uint8_t(count >> (8 * i)));
    w.byte(uint8_t(model.useTable ? DPU_CQ_TABLE : DPU_CQ_GRID));
    w.byte(uint8_t(model.diff ? DPU_CQ_DIFF : 0u));
    w.byte(uint8_t(posLimit | valLimit << 4));
    w.byte(0);
    for (int i = 0; i < 4; ++i)
        w.byte(uint8_t(rowLen >> (8 * i)));
    if (model.useTable) {
        SparseEncoder::writeCentroids(w, model.table, model.halfTable);
    } else {
        w.byte(uint8_t(model.stepM));
        w.byte(uint8_t(model.stepX));
    }
    std::vector<uint8_t> out = w.finish();
    ArithEncoder enc;
    const Costs c = scan(&enc, source, mask, count, rowLen, model, levels, posLimit, valLimit, depth);
    const std::vector<uint8_t> stream = enc.finish();
    out.insert(out.end(), stream.begin(), stream.end());
    stats.positionBits += uint64_t(std::llround(c.position));
    stats.valueBits += uint64_t(std::llround(c.value));
    stats.changed += count;
    stats.partialWeights += mask.size();
    return out;
}

} // namespace dpu::bundle
