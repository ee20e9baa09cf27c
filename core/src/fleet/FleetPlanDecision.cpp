// SPDX-License-Identifier: MIT
// The fleet planner's decision: the Pareto set, the recommendation or the nearest candidate, and the cells nobody ran that would do better.
#include "fleet/FleetPlanParts.h"
#include <algorithm>
#include <cmath>

namespace dpu::fleetplan {
namespace {

constexpr double kTie = 1e-12;

/// Whether `a` ranks before `b`: more accurate on the devices, then less battery, fresher, less
/// airtime, then earlier in the search.
bool ranksBefore(const std::vector<FleetPlanCandidate>& c, size_t a, size_t b)
{
    const FleetPlanCandidate& x = c[a];
    const FleetPlanCandidate& y = c[b];
    if (std::abs(x.fleetAccuracy - y.fleetAccuracy) > kTie)
        return x.fleetAccuracy > y.fleetAccuracy;
    if (std::abs(x.batteryPerYear - y.batteryPerYear) > kTie)
        return x.batteryPerYear < y.batteryPerYear;
    if (std::abs(x.freshShare - y.freshShare) > kTie)
        return x.freshShare > y.freshShare;
    if (std::abs(x.airtimePerDaySeconds - y.airtimePerDaySeconds) > kTie)
        return x.airtimePerDaySeconds < y.airtimePerDaySeconds;
    return a < b;
}

/// Whether `b` dominates `a` (no worse on every axis, better on one), or is an exact copy of it on
/// the three axes that ranks before it (less airtime, or earlier).
bool dominates(const FleetPlanCandidate& b, const FleetPlanCandidate& a, bool earlier)
{
    const bool noWorse = b.fleetAccuracy >= a.fleetAccuracy - kTie && b.batteryPerYear <= a.batteryPerYear + kTie
                         && b.freshShare >= a.freshShare - kTie;
    const bool better = b.fleetAccuracy > a.fleetAccuracy + kTie || b.batteryPerYear < a.batteryPerYear - kTie
                        || b.freshShare > a.freshShare + kTie;
    return noWorse && (better || earlier);
}

/// Whether `a` is nearer to meeting the targets than `b` (less summed shortfall, then rank).
bool nearer(const std::vector<FleetPlanCandidate>& c, size_t a, size_t b)
{
    if (std::abs(c[a].shortfall - c[b].shortfall) > kTie)
        return c[a].shortfall < c[b].shortfall;
    return ranksBefore(c, a, b);
}

/// "k = 0.005, bundle.values = \"ternary\"".
std::string keysText(const std::vector<std::pair<std::string, std::string>>& keys)
{
    std::string out;
    for (const auto& [path, value] : keys)
        out += (out.empty() ? "" : ", ") + path + " = " + value;
    return out;
}

/// The estimated candidates better than every run: meeting the targets and more accurate than
/// the recommendation (or, when nothing measured meets them, nearer than the nearest); the best
/// candidate of each estimated strategy, best first, at most three.
void cellsToRun(FleetPlan& plan, const FleetPlanInput& input)
{
    const std::vector<FleetPlanCandidate>& c = plan.candidates;
    std::vector<size_t> best(input.strategies.size(), c.size());
    for (size_t i = 0; i < c.size(); ++i) {
        if (!c[i].estimated)
            continue;
        const bool wins = plan.recommended ? c[i].meetsTargets() && c[i].fleetAccuracy > c[*plan.recommended].fleetAccuracy + kTie
                          : plan.nearest   ? c[i].shortfall < c[*plan.nearest].shortfall - 1e-9
                                           : true;
        size_t& b = best[c[i].strategy];
        if (wins && (b == c.size() || (plan.recommended ? ranksBefore(c, i, b) : nearer(c, i, b))))
            b = i;
    }
    std::vector<size_t> chosen;
    for (size_t b : best)
        if (b < c.size())
            chosen.push_back(b);
    std::sort(chosen.begin(), chosen.end(), [&](size_t a, size_t b) { return plan.recommended ? ranksBefore(c, a, b) : nearer(c, a, b); });
    chosen.resize(std::min<size_t>(chosen.size(), 3));
    for (size_t i : chosen) {
        const FleetPlanStrategy& s = input.strategies[c[i].strategy];
        std::string why = "Run " + s.shownRun() + " again with " + keysText(s.cellKeys) + " (" + s.strategyName + "): estimated, with "
                          + fleetSettingText(c[i].setting) + ", a fleet accuracy of " + percent(c[i].fleetAccuracy) + ", "
                          + percent(c[i].freshShare) + " of the fleet fresh at worst, " + percent(c[i].batteryPerYear)
                          + " of a battery a year";
        why += c[i].meetsTargets() ? ", meeting every target" : ", missing " + c[i].misses.front().words;
        if (plan.recommended)
            why += " (the recommended run: " + percent(c[*plan.recommended].fleetAccuracy) + ")";
        if (!s.estimateNote.empty())
            why += ". " + s.estimateNote;
        plan.cellsToRun.push_back({i, s.run, s.cellKeys, why + ".", s.runName});
    }
}

} // namespace

std::vector<size_t> paretoSet(const std::vector<FleetPlanCandidate>& c)
{
    std::vector<size_t> out;
    for (size_t a = 0; a < c.size(); ++a) {
        if (c[a].estimated)
            continue;
        bool dominated = false;
        for (size_t b = 0; b < c.size() && !dominated; ++b)
            dominated = b != a && !c[b].estimated && dominates(c[b], c[a], ranksBefore(c, b, a));
        if (!dominated)
            out.push_back(a);
    }
    std::sort(out.begin(), out.end(), [&](size_t a, size_t b) { return ranksBefore(c, a, b); });
    return out;
}

void decide(FleetPlan& plan, const FleetPlanInput& input)
{
    const std::vector<FleetPlanCandidate>& c = plan.candidates;
    std::optional<size_t> best, nearest;
    for (size_t i = 0; i < c.size(); ++i) {
        if (c[i].estimated)
            continue;
        if (c[i].meetsTargets() && (!best || ranksBefore(c, i, *best)))
            best = i;
        if (!nearest || nearer(c, i, *nearest))
            nearest = i;
    }
    if (best) {
        plan.recommended = best;
        plan.why = recommendationWords(plan, *best, input.deployment.targets);
    } else if (nearest) {
        plan.nearest = nearest;
        plan.binding = c[*nearest].misses.front().target;
        std::string misses;
        for (const FleetTargetMiss& m : c[*nearest].misses)
            misses += (misses.empty() ? "" : "; ") + m.words;
        plan.why = "No candidate meets every target. The nearest is " + c[*nearest].label + ", with "
                   + fleetSettingText(c[*nearest].setting) + ": " + misses + ". The target that binds is " + plan.binding + ".";
        plan.moves = movesFor(plan, *nearest, input.deployment.targets);
    } else {
        plan.why = plan.cancelled ? "Stopped before any run's candidate was simulated." : "No run's candidate was simulated.";
    }
    cellsToRun(plan, input);
}

} // namespace dpu::fleetplan
