// SPDX-License-Identifier: MIT
// What one deployed round of a plan will cost before it runs: calibrated on finished runs of its family, else its coding's nominal bits.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Frontier.h"
#include "dpu/Plan.h"
#include <string>
#include <vector>

namespace dpu {

/// An estimate of one deployed partial round's bundle to one device. Plain data shared by the
/// plan form and the command line.
struct RoundEstimate {
    /// Where the figure comes from, best first: finished runs of the plan's own family (their
    /// real bytes over the analytic ones), the coding's nominal bits, or the paper's fp32 model
    /// (which is the nominal model of the exact coding).
    enum class Basis { None, Calibrated, Nominal, Analytic };
    Basis basis = Basis::None;
    double bytes = 0;          ///< one deployed round (capped by a per-round byte budget)
    double fullBytes = 0;      ///< one full-updating round, fp32 (the ratio's denominator)
    double realToAnalytic = 0; ///< bytes over the paper's fp32 formula at the plan's k
    std::string family;        ///< the family label of the plan's first partial strategy
    int calibrationRounds = 0; ///< deployed rounds the calibration pooled (Calibrated only)
    bool cappedByBudget = false;
    std::string why;           ///< one line: which basis and why
};

/// Nominal bits of one changed value under a coding: fp32 32, fp16 16, q8 8, q4 4, ternary
/// log2(3) (their tables and context coding ignored), and q8c 8 x 0.765: q8's grid with its
/// context coding's measured share of the values' bytes (docs/benchmarks.md section 9).
/// Throws PlanError for an unknown coding.
double nominalValueBits(Coding coding);

/// Bits of one partial round of `plan` at its k on the nominal model: nominal value bits per
/// changed weight plus H(k) bits of positions per weight of the selection pool, plus the
/// always-shipped tensors as the plan ships them (exact: 32 bits each; coded: the coding's
/// nominal bits each; partial: they join the pool). q8c's positions take 0.662 of H(k), its
/// context coding's measured share. On a sparse deployed model (cost.nonzeroWeights > 0) the
/// changes and their positions are among the nonzeros. With fp32 and exact dense tensors this is
/// partialRoundBits(). Throws PlanError for an unknown coding.
double nominalRoundBits(const CostModel& cost, const Plan& plan);

/// The estimate for `plan` on a model of sizes `cost`: calibrated when `groups` (the frontier of
/// the finished runs the caller knows) has the plan's family with measured rounds, in the plan's
/// own group or else in a group of the same model and data (the one with the most rounds; bytes
/// depend on the model and coding far more than on training), else nominal. A per-round byte budget caps it. Basis None (bytes 0) when the model's size is
/// unknown, k is outside (0, 1] or the plan has no partial strategy. Never throws.
RoundEstimate estimateRound(const Plan& plan, const CostModel& cost, const std::vector<FrontierGroup>& groups);

/// The largest k whose estimateRound() fits `budgetBytes` per round: the plan's own coding,
/// deployed form and dense tensors, calibrated by `groups` where they allow, as the plan form's
/// bytes row prices it (the plan's own byte budget is left out of the search). 0 when even a
/// vanishing k does not fit; the largest k a round can use when it fits. Falls back to the
/// paper's analytic inverse (largestKForBudget) when the plan has no partial strategy. Never throws.
double largestKForEstimate(Plan plan, const CostModel& cost, const std::vector<FrontierGroup>& groups, double budgetBytes);

/// k rounded down to four significant digits (0.0099583 -> 0.009958): what a form shows and a
/// plan takes from a budget's answer, never more than the answer (rounding up cost more than the
/// budget). Values that are not above 0 come back unchanged.
double roundKDown(double k);

} // namespace dpu
