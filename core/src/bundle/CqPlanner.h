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
    uint32_t rowLen = 1; ///< CqEncoder::rowLength of the tensor
};

/// q8c's grid for a bundle: the step m * 2^(x - 127), and the changes it leaves out (those
/// smaller than `drop` steps keep their source value: cheaper than coding a level 0 or 1).
struct CqGrid {
    unsigned m = 0, x = 0;
    double drop = 0.5;
};

class CqPlanner {
public:
    /// q8c: the largest grid step (one for the whole bundle: equal steps minimise the bits for a
    /// given total squared error) whose squared error over every changed value, with changes
    /// below `grid.drop` steps left out, stays within what q8 (256 k-means centroids per partial
    /// tensor, binary16 table) would cost on the partial tensors. False when q8 would be exact
    /// (then q8c ships exact fp32 values).
    static bool chooseStep(const std::vector<CqChanges>& tensors, CqGrid& grid);

    /// q8c's step for a whole bundle (chooseStep over every partial tensor's changes). With
    /// `in.quantiseDense` (delta bundles) the changed always-shipped tensors share the step and
    /// their masks land in `denseMasks` (indexed like the tensors; empty for the others, and all
    /// empty when there is no step). False without a step: not q8c, a full bundle, or q8 exact.
    /// (Of several thresholds for leaving small changes out, each with its own largest step, the
    /// one whose sections are smallest.)
    static bool bundleStep(const BundleInput& in, const std::vector<TensorData>& base,
                           const std::vector<std::vector<float>>& sources,
                           std::vector<std::vector<uint8_t>>& denseMasks, CqGrid& grid);

    /// The cq section of one tensor under `coding` (Q8c with the chosen step, Q4, Ternary);
    /// `applied` gets what the device decodes. Empty when the levels do not fit the grid (the
    /// caller then ships exact values).
    /// With `estimate` set, only prices the section (CqEncoder::estimateBits into *estimate) and
    /// returns nothing.
    static std::vector<uint8_t> section(ValueCoding coding, const CqChanges& t, const CqGrid& grid,
                                        std::vector<float>& applied, BundleStats& stats, double* estimate = nullptr);

    /// Squared error of q8 (the reference budget) over one tensor's changed values.
    static double q8Error(const CqChanges& t);
};

} // namespace dpu::bundle
