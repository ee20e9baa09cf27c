// SPDX-License-Identifier: MIT
// cq value choices: q8c's bundle-wide step against q8's error, q4's 16 k-means centroids,
// ternary's sign x mean magnitude of the change (Sattler et al.'s STC, per tensor).
#include "bundle/CqPlanner.h"
#include "bundle/Quantizer.h"

#include <cmath>
#include <cstring>

namespace dpu::bundle {

namespace {

std::vector<float> changedValues(const CqChanges& t, bool target)
{
    std::vector<float> v;
    const std::vector<float>& from = target ? *t.target : *t.source;
    for (size_t j = 0; j < t.mask->size(); ++j)
        if ((*t.mask)[j])
            v.push_back(from[j]);
    return v;
}

// Total squared error of the grid (m, x) over every change; infinity when a level overflows.
double gridError(const std::vector<CqChanges>& tensors, unsigned m, unsigned x)
{
    CqModel model;
    model.diff = true;
    model.stepM = m;
    model.stepX = x;
    double se = 0;
    for (const CqChanges& t : tensors)
        for (size_t j = 0; j < t.mask->size(); ++j) {
            if (!(*t.mask)[j])
                continue;
            int32_t level = 0;
            const float s = (*t.source)[j], v = (*t.target)[j];
            if (!CqEncoder::gridLevel(model, s, v, level))
                return INFINITY;
            const double d = double(CqEncoder::decode(model, s, level)) - double(v);
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

bool CqPlanner::chooseStep(const std::vector<CqChanges>& tensors, unsigned& stepM, unsigned& stepX)
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
    for (int it = 0; it < 48; ++it) {
        const double mid = 0.5 * (lo + hi);
        unsigned m = 0, x = 0;
        if (!CqEncoder::stepCode(std::exp(mid), m, x)) {
            (mid < 0 ? lo : hi) = mid;
            continue;
        }
        const double se = gridError(tensors, m, x);
        if (std::isfinite(se) && se <= budget) {
            lo = mid;
            if (!found || double(m) * std::ldexp(1.0, int(x)) > double(stepM) * std::ldexp(1.0, int(stepX))) {
                stepM = m;
                stepX = x;
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
                           std::vector<std::vector<uint8_t>>& denseMasks, unsigned& stepM, unsigned& stepX)
{
    if (in.coding != ValueCoding::Q8c || in.kind == Kind::Full)
        return false;
    std::vector<CqChanges> changes;
    for (size_t i = 0; i < in.target.size(); ++i) {
        if (!in.masks[i].empty()) {
            changes.push_back({&sources[i], &in.target[i].values, &in.masks[i], true});
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
                changes.push_back({&base[i].values, &in.target[i].values, &m, false});
        }
    }
    const bool ok = chooseStep(changes, stepM, stepX);
    if (!ok)
        for (auto& m : denseMasks)
            m.clear(); // q8 exact: so is everything else
    return ok;
}

std::vector<uint8_t> CqPlanner::section(ValueCoding coding, const CqChanges& t, uint32_t rowLen, unsigned stepM,
                                        unsigned stepX, std::vector<float>& applied, BundleStats& stats)
{
    CqModel model;
    std::vector<int32_t> levels;
    const std::vector<float>& src = *t.source;
    const std::vector<float>& dst = *t.target;
    const std::vector<uint8_t>& mask = *t.mask;
    if (coding == ValueCoding::Q8c) {
        model.diff = true;
        model.stepM = stepM;
        model.stepX = stepX;
        for (size_t j = 0; j < mask.size(); ++j) {
            int32_t level = 0;
            if (mask[j] && !CqEncoder::gridLevel(model, src[j], dst[j], level))
                return {};
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
    return CqEncoder::encode(src, mask, rowLen, model, levels, stats);
}

} // namespace dpu::bundle
