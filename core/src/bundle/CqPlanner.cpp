// SPDX-License-Identifier: MIT
// cq value choices: q8c's bundle-wide step against q8's error, q4's 16 k-means centroids,
// ternary's sign x mean magnitude of the change (Sattler et al.'s STC, per tensor).
#include "bundle/CqPlanner.h"
#include "bundle/Quantizer.h"

#include <cmath>
#include <cstring>

namespace dpu::bundle {

namespace {

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

std::vector<float> changedValues(const CqChanges& t, bool target)
{
    std::vector<float> v;
    const std::vector<float>& from = target ? *t.target : *t.source;
    for (size_t j = 0; j < t.mask->size(); ++j)
        if ((*t.mask)[j])
            v.push_back(from[j]);
    return v;
}

CqModel gridModel(const CqGrid& g)
{
    CqModel model;
    model.diff = true;
    model.stepM = g.m;
    model.stepX = g.x;
    return model;
}

// Whether q8c leaves the change s -> v out: smaller than `drop` steps, or decoding to s anyway.
bool leftOut(const CqModel& model, double drop, float s, float v, int32_t level)
{
    const double step = double(model.stepM) * std::ldexp(1.0, int(model.stepX) - 127);
    return std::fabs(double(v) - double(s)) < drop * step ||
           (level == 0 && sameBits(CqEncoder::decode(model, s, 0), s));
}

// Total squared error of the grid over every change; infinity when a level overflows.
double gridError(const std::vector<CqChanges>& tensors, const CqGrid& g)
{
    const CqModel model = gridModel(g);
    double se = 0;
    for (const CqChanges& t : tensors)
        for (size_t j = 0; j < t.mask->size(); ++j) {
            if (!(*t.mask)[j])
                continue;
            int32_t level = 0;
            const float s = (*t.source)[j], v = (*t.target)[j];
            if (!CqEncoder::gridLevel(model, s, v, level))
                return INFINITY;
            const double d = double(leftOut(model, g.drop, s, v, level) ? s : CqEncoder::decode(model, s, level)) -
                             double(v);
            se += d * d;
        }
    return se;
}

} // namespace

double CqPlanner::q8Error(const CqChanges& t)
{
    const std::vector<float> v = changedValues(t, true);
    Quantizer q(v);
    if (!q.exact())
        q.roundToHalf(); // as SparseEncoder's q8 (an overflowing table stays f32)
    double se = 0;
    for (float f : v) {
        const double d = double(q.centroids()[q.index(f)]) - double(f);
        se += d * d;
    }
    return se;
}

bool CqPlanner::chooseStep(const std::vector<CqChanges>& tensors, CqGrid& grid)
{
    double budget = 0, largest = 0;
    for (const CqChanges& t : tensors) {
        if (t.partial)
            budget += q8Error(t);
        for (size_t j = 0; j < t.mask->size(); ++j)
            if ((*t.mask)[j])
                largest = std::max(largest, std::fabs(double((*t.target)[j]) - double((*t.source)[j])));
    }
    if (!(budget > 0) || !(largest > 0))
        return false;
    // Bisection on log(step): the error grows with the step (not strictly, so the best
    // feasible step seen is kept and re-checked).
    double lo = std::log(largest) - 40, hi = std::log(2 * largest);
    bool found = false;
    for (int it = 0; it < 24; ++it) { // 41 nats to 2^-24 of them: finer than the 8-bit step code
        const double mid = 0.5 * (lo + hi);
        CqGrid g = grid;
        if (!CqEncoder::stepCode(std::exp(mid), g.m, g.x)) {
            (mid < 0 ? lo : hi) = mid;
            continue;
        }
        const double se = gridError(tensors, g);
        if (std::isfinite(se) && se <= budget) {
            lo = mid;
            if (!found || double(g.m) * std::ldexp(1.0, int(g.x)) > double(grid.m) * std::ldexp(1.0, int(grid.x))) {
                grid = g;
                found = true;
            }
        } else if (std::isfinite(se)) {
            hi = mid;
        } else {
            lo = mid; // levels overflow: the step is far too small
        }
    }
    return found;
}

bool CqPlanner::bundleStep(const BundleInput& in, const std::vector<TensorData>& base,
                           const std::vector<std::vector<float>>& sources,
                           std::vector<std::vector<uint8_t>>& denseMasks, CqGrid& grid)
{
    if (in.coding != ValueCoding::Q8c || in.kind == Kind::Full)
        return false;
    std::vector<CqChanges> changes;
    for (size_t i = 0; i < in.target.size(); ++i) {
        if (in.target[i].dtype == DType::I8)
            continue; // int8 codes travel exactly (Int8Section): no grid, no error
        if (!in.masks[i].empty()) {
            changes.push_back({&sources[i], &in.target[i].values, &in.masks[i], true,
                               CqEncoder::rowLength(in.target[i].shape, in.target[i].values.size())});
        } else if (in.quantiseDense && in.kind == Kind::Delta) {
            std::vector<uint8_t>& m = denseMasks[i];
            m.resize(in.target[i].values.size());
            bool any = false;
            for (size_t j = 0; j < m.size(); ++j) {
                m[j] = std::memcmp(&in.target[i].values[j], &base[i].values[j], 4) != 0;
                any |= m[j] != 0;
            }
            if (!any)
                m.clear(); // unchanged: copied
            else
                changes.push_back({&base[i].values, &in.target[i].values, &m, false,
                                   CqEncoder::rowLength(in.target[i].shape, in.target[i].values.size())});
        }
    }
    // Leaving out a change below about a step saves its position and level (some 8 bits) but
    // costs error that a finer step must win back from every other change: which threshold pays
    // depends on the round, so each is tried with its own step and the smallest sections kept.
    bool ok = false;
    double best = INFINITY;
    for (double drop : {0.5, 0.7, 0.85, 1.0, 1.15, 1.3, 1.5}) {
        CqGrid g;
        g.drop = drop;
        if (!chooseStep(changes, g))
            continue;
        double bits = 0;
        for (const CqChanges& t : changes) {
            std::vector<float> applied;
            BundleStats ignored;
            double b = -1;
            section(ValueCoding::Q8c, t, g, applied, ignored, &b);
            bits += b < 0 ? 32.0 * double(t.mask->size()) : b; // levels overflow: exact values
        }
        if (bits < best) {
            best = bits;
            grid = g;
            ok = true;
        }
    }
    if (!ok)
        for (auto& m : denseMasks)
            m.clear(); // q8 exact: so is everything else
    return ok;
}

std::vector<uint8_t> CqPlanner::section(ValueCoding coding, const CqChanges& t, const CqGrid& grid,
                                        std::vector<float>& applied, BundleStats& stats, double* estimate)
{
    CqModel model;
    std::vector<int32_t> levels;
    const std::vector<float>& src = *t.source;
    const std::vector<float>& dst = *t.target;
    std::vector<uint8_t> mask = *t.mask;
    if (coding == ValueCoding::Q8c) {
        model = gridModel(grid);
        for (size_t j = 0; j < mask.size(); ++j) {
            int32_t level = 0;
            if (mask[j] && !CqEncoder::gridLevel(model, src[j], dst[j], level))
                return {};
            if (mask[j] && leftOut(model, grid.drop, src[j], dst[j], level))
                mask[j] = 0;
            if (mask[j])
                levels.push_back(level);
        }
    } else if (coding == ValueCoding::Q4) {
        Quantizer q(changedValues(t, true), 20, 16);
        model.useTable = true;
        model.halfTable = !q.exact() && q.roundToHalf();
        model.table = q.centroids();
        for (size_t j = 0; j < mask.size(); ++j)
            if (mask[j])
                levels.push_back(q.index(dst[j]));
    } else { // ternary: the change's sign times its mean magnitude over the tensor
        double sum = 0;
        size_t n = 0;
        for (size_t j = 0; j < mask.size(); ++j)
            if (mask[j]) {
                sum += std::fabs(double(dst[j]) - double(src[j]));
                ++n;
            }
        float mu = float(n ? sum / double(n) : 0.0);
        std::vector<float> half{-mu, mu};
        Quantizer rounded(half, 0, 2); // two distinct values: exact; binary16 when it fits
        model.halfTable = mu != 0.f && rounded.roundToHalf() && rounded.centroids()[1] > 0.f;
        model.useTable = true;
        model.table = model.halfTable ? rounded.centroids() : std::vector<float>{-mu, mu};
        model.diff = true;
        for (size_t j = 0; j < mask.size(); ++j)
            if (mask[j])
                levels.push_back(double(dst[j]) - double(src[j]) < 0 ? 0 : 1);
    }
    applied = src;
    for (size_t j = 0, c = 0; j < mask.size(); ++j)
        if (mask[j])
            applied[j] = CqEncoder::decode(model, src[j], levels[c++]);
    if (estimate) {
        *estimate = CqEncoder::estimateBits(src, mask, t.rowLen, model, levels);
        return {};
    }
    return CqEncoder::encode(src, mask, t.rowLen, model, levels, stats);
}

} // namespace dpu::bundle
