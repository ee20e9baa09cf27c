// SPDX-License-Identifier: MIT
// Per-tensor 8-bit quantisation: up to 256 centroids by 1-D k-means (the paper's DPU+Q+E).
#pragma once
#include <cstdint>
#include <vector>

namespace dpu::bundle {

class Quantizer {
public:
    /// Fits centroids to `values` (deterministic): the distinct values themselves when there are
    /// at most 256, otherwise linearly initialised Lloyd iterations. Empty input gives one
    /// centroid 0 (the format needs at least one).
    explicit Quantizer(const std::vector<float>& values, int iterations = 20);
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
