// SPDX-License-Identifier: MIT
// Per-tensor quantisation: up to 256 (q8) or 16 (q4) centroids by 1-D k-means (the paper's DPU+Q+E).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpu::bundle {

class Quantizer {
public:
    /// Fits `levels` (2..256) centroids to `values` (deterministic): the distinct values themselves
    /// when there are at most `levels`, otherwise linearly initialised Lloyd iterations. Empty
    /// input gives one centroid 0 (the format needs at least one).
    explicit Quantizer(const std::vector<float>& values, int iterations = 20, size_t levels = 256);
    const std::vector<float>& centroids() const { return centroids_; }
    /// True when the centroids are the input's distinct values (q8 then loses nothing).
    bool exact() const { return exact_; }
    /// Rounds every centroid to the nearest binary16 (the compact table of format 2); false and
    /// unchanged when one would overflow it.
    bool roundToHalf();
    /// Index of the centroid nearest to v (ties to the lower index).
    uint8_t index(float v) const;

private:
    void updateBoundaries();
    std::vector<float> centroids_;  ///< ascending
    std::vector<double> boundary_;  ///< midpoints between neighbouring centroids
    bool exact_ = true;
};

} // namespace dpu::bundle
