// SPDX-License-Identifier: MIT
// Analytic communication cost of a round (DESIGN.md "Communication cost") and its inverse.
#pragma once
#include "dpu/PlanEnums.h"
#include <cstdint>
#include <vector>

namespace dpu {

struct CostModel {
    int64_t partialWeights = 0; ///< I
    int64_t denseWeights = 0;   ///< always shipped, 32 bits each
    /// A sparse deployed model's nonzero partial weights (0: a dense model). Its updates code
    /// the positions among the nonzeros, and a full update ships the nonzeros and a bitmap.
    int64_t nonzeroWeights = 0;
    /// Bits per partial weight value on the link: 32, or 8 for an INT8 deployed model (its
    /// codes; the paper's Table 3 prices them so).
    int valueBits = 32;
    /// An INT8 model's float scales (one per output channel of each partial tensor): a full
    /// update ships them, 32 bits each; a partial update keeps them.
    int64_t scaleValues = 0;
    /// An INT8 model's 1-D parameters held as codes (plan int8_biases codes): of denseWeights,
    /// the values priced at valueBits instead of 32, and their float scales, one per tensor
    /// (32 bits each), which every round ships as the codes are re-coded to a fresh scale.
    int64_t codedDenseWeights = 0;
    int64_t codedDenseScales = 0;

    /// Every field equal: the same prices.
    bool operator==(const CostModel& o) const
    {
        return partialWeights == o.partialWeights && denseWeights == o.denseWeights && nonzeroWeights == o.nonzeroWeights
               && valueBits == o.valueBits && scaleValues == o.scaleValues && codedDenseWeights == o.codedDenseWeights
               && codedDenseScales == o.codedDenseScales;
    }
    bool operator!=(const CostModel& o) const { return !(*this == o); }
};

/// Binary entropy H(k) in bits; 0 at k = 0 or 1. k outside [0, 1] is clamped.
double indexEntropyBits(double k);

/// Number of partial weights a round changes: round(k * I).
int64_t updatedCount(int64_t partialWeights, double k);

/// Weights a tensor of `numel` keeps when pruned to `sparsity`: numel - round(sparsity * numel).
int64_t keptAtSparsity(int64_t numel, double sparsity);

/// The cost model of a model deployed as `form`, from the shapes of its partial tensors (those
/// of dim() > 1) and its dense weights: a sparse one keeps keptAtSparsity(numel, sparsity) of
/// each tensor's weights (nonzeroWeights), an INT8 one sends 8-bit values and keeps one scale per
/// output channel, shape[0] (scaleValues); under `biases` codes (plan int8_biases) its 1-D
/// parameters, of sizes `biasSizes` (part of denseWeights), are codes with one scale a tensor
/// (codedDenseWeights, codedDenseScales). `biases` and `biasSizes` mean nothing to other forms.
/// What a run prices its rounds with, and what the plan form estimates with before any run.
CostModel deployedCostModel(const std::vector<std::vector<int64_t>>& partialShapes, int64_t denseWeights,
                            DeployedForm form, double sparsity, Int8Biases biases,
                            const std::vector<int64_t>& biasSizes);

/// Bits of the always-shipped values of one round: 32 * dense, or on an INT8 model with its
/// biases as codes 32 * (dense - coded) + valueBits * coded + 32 * (their scales).
double denseRoundBits(const CostModel& model);

/// Bits of one partial round: 32 * round(kI) + H(k) * I + 32 * dense. On a sparse deployed
/// model (nonzeroWeights N > 0) the positions are coded among the nonzeros:
/// 32 * n + H(n / N) * N + 32 * dense with n = min(round(kI), N) (k stays a share of all I).
/// On an INT8 model a value takes valueBits (8): 8 * round(kI) + H(k) * I + denseRoundBits().
double partialRoundBits(const CostModel& model, double k);

/// Bits of one full-updating round of a dense FP32 model: 32 * (I + dense), the reference every
/// ratio is taken against (the paper's "full updating on the FP32 dense model").
double fullRoundBits(const CostModel& model);

/// Bits of one full update of the deployed model: fullRoundBits() for a dense one; for a sparse
/// one its nonzeros and a bitmap of their positions, 32 * N + I + 32 * dense (the paper's 0.53
/// at 50 % sparsity); for an INT8 one its codes and scales, 8 * I + 32 * scales + denseRoundBits().
double deployedFullRoundBits(const CostModel& model);

/// The largest k in [0, 1] (at most N / I on a sparse model) whose partialRoundBits() fits budgetBits (0 if even the dense part
/// does not fit). Monotone bisection to within 1e-9.
double largestKForBudget(const CostModel& model, double budgetBits);

} // namespace dpu
