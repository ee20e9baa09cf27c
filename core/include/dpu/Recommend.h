// SPDX-License-Identifier: MIT
// The budget planner's answer: the best (family, k) of finished runs whose real bytes fit, or the calibrated cost model's estimate.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Frontier.h"
#include "dpu/Plan.h"
#include <limits>
#include <string>
#include <vector>

namespace dpu {

/// A byte budget to one device: every update round (an update round's bundle, mean over the
/// runs' update rounds; the initial deployment, a run's first deployed round, is in no per-round
/// figure: dpu/UpdateBytes.h) or the whole run (all rounds' bundles together).
struct Budget {
    enum class Scope { PerRound, PerRun };
    Scope scope = Scope::PerRound;
    double bytes = 0;
};

/// What one family can do within a budget.
struct FamilyFit {
    std::string family; ///< the family's label
    bool fits = false;  ///< some k of it fits (measured, or interpolated between finished runs)
    double k = 0;       ///< the best k that fits (valid when fits)
    double accuracy = 0;     ///< expected test accuracy at k (fraction; valid when fits)
    double bytes = 0;        ///< bytes at k in the budget's scope (valid when fits)
    /// Bytes of its cheapest finished point, in the budget's scope; NaN when no point has an
    /// update round (a budget per round holds nothing against an initial deployment).
    double cheapestBytes = 0;
    double cheapestK = 0;
    double bestAccuracy = 0;  ///< its most accurate finished point, whatever it costs
    double bestBytes = 0;
};

/// The answer to a budget: a configuration and why. Plain data, shared by the GUI and the CLI.
struct Recommendation {
    bool found = false;     ///< a configuration fits (measured or estimated)
    bool measured = false;  ///< from finished runs' real bytes; false: the cost model's estimate
    std::string family;     ///< label ("dpu-memory q8")
    std::string strategy;
    FamilyValues values;    ///< the family keys' values (plan paths, JSON text)
    double k = 0;
    /// Expected test accuracy (fraction); NaN when unknown (an estimate outside the runs).
    double expectedAccuracy = std::numeric_limits<double>::quiet_NaN();
    /// Expected difference to FU (fraction points); NaN when the runs had no FU.
    double accuracyToFu = std::numeric_limits<double>::quiet_NaN();
    double bytesPerRound = 0; ///< real (or estimated) bytes of an update round to one device
    double bytesPerRun = 0;   ///< real (or estimated) bytes of all rounds to one device
    double realToAnalytic = 0; ///< the calibration an estimate used (1: uncalibrated analytic fp32)
    int familiesConsidered = 0;
    int familiesFitting = 0;
    std::vector<FamilyFit> fits; ///< every family of the group, in the group's order
    std::string why;             ///< one line saying which and why
};

/// The best configuration for `budget` among the group's finished runs: the family and k with
/// the highest expected accuracy whose real bytes fit (within a family, bytes interpolate
/// linearly in k and accuracy in log k between finished points; ties go to fewer bytes). When
/// no finished point fits, an estimate: the cost model `cost` calibrated per family (real over
/// analytic bytes of its partial rounds) gives the largest k that fits for the family whose
/// runs reach the fewest bytes (the least extrapolation). `group` may be null (no finished
/// runs): then the reference plan's first partial strategy and coding, on the uncalibrated
/// analytic model.
/// Never throws; a budget <= 0 or a model of unknown size answers found = false with the why.
Recommendation recommend(const FrontierGroup* group, const Plan& reference, const CostModel& cost, const Budget& budget);

/// The reference plan with the recommendation applied: its strategy first (FU kept when the
/// plan had it), the family keys' values and k. Throws PlanError when the values do not parse.
Plan planWithRecommendation(const Plan& reference, const Recommendation& recommendation);

/// The recommendation as JSON (found, measured, family, strategy, values, k, expected
/// accuracy, bytes, why and every family's fit); NaN figures are null.
std::string recommendationToJson(const Recommendation& recommendation, const Budget& budget);

/// "812 B", "3.1 KB", "2.68 MB" (decimal units), as the why lines write bytes.
std::string humanBytes(double bytes);

} // namespace dpu
