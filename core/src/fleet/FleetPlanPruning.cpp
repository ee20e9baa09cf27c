// SPDX-License-Identifier: MIT
// The fleet planner's pruning: strategies another measured one dominates, round periods that cannot hold the freshness target.
#include "fleet/FleetPlanParts.h"
#include <cmath>

namespace dpu::fleetplan {
namespace {

enum class Order { Worse, Same, Neither };

/// Whether `a` is no better than `b` in every version and bundle (Worse: strictly somewhere,
/// Same: identical), released in the same rounds; Neither otherwise. Strategies with their own
/// catch-up sizes are never compared (their bundles are not the chain's).
Order compare(const FleetStrategy& a, const FleetStrategy& b, bool applyCounts, Coding codingA, Coding codingB)
{
    if (a.versions.size() != b.versions.size() || a.catchUpBytes || b.catchUpBytes || (applyCounts && codingA != codingB))
        return Order::Neither;
    bool strict = a.fullModelBytes > b.fullModelBytes || (applyCounts && a.deviceFileBytes > b.deviceFileBytes);
    if (a.fullModelBytes < b.fullModelBytes || (applyCounts && a.deviceFileBytes < b.deviceFileBytes))
        return Order::Neither;
    for (size_t v = 0; v < a.versions.size(); ++v) {
        const FleetVersion& x = a.versions[v];
        const FleetVersion& y = b.versions[v];
        if (x.round != y.round || x.testAccuracy > y.testAccuracy || (v > 0 && x.deltaBytes < y.deltaBytes))
            return Order::Neither;
        strict = strict || x.testAccuracy < y.testAccuracy || (v > 0 && x.deltaBytes > y.deltaBytes);
    }
    return strict ? Order::Worse : Order::Same;
}

} // namespace

std::vector<bool> dominatedStrategies(const std::vector<FleetPlanStrategy>& strategies, bool applyCounts,
                                      std::vector<std::string>& notes)
{
    std::vector<bool> out(strategies.size(), false);
    for (size_t a = 0; a < strategies.size(); ++a)
        for (size_t b = 0; b < strategies.size() && !out[a]; ++b) {
            if (a == b || strategies[b].estimated || out[b])
                continue;
            const Order o = compare(strategies[a].strategy, strategies[b].strategy, applyCounts, strategies[a].strategy.coding,
                                    strategies[b].strategy.coding);
            // Of two identical strategies the later one goes (an estimated one before a measured one).
            const bool goes = o == Order::Worse || (o == Order::Same && (strategies[a].estimated || b < a));
            if (!goes)
                continue;
            out[a] = true;
            notes.push_back(labelOf(strategies[a]) + (o == Order::Same ? ": the same versions and bundles as " : ": dominated by ")
                            + labelOf(strategies[b]) + " (released in the same rounds, no version more accurate, no bundle smaller)");
        }
    return out;
}

bool periodCannotBeFresh(double hours, const Deployment& d)
{
    const FleetTargets& t = d.targets;
    if (!t.freshShare || !t.freshDays || t.accuracyGapPoints || !d.availabilityTrace.empty())
        return false;
    if (hours <= *t.freshDays * 24 * (1 + 1e-12))
        return false;
    const double a = d.availability;
    const double bound = a + 5 * std::sqrt(a * (1 - a) / std::max(1, d.devices));
    return *t.freshShare > bound;
}

} // namespace dpu::fleetplan
