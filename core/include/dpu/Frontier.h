// SPDX-License-Identifier: MIT
// The accuracy-against-bytes frontier: finished runs grouped by plan minus the swept keys, and the budget's expected accuracy.
#pragma once
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include <string>
#include <vector>

namespace dpu {

/// A run the frontier may use: its plan, its records and whether it ran to the end.
struct FrontierRun {
    std::string id; ///< how the caller names it (a folder, a queue number)
    Plan plan;
    std::vector<RoundRecord> records;
    bool finished = false;
};

/// Every finished run of a group at one (strategy, k), pooled over rounds and seeds.
struct FrontierPoint {
    std::string strategy;
    double k = 0;
    double meanAccuracy = 0;      ///< test accuracy (fraction) averaged over rounds and seeds
    double meanBytesPerRound = 0; ///< analytic bytes averaged over rounds (0 for rounds that did not deploy)
    int runs = 0;
    int rounds = 0;
};

/// Accuracy to expect at a k, interpolated between the points that bracket it.
struct Expectation {
    bool bracketed = false;
    double accuracy = 0; ///< fraction; valid when bracketed
    double kLow = 0;
    double kHigh = 0;
};

/// Runs whose plans agree on everything but the swept keys.
struct FrontierGroup {
    Plan plan;                       ///< the first run's plan (k and name are one run's)
    std::vector<std::string> runIds; ///< in the order given
    std::vector<FrontierPoint> points; ///< sorted by strategy, then k
};

/// Plan keys (JSON paths, as in plan files) a frontier always lets vary: the plan's name and
/// how it was executed (device, threads, whether bundles were kept, the signing key), which
/// change neither accuracy nor bytes.
const std::vector<std::string>& frontierIgnoredKeys();

/// The keys a k sweep varies: {"k"}.
std::vector<std::string> defaultSweptKeys();

/// Where two plans differ ("split.rounds: 2 vs 3"), ignoring frontierIgnoredKeys() and `swept`;
/// empty when they belong on one frontier.
std::vector<std::string> planDifferences(const Plan& a, const Plan& b, const std::vector<std::string>& swept);

/// Groups the finished runs (others are dropped: their means would favour early rounds) by plan
/// minus the swept keys, in order of each group's first run.
std::vector<FrontierGroup> frontierGroups(const std::vector<FrontierRun>& runs,
                                          const std::vector<std::string>& swept = defaultSweptKeys());

/// Index of the group whose plan agrees with `plan` but for the swept keys; -1 when none.
int frontierGroupOf(const std::vector<FrontierGroup>& groups, const Plan& plan,
                    const std::vector<std::string>& swept = defaultSweptKeys());

/// The points of one strategy within `points`.
std::vector<FrontierPoint> pointsOf(const std::vector<FrontierPoint>& points, const std::string& strategy);

/// Interpolates linearly in log k between the nearest points at or below and at or above k
/// (points of one strategy, any order); not bracketed when k lies outside their range.
Expectation expectedAccuracy(const std::vector<FrontierPoint>& points, double k);

} // namespace dpu
