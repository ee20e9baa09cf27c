// SPDX-License-Identifier: MIT
// Analytic communication cost of a round (DESIGN.md "Communication cost") and its inverse.
#pragma once
#include <cstdint>

namespace dpu {

struct CostModel {
    int64_t partialWeights = 0; ///< I
    int64_t denseWeights = 0;   ///< always shipped, 32 bits each
};

/// Binary entropy H(k) in bits; 0 at k = 0 or 1. k outside [0, 1] is clamped.
double indexEntropyBits(double k);

/// Number of partial weights a round changes: round(k * I).
int64_t updatedCount(int64_t partialWeights, double k);

/// Bits of one partial round: 32 * round(kI) + H(k) * I + 32 * dense.
double partialRoundBits(const CostModel& model, double k);

/// Bits of one full-updating round: 32 * (I + dense).
double fullRoundBits(const CostModel& model);

/// The largest k in [0, 1] whose partialRoundBits() fits budgetBits (0 if even the dense part
/// does not fit). Monotone bisection to within 1e-9.
double largestKForBudget(const CostModel& model, double budgetBits);

} // namespace dpu
