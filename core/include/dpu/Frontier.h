// SPDX-License-Identifier: MIT
// The accuracy-against-bytes frontier: finished runs grouped by setting, one family per byte lever across k.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace dpu {

/// A run the frontier may use: its plan, its records and whether it ran to the end.
struct FrontierRun {
    std::string id; ///< how the caller names it (a folder, a queue number)
    Plan plan;
    std::vector<RoundRecord> records;
    bool finished = false;
    /// The model's sizes (run.json has them); zero: derived from the records' cumulative ratio.
    CostModel cost;
};

/// A family's plan-key values: (JSON path, value as JSON text), e.g. ("bundle.values", "\"q8\"").
using FamilyValues = std::vector<std::pair<std::string, std::string>>;

/// Every finished run of a group at one (family, k), pooled over rounds, seeds and runs.
struct FrontierPoint {
    std::string strategy;
    double k = 0;
    double meanAccuracy = 0;      ///< test accuracy (fraction) averaged over rounds and seeds
    double meanBytesPerRound = 0; ///< analytic bytes averaged over rounds (0 for rounds that did not deploy)
    int runs = 0;
    int rounds = 0;
    std::string family;           ///< its family's label (familyLabel())
    FamilyValues familyValues;    ///< the family keys' values of its runs
    int deployedRounds = 0;          ///< the initial deployments and the update rounds
    /// Update rounds: every deployed round after a (run, seed)'s first (dpu/UpdateBytes.h), whose
    /// bundle is the initial deployment and in no per-round figure.
    int updateRounds = 0;
    double initialDeploymentBytes = 0; ///< the first deployed round's bundle, mean over (run, seed)
    /// Real bundle bytes of an update round to one device, mean over the update rounds: the
    /// frontier's x and what a budget per round is held against; NaN without an update round.
    double realBytesPerUpdateRound = std::numeric_limits<double>::quiet_NaN();
    double maxRealBytesPerUpdateRound = std::numeric_limits<double>::quiet_NaN(); ///< the largest update round's bundle
    double realBytesPerRun = 0;      ///< real bundle bytes of all rounds to one device (initial deployment included), mean over seeds and runs
    /// Mean over rounds and seeds of (accuracy - FU's of the same seed and round); NaN without FU.
    double accuracyToFu = std::numeric_limits<double>::quiet_NaN();
    /// Real bits of all rounds over FU's analytic bits of the same rounds (the paper's
    /// denominator), mean over seeds and runs; NaN without FU.
    double ratioToFu = std::numeric_limits<double>::quiet_NaN();
    /// Sample standard deviation over (run, seed) units of each unit's accuracyToFu and
    /// ratioToFu: the spread a three-seed confirmation reports; NaN with fewer than two units.
    double accuracyToFuStd = std::numeric_limits<double>::quiet_NaN();
    double ratioToFuStd = std::numeric_limits<double>::quiet_NaN();
    int seedUnits = 0; ///< (run, seed) units pooled in this point
    /// Real bits of all rounds over rounds x the analytic full-model bits; NaN when the model's
    /// size is unknown.
    double ratioToFull = std::numeric_limits<double>::quiet_NaN();
    /// Real bytes over analytic bytes of its deployed partial rounds (how the cost model is
    /// calibrated); 0 when it has none.
    double realToAnalytic = 0;
    /// Every deployed round measured its bundle. Runs from before bundles were measured have
    /// none: their rounds count the analytic bytes instead (in every real-bytes figure above).
    bool measuredBytes = true;
};

/// One line of the frontier: a strategy under one set of family-key values, across k.
struct FrontierFamily {
    std::string label; ///< familyLabel(strategy, values)
    std::string strategy;
    FamilyValues values;
    std::vector<FrontierPoint> points; ///< by k
};

/// Accuracy to expect at a k, interpolated between the points that bracket it.
struct Expectation {
    bool bracketed = false;
    double accuracy = 0; ///< fraction; valid when bracketed
    double kLow = 0;
    double kHigh = 0;
};

