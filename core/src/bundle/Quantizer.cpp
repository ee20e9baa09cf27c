// SPDX-License-Identifier: MIT
// 1-D k-means (linear init) on sorted values: assignments are contiguous runs, so each Lloyd step is a sweep.
#include "bundle/Quantizer.h"
#include "bundle/HalfFloat.h"
#include "dpu_codes.h"

#include <algorithm>

namespace dpu::bundle {

Quantizer::Quantizer(const std::vector<float>& values, int iterations, size_t levels)
{
    std::vector<float> v = values;
    std::sort(v.begin(), v.end());
    std::vector<float> distinct = v;
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.empty()) {
        centroids_ = {0.f};
    } else if (distinct.size() <= levels) {
        centroids_ = distinct; // exact: q8 then loses nothing
    } else {
        exact_ = false;
        const size_t top = levels - 1;
        centroids_.resize(levels);
        // Linear initialisation over [min, max] (Han et al. found it best for weights): unlike
        // quantiles it keeps centroids near rare large values, which matter most.
        const double lo = v.front(), hi = v.back();
        for (size_t c = 0; c < levels; ++c)
            centroids_[c] = float(lo + (hi - lo) * double(c) / double(top));
        for (int it = 0; it < iterations; ++it) {
            updateBoundaries();
            std::vector<double> sum(levels, 0.0);
            std::vector<size_t> n(levels, 0);
            size_t c = 0;
            for (float x : v) {
                while (c < top && double(x) > boundary_[c])
                    ++c;
                sum[c] += x;
                ++n[c];
            }
            bool moved = false;
            for (size_t k = 0; k < levels; ++k) {
                if (n[k] == 0)
                    continue; // an empty cluster keeps its centroid
                const float m = float(sum[k] / double(n[k]));
                moved |= m != centroids_[k];
                centroids_[k] = m;
            }
            std::sort(centroids_.begin(), centroids_.end());
            if (!moved)
                break;
        }
    }
    updateBoundaries();
}

void Quantizer::updateBoundaries()
{
    boundary_.resize(centroids_.size() > 0 ? centroids_.size() - 1 : 0);
    for (size_t c = 0; c + 1 < centroids_.size(); ++c)
        boundary_[c] = 0.5 * (double(centroids_[c]) + double(centroids_[c + 1]));
}

bool Quantizer::roundToHalf()
{
    std::vector<float> r(centroids_.size());
    for (size_t c = 0; c < r.size(); ++c) {
        uint16_t h = HalfFloat::fromFloat(centroids_[c]);
        if ((h & 0x7c00u) == 0x7c00u)
            return false; // beyond binary16's range: keep the f32 table
        if (h == 0x8000u)
            h = 0; // -0 as +0: the table's order-preserving keys must not decrease
        r[c] = dpu_half_to_float(h);
    }
    // Rounding is monotonic, so the table stays sorted (neighbours may now coincide; the nearest
    // search then never picks the second of a pair and its Huffman code is absent).
    centroids_ = r;
    exact_ = false;
    updateBoundaries();
    return true;
}

uint8_t Quantizer::index(float v) const
{
    const auto it = std::lower_bound(boundary_.begin(), boundary_.end(), double(v));
    return uint8_t(it - boundary_.begin());
}

} // namespace dpu::bundle
