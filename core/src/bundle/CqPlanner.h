// SPDX-License-Identifier: MIT
// Chooses the values of cq sections (q8c step, q4 centroids, ternary magnitudes) and builds them.
#pragma once
#include "bundle/BundleTypes.h"
#include "bundle/CqEncoder.h"

#include <cstdint>
#include <vector>

namespace dpu::bundle {

/// One tensor's changes for the step search: source and target values of changed elements.
struct CqChanges {
    const std::vector<float>* source = nullptr;
    const std::vector<float>* target = nullptr;
    const std::vector<uint8_t>* mask = nullptr;
    bool partial = true; ///< a masked tensor (its q8 error sets the budget); false: always-shipped
};

class CqPlanner {
public:
    /// q8c: the largest grid step (one for the whole bundle: equal steps minimise the bits for a
    /// given total squared error) whose squared error over every changed value stays within
    /// what q8 (256 k-means centroids per partial tensor, binary16 table) would cost on the
    /// partial tensors. False when q8 would be exact (then q8c ships exact fp32 values).
    static bool chooseStep(const std::vector<CqChanges>& tensors, unsigned& stepM, unsigned& stepX);

    /// q8c's step for a whole bundle (chooseStep over every partial tensor's changes). With
    /// `in.quantiseDense` (delta bundles) the changed always-shipped tensors share the step and
    /// their masks land in `denseMasks` (indexed like the tensors; empty for the others, and all
    /// empty when there is no step). False without a step: not q8c, a full bundle, or q8 exact.
    static bool bundleStep(const BundleInput& in, const std::vector<TensorData>& base,
                           const std::vector<std::vector<float>>& sources,
                           std::vector<std::vector<uint8_t>>& denseMasks, unsigned& stepM, unsigned& stepX);

    /// The cq section of one tensor under `coding` (Q8c with the chosen step, Q4, Ternary);
    /// `applied` gets what the device decodes. Empty when the levels do not fit the grid (the
    /// caller then ships exact values).
    static std::vector<uint8_t> section(ValueCoding coding, const CqChanges& t, uint32_t rowLen, unsigned stepM,
                                        unsigned stepX, std::vector<float>& applied, BundleStats& stats);

    /// Squared error of q8 (the reference budget) over one tensor's changed values.
    static double q8Error(const CqChanges& t);
};

} // namespace dpu::bundle