/// Runs whose plans agree on everything but the swept and family keys (and the strategies).
struct FrontierGroup {
    Plan plan;                       ///< the first run's plan (k and name are one run's)
    std::vector<std::string> runIds; ///< in the order given
    std::vector<FrontierPoint> points; ///< sorted by strategy, family values, then k
    std::vector<FrontierFamily> families; ///< the same points, one family each, in that order
    /// The family FU differences and ratios refer to: exact FU (default family values) where it
    /// ran, else the first FU; empty without FU.
    std::string fuReference;
};

/// Plan keys (JSON paths, as in plan files) a frontier always lets vary: the plan's name and
/// how it was executed (device, threads, whether bundles were kept, the signing key), which
/// change neither accuracy nor bytes.
const std::vector<std::string>& frontierIgnoredKeys();

/// The keys a k sweep varies: {"k"}.
std::vector<std::string> defaultSweptKeys();

/// Plan keys whose values split a group into families: the levers of a round's bytes. A key
/// covers what lies below it: {"bundle"} takes in bundle.values and every coding option added
/// under "bundle" later, and {"budget"} each byte budget. (The strategies are always a family
/// key: each is its own line.)
std::vector<std::string> defaultFamilyKeys();

/// Every key a frontier group lets vary: `swept`, `familyKeys` and "strategies" (pass it to
/// planDifferences() to say why two runs are on different frontiers).
std::vector<std::string> frontierFreeKeys(const std::vector<std::string>& swept = defaultSweptKeys(),
                                          const std::vector<std::string>& familyKeys = defaultFamilyKeys());

/// A family's name: the strategy, then each family value that differs from the default plan's
/// (strings bare, others as key=value): "dpu", "dpu-memory q8".
std::string familyLabel(const std::string& strategy, const FamilyValues& values);

/// The family keys' values of a plan (in path order), as familyValues holds them.
FamilyValues familyValuesOf(const Plan& plan, const std::vector<std::string>& familyKeys = defaultFamilyKeys());

/// The family keys' values of `strategy`'s runs under `plan`: familyValuesOf(plan), but for the
/// keys that cannot change the strategy's records, which take the default plan's values. FU
/// honours no byte budget, and ships every round as a full bundle, exact whatever the plan's
/// coding (bundle.* codes the partial strategies' updates), unless the deployed model is sparse:
/// there its later rounds are deltas under the coding. So FU of an fp32 and of a q4 run of a
/// dense model is one family, "fu". Look a plan's family up with this, never familyValuesOf(plan).
FamilyValues familyValuesOf(const std::string& strategy, const Plan& plan,
                            const std::vector<std::string>& familyKeys = defaultFamilyKeys());

/// Where two plans differ ("split.rounds: 2 vs 3"), ignoring frontierIgnoredKeys() and `swept`;
/// empty when they belong on one frontier.
std::vector<std::string> planDifferences(const Plan& a, const Plan& b, const std::vector<std::string>& swept);

/// Groups the finished runs (others are dropped: their means would favour early rounds) by plan
/// minus the swept keys, the family keys and the strategies, in order of each group's first run.
std::vector<FrontierGroup> frontierGroups(const std::vector<FrontierRun>& runs,
                                          const std::vector<std::string>& swept = defaultSweptKeys(),
                                          const std::vector<std::string>& familyKeys = defaultFamilyKeys());

/// Index of the group whose plan agrees with `plan` but for the swept and family keys and the
/// strategies; -1 when none.
int frontierGroupOf(const std::vector<FrontierGroup>& groups, const Plan& plan,
                    const std::vector<std::string>& swept = defaultSweptKeys(),
                    const std::vector<std::string>& familyKeys = defaultFamilyKeys());

/// The points of one strategy within `points` (of every family of it).
std::vector<FrontierPoint> pointsOf(const std::vector<FrontierPoint>& points, const std::string& strategy);

/// The points of one family (by label) within `points`.
std::vector<FrontierPoint> pointsOfFamily(const std::vector<FrontierPoint>& points, const std::string& family);

/// The groups as JSON: per group its runs, plan name and FU reference, and per family its
/// points with every figure above (NaN figures are null). What `dpu-cli frontier --json` prints.
std::string frontierToJson(const std::vector<FrontierGroup>& groups);

/// Interpolates linearly in log k between the nearest points at or below and at or above k
/// (points of one family, any order); not bracketed when k lies outside their range.
Expectation expectedAccuracy(const std::vector<FrontierPoint>& points, double k);

} // namespace dpu
